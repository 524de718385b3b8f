// Launchers of the one-pass scan add/sub (include/mpgpu/device/scan_add.cuh).
#include <algorithm>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/words.cuh"
#include "mpgpu/device/limb_search.cuh"
#include "mpgpu/device/scan_add.cuh"

namespace mpgpu::detail::cuda {

namespace {

using Policy = device::ScanAddPolicy;

/// Tile statuses for a scan over `tiles` tiles. On the context's own stream
/// (operations there never overlap) they come from the context's buffer,
/// zeroed once and tagged with a new epoch per operation: no allocation and
/// no initialization launch. On other streams, a zeroed private buffer,
/// freed after the kernel (stream-ordered).
class TileStatuses {
 public:
  TileStatuses(ContextState& st, Stream s, std::size_t tiles) : st_(st), s_(s) {
    if (tiles <= 1) return;  // one tile needs no look-back
    const std::size_t bytes = tiles * sizeof(unsigned long long);
    if (s != st.stream) {
      private_ = allocate(st, s, bytes);
      MPGPU_CUDA_CHECK(cudaMemsetAsync(private_, 0, bytes, s));
      tiles_ = {static_cast<unsigned long long*>(private_), 1};
      return;
    }
    if (tiles > st.carry_tiles_count || st.carry_epoch == UINT32_MAX) {
      std::size_t count = std::max<std::size_t>(tiles, 2 * st.carry_tiles_count);
      if (tiles > st.carry_tiles_count) {
        void* fresh = allocate(st, s, count * sizeof(unsigned long long));
        deallocate(st, s, st.carry_tiles);
        st.carry_tiles = fresh;
        st.carry_tiles_count = count;
      }
      MPGPU_CUDA_CHECK(cudaMemsetAsync(st.carry_tiles, 0, st.carry_tiles_count * sizeof(unsigned long long), s));
      st.carry_epoch = 0;
    }
    tiles_ = {static_cast<unsigned long long*>(st.carry_tiles), ++st.carry_epoch};
  }
  TileStatuses(const TileStatuses&) = delete;
  TileStatuses& operator=(const TileStatuses&) = delete;
  ~TileStatuses() { deallocate(st_, s_, private_); }  // stream-ordered: after the kernel
  device::CarryTiles get() const { return tiles_; }

 private:
  ContextState& st_;
  Stream s_;
  void* private_ = nullptr;
  device::CarryTiles tiles_{nullptr, 0};
};

/// Queues the scan add/sub of a and b into r as the last kernel of the
/// operation `ow` (a.size >= 1).
template <bool kSubtract>
void queue_scan_add(ContextState& st, Stream s, OpWords& ow, limb_t* r, Operand a, device::AddendB b,
                    bool order_from_slot) {
  const std::size_t tiles = (a.size + Policy::kTile - 1) / Policy::kTile;
  if (tiles > static_cast<std::size_t>(INT32_MAX))
    throw Overflow("mpgpu: add/sub of " + std::to_string(a.size) + " limbs exceeds the tile count limit");
  TileStatuses statuses(st, s, tiles);
  device::scan_add_kernel<kSubtract><<<static_cast<unsigned>(tiles), Policy::kThreads, 0, s>>>(
      r, a.limbs, a.size, b, statuses.get(), ow.words(), order_from_slot);
  MPGPU_CHECK_LAUNCH("scan_add_kernel");
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
  if (n <= Policy::kTile) {  // one block compares and subtracts: one launch
    device::scan_add_kernel<true, true><<<1, Policy::kThreads, 0, s>>>(r, a, n, {b, n, 0}, {nullptr, 0},
                                                                        ow.words(), false);
    MPGPU_CHECK_LAUNCH("scan_add_kernel (ordered in block)");
    return ow.defer();
  }
  // The comparison stays on the device: the subtraction reads its key.
  MPGPU_CUDA_CHECK(device::launch_limb_search<true>(device::DifferingLimb{a, b}, n, ow.words(), kSlotOrder,
                                                    false, s));
  queue_scan_add<true>(st, s, ow, r, {a, n}, {b, n, 0}, true);
  return ow.defer();
}

}  // namespace mpgpu::detail::cuda
