// The syntax tree of a `mpgpu calc` expression and its parser (recursive
// descent, one function per precedence level). Evaluation is in
// calc_expression.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mpgpu::cli {

enum class CalcOp { add, sub, mul, div, mod, shl, shr, bit_and, bit_or, bit_xor };

/// The functions an expression may call, with their argument counts.
struct CalcFunction {
  const char* name;
  std::size_t arity;
};
const std::vector<CalcFunction>& calc_functions();

struct CalcNode {
  enum class Kind {
    number,  ///< text = the digits (no sign, no prefix), base 10 or 16
    negate,  ///< -operands[0]
    chain,   ///< operands[0] ops[0] operands[1] ops[1] ... (one precedence level, left to right)
    power,   ///< operands[0] ^ operands[1]
    call,    ///< text(operands...)
  };
  Kind kind = Kind::number;
  /// Where an error about this node points: the literal, the '-' or '^', the
  /// function's name.
  std::size_t offset = 0;
  std::string text;
  int base = 10;
  std::vector<CalcNode> operands;
  /// Chains only: ops[i] joins operands[i] and operands[i + 1]; op_offsets[i]
  /// is where that operator is written. Chains keep long sums flat, so
  /// `1+1+...+1` does not nest one level per term.
  std::vector<CalcOp> ops;
  std::vector<std::size_t> op_offsets;
};

/// The tree of `text`; throws CalcError (calc_expression.hpp) at the first
/// problem, with its offset.
CalcNode parse_calc_expression(std::string_view text, std::size_t max_nesting);

}  // namespace mpgpu::cli
