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

/// lo[i] = low word of sum_j terms[j][i]; hi[i + 1] = its high word; hi[0] = 0.
/// For i in [0, width).
__global__ void column_sum_kernel(limb_t* __restrict__ lo, limb_t* __restrict__ hi,
                                  const ColumnTerm* __restrict__ terms, std::size_t count, std::size_t width) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i == 0) hi[0] = 0;
  if (i >= width) return;
  limb_t acc_lo = 0, acc_hi = 0;
  for (std::size_t j = 0; j < count; ++j) {
    const ColumnTerm t = terms[j];
    if (i < t.size) acc_hi += limb::add_with_carry(acc_lo, t.limbs[i], 0, acc_lo);
  }
  lo[i] = acc_lo;
  hi[i + 1] = acc_hi;
}

}  // namespace mpgpu::device
