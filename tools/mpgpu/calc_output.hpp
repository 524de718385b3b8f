// How `mpgpu calc` prints its result: decimal, hex, the number of decimal
// digits, or the SHA-256 of the decimal string (for results too large to
// read, which can still be compared with another program's).
#pragma once

#include <cstdint>
#include <string>

#include "mpgpu/integer.hpp"

namespace mpgpu::cli {

enum class CalcFormat { decimal, hex, digits, sha256 };

/// The decimal digits of |v| (1 for zero), exact.
std::uint64_t decimal_digits(const Integer& v);

/// The text printed for v (without the newline):
///   decimal  "-123"
///   hex      "0xff", "-0xff", "0x0"
///   digits   decimal_digits(v) in decimal
///   sha256   64 hex digits: SHA-256 of exactly the decimal text
std::string format_calc_result(const Integer& v, CalcFormat format);

}  // namespace mpgpu::cli
