// The device division paths behind integer_div.cpp, which handles checks,
// signs of the CPU backend and the host GMP fallback. Private to the library.
#pragma once

#include "integer_internal.hpp"

namespace mpgpu::detail {

/// How a quotient is rounded (GMP's tdiv, fdiv, cdiv).
enum class Rounding { trunc, floor, ceil };

/// Whether n / q rounded this way needs q + 1 in magnitude when the
/// remainder is nonzero: floor with operands of opposite signs, ceil with
/// operands of the same sign (then r = sign_d * (|r| - |d|)).
inline bool rounds_away(Rounding rd, int n_sign, int d_sign) {
  return (rd == Rounding::floor && n_sign != d_sign) || (rd == Rounding::ceil && n_sign == d_sign);
}

// ---- one-limb divisors: the scan of src/cuda/div_limb.cu (integer_div_limb.cpp) ----
/// q and/or r (either may be null, not both; distinct) = n / (d_sign * d)
/// rounded as `rd`, for n of a CUDA context and d != 0. With a single
/// result, no rounding away from zero and !wait, nothing waits (the result's
/// size is deferred) and this returns 0; otherwise it waits for the device
/// and returns |n| mod d.
limb_t divide_by_limb(Integer* q, Integer* r, const Integer& n, limb_t d, int d_sign, Rounding rd, bool wait,
                      Stream s);
/// |n| mod d on the device (waits for it).
limb_t remainder_by_limb(const Integer& n, limb_t d, Stream s);

// ---- large divisors: Newton reciprocal on the NTT product (integer_div_newton.cpp) ----
/// Divisor size (limbs) from which a CUDA context divides on the device by a
/// Newton reciprocal; see the definition for how it was chosen.
bool newton_division_applies(const Integer& n, const Integer& d);
/// q and/or r (either may be null; distinct) of n / (d_sign * |d|) rounded
/// as `rd`, on the device, for the sizes newton_division_applies accepts.
void divide_newton(Integer* q, Integer* r, const Integer& n, const Integer& d, int d_sign, Rounding rd,
                   Stream s);

/// |d| with its Newton reciprocal, made once for many divisions of
/// nonnegative dividends of up to `max_dividend_bits` bits (Barrett
/// reduction: each division then costs two products and a few
/// comparisons). Device operations only, as divide_newton.
class NewtonDivisor {
 public:
  NewtonDivisor(const Integer& d, std::uint64_t max_dividend_bits, Stream s);
  /// N = Q |d| + R with 0 <= R < |d|, for 0 <= N below 2^max_dividend_bits;
  /// Q is skipped when null. R must not be N.
  void divide(Integer* Q, Integer& R, const Integer& N, Stream s) const;
  const Integer& magnitude() const { return D_; }

  // For dividing many dividends at once (the radix conversion's rows): for
  // 0 <= N < 2^max_dividend_bits() and any j <= max_truncation(),
  // Q' = floor(floor(N / 2^j) X / 2^(quotient_shift() - j)), X = reciprocal(),
  // is within 2 of floor(N / |d|) (see the file comment of
  // integer_div_newton.cpp).
  const Integer& reciprocal() const { return X_; }
  std::uint64_t quotient_shift() const { return sbits_ + k_; }
  std::uint64_t max_dividend_bits() const;
  std::uint64_t max_truncation() const;

 private:
  Integer D_, X_;
  std::uint64_t k_ = 0, sbits_ = 0;
};

/// r = base^exp mod |m| for exp >= 0 and |m| > 1 by Barrett reduction with
/// one NewtonDivisor of |m| (integer_number_theory.cpp): what powm runs on a
/// CUDA context for moduli of kDeviceDivisionMinLimbs limbs and more; it
/// uses only Integer operations, so a CPU context runs it too (the tests).
void powm_barrett(Integer& r, const Integer& base, const Integer& exp, const Integer& m, Stream s);

}  // namespace mpgpu::detail
