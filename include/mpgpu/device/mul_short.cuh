// Column (schoolbook) products on the device. Column k of a * b is
// C_k = sum_j a[k-j] b[j] < nb 2^128: three words c0 + c1 2^64 + c2 2^128,
// written into three vectors at positions k, k+1 and k+2; a column sum and
// one scan add then resolve the carries (cuda/mul_short.cu).
// - b.size <= kMulShortMaxLimbs: a thread per column, time and memory linear
//   in a.size (mul_short_columns_kernel).
// - b.size <= kMulSchoolbookMaxLimbs: a warp per column, the terms split
//   across the lanes and summed by shuffles (mul_columns_warp_kernel):
//   na * nb products in all, for small and mid-size operands, where the
//   three NTTs' fixed costs (some 20 launches) dominate.
#pragma once

#include "mpgpu/limb/arith.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

/// Longest b of the warp-per-column kernel: b sits in up to 64 KiB of
/// shared memory (three blocks an SM), and columns stay below 2^13 2^128.
inline constexpr std::size_t kMulSchoolbookMaxLimbs = 8192;
/// Threads of mul_columns_warp_kernel's blocks.
inline constexpr int kMulColumnsThreads = 256;

/// Longest short operand: columns stay below 32 * 2^128, so c2 < 32 and the
/// column's three words never overflow.
inline constexpr std::size_t kMulShortMaxLimbs = 32;

/// Column k's words into the three vectors (see the file comment); column 0
/// also writes the words no column covers.
__device__ __forceinline__ void store_column(limb_t* lo, limb_t* mid, limb_t* top, std::size_t k, limb_t c0,
                                             limb_t c1, limb_t c2) {
  lo[k] = c0;
  mid[k + 1] = c1;
  top[k + 2] = c2;
  if (k == 0) {
    mid[0] = 0;
    top[0] = 0;
    top[1] = 0;
  }
}

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
    for (int j = j_lo; j <= j_hi; ++j) limb::mul_accumulate(a[k - j], sb[j], c0, c1, c2);
    store_column(lo, mid, top, k, c0, c1, c2);
  }
#endif
}

/// As mul_short_columns_kernel for nb <= kMulSchoolbookMaxLimbs (nb <= na),
/// a warp per column: lane l takes the terms j = j_lo + l, j_lo + l + 32, ...
/// (consecutive lanes read consecutive limbs of a, descending, and of b in
/// shared memory), then a shuffle tree adds the lanes' three-word sums.
/// Launch with kMulColumnsThreads threads and nb * 8 bytes of dynamic shared
/// memory (above 48 KiB after raising the kernel's limit); warps stride over
/// the columns (warp-uniform trip counts).
__global__ void __launch_bounds__(kMulColumnsThreads)
    mul_columns_warp_kernel(limb_t* __restrict__ lo, limb_t* __restrict__ mid, limb_t* __restrict__ top,
                            const limb_t* __restrict__ a, std::size_t na, const limb_t* __restrict__ b,
                            std::size_t nb) {
#if defined(__CUDACC__)
  extern __shared__ limb_t sb_columns[];
  for (std::size_t i = threadIdx.x; i < nb; i += blockDim.x) sb_columns[i] = b[i];
  __syncthreads();
  constexpr int kWarps = kMulColumnsThreads / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t columns = na + nb - 1;
  for (std::size_t k = std::size_t(blockIdx.x) * kWarps + threadIdx.x / 32; k < columns;
       k += std::size_t(gridDim.x) * kWarps) {
    limb_t c0 = 0, c1 = 0, c2 = 0;
    const std::size_t j_lo = k + 1 > na ? k + 1 - na : 0;
    const std::size_t j_end = k < nb ? k + 1 : nb;  // terms j_lo <= j < j_end
    for (std::size_t j = j_lo + lane; j < j_end; j += 32) limb::mul_accumulate(a[k - j], sb_columns[j], c0, c1, c2);
#pragma unroll
    for (int d = 16; d > 0; d /= 2) {
      const limb_t o0 = __shfl_down_sync(0xffffffffu, c0, d);
      const limb_t o1 = __shfl_down_sync(0xffffffffu, c1, d);
      const limb_t o2 = __shfl_down_sync(0xffffffffu, c2, d);
      const unsigned carry0 = limb::add_with_carry(c0, o0, 0, c0);
      const unsigned carry1 = limb::add_with_carry(c1, o1, carry0, c1);
      c2 += o2 + carry1;
    }
    if (lane == 0) store_column(lo, mid, top, k, c0, c1, c2);
  }
#endif
}

}  // namespace mpgpu::device
