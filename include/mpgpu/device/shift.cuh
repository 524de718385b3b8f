// Device-wide shifts of a limb vector by any number of bits: one map over the
// output, each limb built from the two input limbs it straddles (one of them
// by warp shuffle). Bytes moved: read n, write n.
#pragma once

#include "mpgpu/device/dependent_launch.cuh"
#include "mpgpu/device/limb_pairs.cuh"
#include "mpgpu/device/result_words.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

/// The shift's size, from the one thread that knows it: published at once,
/// or left in the slot for the last block (publish_when_last).
__device__ __forceinline__ void publish_size(const ResultWords& words, std::size_t size, bool publish_early) {
  if (publish_early) words.publish_now(size);
  else atomicMax(&words.slot[kSlotSize], size);
}

/// Threads own pairs of output limbs (16-byte stores and loads, as the scan
/// add); kItems pairs a thread, all loaded before the first use. One pair a
/// thread at full occupancy measured slightly faster than 4 pairs at 5
/// blocks an SM (docs/tuning-history.md, "Device streaming kernels").
struct ShiftPolicy {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 1;
  static constexpr int kMinBlocksPerSM = 8;
  static constexpr std::size_t kPairsPerBlock = std::size_t(kThreads) * kItems;
};

/// a[i] for a signed index; zero outside [0, n).
__device__ __forceinline__ limb_t limb_at(const limb_t* a, long long i, std::size_t n) {
  return i >= 0 && static_cast<std::size_t>(i) < n ? a[i] : 0;
}

/// (a[e], a[e + 1]) for an even signed index e, zero outside [0, n): one
/// 16-byte load where it can be.
__device__ __forceinline__ void load_pair_at(const limb_t* a, long long e, std::size_t n, bool vec, limb_t& lo,
                                             limb_t& hi) {
  if (e >= 0) {
    load_pair(a, static_cast<std::size_t>(e), n, vec, lo, hi);
  } else {  // e <= -2: both below the number
    lo = 0;
    hi = 0;
  }
}

/// r[o] = (a[o-q] << s) | (a[o-q-1] >> (64 - s)) for o in [0, n + q] (a is
/// zero outside [0, n), so r is zero below q). A thread owns the output pair
/// (o, o + 1), o even, and loads the aligned input pair that holds a[o-q]
/// (a[o-q-1] too when q is odd); the third limb it needs is in a
/// neighbouring lane's pair, one shuffle away. Every access is 16 bytes and
/// aligned, whatever q (the scalar form, one limb a thread, was slower:
/// docs/tuning-history.md, "Device streaming kernels").
///
/// Publishes the result size (kSlotSize), which the thread of the top limb
/// knows (a is normalized, n >= 1): with `publish_early` (only on the
/// context's stream) that thread publishes it at once (ResultWords::
/// publish_now) and no block counts its arrival. Launched as a dependent
/// grid (dependent_launch.cuh).
template <class Policy = ShiftPolicy>
__global__ void __launch_bounds__(Policy::kThreads, Policy::kMinBlocksPerSM)
    shift_left_kernel(limb_t* __restrict__ r, const limb_t* __restrict__ a, std::size_t n, std::size_t q,
                      unsigned s, ResultWords words, bool publish_early) {
  wait_for_prior_grids();
  const std::size_t out = n + q + 1;
  const bool odd = q & 1;
  const bool vec = aligned16(a) && aligned16(r);
  const int lane = threadIdx.x % 32;
  const std::size_t base = std::size_t(blockIdx.x) * Policy::kPairsPerBlock + threadIdx.x;
  limb_t lo[Policy::kItems], hi[Policy::kItems];
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t o = 2 * (base + std::size_t(it) * Policy::kThreads);
    const long long e = static_cast<long long>(o) - static_cast<long long>(q) - (odd ? 1 : 0);  // even
    load_pair_at(a, e, n, vec, lo[it], hi[it]);
  }
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t o = 2 * (base + std::size_t(it) * Policy::kThreads);
    const long long e = static_cast<long long>(o) - static_cast<long long>(q) - (odd ? 1 : 0);
    const limb_t up = __shfl_up_sync(0xffffffffu, hi[it], 1);      // the previous lane's upper limb
    const limb_t down = __shfl_down_sync(0xffffffffu, lo[it], 1);  // the next lane's lower limb
    limb_t below, x0, x1;  // a[o-q-1], a[o-q], a[o-q+1]
    if (!odd) {
      below = lane == 0 ? limb_at(a, e - 1, n) : up;
      x0 = lo[it];
      x1 = hi[it];
    } else {
      below = lo[it];
      x0 = hi[it];
      x1 = lane == 31 ? limb_at(a, e + 2, n) : down;
    }
    const limb_t v0 = s ? (x0 << s) | (below >> (64 - s)) : x0;
    const limb_t v1 = s ? (x1 << s) | (x0 >> (64 - s)) : x1;
    if (o < out) store_pair(r, o, out, vec, v0, v1);
    if (o == n + q) publish_size(words, v0 ? n + q + 1 : n + q, publish_early);
    if (o + 1 == n + q) publish_size(words, v1 ? n + q + 1 : n + q, publish_early);
  }
  allow_dependent_grids();
  if (!publish_early) words.publish_when_last();
}

