// The two device paths of the matrix products mod p, called by
// src/cuda/matmul_device.cu once the operands are checked.
#pragma once

#include <cuda_runtime.h>

#include "cuda/check.cuh"
#include "dot/dot_backend.hpp"

namespace mpgpu::detail::dot_cuda {

/// fp_naive: FFLAS delayed reduction through cuBLAS DGEMM on k-blocks
/// (src/cuda/matmul_dgemm.cu). Needs m, n, k, lda, ldb, ldc <= INT_MAX.
void matmul_dgemm(ContextState& st, cudaStream_t s, const MatArgs& args);

/// integer_delayed: tiled shared-memory kernel (matrix-matrix) or one warp
/// per row (matrix-vector, n = 1), 64x64 -> 128-bit products summed in
/// 192-bit accumulators, reduced once per entry (src/cuda/matmul_integer.cu).
void matmul_integer(ContextState& st, cudaStream_t s, const MatArgs& args);

/// Makes `device` current if it is not.
inline void activate_device(int device) {
  int current = -1;
  MPGPU_CUDA_CHECK(cudaGetDevice(&current));
  if (current != device) MPGPU_CUDA_CHECK(cudaSetDevice(device));
}

}  // namespace mpgpu::detail::dot_cuda
