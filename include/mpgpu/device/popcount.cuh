// Population count of a limb vector in one kernel: each thread counts a
// strided share of the limbs, a block adds its threads' counts (shuffles,
// then one word per warp), adds the block's total into the operation's word
// slot, and the last block publishes it to the host (result_words.cuh): one
// launch, no temporary storage, and the host polls a mapped word instead of
// synchronizing the stream.
#pragma once

#include "mpgpu/device/result_words.cuh"
#include "mpgpu/limb/arith.cuh"

namespace mpgpu::device {

inline constexpr int kPopcountThreads = 256;

/// Limbs up to which one block counts and hands the count to the host
/// directly (ResultWords::publish_ready): 64 KiB, about 1 us of one SM's
/// loads, less than the slots' atomics, fences and arrival count.
inline constexpr std::size_t kPopcountOneBlockLimbs = 8192;

/// words.slot[slot] += popcount(a[0..n)); publishes when the last block is
/// done. `ready`: a grid of one block publishing through the ready word.
__global__ void __launch_bounds__(kPopcountThreads)
    popcount_kernel(const limb_t* __restrict__ a, std::size_t n, ResultWords words, int slot, bool ready) {
#if defined(__CUDACC__)
  unsigned long long count = 0;
  const std::size_t stride = std::size_t(gridDim.x) * kPopcountThreads;
  std::size_t i = std::size_t(blockIdx.x) * kPopcountThreads + threadIdx.x;
  // Four loads in flight a thread (coalesced across the warp) before counting.
  for (; i + 3 * stride < n; i += 4 * stride) {
    const limb_t x0 = a[i], x1 = a[i + stride], x2 = a[i + 2 * stride], x3 = a[i + 3 * stride];
    count += limb::popcount(x0) + limb::popcount(x1) + limb::popcount(x2) + limb::popcount(x3);
  }
  for (; i < n; i += stride) count += limb::popcount(a[i]);
#pragma unroll
  for (int d = 16; d > 0; d /= 2) count += __shfl_xor_sync(0xffffffffu, count, d);
  __shared__ unsigned long long warp_count[kPopcountThreads / 32];
  if (threadIdx.x % 32 == 0) warp_count[threadIdx.x / 32] = count;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long total = 0;
#pragma unroll
    for (int w = 0; w < kPopcountThreads / 32; ++w) total += warp_count[w];
    if (ready) words.publish_ready(total);
    else if (total) atomicAdd(&words.slot[slot], total);
  }
  if (!ready) words.publish_when_last();
#endif
}

}  // namespace mpgpu::device
