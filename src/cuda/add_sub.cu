// Launchers of the one-pass scan add/sub (include/mpgpu/device/scan_add.cuh).
#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/contracts.hpp"
#include "cuda/epoch_tiles.hpp"
#include "cuda/result_words.cuh"
#include "mpgpu/device/scan_add.cuh"

namespace mpgpu::detail::cuda {

namespace {

using Policy = device::ScanAddPolicy;

/// Queues the scan add/sub of a and b into r as the last kernel of the
/// operation `lease` (a.size >= 1).
template <bool kSubtract>
void queue_scan_add(ContextState& st, Stream s, ResultWordsLease& lease, limb_t* r, Operand a, device::AddendB b,
                    bool order_by_tops) {
  const std::size_t tiles = (a.size + Policy::kTile - 1) / Policy::kTile;
  if (tiles > static_cast<std::size_t>(INT32_MAX))
    throw Overflow("mpgpu: add/sub of " + std::to_string(a.size) + " limbs exceeds the tile count limit");
  EpochTiles statuses(st, s, st.carry_tiles, tiles, sizeof(unsigned long long));
  const device::CarryTiles carry{static_cast<unsigned long long*>(statuses.words()), statuses.epoch()};
  MPGPU_CUDA_CHECK(device::launch_dependent(device::scan_add_kernel<kSubtract>, static_cast<unsigned>(tiles),
                                            Policy::kThreads, s, r, a.limbs, a.size, b, carry, lease.words(),
                                            order_by_tops, publish_early(st, s)));
}

template <bool kSubtract>
Deferred run_scan_add(ContextState& st, Stream s, limb_t* r, Operand a, device::AddendB b) {
  ResultWordsLease lease(st, s);
  queue_scan_add<kSubtract>(st, s, lease, r, a, b, false);
  return lease.defer();
}

}  // namespace

Deferred add_abs(ContextState& st, Stream s, limb_t* r, Operand a, Operand b) {
  contract::add_abs(r, a, b);
  return run_scan_add<false>(st, s, r, a, {b.limbs, b.size, 0});
}

Deferred add_abs_scalar(ContextState& st, Stream s, limb_t* r, Operand a, limb_t b) {
  contract::add_abs_scalar(r, a);
  return run_scan_add<false>(st, s, r, a, {nullptr, 1, b});
}

Deferred sub_abs(ContextState& st, Stream s, limb_t* r, Operand a, Operand b) {
  contract::sub_abs(r, a, b);
  return run_scan_add<true>(st, s, r, a, {b.limbs, b.size, 0});
}

Deferred sub_abs_scalar(ContextState& st, Stream s, limb_t* r, Operand a, limb_t b) {
  contract::sub_abs_scalar(r, a);
  return run_scan_add<true>(st, s, r, a, {nullptr, 1, b});
}

Deferred sub_abs_ordered(ContextState& st, Stream s, limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
  contract::sub_abs_ordered(r, a, b, n);
  ResultWordsLease lease(st, s);
  if (n <= Policy::kTile) {  // one block compares and subtracts: one launch
    device::scan_add_kernel<true, true><<<1, Policy::kThreads, 0, s>>>(r, a, n, {b, n, 0}, {nullptr, 0},
                                                                        lease.words(), false, false);
    MPGPU_CHECK_LAUNCH("scan_add_kernel (ordered in block)");
    return lease.defer();
  }
  // The order stays on the device: the top limbs give it, or the kernel's
  // blocks find it from the top down first (scan_add.cuh, order_by_tops).
  queue_scan_add<true>(st, s, lease, r, {a, n}, {b, n, 0}, true);
  return lease.defer();
}

}  // namespace mpgpu::detail::cuda
