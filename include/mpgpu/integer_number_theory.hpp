// The Integer API's powers and roots, number theory (gcd, inverses,
// factorials, Fibonacci and Lucas numbers, binomial coefficients) and exact
// digit counts: GMP's mpz functions of the same names, destination first.
// Part of mpgpu/integer.hpp, which includes it; included alone it brings
// integer.hpp in first.
#pragma once

#include <cstdint>

#include "mpgpu/integer.hpp"

namespace mpgpu {

// ---- powers and roots -------------------------------------------------------------
/// r = base^exp (0^0 = 1). Overflow if the result would exceed host GMP's
/// size limit (about 2^37 bits). On a CUDA context results above
/// kDevicePowerMinLimbs are squared up on the device.
void pow_ui(Integer& r, const Integer& base, std::uint64_t exp, Stream s = nullptr);
/// r = base^exp for machine words (mpz_ui_pow_ui); the result stays in r's context.
void ui_pow_ui(Integer& r, std::uint64_t base, std::uint64_t exp, Stream s = nullptr);
/// r = base^exp mod |m|, in [0, |m|). A negative exp uses the inverse of base
/// mod m: InvalidArgument if there is none. m == 0 throws DivisionByZero.
void powm(Integer& r, const Integer& base, const Integer& exp, const Integer& m, Stream s = nullptr);
// Roots on a CUDA context, for radicands of kDeviceSqrtMinLimbs (square
// roots) or kDeviceRootMinLimbs (k >= 3) limbs or
// more: the root of the top half of the bits (recursively), then one Newton
// step from above on the device (a division by x^(k-1)) and a check of x^k
// against a that corrects the last unit; below, GMP on the host.
/// r = floor(sqrt(a)); a < 0 throws InvalidArgument.
void sqrt(Integer& r, const Integer& a, Stream s = nullptr);
/// root = floor(sqrt(a)), rem = a - root^2; distinct objects; a < 0 throws.
void sqrtrem(Integer& root, Integer& rem, const Integer& a, Stream s = nullptr);
/// r = the k-th root of a truncated toward zero; returns whether it is exact
/// (mpz_root). k == 0, or an even k with a < 0, throws InvalidArgument.
bool root(Integer& r, const Integer& a, std::uint64_t k, Stream s = nullptr);
/// Whether a is a perfect square (0 and 1 are; negative numbers are not).
bool perfect_square_p(const Integer& a, Stream s = nullptr);

// ---- number theory ----------------------------------------------------------------
// On a CUDA context gcd, gcdext, lcm and invert of huge operands run the
// subquadratic half-gcd with its products on the device (GMP's half-gcd for
// the small parts); below the crossover, GMP on the host.
/// g = gcd(a, b) >= 0; gcd(0, 0) = 0.
void gcd(Integer& g, const Integer& a, const Integer& b, Stream s = nullptr);
/// g = gcd(a, b) = a*s + b*t with GMP's choice of s and t (mpz_gcdext);
/// g, s and t must be three different objects.
void gcdext(Integer& g, Integer& s, Integer& t, const Integer& a, const Integer& b,
            Stream stream = nullptr);
/// r = lcm(a, b) >= 0; 0 if either is 0.
void lcm(Integer& r, const Integer& a, const Integer& b, Stream s = nullptr);
/// r = a^-1 mod |m| in [0, |m|) and true, or false with r untouched when no
/// inverse exists. m == 0 throws DivisionByZero.
bool invert(Integer& r, const Integer& a, const Integer& m, Stream s = nullptr);
/// r = n! and r = F(n) (F(0) = 0, F(1) = 1). The result stays in r's context.
/// Overflow if it would exceed host GMP's size limit.
/// On a CUDA context, results above kDeviceSequenceMinLimbs are made on the
/// device: product trees (leaves by GMP on host threads) and the doubling
/// formulas (docs/integer.md, "Division and number theory").
void fac_ui(Integer& r, std::uint64_t n, Stream s = nullptr);
void fib_ui(Integer& r, std::uint64_t n, Stream s = nullptr);
/// r = L(n), the Lucas number (L(0) = 2, L(1) = 1), as mpz_lucnum_ui.
void lucnum_ui(Integer& r, std::uint64_t n, Stream s = nullptr);
/// r = binomial(n, k) (mpz_bin_uiui): 0 when k > n. The result stays in r's context.
void bin_uiui(Integer& r, std::uint64_t n, std::uint64_t k, Stream s = nullptr);
/// r = binomial(n, k) for any integer n (mpz_bin_ui): for n < 0,
/// binomial(n, k) = (-1)^k binomial(k - n - 1, k).
void bin_ui(Integer& r, const Integer& n, std::uint64_t k, Stream s = nullptr);

// ---- digit counts ------------------------------------------------------------------
/// The exact number of digits of |a| in `base` (2..62); 1 for zero. Unlike
/// mpz_sizeinbase, never one too many: for bases other than powers of two
/// it compares |a| with base^d (pow_ui) instead of converting the number.
/// InvalidArgument for a base out of range.
std::uint64_t sizeinbase(const Integer& a, int base, Stream s = nullptr);

}  // namespace mpgpu