/// r[k] = (a[k+q] >> s) | (a[k+q+1] << (64 - s)) for k in [0, n - q),
/// requires q < n. A thread owns the output pair (k, k + 1), k even, and
/// loads the aligned input pair that holds a[k+q]; the limbs above come from
/// the next lane's pair by shuffle. Publishes the result size (kSlotSize) as
/// shift_left_kernel does.
template <class Policy = ShiftPolicy>
__global__ void __launch_bounds__(Policy::kThreads, Policy::kMinBlocksPerSM)
    shift_right_kernel(limb_t* __restrict__ r, const limb_t* __restrict__ a, std::size_t n, std::size_t q,
                       unsigned s, ResultWords words, bool publish_early) {
  wait_for_prior_grids();
  const std::size_t m = n - q;
  const bool odd = q & 1;
  const bool vec = aligned16(a) && aligned16(r);
  const int lane = threadIdx.x % 32;
  const std::size_t base = std::size_t(blockIdx.x) * Policy::kPairsPerBlock + threadIdx.x;
  limb_t lo[Policy::kItems], hi[Policy::kItems];
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t k = 2 * (base + std::size_t(it) * Policy::kThreads);
    const std::size_t e = k + q - (odd ? 1 : 0);  // even, >= 0
    load_pair(a, e, n, vec, lo[it], hi[it]);
  }
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t k = 2 * (base + std::size_t(it) * Policy::kThreads);
    const std::size_t e = k + q - (odd ? 1 : 0);
    const limb_t next_lo = __shfl_down_sync(0xffffffffu, lo[it], 1);  // a[e + 2]
    const limb_t next_hi = __shfl_down_sync(0xffffffffu, hi[it], 1);  // a[e + 3]
    const limb_t above_lo = lane == 31 ? limb_at(a, static_cast<long long>(e + 2), n) : next_lo;
    limb_t x0, x1, x2;  // a[k+q], a[k+q+1], a[k+q+2]
    if (!odd) {
      x0 = lo[it];
      x1 = hi[it];
      x2 = above_lo;
    } else {
      x0 = hi[it];
      x1 = above_lo;
      x2 = lane == 31 ? limb_at(a, static_cast<long long>(e + 3), n) : next_hi;
    }
    const limb_t v0 = s ? (x0 >> s) | (x1 << (64 - s)) : x0;
    const limb_t v1 = s ? (x1 >> s) | (x2 << (64 - s)) : x1;
    if (k < m) store_pair(r, k, m, vec, v0, v1);
    if (k == m - 1) publish_size(words, v0 ? m : m - 1, publish_early);
    if (k + 1 == m - 1) publish_size(words, v1 ? m : m - 1, publish_early);
  }
  allow_dependent_grids();
  if (!publish_early) words.publish_when_last();
}

}  // namespace mpgpu::device
