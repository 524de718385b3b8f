// Selects every CUDA device as one context ("cuda:all") for the shared Batch
// test bodies (batch_ops_multi_gpu_test): skipped with fewer than two
// devices, where "cuda:all" would be an ordinary context.
#include <optional>
#include <string>

#include "mpgpu/context.hpp"

namespace mpgpu_test {
mpgpu::Backend test_backend() { return mpgpu::Backend::cuda; }
std::optional<mpgpu::Context> test_context(std::string& why) {
  const int count = mpgpu::Context::cuda_device_count();
  if (count < 2) {
    why = "fewer than 2 CUDA devices (" + std::to_string(count) + ")";
    return std::nullopt;
  }
  return mpgpu::Context::from_string("cuda:all");
}
}  // namespace mpgpu_test
