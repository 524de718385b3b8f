// Dot products modulo a word-size prime p on the host (g++ only, no device
// code): sum_i a_i * b_i mod p for residue vectors, single, batched and
// strided. Four algorithms (docs/dot.md gives the bounds and the proofs'
// sources):
//
//   integer_delayed  uint32/uint64 (and integral double) residues; products
//                    summed in a 64-bit (uint32 residues, p <= 2^30 + 1) or
//                    128-bit accumulator, reduced only every `block` terms,
//                    block = floor((2^w - 1) / (p-1)^2), w = 64 or 128.
//   fp_naive         double residues, FFLAS bound: (p-1)^2 < 2^53; products
//                    summed exactly in a double, fmod every
//                    floor((2^53 - 1) / (p-1)^2) terms.
//   fp_lambda        double residues, p - 1 < 2^52 (Jean & Graillat,
//                    Sec. IV-B): TwoProduct + ExtractScalar split each
//                    product into three field elements; one fmod per lambda
//                    terms, lambda = max{l : l * (p-1) < 2^52}.
//   fp_abcd          double residues, p - 1 < 2^52, n <= 2^25 (Jean & Graillat,
//                    Sec. IV-C, Algorithm 3): each product split into four
//                    quarters alpha..delta, summed with no reduction at all.
//   automatic        the fastest admissible one (order in docs/dot.md).
//
// Every call checks its parameters before reading any element (so a rejected
// length never touches memory), then that every element is a residue in
// [0, p) (an integer, for doubles), and throws mpgpu::InvalidArgument naming
// the bound or the first offending index. The fp_lambda and fp_abcd kernels
// run with rounding toward zero, set and restored around the call.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mpgpu::dot {

enum class Method { integer_delayed, fp_naive, fp_lambda, fp_abcd, automatic };

/// "integer_delayed", "fp_naive", ...
const char* method_name(Method m);

/// Longest vector any call accepts: 2^31 elements.
inline constexpr std::size_t max_length = std::size_t{1} << 31;

/// Longest vector fp_abcd accepts: 2^25 (the paper states 2^26; see
/// docs/dot.md for why the gamma sum needs one bit more headroom).
inline constexpr std::size_t abcd_max_length = std::size_t{1} << 25;

/// Which residue type a call passes (methods differ in what they accept).
enum class Residue { u32, u64, f64 };

/// Throws mpgpu::InvalidArgument (stating the violated bound) unless `m`
/// (not `automatic`) accepts p and length n for residues of type `r`.
void check_admissible(Method m, Residue r, std::uint64_t p, std::size_t n);

/// Whether check_admissible would pass.
bool is_admissible(Method m, Residue r, std::uint64_t p, std::size_t n) noexcept;

/// The method `automatic` runs for these parameters (throws like
/// check_admissible when none is admissible).
Method choose_method(Residue r, std::uint64_t p, std::size_t n);

/// Terms summed between two reductions by `m` for modulus p: integer_delayed
/// with 64-bit (u32 residues) or 128-bit accumulators (u64, f64 residues),
/// fp_naive's FFLAS block, fp_lambda's lambda; fp_abcd never reduces and
/// returns abcd_max_length. Throws like check_admissible for bad p.
std::uint64_t reduction_block(Method m, Residue r, std::uint64_t p);

// ---- single dot products: returns sum a[i] * b[i] mod p, i < n -------------------
std::uint64_t dot(const std::uint32_t* a, const std::uint32_t* b, std::size_t n,
                  std::uint64_t p, Method m = Method::automatic);
std::uint64_t dot(const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
                  std::uint64_t p, Method m = Method::automatic);
std::uint64_t dot(const double* a, const double* b, std::size_t n, std::uint64_t p,
                  Method m = Method::automatic);

// ---- strided: sum a[i * stride_a] * b[i * stride_b] mod p (strides >= 1) --------
std::uint64_t dot_strided(const std::uint32_t* a, std::size_t stride_a, const std::uint32_t* b,
                          std::size_t stride_b, std::size_t n, std::uint64_t p,
                          Method m = Method::automatic);
std::uint64_t dot_strided(const std::uint64_t* a, std::size_t stride_a, const std::uint64_t* b,
                          std::size_t stride_b, std::size_t n, std::uint64_t p,
                          Method m = Method::automatic);
std::uint64_t dot_strided(const double* a, std::size_t stride_a, const double* b,
                          std::size_t stride_b, std::size_t n, std::uint64_t p,
                          Method m = Method::automatic);

// ---- batched: out[k] = dot(a + k*n, b + k*n, n) for k < count --------------------
// All inputs are validated before `out` is written.
void dot_batched(std::uint64_t* out, const std::uint32_t* a, const std::uint32_t* b,
                 std::size_t count, std::size_t n, std::uint64_t p,
                 Method m = Method::automatic);
void dot_batched(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b,
                 std::size_t count, std::size_t n, std::uint64_t p,
                 Method m = Method::automatic);
void dot_batched(std::uint64_t* out, const double* a, const double* b, std::size_t count,
                 std::size_t n, std::uint64_t p, Method m = Method::automatic);

}  // namespace mpgpu::dot
