// Sum of many integers with delayed carries (seed 001 section 5): each
// thread owns one limb position and adds that limb of every term into a
// 128-bit accumulator, so no carry crosses threads here. The low words form
// one number, the high words (each < the term count) another, one limb
// higher; a single scan add of the two finishes the sum.
#pragma once

#include "mpgpu/limb/arith.cuh"

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

}  // namespace mpgpu::device
