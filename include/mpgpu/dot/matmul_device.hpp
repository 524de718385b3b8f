// Matrix products mod p in a Context (g++ compiles this header): on a CUDA
// context the matrices are DEVICE pointers and the product runs on the GPU;
// on a CPU context they are host pointers and the call is the host
// implementation (mpgpu/dot/matmul_host.hpp). Conventions, residue types,
// methods and checks are matmul_host.hpp's: row-major A (m x k, lda >= k),
// B (k x n, ldb >= n), C (m x n, ldc >= n); matvec y = A x with x, y
// contiguous. Exact.
//
// On the GPU (docs/dot.md):
//   fp_naive         cuBLAS DGEMM on k-blocks of the FFLAS bound
//                    kb (p-1)^2 < 2^53 (p <= 94906249), each block
//                    accumulated in FP64 and reduced exactly; uint64
//                    residues are copied to doubles first. Dimensions and
//                    leading dimensions must fit cuBLAS's int.
//   integer_delayed  a tiled shared-memory kernel (one warp per row for
//                    matvec) with 64x64 -> 128-bit products summed in
//                    192-bit accumulators, reduced once per entry; any
//                    prime p < 2^64 (p - 1 < 2^52 for doubles).
//   automatic        choose_device_matmul_method.
//
// Parameters are checked first (mpgpu::InvalidArgument naming the function
// and the bound), then every element of A and B on the device (the first
// bad one named, "A[2][5]", "x[11]"); C is written only after both passed.
// Every call synchronizes its stream (`s`, nullptr = the context's stream)
// once, to read the element check's verdict; the product itself is queued
// on `s` and may still run when the call returns (synchronize before
// reading C from another stream or the host).
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpgpu/context.hpp"
#include "mpgpu/dot/matmul_host.hpp"

namespace mpgpu::dot {

/// The method `automatic` runs on a CUDA context: fp_naive wherever it is
/// admissible and the shape fits cuBLAS, for matrix products (n >= 2);
/// integer_delayed for matrix-vector products (n = 1) and larger p. Throws
/// like check_matmul_admissible when neither method takes p.
Method choose_device_matmul_method(Residue r, std::uint64_t p, std::size_t m, std::size_t n, std::size_t k);

void matmul(const Context& ctx, std::uint64_t* C, std::size_t ldc, const std::uint64_t* A, std::size_t lda,
            const std::uint64_t* B, std::size_t ldb, std::size_t m, std::size_t n, std::size_t k, std::uint64_t p,
            Method method = Method::automatic, Stream s = nullptr);
void matmul(const Context& ctx, double* C, std::size_t ldc, const double* A, std::size_t lda, const double* B,
            std::size_t ldb, std::size_t m, std::size_t n, std::size_t k, std::uint64_t p,
            Method method = Method::automatic, Stream s = nullptr);

void matvec(const Context& ctx, std::uint64_t* y, const std::uint64_t* A, std::size_t lda, const std::uint64_t* x,
            std::size_t m, std::size_t k, std::uint64_t p, Method method = Method::automatic, Stream s = nullptr);
void matvec(const Context& ctx, double* y, const double* A, std::size_t lda, const double* x, std::size_t m,
            std::size_t k, std::uint64_t p, Method method = Method::automatic, Stream s = nullptr);

}  // namespace mpgpu::dot
