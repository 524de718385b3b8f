// Device-wide addition and subtraction of long limb vectors in one pass over
// memory: each block loads a tile, forms limb sums and carry statuses, scans
// the statuses across each warp (shuffles) and across the block's warps,
// takes the tile's carry-in from the 32 limbs just before it (or, after a
// run of 32+ propagating limbs, by decoupled look-back over epoch-tagged
// tile statuses, carry_tiles.cuh), then adds the carries in and stores. No
// carry buffer, no second pass.
//
// Bytes moved: read a and b once, write r once (3n limbs), the floor; the
// peek adds 512 bytes per 16 KiB tile, read from L2.
#pragma once

#include "mpgpu/device/carry_tiles.cuh"
#include "mpgpu/device/dependent_launch.cuh"
#include "mpgpu/limb/arith.cuh"
#include "mpgpu/device/limb_pairs.cuh"
#include "mpgpu/device/result_words.cuh"
#include "mpgpu/limb/carry_status.cuh"

namespace mpgpu::device {

/// Tuning of the scan add. A warp owns kRows rows of 64 limbs; in each row
/// lane l holds limbs 2l and 2l+1, so every load and store is a 16-byte
/// access and a warp instruction moves 512 contiguous bytes.
struct ScanAddPolicy {
  static constexpr int kThreads = 256;
  static constexpr int kRows = 2;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kWarpLimbs = kRows * 64;
  static constexpr int kTile = kWarps * kWarpLimbs;  // 1024 limbs
  // Full occupancy (<= 32 registers a thread): 2 rows a warp at 8 blocks
  // an SM measured faster than 4 rows (whose loads sit in 40 registers) at
  // 6 or 4 blocks (docs/tuning-history.md, "Device streaming kernels").
  static constexpr int kMinBlocksPerSM = 8;
};

/// Operand b of an addition: limbs in device memory, or one scalar limb
/// (when `limbs` is nullptr), zero beyond `size`.
struct AddendB {
  const limb_t* limbs;
  std::size_t size;
  limb_t scalar;
};

/// Inclusive scan of carry statuses across a warp (lane order = limb order).
__device__ __forceinline__ std::uint32_t warp_carry_scan(std::uint32_t v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const std::uint32_t lower = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v = limb::CarryCombine{}(lower, v);
  }
  return v;
}

/// Spin pause between polls of a predecessor's status.
struct ShortPause {
  __device__ void operator()() const { __nanosleep(20); }
};

/// Carry status into tile `tile` (> 0): combines the statuses of the tiles
/// before it, walking back 32 tiles at a time (one per lane) until the
/// nearest INCLUSIVE one. Called by a whole warp; the result is uniform.
__device__ __forceinline__ std::uint32_t look_back_carry(const CarryTiles& state, int tile, int lane) {
  constexpr limb::CarryCombine combine{};
  std::uint32_t later = limb::carry_propagate;  // combined statuses of the tiles already walked
  for (int window_end = tile - 1;; window_end -= 32) {
    const int idx = window_end - lane;  // lane 0: the nearest tile
    unsigned kind;
    std::uint32_t value;
    // Indices below 0 read "out of bounds": nothing carries in from there.
    state.wait_for_valid(idx, kind, value, ShortPause{});
    const bool stop = kind != CarryTiles::kPartial;
    if (idx < 0) value = limb::carry_kill;
    const unsigned stops = __ballot_sync(0xffffffffu, stop);
    const int last = stops ? __ffs(stops) - 1 : 31;  // lanes 0..last matter
    // Fold lanes last..0 (tile order ascending), then the tiles walked before.
    std::uint32_t acc = __shfl_sync(0xffffffffu, value, last);
    for (int l = last - 1; l >= 0; --l) acc = combine(acc, __shfl_sync(0xffffffffu, value, l));
    later = combine(acc, later);
    if (stops) return later;
  }
}

