// Division of a long limb vector by one limb d in one pass over memory
// (as a decoupled look-back scan).
//
// The divisor is odd here: an even d = odd 2^t divides a >> t by odd (the
// same quotient; each thread reads its run shifted, run_limb) and the
// remainder is put back together at the end, so all arithmetic mod d is
// Montgomery products and exact division (div_limb_math.cuh).
//
// The remainder entering a run of limbs from above is all that couples the
// runs: a run of len limbs with value V maps an incoming remainder x to
// (x * 2^(64*len) + V) mod d, an affine map (RemainderMap), and maps compose
// associatively. So each block takes one tile, most significant tile first
// (block 0 = the top tile), and:
//   1. loads the tile (coalesced, into shared memory); each thread computes
//      the remainder of its own kItems limbs as a dot product with the powers
//      2^(64 j) mod d (independent products, chunk_remainder);
//   2. scans the threads' remainders across each warp and then across the
//      warps (high threads first): all runs of a level have the same weight,
//      so a scan step is one product mod d (ScanPowers); publishes the
//      tile's remainder as a PARTIAL status (its weight 2^(64*kTile) mod d is
//      the same for every tile, so only the remainder is stored);
//   3. warp 0 finds the remainder entering the tile by looking back over the
//      tiles above (RemainderTiles), publishes INCLUSIVE (the remainder
//      leaving the tile), hands each warp its incoming remainder;
//   4. each thread finds the remainder leaving its limbs; with it, its
//      quotient limbs are an exact division, done from the low end with
//      d^-1 mod 2^64 (chunk_quotient: two products a limb, no hardware
//      division, where a 2-by-1 division from the top needs the remainder
//      entering and about twice the work), written to shared memory, and
//      the block stores them (coalesced).
// Bytes moved: the dividend read once, the quotient written once. The top
// tile is padded with zero limbs above n: leading zeros change neither the
// quotient nor the remainder (nothing comes into the top tile).
//
// The policy is the best of a sweep of tiles of 2048, 4096 and 8192 limbs,
// 128 to 1024 threads, a block-wide look-back, a warp per tile; the tile
// count and the barrier waits while warp 0 scans and looks back are what
// limit it, not the look-back's walk (docs/integer.md, "Division and number
// theory"; the runs: docs/tuning-history.md, "Single-limb division").
#pragma once

#include "mpgpu/device/div_limb_math.cuh"
#include "mpgpu/device/limb_pairs.cuh"
#include "mpgpu/device/remainder_tiles.cuh"
#include "mpgpu/device/result_words.cuh"

