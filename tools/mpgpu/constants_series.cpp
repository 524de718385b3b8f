#include "constants_series.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace mpgpu::cli {

SplitPlan series_plan(const Context& ctx, const SeriesOptions& options) {
  SplitPlan plan;
  plan.threads = options.threads ? options.threads : default_host_threads();
  if (options.host_max_bits > 0) {
    plan.host_max_bits = options.host_max_bits;
  } else if (ctx.is_cuda()) {
    const char* v = std::getenv("MPGPU_SERIES_HOST_BITS");
    const double bits = v ? std::strtod(v, nullptr) : 0;
    plan.host_max_bits = bits > 0 ? bits : kSeriesHostMaxBits;
  }
  return plan;
}

std::string describe_split(const SplitStats& stats, const SplitPlan& plan, double seconds) {
  char buf[512];
  if (stats.subtrees == 0) {
    std::snprintf(buf, sizeof buf, "one thread, %llu merges, in %.3f s",
                  static_cast<unsigned long long>(stats.upper_merges), seconds);
    return buf;
  }
  const int n = std::snprintf(
      buf, sizeof buf,
      "%u threads: %llu subtrees of %llu-%llu terms and %llu merges above them on host threads "
      "(%.3f s of work, %.1f threads busy on average), ",
      stats.threads, static_cast<unsigned long long>(stats.subtrees), static_cast<unsigned long long>(stats.min_terms),
      static_cast<unsigned long long>(stats.max_terms), static_cast<unsigned long long>(stats.host_merges),
      stats.host_busy_seconds, seconds > 0 ? stats.host_busy_seconds / seconds : 0.0);
  if (stats.upper_merges)
    std::snprintf(buf + n, sizeof buf - n,
                  "%llu merges of nodes over %.0f bits on the calling thread, which waited %.3f s for host threads; "
                  "in %.3f s",
                  static_cast<unsigned long long>(stats.upper_merges), plan.host_max_bits, stats.waited_seconds,
                  seconds);
  else
    std::snprintf(buf + n, sizeof buf - n, "in %.3f s", seconds);
  std::string text = buf;
  // The calling thread's merges by level, smallest first (the host nodes'
  // copies into the target context are counted with the first level).
  for (const SplitStats::UpperLevel& level : stats.upper_levels) {
    if (level.merges == 0) continue;
    std::snprintf(buf, sizeof buf, "\n    level of %llu merges up to %.0f bits: %.3f s (%.3f ms a merge)",
                  static_cast<unsigned long long>(level.merges), level.max_bits, level.seconds,
                  1e3 * level.seconds / static_cast<double>(level.merges));
    text += buf;
  }
  return text;
}

}  // namespace mpgpu::cli