/// The order of a and b, of equal sizes an and equal top limbs, as
/// limb_search.cuh's key: 2 (i + 1) + (a[i] > b[i]) for the highest limb i
/// where they differ, 0 when they are equal; it is also left in kSlotOrder.
/// Blocks claim tiles from the top down (a count in kSlotLowA), compare
/// them, atomicMax the key into kSlotOrder and count the tile done
/// (kSlotLowB); they stop claiming once a key is there. Every block then
/// waits until each claimed tile is done: the highest difference is then
/// known, since every tile above it was claimed before it. A block waits
/// only for tiles that running blocks hold, so any grid makes progress.
/// Both counts end in the slots and are cleared when the operation
/// publishes. Inlined: at the kernel's 32 registers ptxas spills 4 bytes
/// (28 for a call). Called by every thread of the block.
template <class Policy>
__device__ __forceinline__ unsigned long long order_from_top(const limb_t* a, const limb_t* b, std::size_t an,
                                                          ResultWords words) {
  __shared__ unsigned long long claimed;
  const std::size_t tiles = (an + Policy::kTile - 1) / Policy::kTile;
  volatile unsigned long long* order = &words.slot[kSlotOrder];
  volatile unsigned long long* claims = &words.slot[kSlotLowA];
  volatile unsigned long long* done = &words.slot[kSlotLowB];
  for (;;) {
    if (threadIdx.x == 0)
      claimed = *order != 0 ? tiles : atomicAdd(const_cast<unsigned long long*>(claims), 1ull);
    __syncthreads();
    const unsigned long long c = claimed;
    __syncthreads();  // everyone has read `claimed` before thread 0 writes it again
    if (c >= tiles) break;
    const std::size_t begin = (tiles - 1 - c) * Policy::kTile;
    const std::size_t end = begin + Policy::kTile < an ? begin + Policy::kTile : an;
    unsigned long long key = 0;
    for (std::size_t i = begin + threadIdx.x; i < end; i += Policy::kThreads) {
      const limb_t x = a[i], y = b[i];
      if (x != y) key = 2ull * (i + 1) + (x > y ? 1 : 0);  // i rises: the last one is the highest
    }
    key = block_max<Policy::kWarps>(key);
    if (threadIdx.x == 0) {
      if (key) atomicMax(const_cast<unsigned long long*>(order), key);
      __threadfence();  // the key before the count that makes it final
      atomicAdd(const_cast<unsigned long long*>(done), 1ull);
    }
  }
  if (threadIdx.x == 0) {
    // `done` first: if no claim came after that read, every tile claimed
    // by then was done by then.
    for (;;) {
      const unsigned long long finished = *done;
      const unsigned long long taken = *claims;
      if (finished >= (taken < tiles ? taken : tiles)) break;
      __nanosleep(64);
    }
    __threadfence();
    claimed = *order;
  }
  __syncthreads();
  return claimed;
}

