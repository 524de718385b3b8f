// Products with a short operand (a few limbs) on the device: a * b with
// b.size <= kMulShortMaxLimbs, in time and memory linear in a.size, instead
// of NTTs of the full product length. Each thread forms one column
// C_k = sum_j a[k-j] b[j] (< nb 2^128, three words c0 + c1 2^64 + c2 2^128)
// and writes its words into three vectors at positions k, k+1 and k+2; a
// column sum and one scan add then resolve the carries (cuda/mul_short.cu).
#pragma once

#include "mpgpu/limb/arith.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

/// Longest short operand: columns stay below 32 * 2^128, so c2 < 32 and the
/// column's three words never overflow.
inline constexpr std::size_t kMulShortMaxLimbs = 32;

/// lo[k] = c0, mid[k+1] = c1, top[k+2] = c2 for k in [0, na + nb - 1);
/// mid[0] = top[0] = top[1] = 0. b (nb <= kMulShortMaxLimbs limbs) is read
/// once per block into shared memory.
__global__ void mul_short_columns_kernel(limb_t* __restrict__ lo, limb_t* __restrict__ mid, limb_t* __restrict__ top,
                                         const limb_t* __restrict__ a, std::size_t na,
                                         const limb_t* __restrict__ b, int nb) {
#if defined(__CUDACC__)
  __shared__ limb_t sb[kMulShortMaxLimbs];
  if (threadIdx.x < nb) sb[threadIdx.x] = b[threadIdx.x];
  __syncthreads();
  const std::size_t columns = na + nb - 1;
  for (std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; k < columns;
       k += std::size_t(gridDim.x) * blockDim.x) {
    limb_t c0 = 0, c1 = 0, c2 = 0;
    const int j_lo = k + 1 > na ? static_cast<int>(k + 1 - na) : 0;
    const int j_hi = k < std::size_t(nb - 1) ? static_cast<int>(k) : nb - 1;
    for (int j = j_lo; j <= j_hi; ++j) c2 += limb::mul_add(a[k - j], sb[j], 0, c0, c1);
    lo[k] = c0;
    mid[k + 1] = c1;
    top[k + 2] = c2;
    if (k == 0) {
      mid[0] = 0;
      top[0] = 0;
      top[1] = 0;
    }
  }
#endif
}

}  // namespace mpgpu::device
