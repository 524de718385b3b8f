// Division of a long limb vector by one limb d in one pass over memory
// (seed 001 section 7.1, as a decoupled look-back scan).
//
// The remainder entering a run of limbs from above is all that couples the
// runs: a run of len limbs with value V maps an incoming remainder x to
// (x * 2^(64*len) + V) mod d, an affine map (RemainderMap), and maps compose
// associatively. So each block takes one tile, most significant tile first
// (block 0 = the top tile), and:
//   1. loads the tile (coalesced, into shared memory), each thread computes
//      the remainder of its own kItems limbs (Horner, 2-by-1 divisions);
//   2. scans the threads' maps across the block (high threads first) and
//      publishes the tile's map as a PARTIAL status (its weight 2^(64*kTile)
//      mod d is the same for every tile, so only the remainder is stored);
//   3. warp 0 finds the remainder entering the tile by looking back over the
//      tiles above (cub::ScanTileState), publishes INCLUSIVE (the remainder
//      leaving the tile), hands each warp its incoming remainder;
//   4. each thread divides its limbs from the top with its incoming
//      remainder (Moller-Granlund with a precomputed reciprocal: no hardware
//      division), writes the quotient limbs to shared memory, and the block
//      stores them (coalesced).
// Bytes moved: the dividend read once, the quotient written once. The top
// tile is padded with zero limbs above n: leading zeros change neither the
// quotient nor the remainder (nothing comes into the top tile).
#pragma once

#include <cub/agent/single_pass_scan_operators.cuh>

#include "mpgpu/device/div_limb_math.cuh"
#include "mpgpu/device/limb_pairs.cuh"
#include "mpgpu/device/result_words.cuh"

namespace mpgpu::device {

/// Tuning of the division scan: a thread owns kItems consecutive limbs (a
/// sequential chain of kItems dependent divisions, hidden by the other
/// resident warps).
struct DivLimbPolicy {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 8;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kTile = kThreads * kItems;  // 2048 limbs, 16 KiB
  // One pad limb after every kItems: thread t's chunk starts at bank
  // 18 t mod 32, so a half-warp's 8-byte reads hit distinct bank pairs.
  static constexpr int kPadded = kTile + kTile / kItems;
  __host__ __device__ static constexpr int padded(int i) { return i + i / kItems; }
};

using RemainderTileState = cub::ScanTileState<unsigned long long>;

/// Marks every tile's status invalid before the look-back.
template <class TileState>
__global__ void init_remainder_tile_state(TileState state, int num_tiles) {
  state.InitializeStatus(num_tiles);
}

/// Spin pause between polls of a predecessor's status.
struct DivPause {
  __device__ void operator()() const { __nanosleep(20); }
};

__device__ __forceinline__ RemainderMap shfl_down_map(RemainderMap m, int delta) {
  return {__shfl_down_sync(0xffffffffu, m.w, delta), __shfl_down_sync(0xffffffffu, m.r, delta)};
}

/// Inclusive scan across a warp from lane 31 down: lane l gets the map of
/// lanes 31..l (lane 31 holds the most significant run).
__device__ __forceinline__ RemainderMap warp_scan_down(RemainderMap m, int lane, const LimbDivisor& v) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const RemainderMap upper = shfl_down_map(m, d);
    if (lane + d < 32) m = compose(upper, m, v);
  }
  return m;
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
__device__ __forceinline__ limb_t look_back_remainder(RemainderTileState& state, int tile, int lane,
                                                      const TilePowers& powers, const LimbDivisor& v) {
  RemainderMap nearer{1, 0};  // the tiles already walked, as one map
  for (int window_end = tile - 1;; window_end -= 32) {
    const int idx = window_end - lane;
    typename RemainderTileState::StatusWord status;
    unsigned long long value;
    // Indices below 0 read CUB's padding ("out of bounds"); tile 0 is always
    // INCLUSIVE, so the walk stops at or before it anyway.
    state.WaitForValid(idx, status, value, DivPause{});
    const bool stop = idx < 0 || status == typename RemainderTileState::StatusWord(cub::SCAN_TILE_INCLUSIVE);
    if (idx < 0) value = 0;
    const unsigned stops = __ballot_sync(0xffffffffu, stop);
    const int last = stops ? __ffs(stops) - 1 : 31;  // lanes 0..last matter
    limb_t sum = lane <= last ? mul_mod(value, powers.w[lane], v) : 0;
#pragma unroll
    for (int d = 16; d >= 1; d /= 2) sum = add_mod(sum, __shfl_xor_sync(0xffffffffu, sum, d), v);
    nearer = compose({stops ? limb_t{0} : powers.w[last + 1], sum}, nearer, v);
    if (stops) return nearer.r;  // nearer.w == 0: a constant
  }
}

