// Element-wise kernels of the huge product after its transforms (Garner
// CRT and column sums). The transforms themselves moved to block_ntt.cuh
// (pass schedule in block_plan.hpp); the operand load, the pointwise product
// and the scaling are fused into their first and last passes.
// The kernels are static: several .cu files may include this header.
#pragma once

#include "mpgpu/limb/arith.cuh"
#include "mpgpu/ntt/crt3.cuh"

namespace mpgpu::ntt {

/// In place: (x1[i], x2[i], x3[i]) residues -> the three limbs of c_i.
static __global__ void crt_kernel(std::uint64_t* x1, std::uint64_t* x2, std::uint64_t* x3, Crt3 crt, std::size_t len) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < len;
       i += std::size_t{gridDim.x} * blockDim.x) {
    std::uint64_t c[3];
    crt.combine(x1[i], x2[i], x3[i], c);
    x1[i] = c[0];
    x2[i] = c[1];
    x3[i] = c[2];
  }
}

/// Column sums of sum_i c_i * 2^(64 i): lo[i] = low word of
/// c0[i] + c1[i-1] + c2[i-2], carry[i+1] = its high word (< 3), carry[0] = 0.
static __global__ void column_kernel(std::uint64_t* lo, std::uint64_t* carry, const std::uint64_t* c0,
                              const std::uint64_t* c1, const std::uint64_t* c2, std::size_t len) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < len;
       i += std::size_t{gridDim.x} * blockDim.x) {
    std::uint64_t s = c0[i];
    std::uint64_t h = 0;
    if (i >= 1) h += limb::add_with_carry(s, c1[i - 1], 0, s);
    if (i >= 2) h += limb::add_with_carry(s, c2[i - 2], 0, s);
    lo[i] = s;
    carry[i + 1] = h;
    if (i == 0) carry[0] = 0;
  }
}

}  // namespace mpgpu::ntt
