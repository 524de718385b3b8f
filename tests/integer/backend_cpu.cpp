// Selects the CPU (GMP) context for the shared Integer test bodies.
#include <optional>
#include <string>

#include "mpgpu/context.hpp"

namespace mpgpu_test {
mpgpu::Backend test_backend() { return mpgpu::Backend::cpu; }
std::optional<mpgpu::Context> test_context(std::string&) { return mpgpu::Context::cpu(); }
}  // namespace mpgpu_test