/// q[0..n) = floor(a / d) (unless q is nullptr), and the remainder a mod d
/// into words.slots[kSlotFound] and, unless r_out is nullptr, r_out[0].
/// kSlotSize receives the quotient's normalized size, or with
/// `publish_remainder_size` the remainder's (0 or 1). Requires n >= 1;
/// powers = the powers of w_tile = 2^(64*kTile) mod d, w_items = 2^(64*kItems) mod d. Blocks run
/// most significant tile first (blockIdx.x = scan position).
template <class Policy = DivLimbPolicy>
__global__ void __launch_bounds__(Policy::kThreads)
    div_limb_kernel(limb_t* __restrict__ q, limb_t* __restrict__ r_out, const limb_t* __restrict__ a,
                    std::size_t n, LimbDivisor v, limb_t w_items, TilePowers powers, RemainderTileState tile_state,
                    ResultWords words, bool publish_remainder_size) {
  __shared__ limb_t buf[Policy::kPadded];
  __shared__ RemainderMap warp_maps[Policy::kWarps];
  __shared__ limb_t warp_in[Policy::kWarps];

  const int pos = blockIdx.x;  // scan position: 0 is the top tile
  const int tiles = gridDim.x;
  const std::size_t base = std::size_t(tiles - 1 - pos) * Policy::kTile;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  // 1. Load (16-byte accesses, zeros above n) and each thread's remainder.
  const bool a_vec = aligned16(a + base);
#pragma unroll
  for (int k = 0; k < Policy::kItems / 2; ++k) {
    const int i = 2 * (k * Policy::kThreads + threadIdx.x);
    limb_t lo, hi;
    load_pair(a + base, i, n - base, a_vec, lo, hi);
    buf[Policy::padded(i)] = lo;
    buf[Policy::padded(i + 1)] = hi;
  }
  __syncthreads();
  limb_t* mine = buf + Policy::padded(threadIdx.x * Policy::kItems);
  limb_t rn = 0;  // remainder << shift
#pragma unroll
  for (int j = Policy::kItems - 1; j >= 0; --j) div_step(rn, mine[j], v);

  // 2. Scan the threads' maps (thread 255 holds the top run).
  const RemainderMap own{w_items, rn >> v.shift};
  const RemainderMap incl = warp_scan_down(own, lane, v);
  RemainderMap excl = shfl_down_map(incl, 1);  // lanes above this one
  if (lane == 31) excl = {1, 0};
  if (lane == 0) warp_maps[warp] = incl;
  __syncthreads();

  // 3. Warp 0: the warps' prefixes, the tile's map, the incoming remainder.
  if (warp == 0) {
    RemainderMap wm = lane < Policy::kWarps ? warp_maps[lane] : RemainderMap{1, 0};
    const RemainderMap w_incl = warp_scan_down(wm, lane, v);  // warps kWarps-1..lane
    RemainderMap w_excl = shfl_down_map(w_incl, 1);
    if (lane >= Policy::kWarps - 1) w_excl = {1, 0};
    const limb_t tile_r = __shfl_sync(0xffffffffu, w_incl.r, 0);  // the tile's own remainder
    limb_t tile_in = 0;
    if (tiles > 1) {
      if (pos == 0) {
        if (lane == 0) tile_state.SetInclusive(0, tile_r);
      } else {
        if (lane == 0) tile_state.SetPartial(pos, tile_r);
        tile_in = look_back_remainder(tile_state, pos, lane, powers, v);
        if (lane == 0) tile_state.SetInclusive(pos, apply({powers.w[1], tile_r}, tile_in, v));
      }
    }
    if (lane < Policy::kWarps) warp_in[lane] = apply(w_excl, tile_in, v);
  }
  __syncthreads();

  // 4. Divide this thread's limbs with its incoming remainder.
  rn = apply(excl, warp_in[warp], v) << v.shift;
#pragma unroll
  for (int j = Policy::kItems - 1; j >= 0; --j) mine[j] = div_step(rn, mine[j], v);
  const limb_t remainder = rn >> v.shift;
  const bool bottom = pos == tiles - 1 && threadIdx.x == 0;  // holds limb 0: the final remainder
  if (bottom) {
    if (r_out) r_out[0] = remainder;
    if (remainder) atomicMax(&words.slots[kSlotFound], static_cast<unsigned long long>(remainder));
  }
  __syncthreads();

  unsigned long long top = 0;  // 1 + index of the highest nonzero quotient limb
  if (q) {
    const bool q_vec = aligned16(q + base);
#pragma unroll
    for (int k = 0; k < Policy::kItems / 2; ++k) {
      const int i = 2 * (k * Policy::kThreads + threadIdx.x);
      const limb_t lo = buf[Policy::padded(i)], hi = buf[Policy::padded(i + 1)];
      store_pair(q + base, i, n - base, q_vec, lo, hi);
      if (lo != 0 && base + i < n) top = base + i + 1;
      if (hi != 0 && base + i + 1 < n) top = base + i + 2;
    }
  }
  if (publish_remainder_size) top = bottom && remainder != 0;
  block_max_into<Policy::kWarps>(top, &words.slots[kSlotSize]);
  words.publish_when_last();
}

}  // namespace mpgpu::device
