// The expression language of `mpgpu calc` (docs/calc.md): integer literals
// (decimal, 0x hex), + - * / % ^ << >> & | xor, unary minus, parentheses and
// the functions fact, fib, lucas, binomial, gcd, powm, sqrt, root. Evaluated with
// mpgpu::Integer in a given context, so the same expression runs on the CPU
// (GMP) or a CUDA backend. Kept apart from the command so tests can call it.
//
// Precedence, loosest first (as C and Python): |, xor, &, << >>, + -, * / %,
// unary minus, ^. So -2^2 = -4 and 2^-1 is an error (negative exponent), and
// ^ is right-associative: 2^3^2 = 2^9. / and % truncate (GMP's tdiv, C's /
// and %): -7/2 = -3, -7%2 = -1; >> rounds toward minus infinity (GMP's
// fdiv_q_2exp): -7>>1 = -4.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "mpgpu/integer.hpp"

namespace mpgpu::cli {

/// A syntax error or a failed evaluation (division by zero, a result over
/// the size limits...), with the place in the expression it refers to.
class CalcError : public std::runtime_error {
 public:
  CalcError(std::size_t offset, const std::string& what) : std::runtime_error(what), offset_(offset) {}
  /// 0-based offset into the expression text (its length for "at the end").
  std::size_t offset() const noexcept { return offset_; }
  /// 1-based column, as printed.
  std::size_t column() const noexcept { return offset_ + 1; }

 private:
  std::size_t offset_;
};

/// Bounds that turn absurd requests into a clear error instead of hours of
/// work or running out of memory.
struct CalcLimits {
  /// No intermediate result may have more bits than this (2^36 bits = 8 GiB).
  std::uint64_t max_result_bits = std::uint64_t{1} << 36;
  /// fact(n) for n up to this (100000000! has about 2.5 * 10^9 bits), and
  /// binomial(n, k) for min(k, n - k) up to this.
  std::uint64_t max_factorial = 100'000'000;
  /// Parentheses, unary minus, ^ chains and calls nested at most this deep.
  std::size_t max_nesting = 1000;
};

/// Parses all of `text` (syntax errors are reported before anything is
/// computed), then evaluates it with Integers of `ctx`. Throws CalcError for
/// bad input; mpgpu's own errors (OutOfMemory, CudaError, ...) pass through.
Integer evaluate_expression(std::string_view text, const Context& ctx, const CalcLimits& limits = {});

}  // namespace mpgpu::cli
