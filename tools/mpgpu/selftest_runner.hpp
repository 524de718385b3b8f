// `mpgpu selftest`: the soak: worker threads take cases until the time is
// up, each of the selected family that has used the least of its share of
// the workers' time (selftest_schedule.hpp), count them, and print a failure
// as soon as it happens, with the command that replays it.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "mpgpu/context.hpp"

namespace mpgpu::cli::selftest {

struct RunSettings {
  std::uint64_t seed = 0;
  double minutes = 1.0;
  unsigned threads = 1;
  std::vector<bool> selected;  ///< per family of all_families()
  /// The batch families' share of the workers' time (the rest goes to the
  /// Integer families) when both groups are selected.
  double batch_share = 0.5;
  bool progress = false;
  std::string replay_prefix;  ///< "mpgpu --device cpu selftest --seed 5"
  unsigned oracle_threads = 1;
  double batch_budget = 1 << 20;
  std::uint64_t batch_max_bits = 1 << 14;
};

struct FamilyStats {
  std::uint64_t cases = 0, instances = 0, failures = 0;
  double seconds = 0;  ///< summed over the threads that ran its cases
};

struct RunResult {
  std::vector<FamilyStats> families;  ///< per family of all_families()
  std::uint64_t failures = 0;
  double seconds = 0;  ///< wall time
  unsigned stream_threads = 0;  ///< workers that own a stream
};

/// The soak. Failures are printed to `out` as they happen (the first 20 in
/// full, then counted only).
RunResult run_soak(const Context& ctx, const RunSettings& settings, std::ostream& out);

/// Runs case `n` alone and prints what it did; returns whether it passed.
bool run_replay(const Context& ctx, const RunSettings& settings, std::uint64_t n, std::ostream& out);

}  // namespace mpgpu::cli::selftest
