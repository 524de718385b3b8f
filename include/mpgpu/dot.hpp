// The public dot and matrix products mod p: the host entry point of the
// dot/ module, beside ntt.hpp. Every function takes a Context: on a CUDA
// context the vectors and matrices are DEVICE pointers and the work runs on
// the GPU (src/cuda/dot_device.cu, matmul_*.cu); on a CPU context they are
// host pointers and the call is the host implementation
// (mpgpu/dot/dot_host.hpp, mpgpu/dot/matmul_host.hpp, which also hold
// Method, Residue and the admissibility checks), so the same code serves
// both backends. g++ compiles this header.
//
// Dots: methods, residue types and bounds are dot_host.hpp's (docs/dot.md):
// the same check_admissible runs first and throws the same
// mpgpu::InvalidArgument before any element is read. Elements are then
// checked on the device, fused into the dot kernel: a value >= p (or, for
// doubles, negative, fractional or NaN) fails the call with an
// InvalidArgument naming the first bad index ("a[7]", "dot 2, b[4]"), and no
// output is written. Every call synchronizes the stream it runs on (to read
// that verdict); `s` = nullptr means the context's stream. Inputs must be
// ready on that stream. `automatic` on the device (choose_device_method) may
// differ from the host: see docs/dot.md, "Automatic choice on the GPU".
//
// Matrix products: conventions, residue types, methods and checks are
// matmul_host.hpp's: row-major A (m x k, lda >= k), B (k x n, ldb >= n),
// C (m x n, ldc >= n); matvec y = A x with x, y contiguous. Exact. On the
// GPU (docs/dot.md):
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
#include "mpgpu/dot/dot_host.hpp"
#include "mpgpu/dot/matmul_host.hpp"

namespace mpgpu::dot {

/// The method `automatic` runs on a CUDA context (throws like
/// check_admissible when none is admissible).
Method choose_device_method(Residue r, std::uint64_t p, std::size_t n);

// ---- single: returns sum a[i] * b[i] mod p, i < n ----------------------------------
std::uint64_t dot(const Context& ctx, const std::uint32_t* a, const std::uint32_t* b, std::size_t n,
                  std::uint64_t p, Method m = Method::automatic, Stream s = nullptr);
std::uint64_t dot(const Context& ctx, const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
                  std::uint64_t p, Method m = Method::automatic, Stream s = nullptr);
std::uint64_t dot(const Context& ctx, const double* a, const double* b, std::size_t n, std::uint64_t p,
                  Method m = Method::automatic, Stream s = nullptr);

// ---- strided: sum a[i * stride_a] * b[i * stride_b] mod p (strides >= 1) ----------
std::uint64_t dot_strided(const Context& ctx, const std::uint32_t* a, std::size_t stride_a,
                          const std::uint32_t* b, std::size_t stride_b, std::size_t n, std::uint64_t p,
                          Method m = Method::automatic, Stream s = nullptr);
std::uint64_t dot_strided(const Context& ctx, const std::uint64_t* a, std::size_t stride_a,
                          const std::uint64_t* b, std::size_t stride_b, std::size_t n, std::uint64_t p,
                          Method m = Method::automatic, Stream s = nullptr);
std::uint64_t dot_strided(const Context& ctx, const double* a, std::size_t stride_a, const double* b,
                          std::size_t stride_b, std::size_t n, std::uint64_t p, Method m = Method::automatic,
                          Stream s = nullptr);

// ---- batched: out[k] = dot(a + k*n, b + k*n, n) for k < count ----------------------
// `out` is device memory on a CUDA context; it is written only when every
// element of every dot is a residue.
void dot_batched(const Context& ctx, std::uint64_t* out, const std::uint32_t* a, const std::uint32_t* b,
                 std::size_t count, std::size_t n, std::uint64_t p, Method m = Method::automatic,
                 Stream s = nullptr);
void dot_batched(const Context& ctx, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b,
                 std::size_t count, std::size_t n, std::uint64_t p, Method m = Method::automatic,
                 Stream s = nullptr);
void dot_batched(const Context& ctx, std::uint64_t* out, const double* a, const double* b, std::size_t count,
                 std::size_t n, std::uint64_t p, Method m = Method::automatic, Stream s = nullptr);

// ---- the benchmark baseline ------------------------------------------------------------
/// sum a[i] b[i] mod p with one 128-bit `%` per term (no delayed reduction):
/// what bench/dot_device_bench.cu compares the methods against. Same checks
/// as dot() with integer_delayed.
std::uint64_t dot_reduce_every_term(const Context& ctx, const std::uint32_t* a, const std::uint32_t* b,
                                    std::size_t n, std::uint64_t p, Stream s = nullptr);
std::uint64_t dot_reduce_every_term(const Context& ctx, const std::uint64_t* a, const std::uint64_t* b,
                                    std::size_t n, std::uint64_t p, Stream s = nullptr);
std::uint64_t dot_reduce_every_term(const Context& ctx, const double* a, const double* b, std::size_t n,
                                    std::uint64_t p, Stream s = nullptr);

// ---- matrix products mod p ---------------------------------------------------------
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
