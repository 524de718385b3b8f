// Device-wide shifts of a limb vector by any number of bits: one map over the
// output, each limb built from the two input limbs it straddles (the second
// one by warp shuffle). Bytes moved: read n, write n.
#pragma once

#include "mpgpu/device/dependent_launch.cuh"
#include "mpgpu/device/result_words.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

/// The shift's size, from the one thread that knows it: published at once,
/// or left in the slot for the last block (publish_when_last).
__device__ __forceinline__ void publish_size(const ResultWords& words, std::size_t size, bool publish_early) {
  if (publish_early) words.publish_now(size);
  else atomicMax(&words.slots[kSlotSize], size);
}

struct ShiftPolicy {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 8;  // all loads issued before the first use
  static constexpr int kMinBlocksPerSM = 5;
};

/// r[o] = (a[o-q] << s) | (a[o-q-1] >> (64 - s)) for o in [q, n + q], and
/// r[o] = 0 below q. Threads own output limbs, so stores are aligned and
/// only loads straddle (a shift by q limbs misaligns one side; the right
/// shift, built this way, ran 101 us at 2^30 bits against 109 us for the left
/// shift when it stored misaligned, b301919). Consecutive lanes own
/// consecutive o, so a[o-q-1] comes from the neighbouring lane by shuffle:
/// one coalesced load per limb. Publishes the result size (kSlotSize),
/// which the thread of the top limb knows (a is normalized, n >= 1): with
/// `publish_early` (only on the context's stream) that thread publishes it
/// at once (ResultWords::publish_now) and no block counts its arrival.
/// Launched as a dependent grid (dependent_launch.cuh).
template <class Policy = ShiftPolicy>
__global__ void __launch_bounds__(Policy::kThreads, Policy::kMinBlocksPerSM)
    shift_left_kernel(limb_t* __restrict__ r, const limb_t* __restrict__ a, std::size_t n, std::size_t q,
                      unsigned s, ResultWords words, bool publish_early) {
  wait_for_prior_grids();
  const std::size_t base = std::size_t(blockIdx.x) * Policy::kThreads * Policy::kItems + threadIdx.x;
  const int lane = threadIdx.x % 32;
  limb_t hi[Policy::kItems];
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t o = base + std::size_t(it) * Policy::kThreads;
    hi[it] = o >= q && o - q < n ? a[o - q] : 0;
  }
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t o = base + std::size_t(it) * Policy::kThreads;
    limb_t lo = __shfl_up_sync(0xffffffffu, hi[it], 1);
    if (lane == 0) lo = (o >= q + 1 && o - q - 1 < n) ? a[o - q - 1] : 0;
    if (o <= n + q) {
      const limb_t v = s ? (hi[it] << s) | (lo >> (64 - s)) : hi[it];  // 0 below q
      r[o] = v;
      if (o == n + q) publish_size(words, v ? n + q + 1 : n + q, publish_early);
    }
  }
  allow_dependent_grids();
  if (!publish_early) words.publish_when_last();
}

/// r[k] = (a[k+q] >> s) | (a[k+q+1] << (64 - s)) for k in [0, n - q),
/// requires q < n; a[k+q+1] comes from the next lane by shuffle. Publishes
/// the result size (kSlotSize) as shift_left_kernel does.
template <class Policy = ShiftPolicy>
__global__ void __launch_bounds__(Policy::kThreads, Policy::kMinBlocksPerSM)
    shift_right_kernel(limb_t* __restrict__ r, const limb_t* __restrict__ a, std::size_t n, std::size_t q,
                       unsigned s, ResultWords words, bool publish_early) {
  wait_for_prior_grids();
  const std::size_t m = n - q;
  const std::size_t base = std::size_t(blockIdx.x) * Policy::kThreads * Policy::kItems + threadIdx.x;
  const int lane = threadIdx.x % 32;
  limb_t lo[Policy::kItems];
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t k = base + std::size_t(it) * Policy::kThreads;
    lo[it] = k < m ? a[k + q] : 0;
  }
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t k = base + std::size_t(it) * Policy::kThreads;
    limb_t hi = __shfl_down_sync(0xffffffffu, lo[it], 1);
    if (lane == 31) hi = k + q + 1 < n ? a[k + q + 1] : 0;
    if (k < m) {
      const limb_t v = s ? (lo[it] >> s) | (hi << (64 - s)) : lo[it];
      r[k] = v;
      if (k == m - 1) publish_size(words, v ? m : m - 1, publish_early);
    }
  }
  allow_dependent_grids();
  if (!publish_early) words.publish_when_last();
}

}  // namespace mpgpu::device
