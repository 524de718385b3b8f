// Device-wide shifts of a limb vector by any number of bits: one map over the
// output, each limb built from the two input limbs it straddles (the second
// read of each input limb hits L1). Bytes moved: read n, write n.
#pragma once

#include "mpgpu/device/result_words.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

struct ShiftPolicy {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 4;
};

/// r[q + j] = (a[j] << s) | (a[j-1] >> (64 - s)) for j in [0, n]; the limbs
/// below q are zeroed by the caller. Publishes the result size (kSlotSize).
template <class Policy = ShiftPolicy>
__global__ void __launch_bounds__(Policy::kThreads)
    shift_left_kernel(limb_t* __restrict__ r, const limb_t* __restrict__ a, std::size_t n, std::size_t q,
                      unsigned s, ResultWords words) {
  const std::size_t base = std::size_t(blockIdx.x) * Policy::kThreads * Policy::kItems + threadIdx.x;
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t j = base + std::size_t(it) * Policy::kThreads;
    if (j > n) break;
    const limb_t hi = j < n ? a[j] : 0;
    const limb_t lo = (j >= 1) ? a[j - 1] : 0;
    const limb_t v = s ? (hi << s) | (lo >> (64 - s)) : hi;
    r[q + j] = v;
    if (j == n) atomicMax(&words.slots[kSlotSize], v ? n + q + 1 : n + q);
  }
  words.publish_when_last();
}

/// r[k] = (a[k+q] >> s) | (a[k+q+1] << (64 - s)) for k in [0, n - q).
/// Publishes the result size (kSlotSize). Requires q < n.
template <class Policy = ShiftPolicy>
__global__ void __launch_bounds__(Policy::kThreads)
    shift_right_kernel(limb_t* __restrict__ r, const limb_t* __restrict__ a, std::size_t n, std::size_t q,
                       unsigned s, ResultWords words) {
  const std::size_t m = n - q;
  const std::size_t base = std::size_t(blockIdx.x) * Policy::kThreads * Policy::kItems + threadIdx.x;
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t k = base + std::size_t(it) * Policy::kThreads;
    if (k >= m) break;
    const limb_t lo = a[k + q];
    const limb_t hi = k + q + 1 < n ? a[k + q + 1] : 0;
    const limb_t v = s ? (lo >> s) | (hi << (64 - s)) : lo;
    r[k] = v;
    if (k == m - 1) atomicMax(&words.slots[kSlotSize], v ? m : m - 1);
  }
  words.publish_when_last();
}

}  // namespace mpgpu::device
