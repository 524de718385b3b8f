// Selects CUDA device 0 for the shared Integer test bodies.
#include <optional>
#include <string>

#include "mpgpu/context.hpp"

namespace mpgpu_test {
mpgpu::Backend test_backend() { return mpgpu::Backend::cuda; }
std::optional<mpgpu::Context> test_context(std::string& why) {
  if (mpgpu::Context::cuda_device_count() == 0) {
    why = "no CUDA device";
    return std::nullopt;
  }
  return mpgpu::Context::cuda(0);
}
}  // namespace mpgpu_test
