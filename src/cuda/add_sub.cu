// Launchers of the one-pass scan add/sub (include/mpgpu/device/scan_add.cuh).
#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/words.cuh"
#include "mpgpu/device/limb_search.cuh"
#include "mpgpu/device/scan_add.cuh"

namespace mpgpu::detail::cuda {

namespace {

using Policy = device::ScanAddPolicy;

/// Queues the scan add/sub of a and b into r as the last kernel of the
/// operation `ow` (a.size >= 1).
template <bool kSubtract>
void queue_scan_add(ContextState& st, Stream s, OpWords& ow, limb_t* r, Operand a, device::AddendB b,
                    bool order_from_slot) {
  const std::size_t tiles = (a.size + Policy::kTile - 1) / Policy::kTile;
  if (tiles > static_cast<std::size_t>(INT32_MAX))
    throw Overflow("mpgpu: add/sub of " + std::to_string(a.size) + " limbs exceeds the tile count limit");
  device::CarryTileState tile_state;
  void* tile_storage = nullptr;
  if (tiles > 1) {  // one tile needs no look-back, hence no tile state
    std::size_t bytes = 0;
    MPGPU_CUDA_CHECK(device::CarryTileState::AllocationSize(static_cast<int>(tiles), bytes));
    tile_storage = allocate(st, s, bytes);
    MPGPU_CUDA_CHECK(tile_state.Init(static_cast<int>(tiles), tile_storage, bytes));
    const int init_threads = 256;
    device::init_tile_state<<<static_cast<unsigned>((tiles + init_threads - 1) / init_threads), init_threads, 0,
                              s>>>(tile_state, static_cast<int>(tiles));
    MPGPU_CHECK_LAUNCH("init_tile_state");
  }
  device::scan_add_kernel<kSubtract><<<static_cast<unsigned>(tiles), Policy::kThreads, 0, s>>>(
      r, a.limbs, a.size, b, tile_state, ow.words(), order_from_slot);
  MPGPU_CHECK_LAUNCH("scan_add_kernel");
  deallocate(st, s, tile_storage);  // stream-ordered: after the kernel
}

template <bool kSubtract>
Pending run_scan_add(ContextState& st, Stream s, limb_t* r, Operand a, device::AddendB b) {
  OpWords ow(st, s);
  queue_scan_add<kSubtract>(st, s, ow, r, a, b, false);
  return ow.defer();
}

}  // namespace

Pending add_abs(ContextState& st, Stream s, limb_t* r, Operand a, Operand b) {
  return run_scan_add<false>(st, s, r, a, {b.limbs, b.size, 0});
}

Pending add_abs_scalar(ContextState& st, Stream s, limb_t* r, Operand a, limb_t b) {
  return run_scan_add<false>(st, s, r, a, {nullptr, 1, b});
}

Pending sub_abs(ContextState& st, Stream s, limb_t* r, Operand a, Operand b) {
  return run_scan_add<true>(st, s, r, a, {b.limbs, b.size, 0});
}

Pending sub_abs_scalar(ContextState& st, Stream s, limb_t* r, Operand a, limb_t b) {
  return run_scan_add<true>(st, s, r, a, {nullptr, 1, b});
}

Pending sub_abs_ordered(ContextState& st, Stream s, limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
  OpWords ow(st, s);
  // The comparison stays on the device: the subtraction reads its key.
  MPGPU_CUDA_CHECK(device::launch_limb_search<true>(device::DifferingLimb{a, b}, n, ow.words(), kSlotOrder,
                                                    false, s));
  queue_scan_add<true>(st, s, ow, r, {a, n}, {b, n, 0}, true);
  return ow.defer();
}

}  // namespace mpgpu::detail::cuda
