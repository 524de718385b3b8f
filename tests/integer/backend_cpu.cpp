// Selects the CPU (GMP) context for the shared Integer test bodies.
#include "mpgpu/context.hpp"

namespace mpgpu_test {
mpgpu::Backend test_backend() { return mpgpu::Backend::cpu; }
}  // namespace mpgpu_test
