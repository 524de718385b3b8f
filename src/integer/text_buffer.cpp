// See text_buffer.hpp.
#include "text_buffer.hpp"

namespace mpgpu::detail {

std::string make_text(std::size_t n, const std::function<void(char*)>& write) {
  std::string out;
#if defined(__cpp_lib_string_resize_and_overwrite)
  // reserve() first: it allocates without writing, and libstdc++ 12's
  // resize_and_overwrite sets a wrong size when it has to grow the string
  // itself (20 characters asked, 30 kept).
  out.reserve(n);
  out.resize_and_overwrite(n, [&](char* data, std::size_t size) {
    write(data);
    return size;
  });
#else
  out.resize(n);
  write(out.data());
#endif
  return out;
}

}  // namespace mpgpu::detail
