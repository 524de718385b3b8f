// Selects a context split over three CPU parts for the shared Batch test
// bodies (batch_split_test): the split of batches into parts, their
// conversions and the dispatch of every operation part by part, run where
// there is no GPU. Three parts, so that the tests' counts (powers of two,
// and the small counts of split.cpp) leave unequal parts and empty ones.
#include <optional>
#include <string>

#include "mpgpu/context.hpp"

namespace mpgpu_test {
mpgpu::Backend test_backend() { return mpgpu::Backend::cpu; }
std::optional<mpgpu::Context> test_context(std::string&) {
  const mpgpu::TuningParams params = mpgpu::TuningParams::from_environment();
  return mpgpu::detail::ContextAccess::split(
      {mpgpu::Context::cpu(params), mpgpu::Context::cpu(params), mpgpu::Context::cpu(params)}, params);
}
}  // namespace mpgpu_test
