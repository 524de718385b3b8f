// `mpgpu calc`: evaluates an integer expression (calc_expression.hpp) on the
// chosen context and prints the result.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "calc_output.hpp"
#include "mpgpu/context.hpp"

namespace mpgpu::cli {

struct CalcOptions {
  bool help = false;
  CalcFormat format = CalcFormat::decimal;
  /// The expression from the command line (its arguments joined by spaces);
  /// unset: read it from standard input.
  std::optional<std::string> expression;
};

/// Parses the arguments after `calc`; throws UsageError.
CalcOptions parse_calc_options(std::vector<std::string> args);
void print_calc_help(std::ostream& out);
/// Evaluates and prints. A bad expression is reported on stderr with its
/// column (exit status 2). Returns the exit code.
int run_calc(const Context& ctx, const CalcOptions& opt);

}  // namespace mpgpu::cli