namespace mpgpu::device {

/// Tuning of the division scan: kThreads threads of kItems limbs a tile,
/// registers capped for kMinBlocks blocks per SM.
template <int kThreads_, int kItems_, int kMinBlocks_>
struct DivLimbPolicyOf {
  static constexpr int kThreads = kThreads_;
  static constexpr int kItems = kItems_;
  static constexpr int kMinBlocks = kMinBlocks_;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kTile = kThreads * kItems;
  // One pad limb after every kItems: thread t's chunk starts at bank
  // 2 (kItems + 1) t mod 32, so a half-warp's 8-byte reads hit distinct
  // bank pairs.
  static constexpr int kPadded = kTile + kTile / kItems;  // then one slot: the limb above the tile
  __host__ __device__ static constexpr int padded(int i) { return i + i / kItems; }
  // The pair k * kThreads + t of a tile (limbs 2 (k kThreads + t) and the
  // next) sits at padded(2 t) + k * kPairStride: a per-thread base and
  // constant offsets, so the unrolled copies need no address arithmetic
  // (which otherwise spilled at the register cap).
  static constexpr int kPairStride = 2 * kThreads + 2 * kThreads / kItems;
  static_assert((2 * kThreads) % kItems == 0, "whole runs per row of pairs");
  static_assert(kItems <= kMaxDivItems && kItems % 2 == 0, "pairs of limbs, within ItemPowers");
  static_assert(kThreads >= 32 + kWarps, "the weight tables are filled in one step");
};

/// 256 threads of 16 limbs (tiles of 4096 limbs, 34 KiB of shared memory),
/// 6 blocks per SM.
using DivLimbPolicy = DivLimbPolicyOf<256, 16, 6>;

/// Spin pause between polls of a predecessor's status.
struct DivPause {
  __device__ void operator()() const { __nanosleep(20); }
};

/// Inclusive scan from lane kLanes - 1 down (within each group of kLanes
/// lanes, a power of two <= 32) of remainders whose runs all have the same
/// weight W (pow2[d] = W^d for d = 1, 2, 4, ...): lane l gets
/// sum_{l <= m < kLanes} r_m W^(m - l) mod d. At step d a lane's own part
/// covers exactly d lanes, so composing with the part above is one product.
/// The scan across a block's warps takes log2(kWarps) steps, not 5: it is
/// on the path every warp of the block waits for.
template <int kLanes = 32, class Powers>
__device__ __forceinline__ limb_t warp_scan_down_same_weight(limb_t r, int lane, const Powers& pow2,
                                                             const LimbDivisor& v) {
  static_assert(kLanes >= 1 && kLanes <= 32 && (kLanes & (kLanes - 1)) == 0, "a power of two up to 32");
#pragma unroll
  for (int d = 1; d < kLanes; d *= 2) {
    const limb_t upper = __shfl_down_sync(0xffffffffu, r, d, kLanes);
    if (lane % kLanes + d < kLanes) r = add_mod(mont_mul(upper, pow2[d], v), r, v);
  }
  return r;
}

/// The remainder entering scan position `tile` (> 0): walks back over the
/// tiles above, 32 at a time (lane 0 = the nearest), until the nearest
/// INCLUSIVE one. Called by a whole warp; the result is uniform.
///
/// Every PARTIAL tile has the same weight w = w_tile, so a window of tiles
/// 0..last (lane l = l tiles back; an INCLUSIVE tile at `last` is the
/// constant map {0, value}) is the map {w^(last+1) or 0, sum_l value_l w^l}
/// (window_map in div_limb_math.cuh): one product mod d per lane with a power
/// from `powers` and a 5-level warp sum, where composing the maps took 5
/// levels of two products each (and a walk lane by lane up to 31 dependent
/// compositions); a look-back crosses many windows while the tiles above are
/// still PARTIAL.
__device__ __forceinline__ limb_t look_back_remainder(const RemainderTiles& tiles, int tile, int lane,
                                                      const TilePowers& powers, const LimbDivisor& v) {
  RemainderMap nearer{powers.w[0], 0};  // the tiles already walked, as one map (none: the identity)
  for (int window_end = tile - 1;; window_end -= 32) {
    const int idx = window_end - lane;
    unsigned kind;
    limb_t value;
    // Tile 0 is always INCLUSIVE, so the walk stops at or before it.
    tiles.wait_for_valid(idx, kind, value, DivPause{});
    const bool stop = kind != RemainderTiles::kPartial;
    const unsigned stops = __ballot_sync(0xffffffffu, stop);
    const int last = stops ? __ffs(stops) - 1 : 31;  // lanes 0..last matter
    limb_t sum = lane <= last ? mont_mul(value, powers.w[lane], v) : 0;
#pragma unroll
    for (int d = 16; d >= 1; d /= 2) sum = add_mod(sum, __shfl_xor_sync(0xffffffffu, sum, d), v);
    nearer = compose({stops ? limb_t{0} : powers.w[last + 1], sum}, nearer, v);
    if (stops) return nearer.r;  // nearer.w == 0: a constant
  }
}

/// Loads limbs [0, kTile] of a (zeros at and above `limbs`) into the padded
/// shared buffer, limb kTile (the one above the tile, which an even
/// divisor's shift reads) into the extra slot at kPadded. Every tile but the
/// top one (scan position 0) is full and has limbs above it, so `fast` (a
/// full tile, aligned) skips the bounds checks and issues all its 16-byte
/// loads before the first store to shared memory: one memory latency per
/// tile, where a load, store, load chain waited for each in turn.
template <class Policy>
__device__ __forceinline__ void load_tile(limb_t* buf, const limb_t* a, std::size_t limbs, bool fast) {
  limb_t* const mine = buf + Policy::padded(2 * threadIdx.x);
  if (threadIdx.x == 0) buf[Policy::kPadded] = fast || Policy::kTile < limbs ? a[Policy::kTile] : 0;
  if (fast) {
    ulonglong2 v[Policy::kItems / 2];
#pragma unroll
    for (int k = 0; k < Policy::kItems / 2; ++k)
      v[k] = __ldg(reinterpret_cast<const ulonglong2*>(a + 2 * (k * Policy::kThreads + threadIdx.x)));
#pragma unroll
    for (int k = 0; k < Policy::kItems / 2; ++k) {
      mine[k * Policy::kPairStride] = v[k].x;
      mine[k * Policy::kPairStride + 1] = v[k].y;
    }
    return;
  }
  const bool vec = aligned16(a);
#pragma unroll
  for (int k = 0; k < Policy::kItems / 2; ++k) {
    limb_t lo, hi;
    load_pair(a, 2 * (k * Policy::kThreads + threadIdx.x), limbs, vec, lo, hi);
    mine[k * Policy::kPairStride] = lo;
    mine[k * Policy::kPairStride + 1] = hi;
  }
}

template <class Policy>
__device__ __forceinline__ void store_tile(limb_t* q, const limb_t* buf, std::size_t limbs, bool fast) {
  if (fast) {
#pragma unroll
    for (int k = 0; k < Policy::kItems / 2; ++k) {
      const int i = 2 * (k * Policy::kThreads + threadIdx.x);
      const limb_t* slot = buf + Policy::padded(2 * threadIdx.x) + k * Policy::kPairStride;
      *reinterpret_cast<ulonglong2*>(q + i) = make_ulonglong2(slot[0], slot[1]);
    }
    return;
  }
  const bool vec = aligned16(q);
#pragma unroll
  for (int k = 0; k < Policy::kItems / 2; ++k) {
    const int i = 2 * (k * Policy::kThreads + threadIdx.x);
    const limb_t* slot = buf + Policy::padded(2 * threadIdx.x) + k * Policy::kPairStride;
    store_pair(q, i, limbs, vec, slot[0], slot[1]);
  }
}

/// q[0..n) = floor(a / d) (unless q is nullptr), and the remainder a mod d
/// into words.slot[kSlotFound] and, unless r_out is nullptr, r_out[0],
/// for d = v.d 2^twos with v.d odd: the scan divides a >> twos by v.d (the
/// same quotient) and the remainder is (that remainder << twos) + the low
/// twos bits of a. kSlotSize receives the quotient's normalized size, or
/// with `publish_remainder_size` the remainder's (0 or 1). Requires n >= 1
/// and a normalized dividend (a[n-1] != 0, as every Integer's): then q has n
/// limbs if a[n-1] >= d, else n - 1 (q[n-2] >= 1), and no limb search is
/// needed. items = item_powers(v.d), scan = scan_powers(kItems, v.d),
/// powers = tile_powers(kTile, v.d). Blocks run most significant tile first
/// (blockIdx.x = scan position).
template <class Policy = DivLimbPolicy>
__global__ void __launch_bounds__(Policy::kThreads, Policy::kMinBlocks)
    div_limb_kernel(limb_t* __restrict__ q, limb_t* __restrict__ r_out, const limb_t* __restrict__ a,
                    std::size_t n, LimbDivisor v, int twos, ItemPowers items, ScanPowers scan, TilePowers powers,
                    RemainderTiles tile_state, ResultWords words, bool publish_remainder_size) {
  extern __shared__ limb_t buf[];                 // Policy::kPadded + 1 limbs
  __shared__ limb_t warp_r[Policy::kWarps];       // each warp's remainder, then the warps' above it
  __shared__ limb_t warp_in[Policy::kWarps];      // the remainder entering each warp
  __shared__ limb_t lane_weight[32];              // W^(32 - lane): the lanes down to this one
  __shared__ limb_t warp_weight[Policy::kWarps];  // W^(32 (kWarps - 1 - warp)): the warps above

  const int pos = blockIdx.x;  // scan position: 0 is the top tile
  const int tiles = gridDim.x;
  const std::size_t base = std::size_t(tiles - 1 - pos) * Policy::kTile;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // Block-uniform: a full tile (every one below the top) of aligned vectors.
  const bool fast = pos > 0 && aligned16(a + base) && (q == nullptr || aligned16(q + base));

  // 1. Load (16-byte accesses, zeros above n) and each thread's remainder.
  load_tile<Policy>(buf, a + base, n - base, fast);
  if (threadIdx.x < 32) lane_weight[threadIdx.x] = scan.thread[32 - threadIdx.x];
  else if (threadIdx.x < 32 + Policy::kWarps)
    warp_weight[threadIdx.x - 32] = scan.warp[Policy::kWarps - 1 - (threadIdx.x - 32)];
  __syncthreads();
  limb_t* mine = buf + Policy::padded(threadIdx.x * Policy::kItems);
  // The limb above this thread's run (the next run's first, or the one above
  // the tile), read now: that run's limbs become quotient limbs below.
  const limb_t above = twos ? buf[Policy::padded((threadIdx.x + 1) * Policy::kItems)] : 0;
  const limb_t own_r = chunk_remainder(mine, Policy::kItems, above, twos, items, v);

  // 2. Scan the threads' remainders across each warp (lane 31 holds the
  // top run), then warp 0 across the warps: the tile's remainder, published.
  const limb_t incl = warp_scan_down_same_weight(own_r, lane, scan.thread, v);
  if (lane == 0) warp_r[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    const limb_t wr = lane < Policy::kWarps ? warp_r[lane] : 0;  // zeros above: no contribution
    const limb_t w_incl = warp_scan_down_same_weight<Policy::kWarps>(wr, lane, scan.warp, v);
    limb_t w_excl = __shfl_down_sync(0xffffffffu, w_incl, 1);
    if (lane >= Policy::kWarps - 1) w_excl = 0;
    __syncwarp();
    if (lane < Policy::kWarps) warp_r[lane] = w_excl;
    const limb_t r = __shfl_sync(0xffffffffu, w_incl, 0);  // the tile's own remainder
    if (lane == 0 && tiles > 1) {
      if (pos == 0) tile_state.set_inclusive(0, r);
      else tile_state.set_partial(pos, r);
    }

    // 3. The remainder entering the tile, from the tiles above.
    limb_t in = 0;
    if (pos > 0) {  // uniform over the warp
      in = look_back_remainder(tile_state, pos, lane, powers, v);
      if (lane == 0) tile_state.set_inclusive(pos, apply({powers.w[1], r}, in, v));
    }
    if (lane < Policy::kWarps) warp_in[lane] = add_mod(mont_mul(in, warp_weight[lane], v), warp_r[lane], v);
  }
  __syncthreads();

  // 4. The remainder leaving this thread's limbs (from the warp's incoming
  // one through lanes 31..lane); with it the quotient limbs are an exact
  // division (chunk_quotient).
  const limb_t r_leaving = add_mod(mont_mul(warp_in[warp], lane_weight[lane], v), incl, v);
  if (q) chunk_quotient(mine, Policy::kItems, above, twos, r_leaving, v);
  bool wrote_slot = false;
  if (pos == tiles - 1 && threadIdx.x == 0) {  // holds limb 0: the final remainder
    const limb_t remainder = twos ? r_leaving << twos | (a[0] & ((limb_t{1} << twos) - 1)) : r_leaving;
    if (r_out) r_out[0] = remainder;
    if (remainder) atomicMax(&words.slot[kSlotFound], static_cast<unsigned long long>(remainder));
    if (publish_remainder_size && remainder) atomicMax(&words.slot[kSlotSize], 1ull);
    wrote_slot = true;
  }
  if (q && !publish_remainder_size && pos == 0 && threadIdx.x == (n - 1 - base) / Policy::kItems) {
    atomicMax(&words.slot[kSlotSize], a[n - 1] >= v.d << twos ? n : n - 1);
    wrote_slot = true;
  }
  __syncthreads();
  if (q) store_tile<Policy>(q + base, buf, n - base, fast);
  words.publish_when_last(wrote_slot);
}

}  // namespace mpgpu::device
