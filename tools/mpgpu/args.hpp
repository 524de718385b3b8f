// Command-line parsing helpers shared by the mpgpu subcommands.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mpgpu::cli {

/// Exit codes of the mpgpu tool (documented in `mpgpu --help`).
enum ExitCode : int {
  kExitOk = 0,
  kExitNotVerified = 1,  ///< a benchmark result differed from GMP's (or failed)
  kExitUsage = 2,        ///< bad command line
  kExitError = 3,        ///< runtime error (backend unavailable, CUDA error...)
};

/// A bad command line; main() prints it with a pointer to --help.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Walks a subcommand's arguments. Options take their value either as the
/// next argument (`--max-bits 1048576`) or after '=' (`--max-bits=2^20`).
class ArgReader {
 public:
  explicit ArgReader(std::vector<std::string> args) : args_(std::move(args)) {}
  bool done() const { return pos_ >= args_.size(); }
  /// The next argument; for `--name=value` only the `--name` part.
  std::string next();
  /// The value of the option just read by next().
  std::string value(std::string_view option);
  /// Throws UsageError if the option just read carried an `=value`.
  void no_value(std::string_view option) const;

 private:
  std::vector<std::string> args_;
  std::size_t pos_ = 0;
  std::optional<std::string> inline_value_;
};

/// A bit count: a decimal number ("1048576") or a power of two ("2^20").
std::uint64_t parse_bits(std::string_view option, std::string_view text);
/// A positive decimal integer no larger than `max`.
std::uint64_t parse_count(std::string_view option, std::string_view text, std::uint64_t max);
/// Splits "a,b,c" into its items (empty items are an error).
std::vector<std::string> split_list(std::string_view option, std::string_view text);

}  // namespace mpgpu::cli
