// `mpgpu bench --workloads`: whole computations (calc expressions, pi, e,
// Lucas-Lehmer tests) timed on the CUDA context and on the CPU context of
// one run, their decimal results compared by SHA-256. docs/workloads.md.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "bench_table.hpp"
#include "mpgpu/context.hpp"

namespace mpgpu::cli {

struct WorkloadSpec {
  enum class Kind { expression, pi, e, lucas_lehmer };
  std::string id;     ///< for --only and the CSV/JSON ("fib", "pi_1e6", "ll_prime")
  std::string label;  ///< as the text table shows it ("fib(10^8)")
  Kind kind = Kind::expression;
  std::string expression;  ///< Kind::expression: `mpgpu calc` text
  std::uint64_t n = 0;     ///< pi, e: digits after the point; lucas_lehmer: the exponent p
  std::string expected;    ///< the known result text, where there is one ("prime")
};

/// The workloads of a run, in table order: the full list or --quick's.
std::vector<WorkloadSpec> workload_specs(bool quick);

/// One workload on one context.
struct WorkloadResult {
  bool ran = false;     ///< false: not run on this context (no GPU, --no-cpu)
  double seconds = 0;   ///< computing the value and its decimal text
  std::string sha256;   ///< of the text (hashing is not timed)
  std::uint64_t digits = 0;  ///< decimal digits in the text; 0 for a word ("prime")
  std::string word;     ///< the text itself when it is a word
  std::string error;    ///< what went wrong; the other fields are then unset
};

/// Computes the workload's decimal text on `ctx`, timing it. Never throws.
WorkloadResult run_workload(const WorkloadSpec& w, const Context& ctx);

struct WorkloadRow {
  WorkloadSpec spec;
  WorkloadResult cuda, cpu;
  /// "yes", "NO" (the hashes differ or a result is not the known one),
  /// "failed", or "-" when only one context ran; with " (prime)" etc. for
  /// a word result.
  std::string match() const;
  bool ok() const;
  double speedup() const;  ///< cpu time / cuda time, 0 unless both ran
};

struct WorkloadReport {
  std::string cuda_context;  ///< Context::describe(), empty when no CUDA context ran
  std::string cpu_context;   ///< empty with --no-cpu
  std::string note;          ///< why a context is missing, if one is
  std::string gmp_release;
  std::string date;
  bool quick = false;
  std::vector<WorkloadRow> rows;
  double total_s = 0;
  bool all_ok() const;
};

/// The whole command: `ctx` is the context --device chose (a CUDA context
/// runs beside the CPU one; a CPU context alone). Returns the exit code.
int run_workloads(const Context& ctx, const BenchOptions& opt);
void print_workloads_help(std::ostream& out);

void write_workloads_text(std::ostream& out, const WorkloadReport& report);
void write_workloads_csv(std::ostream& out, const WorkloadReport& report);
void write_workloads_json(std::ostream& out, const WorkloadReport& report);

}  // namespace mpgpu::cli
