// Matrix products modulo a word-size prime p on the host (g++ only, no device
// code, no BLAS: we do not link a CPU BLAS, the kernels are our own
// cache-blocked loops). Exact:
//
//   matmul   C = A B mod p, A m x k, B k x n, C m x n, all row-major with
//            leading dimensions lda >= k, ldb >= n, ldc >= n (elements);
//   matvec   y = A x mod p, A m x k (lda >= k), x of length k, y of length m.
//
// Residues are uint64 (p < 2^64) or double (integers, p - 1 < 2^52, as in
// dot_host.hpp). Two methods, from dot_host.hpp's Method (docs/dot.md):
//
//   fp_naive         FFLAS-FFPACK delayed reduction in FP64: k is split into
//                    blocks of kb = floor((2^53 - 1) / (p-1)^2) terms, so
//                    kb (p-1)^2 < 2^53 and every block sum is an exact
//                    double; each entry is reduced once per block. Needs
//                    (p-1)^2 < 2^53 (p <= 94906249). uint64 residues are
//                    converted to double copies first (exact below 2^53).
//   integer_delayed  64-bit (p - 1 < 2^32 and a block of >= 16 terms) or
//                    128-bit accumulators, reduced every
//                    floor((2^w - 1) / (p-1)^2) terms, w = 64 or 128, so the
//                    accumulator cannot overflow; any prime p < 2^64 (for
//                    double residues p - 1 < 2^52; they are converted to
//                    uint64 copies).
//   automatic        fp_naive when admissible (p <= 94906249) and its blocks
//                    are long (>= 64 terms, or all of k), else
//                    integer_delayed (choose_matmul_method).
//   fp_lambda / fp_abcd are dot-only for now and rejected here.
//
// Every call checks, before reading an element, that p is a prime >= 2
// (field::is_prime), the method's bound on p, leading dimensions, non-null
// pointers for non-empty operands and that C (y) does not overlap A or B
// (x); then that every element of A and B is a residue in [0, p) (an integer,
// for doubles). Violations throw mpgpu::InvalidArgument naming the function
// and the bound or the first bad element ("A[2][5]"); C is untouched then.
// k = 0 gives C = 0. Host only; the GPU versions (cuBLAS DGEMM k-blocks and an
// integer kernel) are in mpgpu/dot.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpgpu/dot/dot_host.hpp"

namespace mpgpu::dot {

/// Throws mpgpu::InvalidArgument (stating the violated bound) unless matmul
/// accepts method `m` (not `automatic`) with modulus p for residues `r`
/// (Residue::u64 or Residue::f64; u32 is not a matmul type).
void check_matmul_admissible(Method m, Residue r, std::uint64_t p);

/// Whether check_matmul_admissible would pass.
bool is_matmul_admissible(Method m, Residue r, std::uint64_t p) noexcept;

/// The method `automatic` runs for inner dimension k and n columns of B
/// (n = 1 for matvec): fp_naive when admissible and either its block holds
/// all k terms or at least 64 (fewer reductions than that cost more than the
/// integer path; docs/dot.md), except uint64 matvec; else integer_delayed.
/// Throws like check_matmul_admissible when neither method takes p.
Method choose_matmul_method(Residue r, std::uint64_t p, std::size_t k, std::size_t n = 2);

/// Terms of the inner dimension summed between two reductions of an entry:
/// fp_naive's FFLAS block floor((2^53-1)/(p-1)^2); integer_delayed's
/// floor((2^64-1)/(p-1)^2) (64-bit accumulators) or floor((2^128-1)/(p-1)^2)
/// capped at 2^63 (128-bit). Throws like check_matmul_admissible.
std::uint64_t matmul_reduction_block(Method m, Residue r, std::uint64_t p);

// ---- C = A B mod p (row-major; C must not overlap A or B) -------------------------
void matmul(std::uint64_t* C, std::size_t ldc, const std::uint64_t* A, std::size_t lda,
            const std::uint64_t* B, std::size_t ldb, std::size_t m, std::size_t n, std::size_t k,
            std::uint64_t p, Method method = Method::automatic);
void matmul(double* C, std::size_t ldc, const double* A, std::size_t lda, const double* B,
            std::size_t ldb, std::size_t m, std::size_t n, std::size_t k, std::uint64_t p,
            Method method = Method::automatic);

// ---- y = A x mod p (x, y contiguous; y must not overlap A or x) -------------------
void matvec(std::uint64_t* y, const std::uint64_t* A, std::size_t lda, const std::uint64_t* x,
            std::size_t m, std::size_t k, std::uint64_t p, Method method = Method::automatic);
void matvec(double* y, const double* A, std::size_t lda, const double* x, std::size_t m,
            std::size_t k, std::uint64_t p, Method method = Method::automatic);

}  // namespace mpgpu::dot
