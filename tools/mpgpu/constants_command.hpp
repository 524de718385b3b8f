// `mpgpu pi DIGITS` and `mpgpu e DIGITS`: the constant truncated to DIGITS
// digits after the point (constants.hpp), printed, counted or hashed.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "calc_output.hpp"
#include "constants.hpp"
#include "mpgpu/context.hpp"

namespace mpgpu::cli {

struct ConstantOptions {
  bool help = false;
  Constant constant = Constant::pi;
  std::uint64_t digits = 0;
  /// decimal (the text), digits (how many digits it has) or sha256 (of the
  /// text); hex is refused.
  CalcFormat format = CalcFormat::decimal;
  std::string output;  ///< file to write instead of standard output; empty: stdout
  std::uint64_t first_guard = 19;  // 10^19 < 2^64: the guard split divides by one limb
  bool progress = false;  ///< stage and percentage on stderr (default: when it is a terminal)
  bool timings = false;   ///< each stage's wall time, the series' split and the total on stderr
  unsigned threads = 0;   ///< host threads for the series; 0: default_host_threads()
};

/// The most digits the command accepts (the text alone is 10 GB).
inline constexpr std::uint64_t kMaxConstantDigits = 10'000'000'000ull;

/// Parses the arguments after `pi` or `e`; throws UsageError.
ConstantOptions parse_constant_options(Constant c, std::vector<std::string> args);
void print_constant_help(Constant c, std::ostream& out);
/// Computes and prints. Returns the exit code.
int run_constant(const Context& ctx, const ConstantOptions& opt);

}  // namespace mpgpu::cli