/// r[0..an) = a +/- b, and for addition r[an] = carry out. Requires an >= 1,
/// b.size <= an, and for subtraction |a| >= |b| -- or, with
/// `order_by_tops`, a and b of equal size, the order unknown (below).
/// Publishes 1 + index of the highest nonzero limb of r as kSlotSize.
/// kOrderInBlock (one tile only, a and b of equal size an <= kTile): the
/// block compares a and b itself, publishes the comparison key as
/// kSlotOrder (limb_search.cuh's encoding) and subtracts the smaller: a
/// small subtraction is then one launch.
///
/// `order_by_tops` (a subtraction of equal sizes): when the top limbs differ
/// they give the order, the smaller is subtracted from the larger and the
/// key 2 an + (a > b) goes to kSlotOrder. When they are equal the blocks
/// first find the order together, from the top down (order_from_top: it
/// reads the operands down to their highest difference, all of them when
/// they are equal), then subtract the smaller. So every subtraction is one
/// kernel, and the common case (tops differ) costs the two top limbs' reads.
///
/// With `publish_early` (only on the context's stream: ResultWords::
/// publish_now), when the top limbs decide the result's size, the thread
/// of limb an - 1 publishes it and no block reduces its highest limb or
/// counts its arrival, a measurable share of a large addition
/// (docs/tuning-history.md, "Device streaming kernels"). The tops decide it for an addition whose a is normalized (size
/// an + carry out), and for a subtraction whose top limbs differ by 2 or
/// more (size an: a borrow takes at most 1). Every block reads the same
/// two limbs, so the choice is uniform.
/// Launched as a dependent grid (dependent_launch.cuh).
template <bool kSubtract, bool kOrderInBlock = false, class Policy = ScanAddPolicy>
__global__ void __launch_bounds__(Policy::kThreads, Policy::kMinBlocksPerSM)
    scan_add_kernel(limb_t* __restrict__ r, const limb_t* a, std::size_t an, AddendB b,
                    CarryTiles tile_state, ResultWords words, bool order_by_tops, bool publish_early) {
  static_assert(Policy::kTile >= 32, "the peek reads the 32 limbs before a tile");
  __shared__ std::uint32_t warp_status[Policy::kWarps];
  constexpr limb::CarryCombine combine{};
  wait_for_prior_grids();

  if constexpr (kOrderInBlock) {
    static_assert(kSubtract, "ordering is for subtractions");
    __shared__ unsigned long long block_key;
    if (threadIdx.x == 0) block_key = 0;
    __syncthreads();
    unsigned long long key = 0;  // 2 (i + 1) + (a[i] > b[i]) for the highest differing limb i
    for (std::size_t i = threadIdx.x; i < an; i += Policy::kThreads) {
      const limb_t x = a[i], y = b.limbs[i];
      if (x != y) key = 2ull * (i + 1) + (x > y ? 1 : 0);
    }
    if (key) atomicMax(&block_key, key);
    __syncthreads();
    key = block_key;
    if (threadIdx.x == 0 && key) words.slot[kSlotOrder] = key;  // the only block
    order_by_tops = false;
    if (key != 0 && (key & 1) == 0) {  // |a| < |b|: compute b - a
      const limb_t* t = a;
      a = b.limbs;
      b.limbs = t;
    }
  }
  bool early = false, a_above = false;  // a_above: a[an - 1] > b[an - 1]
  bool tops_equal = false;
  if (!kOrderInBlock && (publish_early || order_by_tops)) {
    const limb_t x = a[an - 1];
    const limb_t y = b.limbs ? (an - 1 < b.size ? b.limbs[an - 1] : 0) : (an == 1 ? b.scalar : 0);
    a_above = x > y;
    tops_equal = x == y;
    if (!kSubtract) early = x != 0;
    else if (!order_by_tops) early = a_above && x - y >= 2;
    else early = (a_above ? x - y : y - x) >= 2;
    early = early && publish_early;
  }
  bool b_above = kSubtract && order_by_tops && !tops_equal && !a_above;
  if (kSubtract && order_by_tops && tops_equal) {
    const unsigned long long key = order_from_top<Policy>(a, b.limbs, an, words);
    b_above = key != 0 && (key & 1) == 0;
  }
  if (b_above) {  // |a| < |b|: compute b - a (equal sizes)
    const limb_t* t = a;
    a = b.limbs;
    b.limbs = t;
  }
  const int tile = blockIdx.x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t warp_base = std::size_t(tile) * Policy::kTile + std::size_t(warp) * Policy::kWarpLimbs;
  const bool a_vec = aligned16(a);
  const bool b_vec = b.limbs && aligned16(b.limbs);
  const bool r_vec = aligned16(r);

  // Warp 0 peeks at the 32 limbs before the tile: the carry into the tile is
  // the status of the last of them that does not propagate, so for all but
  // adversarial data (32 limbs of all-ones sums) the tile needs nothing from
  // other blocks and never waits for them.
  std::uint32_t peek_status = limb::carry_propagate;
  if (warp == 0 && tile > 0) {
    const std::size_t j = std::size_t(tile) * Policy::kTile - 32 + lane;  // >= 0: tiles hold >= 32 limbs
    const limb_t x = a[j];
    const limb_t y = b.limbs ? (j < b.size ? b.limbs[j] : 0) : (j == 0 ? b.scalar : 0);
    peek_status = kSubtract ? limb::sub_status(x, y, x - y) : limb::add_status(x, x + y);
  }

  // Load, form wrapped sums and per-limb statuses, fold each lane's pair.
  // Statuses are 2-bit fields packed in one word (registers are the budget).
  limb_t s[Policy::kRows][2];
  std::uint32_t st_bits = 0, pair[Policy::kRows];
#pragma unroll
  for (int k = 0; k < Policy::kRows; ++k) {
    const std::size_t i = warp_base + k * 64 + 2 * lane;
    limb_t x[2], y[2];
    load_pair(a, i, an, a_vec, x[0], x[1]);
    if (b.limbs) {
      load_pair(b.limbs, i, b.size, b_vec, y[0], y[1]);
    } else {
      y[0] = i == 0 ? b.scalar : 0;
      y[1] = 0;
    }
    std::uint32_t st[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      if constexpr (kSubtract) {
        s[k][h] = x[h] - y[h];
        st[h] = limb::sub_status(x[h], y[h], s[k][h]);
      } else {
        s[k][h] = x[h] + y[h];
        st[h] = limb::add_status(x[h], s[k][h]);
      }
      st_bits |= st[h] << (2 * (2 * k + h));
    }
    pair[k] = combine(st[0], st[1]);
  }

  // Scan each row across the warp; carry_propagate is the identity.
  std::uint32_t excl_bits = 0, total_bits = 0;
  std::uint32_t warp_total = limb::carry_propagate;
#pragma unroll
  for (int k = 0; k < Policy::kRows; ++k) {
    const std::uint32_t incl = warp_carry_scan(pair[k], lane);
    const std::uint32_t row_total = __shfl_sync(0xffffffffu, incl, 31);
    const std::uint32_t e = __shfl_up_sync(0xffffffffu, incl, 1);
    excl_bits |= (lane == 0 ? std::uint32_t(limb::carry_propagate) : e) << (2 * k);
    total_bits |= row_total << (2 * k);
    warp_total = combine(warp_total, row_total);
  }
  if (lane == 0) warp_status[warp] = warp_total;
  __syncthreads();

  // Warp 0: scan the warps' totals and find the tile's carry-in status: from
  // the peek when it decided it, else by decoupled look-back. Every tile
  // publishes INCLUSIVE as soon as it knows it (a tile whose own total is not
  // `propagate` knows it without any prefix), so look-backs stay short.
  if (warp == 0) {
    const std::uint32_t mine = lane < Policy::kWarps ? warp_status[lane] : std::uint32_t(limb::carry_propagate);
    const std::uint32_t incl = warp_carry_scan(mine, lane);
    const std::uint32_t block_total = __shfl_sync(0xffffffffu, incl, Policy::kWarps - 1);
    const std::uint32_t e = __shfl_up_sync(0xffffffffu, incl, 1);
    const std::uint32_t warp_excl = lane == 0 ? std::uint32_t(limb::carry_propagate) : e;
    std::uint32_t tile_prefix = limb::carry_kill;  // nothing carries into limb 0
    if (gridDim.x > 1) {
      const unsigned deciding = __ballot_sync(0xffffffffu, peek_status != limb::carry_propagate);
      if (tile > 0 && deciding) tile_prefix = __shfl_sync(0xffffffffu, peek_status, 31 - __clz(deciding));
      const bool known = tile == 0 || deciding || block_total != limb::carry_propagate;
      if (lane == 0) {
        if (tile == 0 || deciding) tile_state.set_inclusive(tile, combine(tile_prefix, block_total));
        else if (known) tile_state.set_inclusive(tile, block_total);
        else tile_state.set_partial(tile, block_total);
      }
      if (tile > 0 && !deciding) {
        tile_prefix = look_back_carry(tile_state, tile, lane);
        if (!known && lane == 0) tile_state.set_inclusive(tile, combine(tile_prefix, block_total));
      }
    }
    if (lane < Policy::kWarps) warp_status[lane] = combine(tile_prefix, warp_excl);
  }
  __syncthreads();

  // Add the carries in, store, and note the highest nonzero limb.
  std::uint32_t row_in = warp_status[warp];
  unsigned long long top = 0;
#pragma unroll
  for (int k = 0; k < Policy::kRows; ++k) {
    const std::size_t i = warp_base + k * 64 + 2 * lane;
    unsigned carry = combine(row_in, (excl_bits >> (2 * k)) & 3) == limb::carry_generate;
    limb_t v[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      v[h] = kSubtract ? s[k][h] - carry : s[k][h] + carry;
      const std::uint32_t st = (st_bits >> (2 * (2 * k + h))) & 3;
      carry = st == limb::carry_generate || (st == limb::carry_propagate && carry);
      if (v[h] != 0 && i + h < an) top = i + h + 1;
      if (!kSubtract && i + h == an - 1) {  // the carry out of the whole number
        r[an] = carry;
        if (carry) top = an + 1;
      }
    }
    store_pair(r, i, an, r_vec, v[0], v[1]);
    row_in = combine(row_in, (total_bits >> (2 * k)) & 3);
  }
  allow_dependent_grids();
  if (early) {
    // The thread of limb an - 1 knows the size: its `top`, an + carry out
    // for an addition (a[an - 1] != 0), an for a subtraction (r[an - 1] >= 1).
    if (top >= an) words.publish_now(top, kSubtract && order_by_tops ? 2ull * an + a_above : 0);
    return;
  }
  if (kSubtract && order_by_tops && !tops_equal && threadIdx.x == 0 && tile == 0)
    atomicMax(&words.slot[kSlotOrder], 2ull * an + a_above);
  block_max_into<Policy::kWarps>(top, &words.slot[kSlotSize]);
  words.publish_when_last();
}

}  // namespace mpgpu::device
