// popcount (one kernel, device/popcount.cuh) and the delayed-carry sum of many integers.

#include <algorithm>
#include <optional>
#include <vector>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/contracts.hpp"
#include "cuda/result_words.cuh"
#include "cuda/scoped_memory.cuh"
#include "mpgpu/device/column_sum.cuh"
#include "mpgpu/device/popcount.cuh"
#include "mpgpu/limb/arith.cuh"

namespace mpgpu::detail::cuda {

std::uint64_t popcount(ContextState& st, Stream s, Operand a) {
  ResultWordsLease lease(st, s);
  if (a.size <= device::kPopcountOneBlockLimbs) {
    lease.arm_ready();
    device::popcount_kernel<<<1, device::kPopcountThreads, 0, s>>>(a.limbs, a.size, lease.words(), kSlotFound, true);
    MPGPU_CHECK_LAUNCH("popcount_kernel");
    return lease.wait_ready();
  }
  // At most one resident wave (8 blocks of 256 threads on each of the H100's
  // 132 SMs); each thread then strides over the limbs, 4 loads in flight.
  const std::size_t blocks =
      std::min<std::size_t>((a.size + device::kPopcountThreads - 1) / device::kPopcountThreads, 1056);
  device::popcount_kernel<<<static_cast<unsigned>(blocks), device::kPopcountThreads, 0, s>>>(
      a.limbs, a.size, lease.words(), kSlotFound, false);
  MPGPU_CHECK_LAUNCH("popcount_kernel");
  return lease.wait()[kSlotFound];
}

Deferred sum_abs(ContextState& st, Stream s, limb_t* r, const Operand* terms, std::size_t count) {
  contract::sum_abs(r, terms, count);
  use_device(st.device);
  order_after_context(st, s);  // operands may be in flight on the context's stream
  std::size_t width = 0;
  for (std::size_t j = 0; j < count; ++j) width = std::max(width, terms[j].size);
  if (width == 0) return nullptr;
  device::ColumnTerms pass{};
  pass.count = count;
  if (count <= device::ColumnTerms::kInline && width + 1 <= device::SmallSumPolicy::kLimbs) {
    // Few terms, a result of one block: column sums and carries in one
    // launch, no scratch: measured markedly faster a call than the two
    // kernels and their scratch (docs/tuning-history.md, "Sums of
    // integers").
    for (std::size_t j = 0; j < count; ++j) pass.inline_terms[j] = {terms[j].limbs, terms[j].size};
    ResultWordsLease lease(st, s);
    device::small_sum_kernel<<<1, device::SmallSumPolicy::kThreads, 0, s>>>(r, pass, width, lease.words());
    MPGPU_CHECK_LAUNCH("small_sum_kernel");
    return lease.defer();
  }
  // Few terms (products by columns, most sums) travel in the launch's
  // parameters; a copy to the device costs a transfer (and, without the
  // upload ring, a host wait for the stream).
  std::optional<ScopedDeviceMemory> spilled;
  if (count > device::ColumnTerms::kInline) {
    std::vector<device::ColumnTerm> host_terms(count);
    for (std::size_t j = 0; j < count; ++j) host_terms[j] = {terms[j].limbs, terms[j].size};
    spilled.emplace(st, s, count * sizeof(device::ColumnTerm));
    copy_to_device(st, s, spilled->p, host_terms.data(), count * sizeof(device::ColumnTerm));
    pass.spilled = spilled->as<device::ColumnTerm>();
  } else {
    for (std::size_t j = 0; j < count; ++j) pass.inline_terms[j] = {terms[j].limbs, terms[j].size};
  }
  ScopedDeviceMemory words(st, s, (2 * width + 1) * sizeof(limb_t));  // lo, then hi
  limb_t* const lo = words.as<limb_t>();
  limb_t* const hi = lo + width;
  device::column_sum_kernel<<<static_cast<unsigned>((width + 255) / 256), 256, 0, s>>>(lo, hi, pass, width);
  MPGPU_CHECK_LAUNCH("column_sum_kernel");
  // r = hi + lo; hi has width + 1 limbs (need not be normalized: the scan
  // add reports the size of what it writes).
  return add_abs(st, s, r, {hi, width + 1}, {lo, width});
}

}  // namespace mpgpu::detail::cuda
