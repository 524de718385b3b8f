// The kernels of the device NTT (block_ntt.cuh): the twiddle-table kernel, and
// the pass kernels, which only set up shared memory and run block_pass_body
// (block_ntt_agent.cuh). Launched by block_ntt_dispatch.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/ntt/block_ntt_agent.cuh"
#include "mpgpu/ntt/block_ntt_args.cuh"
#include "mpgpu/ntt/block_plan.hpp"

namespace mpgpu::ntt {

/// Fills the tables of BlockTableLayout::make(log_n) at `out`; w: a primitive
/// 2^log_n-th root (plain residue), w_inv its inverse. One entry per thread
/// (a pow and a 64-step Shoup division: set-up only, cached by the caller).
static __global__ void block_table_kernel(ulonglong2* out, field::PrimeField64 f, std::uint64_t w,
                                          std::uint64_t w_inv, int log_n) {
  const BlockTableLayout l = BlockTableLayout::make(log_n);
  std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= l.entries()) return;
  std::uint64_t root = w, e = 0;
  if (i < 2 * l.inner_count) {
    if (i >= l.inner_count) {
      root = w_inv;
      i -= l.inner_count;
    }
    int j = 0;  // row: 2^j - 1 <= i < 2^(j+1) - 1
    while ((std::size_t{2} << j) - 1 <= i) ++j;
    e = j < log_n ? std::uint64_t(i + 1 - (std::size_t{1} << j)) << (log_n - 1 - j) : 0;
  } else {
    i -= 2 * l.inner_count;
    const std::size_t half = l.lo_count + l.hi_count;
    if (i >= half) {
      root = w_inv;
      i -= half;
    }
    e = i < l.lo_count ? std::uint64_t(i) : std::uint64_t(i - l.lo_count) << l.cross_bits;
  }
  const std::uint64_t v = f.pow(root, e);
  out[blockIdx.x * std::size_t{blockDim.x} + threadIdx.x] = make_ulonglong2(v, f.shoup(v));
}

/// One pass (see block_plan.hpp). Launch with 2^(k+log_c-4) threads (at
/// least 1) per block, block_smem_bytes(k+log_c) of dynamic shared memory,
/// and ceil(total_groups / 2^log_c) blocks.
template <bool kForward, bool kLazy, int kThreads = kBlockMaxThreads, int kMinBlocks = 1>
__global__ void __launch_bounds__(kThreads, kMinBlocks) block_pass_kernel(const BlockPassArgs a) {
  extern __shared__ std::uint64_t block_smem[];
  block_pass_body<kForward, kLazy, 0>(a, block_smem);
}

/// A lazy pass of kK stages over tiles of 2^kBlockMultiPassTileLog elements
/// (2^(12 - kK) columns, 256 threads, three blocks an SM as the generic
/// kernel of that tile), its shape compiled in: the several-pass transforms'
/// common passes (launch_block_pass_direction says which).
///
/// Three blocks an SM: four (64 registers, a small spill) sped up one pass
/// but slowed the inverse transform, and launching the passes as dependent
/// grids gained nothing beyond the spread of the runs
/// (docs/tuning-history.md, "NTT kernels").
template <bool kForward, int kK>
__global__ void __launch_bounds__(1 << (kBlockMultiPassTileLog - kBlockPerThreadLog), 3)
    block_pass_fixed_kernel(const BlockPassArgs a) {
  extern __shared__ std::uint64_t block_smem[];
  block_pass_body<kForward, true, kK>(a, block_smem);
}

}  // namespace mpgpu::ntt
