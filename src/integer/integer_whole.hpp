// The whole-number algorithms behind pow_ui, the roots, fac_ui, fib_ui,
// lucnum_ui, bin_uiui, sizeinbase and the gcds on a CUDA context
// (integer_powers.cpp, integer_roots.cpp, integer_sequences.cpp,
// integer_gcd.cpp). They use
// only Integer operations plus GMP on host mpz values for the small first
// steps, so the CPU context runs exactly the same algorithm: the tests call
// them there with small crossovers (tests/integer/whole_algorithms.cpp) and
// compare with GMP. `host_max_limbs` is the crossover: values below it are
// computed with GMP on the host, then copied once into the context.
// Private to the library.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpgpu/integer.hpp"

namespace mpgpu::detail {

/// r = base^exp: |base| = b * 2^t with b odd; b^e by GMP for the top bits of
/// exp while the power stays below host_max_limbs, then left-to-right
/// squarings (and products by b) in the context; the 2^(t exp) as one shift.
void pow_ui_split(Integer& r, const Integer& base, std::uint64_t exp, std::size_t host_max_limbs, Stream s);

/// r = floor(a^(1/k)) for a >= 0, k >= 1 (the caller checks signs): the
/// root of a >> (k t) recursively, x = (that + 1) << t >= the root, one
/// Newton step from above and a correction by the sign of a - x^k. Returns
/// whether the root is exact; if `rem` is not null it receives a - r^k.
bool root_newton(Integer& r, Integer* rem, const Integer& a, std::uint64_t k, std::size_t host_max_limbs,
                 Stream s);

/// F(n) into `fib` and/or L(n) into `luc` (either may be null; distinct):
/// (F(m), F(m-1)) by GMP while they stay below host_max_limbs, then the
/// doubling F(2m+1) = 4F(m)^2 - F(m-1)^2 + 2(-1)^m, F(2m-1) = F(m)^2 +
/// F(m-1)^2 (two squarings a step) in the context.
void fib_lucas_doubling(Integer* fib, Integer* luc, std::uint64_t n, std::size_t host_max_limbs,
                        const Context& ctx, Stream s);

/// r = lo * (lo + 1) * ... * (hi - 1) (1 for lo >= hi): leaves of about
/// leaf_limbs limbs multiplied by GMP on host threads, the tree above them
/// multiplied in the context, a level at a time.
void range_product(Integer& r, std::uint64_t lo, std::uint64_t hi, std::size_t leaf_limbs, const Context& ctx,
                   Stream s);

/// r = binomial(n, k) for k <= n as (n - k + 1) ... n / k!, both
/// range_product, the exact quotient taken from their top bits only.
void binomial_by_products(Integer& r, std::uint64_t n, std::uint64_t k, std::size_t leaf_limbs, const Context& ctx,
                          Stream s);

/// r = binomial(n, k) (0 for k > n; n < 2^63, the sieve's bound) as the
/// product of the prime powers p^e <= n that divide it (Kummer: e counts
/// the borrows of n - k in base p), from a segmented sieve up to n whose
/// segments, exponents and packing of powers into words run on host
/// threads; leaves of about leaf_limbs limbs by GMP on host threads, the
/// tree above them in the context.
void binomial_by_primes(Integer& r, std::uint64_t n, std::uint64_t k, std::size_t leaf_limbs, const Context& ctx,
                        Stream s);

/// g = gcd(a, b) and, if s is not null, the cofactor s of a that
/// mpz_gcdext would give, for a, b != 0: the half-gcd recursion
/// (integer_gcd.cpp) above host_max_limbs limbs, GMP below. Returns false,
/// changing nothing, when this libgmp lacks the half-gcd it builds on or a
/// check of the recursion failed; the caller then asks GMP.
bool gcd_by_half_gcd(Integer& g, Integer* s, const Integer& a, const Integer& b, std::size_t host_max_limbs);

/// The exact number of digits of |a| in `base` (3..62, not a power of two; 1 for zero):
/// d from the bit length, then |a| < base^d decides between d and d + 1,
/// with the power made by pow_ui_split.
std::uint64_t digits_by_comparison(const Integer& a, int base, std::size_t host_max_limbs, Stream s);

}  // namespace mpgpu::detail
