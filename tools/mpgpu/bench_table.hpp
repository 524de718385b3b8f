// `mpgpu bench`: the table of operation x size, mpgpu against GMP.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "mpgpu/context.hpp"

namespace mpgpu::cli {

enum class Format { text, csv, json };

struct BenchOptions {
  bool help = false;
  bool quick = false;
  /// Sizes in bits; empty = the default list (quick or full), then capped.
  std::vector<std::uint64_t> bits;
  std::uint64_t max_bits = std::uint64_t{1} << 30;
  /// Products (mul, sqr) and divisions (tdiv_qr) of larger operands skip GMP (minutes a call) and
  /// are checked modulo primes instead.
  std::uint64_t gmp_max_bits = std::uint64_t{1} << 30;
  /// Operations to run; empty = all, in table order.
  std::vector<std::string> ops;
  /// Fixed repetitions per timing; unset = adaptive (see RepPolicy).
  std::optional<int> reps;
  Format format = Format::text;
  std::string csv_out, json_out, text_out;  ///< extra copies of the table
  bool progress = false;                    ///< one line per row on stderr
  unsigned long seed = 20261122;
  /// --workloads: whole computations on the CUDA and CPU contexts instead
  /// of the operation table (bench_workloads.hpp), with these two options.
  bool workloads = false;
  std::vector<std::string> only;  ///< workload ids; empty = all
  bool no_cpu = false;            ///< the CUDA context alone
};

/// How many timed calls a measurement makes: enough to fill `target_s`
/// (estimated from the warm-up call), clamped to [min_reps, max_reps].
struct RepPolicy {
  int min_reps;
  int max_reps;
  double target_s;
};

struct Measurement {
  double median_s = 0;  ///< median time per call over the samples (after one warm-up call)
  int reps = 0;         ///< samples; 0 when the operation failed
  int burst = 1;        ///< back-to-back calls per sample
};

struct BenchRow {
  std::string op;
  std::uint64_t bits = 0;       ///< operand size; for a batch row, the width of each instance
  std::uint64_t instances = 0;  ///< instances of a batch row; 0 for an integer row
  Measurement mpgpu, gmp;
  Measurement with_transfers;  ///< mpgpu from host operands to a host result (products only)
  bool gmp_run = true;         ///< false: GMP skipped at this size (see check)
  std::string check = "GMP";   ///< what `verified` compared against
  double bytes = 0;  ///< bytes moved per call, for GB/s; 0 = not reported
  bool verified = false;
  std::string error;  ///< what went wrong, if anything

  double speedup() const;  ///< GMP time / mpgpu time, 0 if either is missing
  double gbps() const;     ///< bytes / mpgpu time / 1e9, 0 if not reported
};

struct BenchReport {
  std::string context;      ///< Context::describe()
  std::string device_name;  ///< DeviceInfo::name
  std::string gmp_release;
  std::string date;  ///< UTC, ISO 8601
  bool quick = false;
  RepPolicy policy{};
  std::vector<BenchRow> rows;
  std::vector<std::string> notes;  ///< legend lines (e.g. how batch rows are timed)
  double total_s = 0;

  bool all_verified() const;
};

/// Parses the arguments after `bench`; throws UsageError.
BenchOptions parse_bench_options(std::vector<std::string> args);
void print_bench_help(std::ostream& out);
/// The sizes a run measures, in order.
std::vector<std::uint64_t> bench_sizes(const BenchOptions& opt);
/// Runs every row; never throws for a failing row (the row records it).
BenchReport run_bench_table(const Context& ctx, const BenchOptions& opt);
/// The whole command: runs, prints, writes the extra files. Returns the exit code.
int run_bench(const Context& ctx, const BenchOptions& opt);

}  // namespace mpgpu::cli
