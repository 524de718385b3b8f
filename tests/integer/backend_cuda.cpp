// Selects CUDA device 0 for the shared Integer test bodies.
#include "mpgpu/context.hpp"

namespace mpgpu_test {
mpgpu::Backend test_backend() { return mpgpu::Backend::cuda; }
}  // namespace mpgpu_test
