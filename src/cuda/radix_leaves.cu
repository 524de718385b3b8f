// Launcher of the radix leaves kernel (include/mpgpu/device/radix_leaves.cuh).
#include <algorithm>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/scoped_memory.cuh"
#include "cuda/result_words.cuh"
#include "mpgpu/device/radix_leaves.cuh"

namespace mpgpu::detail::cuda {

bool radix_leaves_to_text(ContextState& st, Stream s, char* out, limb_t* row, std::size_t row_size,
                          std::size_t slots, std::size_t pitch, std::size_t width, const device::LimbDivisor& chunk,
                          int digits, int base, const device::RadixAlphabet& alphabet) {
  use_device(st.device);
  order_after_context(st, s);  // operands may be in flight on the context's stream
  if (slots == 0) return true;
  ScopedDeviceMemory buffer(st, s, 16 + slots * width);  // the overflow word, then the text
  unsigned* overflow = buffer.as<unsigned>();
  char* text = buffer.as<char>() + 16;
  MPGPU_CUDA_CHECK(cudaMemsetAsync(overflow, 0, sizeof(unsigned), s));
  // 128 threads a block: a leaf is a long serial loop, so spread them over the SMs.
  const unsigned blocks = static_cast<unsigned>(std::clamp<std::size_t>((slots + 127) / 128, 1, 65536));
  device::radix_leaves_kernel<><<<blocks, 128, 0, s>>>(text, row, row_size, slots, pitch, width, chunk,
                                                       digits, static_cast<unsigned>(base), alphabet, overflow);
  MPGPU_CHECK_LAUNCH("radix_leaves_kernel");
  unsigned bad = 0;
  copy_to_host(st, s, &bad, overflow, sizeof bad);
  if (bad) return false;
  copy_to_host(st, s, out, text, slots * width);
  return true;
}

}  // namespace mpgpu::detail::cuda
