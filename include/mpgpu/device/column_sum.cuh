// Sum of many integers with delayed carries: each
// thread owns one limb position and adds that limb of every term into a
// 128-bit accumulator, so no carry crosses threads here. The low words form
// one number, the high words (each < the term count) another, one limb
// higher; a single scan add of the two finishes the sum.
//
// A sum whose result fits one block (small_sum_kernel) does both in one
// launch, without the two intermediate numbers in memory.
#pragma once

#include "mpgpu/device/result_words.cuh"
#include "mpgpu/device/scan_add.cuh"  // warp_carry_scan
#include "mpgpu/limb/arith.cuh"
#include "mpgpu/limb/carry_status.cuh"

namespace mpgpu::device {

struct ColumnTerm {
  const limb_t* limbs;
  std::size_t size;
};

/// The terms of a column sum, passed by value: up to kInline in the kernel's
/// parameters (no copy to the device, so no wait for it), more in device
/// memory (`spilled`, count entries).
struct ColumnTerms {
  static constexpr int kInline = 16;
  ColumnTerm inline_terms[kInline];
  const ColumnTerm* spilled;
  std::size_t count;
  __device__ __forceinline__ ColumnTerm operator[](std::size_t j) const {
    return spilled ? spilled[j] : inline_terms[j];
  }
};

/// lo[i] = low word of sum_j terms[j][i]; hi[i + 1] = its high word; hi[0] = 0.
/// For i in [0, width).
__global__ void column_sum_kernel(limb_t* __restrict__ lo, limb_t* __restrict__ hi, const ColumnTerms terms,
                                  std::size_t width) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i == 0) hi[0] = 0;
  if (i >= width) return;
  limb_t acc_lo = 0, acc_hi = 0;
  for (std::size_t j = 0; j < terms.count; ++j) {
    const ColumnTerm t = terms[j];
    if (i < t.size) acc_hi += limb::add_with_carry(acc_lo, t.limbs[i], 0, acc_lo);
  }
  lo[i] = acc_lo;
  hi[i + 1] = acc_hi;
}

/// small_sum_kernel's geometry: one block of 256 threads, 8 limbs each.
struct SmallSumPolicy {
  static constexpr int kThreads = 256;
  static constexpr int kPerThread = 8;
  static constexpr int kWarps = kThreads / 32;
  /// Largest result (limbs) one launch sums: width + 1 <= kLimbs.
  static constexpr std::size_t kLimbs = std::size_t{kThreads} * kPerThread;
};

/// r[0..width] = the sum of `terms` (width = the longest term; width + 1 <=
/// SmallSumPolicy::kLimbs), as column_sum_kernel plus the scan add of its lo
/// and hi numbers, in one block: limb i of r is lo(i) + hi(i - 1) plus the
/// carry, the carries resolved by a block scan of carry statuses. Publishes
/// 1 + the index of the highest nonzero limb as kSlotSize (as the scan add
/// does). Launch one block of SmallSumPolicy::kThreads threads.
__global__ void __launch_bounds__(SmallSumPolicy::kThreads)
    small_sum_kernel(limb_t* __restrict__ r, const ColumnTerms terms, std::size_t width, ResultWords words) {
  using P = SmallSumPolicy;
  constexpr limb::CarryCombine combine{};
  __shared__ std::uint32_t warp_total[P::kWarps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t n = width + 1, first = std::size_t(threadIdx.x) * P::kPerThread;
  // Column sums (hi, lo) of limbs first - 1 .. first + kPerThread - 1 (entry
  // c is limb first - 1 + c), a term at a time: a term's loads are issued
  // together, not one column's chain of loads after another's.
  limb_t lo[P::kPerThread + 1] = {}, hi[P::kPerThread + 1] = {};
  for (std::size_t j = 0; j < terms.count; ++j) {
    const ColumnTerm t = terms[j];
    limb_t v[P::kPerThread + 1];
#pragma unroll
    for (int c = 0; c <= P::kPerThread; ++c) {
      const std::size_t i = first + c - 1;  // wraps for first == 0, c == 0: then >= t.size
      v[c] = i < t.size ? t.limbs[i] : 0;
    }
#pragma unroll
    for (int c = 0; c <= P::kPerThread; ++c) hi[c] += limb::add_with_carry(lo[c], v[c], 0, lo[c]);
  }
  // This thread's limbs: wrapped sums lo(i) + hi(i - 1) and their statuses.
  limb_t s[P::kPerThread];
  std::uint32_t st[P::kPerThread];
  std::uint32_t mine = limb::carry_propagate;  // identity of the combine
#pragma unroll
  for (int k = 0; k < P::kPerThread; ++k) {
    const std::size_t i = first + k;
    s[k] = lo[k + 1] + hi[k];
    st[k] = i < n ? limb::add_status(lo[k + 1], s[k]) : std::uint32_t(limb::carry_kill);
    mine = combine(mine, st[k]);
  }
  // Carry into this thread's first limb: a scan over the threads in order.
  const std::uint32_t incl = warp_carry_scan(mine, lane);
  const std::uint32_t below = __shfl_up_sync(0xffffffffu, incl, 1);
  if (lane == 31) warp_total[warp] = incl;
  __syncthreads();
  std::uint32_t prefix = limb::carry_kill;  // nothing carries into limb 0
  for (int w = 0; w < warp; ++w) prefix = combine(prefix, warp_total[w]);
  if (lane > 0) prefix = combine(prefix, below);
  unsigned carry = prefix == limb::carry_generate;
  unsigned long long top = 0;
#pragma unroll
  for (int k = 0; k < P::kPerThread; ++k) {
    const std::size_t i = first + k;
    const limb_t v = s[k] + carry;
    carry = st[k] == limb::carry_generate || (st[k] == limb::carry_propagate && carry);
    if (i < n) {
      r[i] = v;
      if (v != 0) top = i + 1;
    }
  }
  block_max_into<P::kWarps>(top, &words.slot[kSlotSize]);
  words.publish_when_last();
}

}  // namespace mpgpu::device
