// Device-wide addition and subtraction of long limb vectors in one pass over
// memory: each block loads a tile, forms limb sums and carry statuses, scans
// the statuses across the block (cub::BlockScan) and across tiles by
// decoupled look-back (cub::TilePrefixCallbackOp over cub::ScanTileState),
// then adds the carries in and stores. No carry buffer, no second pass.
//
// Bytes moved: read a and b once, write r once (3n limbs), the floor.
#pragma once

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>

#include "mpgpu/limb/arith.cuh"
#include "mpgpu/device/result_words.cuh"
#include "mpgpu/limb/carry_status.cuh"

namespace mpgpu::device {

/// Tuning of the scan add: a tile is kThreads x kItems limbs.
struct ScanAddPolicy {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 8;  // 64 bytes per operand per thread: four 16-byte loads
  static constexpr int kTile = kThreads * kItems;
};

using CarryTileState = cub::ScanTileState<std::uint32_t>;

/// Operand b of an addition: limbs in device memory, or one scalar limb
/// (when `limbs` is nullptr), zero beyond `size`.
struct AddendB {
  const limb_t* limbs;
  std::size_t size;
  limb_t scalar;
};

/// Marks every tile's status invalid before a look-back scan.
template <class TileState>
__global__ void init_tile_state(TileState state, int num_tiles) {
  state.InitializeStatus(num_tiles);
}

/// r[0..an) = a +/- b, and for addition r[an] = carry out. Requires an >= 1,
/// b.size <= an, and for subtraction |a| >= |b| -- or, with
/// `order_from_slot`, a and b of equal size ordered by the comparison key a
/// preceding search left in words.slots[kSlotOrder] (a < b: compute b - a).
/// Publishes 1 + index of the highest nonzero limb of r as kSlotSize.
template <bool kSubtract, class Policy = ScanAddPolicy>
__global__ void __launch_bounds__(Policy::kThreads)
    scan_add_kernel(limb_t* __restrict__ r, const limb_t* a, std::size_t an, AddendB b,
                    CarryTileState tile_state, ResultWords words, bool order_from_slot) {
  using BlockScan = cub::BlockScan<std::uint32_t, Policy::kThreads>;
  using BlockReduce = cub::BlockReduce<unsigned long long, Policy::kThreads>;
  using Prefix = cub::TilePrefixCallbackOp<std::uint32_t, limb::CarryCombine, CarryTileState>;
  __shared__ union {
    typename BlockScan::TempStorage scan;
    typename BlockReduce::TempStorage reduce;
  } temp;
  __shared__ typename Prefix::TempStorage prefix_temp;

  if (order_from_slot) {
    const unsigned long long key = words.slots[kSlotOrder];
    if (key != 0 && (key & 1) == 0) {  // |a| < |b|: swap (equal sizes)
      const limb_t* t = a;
      a = b.limbs;
      b.limbs = t;
    }
  }
  const int tile = blockIdx.x;
  const std::size_t first = std::size_t(tile) * Policy::kTile + std::size_t(threadIdx.x) * Policy::kItems;
  limb_t x[Policy::kItems], y[Policy::kItems];

  // Load a blocked run of kItems limbs per thread (16-byte loads when whole
  // and aligned; the pool's allocations are 256-byte aligned).
  const bool whole = first + Policy::kItems <= an;
  if (whole && (reinterpret_cast<std::uintptr_t>(a) & 15) == 0) {
#pragma unroll
    for (int j = 0; j < Policy::kItems; j += 2) {
      ulonglong2 v = *reinterpret_cast<const ulonglong2*>(a + first + j);
      x[j] = v.x;
      x[j + 1] = v.y;
    }
  } else {
#pragma unroll
    for (int j = 0; j < Policy::kItems; ++j) x[j] = first + j < an ? a[first + j] : 0;
  }
  if (b.limbs && first + Policy::kItems <= b.size && (reinterpret_cast<std::uintptr_t>(b.limbs) & 15) == 0) {
#pragma unroll
    for (int j = 0; j < Policy::kItems; j += 2) {
      ulonglong2 v = *reinterpret_cast<const ulonglong2*>(b.limbs + first + j);
      y[j] = v.x;
      y[j + 1] = v.y;
    }
  } else {
#pragma unroll
    for (int j = 0; j < Policy::kItems; ++j) {
      const std::size_t i = first + j;
      y[j] = i < b.size ? (b.limbs ? b.limbs[i] : (i == 0 ? b.scalar : 0)) : 0;
    }
  }

  // Wrapped sums and their carry statuses; fold them into one per thread.
  std::uint32_t status[Policy::kItems];
  // propagate is the identity of CarryCombine: a thread whose limbs all
  // propagate passes its incoming carry through.
  std::uint32_t thread_status = limb::carry_propagate;
#pragma unroll
  for (int j = 0; j < Policy::kItems; ++j) {
    if constexpr (kSubtract) {
      const limb_t d = x[j] - y[j];
      status[j] = limb::sub_status(x[j], y[j], d);
      x[j] = d;
    } else {
      const limb_t s = x[j] + y[j];
      status[j] = limb::add_status(x[j], s);
      x[j] = s;
    }
    thread_status = limb::CarryCombine{}(thread_status, status[j]);
  }

  // Carry into this thread: block scan, seeded with the tiles before it.
  std::uint32_t carry_in_status;
  if (gridDim.x == 1) {
    BlockScan(temp.scan).ExclusiveScan(thread_status, carry_in_status, limb::carry_kill, limb::CarryCombine{});
  } else if (tile == 0) {
    std::uint32_t aggregate;
    BlockScan(temp.scan).ExclusiveScan(thread_status, carry_in_status, limb::carry_kill, limb::CarryCombine{},
                                       aggregate);
    if (threadIdx.x == 0) tile_state.SetInclusive(0, aggregate);
  } else {
    Prefix prefix(tile_state, prefix_temp, limb::CarryCombine{}, tile);
    BlockScan(temp.scan).ExclusiveScan(thread_status, carry_in_status, limb::CarryCombine{}, prefix);
  }
  __syncthreads();  // temp.scan is reused by the reduction below

  unsigned carry = carry_in_status == limb::carry_generate;
  unsigned long long top = 0;  // 1 + highest nonzero index written by this thread
#pragma unroll
  for (int j = 0; j < Policy::kItems; ++j) {
    const limb_t v = kSubtract ? x[j] - carry : x[j] + carry;
    carry = status[j] == limb::carry_generate || (status[j] == limb::carry_propagate && carry);
    x[j] = v;
    if (v != 0 && first + j < an) top = first + j + 1;
  }
  if (whole && (reinterpret_cast<std::uintptr_t>(r) & 15) == 0) {
#pragma unroll
    for (int j = 0; j < Policy::kItems; j += 2)
      *reinterpret_cast<ulonglong2*>(r + first + j) = make_ulonglong2(x[j], x[j + 1]);
  } else {
#pragma unroll
    for (int j = 0; j < Policy::kItems; ++j)
      if (first + j < an) r[first + j] = x[j];
  }
  // The thread that holds limb an-1 knows the carry out of the whole number.
  if (!kSubtract && first <= an - 1 && an - 1 < first + Policy::kItems) {
    // Recompute the carry out of limb an-1 from its status and its carry in.
    unsigned c = carry_in_status == limb::carry_generate;
    for (int j = 0; j < Policy::kItems && first + j < an; ++j)
      c = status[j] == limb::carry_generate || (status[j] == limb::carry_propagate && c);
    r[an] = c;
    if (c) top = an + 1;
  }
  const unsigned long long tile_top = BlockReduce(temp.reduce).Reduce(top, ::cuda::maximum<>{});
  if (threadIdx.x == 0 && tile_top) atomicMax(&words.slots[kSlotSize], tile_top);
  words.publish_when_last();
}

}  // namespace mpgpu::device
