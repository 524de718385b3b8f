// Device-wide addition and subtraction of long limb vectors in one pass over
// memory: each block loads a tile, forms limb sums and carry statuses, scans
// the statuses across each warp (shuffles) and across the block's warps,
// takes the tile's carry-in from the 32 limbs just before it (or, after a
// run of 32+ propagating limbs, by decoupled look-back over epoch-tagged
// tile statuses, carry_tiles.cuh), then adds the carries in and stores. No
// carry buffer, no second pass.
//
// Bytes moved: read a and b once, write r once (3n limbs), the floor; the
// peek adds 512 bytes per 32 KiB tile, read from L2.
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
  static constexpr int kRows = 4;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kWarpLimbs = kRows * 64;
  static constexpr int kTile = kWarps * kWarpLimbs;  // 2048 limbs
  // Bytes in flight per SM bound the bandwidth here (the loads sit in
  // registers): 6 resident blocks (<= 42 registers a thread) measured
  // faster than 4 blocks at 60 registers.
  static constexpr int kMinBlocksPerSM = 6;
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

/// The rare path of an order_by_tops subtraction whose top limbs are equal
/// (scan_add_kernel): the block's highest and lowest nonzero limbs of r
/// into kSlotLowA / kSlotLowR, and the case into kSlotFound for
/// sub_fixup_kernel. The lowest limb comes from the thread's own stores,
/// read back, not tracked in the main loop, and the function is not
/// inlined: the kernel's registers (40) are its budget. Called by every
/// thread of the block.
template <class Policy>
__device__ __noinline__ void report_equal_tops(const limb_t* r, std::size_t an, std::size_t warp_base, int lane,
                                               unsigned long long top, ResultWords words) {
  unsigned long long low_key = 0;  // 2 (an - i) for the lowest nonzero limb i
#pragma unroll
  for (int k = Policy::kRows - 1; k >= 0; --k) {
#pragma unroll
    for (int h = 1; h >= 0; --h) {
      const std::size_t i = warp_base + k * 64 + 2 * lane + h;
      if (i < an && r[i] != 0) low_key = 2ull * (an - i);
    }
  }
  block_max_into<Policy::kWarps>(top, &words.slots[kSlotLowA]);
  __syncthreads();  // thread 0 is done with block_max's shared words before their reuse
  block_max_into<Policy::kWarps>(low_key, &words.slots[kSlotLowR]);
  // With equal tops r's top limb is 0 minus the borrow into it: r[an - 1]
  // != 0 exactly when a < b. The last tile's block wrote it (visible to its
  // thread 0 after block_max's barrier).
  if (threadIdx.x == 0 && blockIdx.x == gridDim.x - 1) atomicMax(&words.slots[kSlotFound], 2ull + (r[an - 1] != 0));
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
/// `order_by_tops` (a subtraction of equal sizes, followed by
/// sub_fixup_kernel, which always ends the operation): when the top limbs
/// differ they give the order, the smaller is subtracted from the larger
/// and the key 2 an + (a > b) goes to kSlotOrder. When they are equal the
/// kernel computes a - b as it stands and leaves the fixup its highest and
/// lowest nonzero limbs (kSlotLowA, kSlotLowR) and 2 + the borrow out
/// (kSlotFound): the fixup negates r when a < b. Against a comparison
/// search before the subtraction (two short kernels on the critical path),
/// the common case (tops differ) costs one trivial kernel after it. Off the
/// context's stream (no early publication) kSlotFound = 1 asks the fixup
/// to publish.
///
/// With `publish_early` (only on the context's stream: ResultWords::
/// publish_now), when the top limbs decide the result's size, the thread
/// of limb an - 1 publishes it and no block reduces its highest limb or
/// counts its arrival: 4 us of a 2^28-bit addition on an H100
/// (bench/results/2026-11-23-nvidia-h100-80gb-hbm3-probes.md, sections
/// 5-6). The tops decide it for an addition whose a is normalized (size
/// an + carry out), and for a subtraction whose top limbs differ by 2 or
/// more (size an: a borrow takes at most 1). Every block reads the same
/// two limbs, so the choice is uniform.
/// Launched as a dependent grid (dependent_launch.cuh).
template <bool kSubtract, bool kOrderInBlock = false, class Policy = ScanAddPolicy>
__global__ void __launch_bounds__(Policy::kThreads, Policy::kMinBlocksPerSM)
    scan_add_kernel(limb_t* __restrict__ r, const limb_t* a, std::size_t an, AddendB b,
                    CarryTiles tile_state, ResultWords words, bool order_by_tops, bool publish_early) {
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
    if (threadIdx.x == 0 && key) words.slots[kSlotOrder] = key;  // the only block
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
  if (kSubtract && order_by_tops && !tops_equal && !a_above) {  // |a| < |b|: compute b - a (equal sizes)
    const limb_t* t = a;
    a = b.limbs;
    b.limbs = t;
  }
  // Tops equal: a - b as it stands, its lowest nonzero limb for the fixup.
  const bool fixup_decides = kSubtract && order_by_tops && tops_equal;
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
    const std::size_t j = std::size_t(tile) * Policy::kTile - 32 + lane;  // >= 0: tiles hold 2048 limbs
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
  if (kSubtract && fixup_decides) {
    report_equal_tops<Policy>(r, an, warp_base, lane, top, words);
    return;
  }
  if (kSubtract && order_by_tops && threadIdx.x == 0 && tile == 0)
    atomicMax(&words.slots[kSlotOrder], 2ull * an + a_above);
  block_max_into<Policy::kWarps>(top, &words.slots[kSlotSize]);
  if (kSubtract && order_by_tops && !publish_early) {
    if (threadIdx.x == 0 && tile == 0) atomicMax(&words.slots[kSlotFound], 1ull);  // the fixup publishes
    return;
  }
  words.publish_when_last();
}

/// The end of an order_by_tops subtraction (scan_add_kernel), launched as a
/// dependent grid right after it; kSlotFound says what is left:
///  0: the subtraction published (context stream): nothing;
///  1: publish the slots as they are (the tops gave the order);
///  2: tops equal, no borrow: a >= b, r = a - b; size from kSlotLowA;
///  3: tops equal, a borrow: a < b and r = 2^(64 n) - (b - a): negate r in
///     place (limbs below the lowest nonzero one k stay 0, limb k becomes
///     -r_k, the rest ~r_i), find the new size, publish with a < b.
/// Cases 1 and 2 are published by one thread of block 0 and the other
/// blocks return at once; case 3 takes every block (grid-stride). The case
/// comes from the slot, never from r, which case 3 rewrites while other
/// blocks may still be starting.
template <int kThreads>
__global__ void __launch_bounds__(kThreads) sub_fixup_kernel(limb_t* r, std::size_t n, ResultWords words) {
  // The next operation's kernel may be scheduled at once: it waits for this
  // grid to complete before it touches memory (dependent_launch.cuh).
  allow_dependent_grids();
  wait_for_prior_grids();
  const unsigned long long state = *static_cast<volatile unsigned long long*>(&words.slots[kSlotFound]);
  if (state == 0) return;
  if (state < 3) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      if (state == 2) {
        const unsigned long long size = words.slots[kSlotLowA];
        words.slots[kSlotSize] = size;
        words.slots[kSlotOrder] = size ? 2ull * n + 1 : 0;  // a > b, or equal
      }
      words.publish_slots();
    }
    return;
  }
  const std::size_t k = n - words.slots[kSlotLowR] / 2;  // r != 0: a < b
  unsigned long long top = 0;
  // A small grid (the launcher's): four limbs a thread in flight at a time.
  constexpr int kUnroll = 4;
  const std::size_t stride = std::size_t(gridDim.x) * kThreads;
  for (std::size_t base = k + std::size_t(blockIdx.x) * kThreads + threadIdx.x; base < n; base += kUnroll * stride) {
    limb_t v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = base + u * stride < n ? r[base + u * stride] : 0;
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::size_t i = base + u * stride;
      if (i >= n) break;
      const limb_t nv = i == k ? limb_t{0} - v[u] : ~v[u];
      r[i] = nv;
      if (nv) top = i + 1 > top ? i + 1 : top;
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) atomicMax(&words.slots[kSlotOrder], 2ull * n);
  block_max_into<kThreads / 32>(top, &words.slots[kSlotSize]);
  words.publish_when_last();
}

}  // namespace mpgpu::device
