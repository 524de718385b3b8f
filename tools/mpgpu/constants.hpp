// pi and e to any number of decimal digits, exactly (truncated, never
// rounded), with mpgpu::Integer on a given context: `mpgpu pi`, `mpgpu e`
// and the pi/e rows of `mpgpu bench --workloads`.
//
// Each constant c is first computed in fixed point, X ~ c * 10^(D + g),
// with an error below kFixedPointError units (pi_fixed_point,
// e_fixed_point). The D digits are then floor(X / 10^g) unless the g guard
// digits are within kFixedPointError of a carry (all 0s or all 9s, give or
// take the error): then the true value could lie on either side of a digit
// boundary, and the computation is repeated with more guard digits.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "mpgpu/integer.hpp"

namespace mpgpu::cli {

enum class Constant { pi, e };

/// "pi" or "e".
const char* constant_name(Constant c);
/// The integer part of the constant as a character ('3' or '2').
char constant_integer_digit(Constant c);

/// Progress of a long computation: the stage ("series", "square root",
/// "division", ...) and the fraction of it done (0 to 1).
using StageProgress = std::function<void(std::string_view stage, double fraction)>;

/// |X - c * 10^d| < kFixedPointError for the X the fixed-point functions return.
inline constexpr unsigned kFixedPointError = 10;

/// pi * 10^d within kFixedPointError: Chudnovsky's series by binary splitting
/// (P, Q, T), then 426880 * sqrt(10005 * 10^(2d)) * Q / T with an integer
/// square root and one division.
Integer pi_fixed_point(const Context& ctx, std::uint64_t d, const StageProgress& progress = {});
/// e * 10^d within kFixedPointError: sum of 1/k! for k < N by binary
/// splitting (P, Q), then floor((P + Q) * 10^d / Q).
Integer e_fixed_point(const Context& ctx, std::uint64_t d, const StageProgress& progress = {});

/// floor(scale * num / den) up to one unit plus a relative error of 2^-60,
/// for a result of at most `result_bits` bits: num and den are first
/// shifted right together to about result_bits + 64 bits, since the lower
/// bits of a binary-splitting P, Q or T cannot change the leading digits.
Integer fixed_ratio(const Integer& scale, const Integer& num, const Integer& den, std::uint64_t result_bits);

struct ConstantResult {
  Integer scaled;               ///< floor(c * 10^digits), exact
  std::uint64_t guard_digits;   ///< the guard digits of the attempt that settled it
  unsigned attempts;            ///< 1, or more when guard digits were ambiguous
};

/// floor(c * 10^digits), exact: fixed point with `first_guard` (at least 2)
/// guard digits, repeated with twice as many while they are ambiguous. The
/// default 19 keeps 10^g in one limb, so splitting off the guard digits is
/// a division by one limb (on a CUDA context a one-pass scan on the device).
ConstantResult compute_constant(Constant c, const Context& ctx, std::uint64_t digits,
                                const StageProgress& progress = {}, std::uint64_t first_guard = 19);

/// The printed form of floor(c * 10^digits): "3.14159..." with `digits`
/// digits after the point ("3" for digits = 0).
std::string constant_text(const Integer& scaled, std::uint64_t digits);

}  // namespace mpgpu::cli
