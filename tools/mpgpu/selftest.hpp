// `mpgpu selftest`: a differential soak against GMP (docs/selftest.md).
// Random operations of every Integer and Batch family, on several host
// threads sharing the context, each result checked against GMP; then, on a
// CUDA context, a loop of operations that cannot fit device memory.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "mpgpu/context.hpp"

namespace mpgpu::cli {

struct SelftestOptions {
  bool help = false;
  double minutes = 1.0;                 ///< length of the soak
  std::optional<std::uint64_t> seed;    ///< unset: a random one, printed
  std::optional<std::uint64_t> replay;  ///< run this case alone, verbosely
  std::vector<std::string> ops;         ///< families, "integer", "batch", "memory"; empty = all
  unsigned threads = 0;                 ///< 0: one per host core
  bool progress = false;                ///< a progress line on stderr
  std::string output;                   ///< also write the final table there
  /// Batch cases of the CPU context's sizes on any context (for runs under
  /// compute-sanitizer, whose instrumentation slows kernels 10-100x); a
  /// case's content depends on it, so a replay needs it too.
  bool small_cases = false;
};

/// Parses the arguments after `selftest`; throws UsageError.
SelftestOptions parse_selftest_options(std::vector<std::string> args);
void print_selftest_help(std::ostream& out);
/// Runs the soak (or the replay) and prints the table; returns the exit code
/// (0 all passed, 1 some case failed).
int run_selftest(const Context& ctx, const SelftestOptions& opt);

}  // namespace mpgpu::cli
