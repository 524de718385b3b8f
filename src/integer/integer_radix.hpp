// Radix conversion by divide and conquer with precomputed powers, for huge
// Integers of any context (see docs/integer.md, "Conversion to and from
// text"). Integer::to_string / from_string call these for CUDA contexts
// above kRadixDeviceMinLimbs; the CPU context keeps GMP's own conversion,
// but the tests call these directly with tiny leaves so that CI runs the
// algorithm on the CPU backend (the same code, with GMP doing the
// arithmetic).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "mpgpu/integer.hpp"

namespace mpgpu::detail {

/// Crossover (limbs of the number) from host GMP to the level-at-once trees
/// for CUDA contexts: 2^13 limbs, 2^19 bits (about 158,000 decimal digits),
/// between the sizes where GMP and the device measured faster (the tuning
/// table; docs/tuning-history.md, "Radix conversion").
inline constexpr std::size_t kRadixDeviceMinLimbs = tuning::table::kRadixDeviceMinLimbs;
/// The crossover ctx uses: its radix_min_limbs (TuningParams).
std::size_t radix_device_min_limbs(const Context& ctx);

/// Leaf sizes (limbs) of the trees for CUDA contexts: to_string's last round
/// leaves pieces of at most this many limbs, and from_string starts from
/// leaves of about this size; host GMP converts them on host threads.
/// Smaller leaves cost device rounds (a level costs products of the whole
/// number) and save host time (GMP's time per bit grows with the size).
/// The sizes below were the fastest of a sweep at 2^30 bits, and larger
/// leaves were slower (docs/tuning-history.md, "Radix conversion").
inline constexpr std::size_t kRadixToStringLeafLimbs = tuning::table::kRadixToStringLeafLimbs;
inline constexpr std::size_t kRadixFromStringLeafLimbs = tuning::table::kRadixFromStringLeafLimbs;
/// ctx's radix_leaf_limbs (TuningParams) when set, else `fallback`.
std::size_t radix_leaf_limbs(const Context& ctx, std::size_t fallback);

/// True for 2, 4, 8, 16, 32: those bases are bit regrouping, linear time in
/// GMP (mpn_get_str / mpn_set_str never divide for them).
inline bool radix_is_power_of_two(int base) { return (base & (base - 1)) == 0; }

/// Digits of `base` in one 64-bit chunk: the largest d with base^d < 2^64
/// (19 for base 10, 12 for base 36, 10 for base 62).
int radix_chunk_digits(int base);

/// x in `base` (2..62), exactly as mpz_get_str writes it (sign, no leading
/// zeros, GMP's letters), by splitting x = q * base^(d 2^k) + r down to
/// pieces of at most `leaf_limbs` limbs (>= 1), which GMP converts.
std::string radix_to_string_dc(const Integer& x, int base, std::size_t leaf_limbs);

/// The value of `digits` (already validated digits of `base`, at least one,
/// no sign, no prefix; leading zeros allowed), negated if `negative`, in
/// `ctx`: the digits are cut into leaves of d 2^k digits (2^k <= leaf_limbs),
/// parsed by GMP, and combined a level at a time as hi * base^(d 2^k) + lo.
Integer radix_from_digits_dc(std::string_view digits, int base, bool negative, const Context& ctx,
                             std::size_t leaf_limbs);

}  // namespace mpgpu::detail
