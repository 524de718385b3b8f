#include "constants_series.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace mpgpu::cli {

namespace {

/// A number from the environment variable `name` (a tuning sweep's knob,
/// read once per series) if it is set and at least `min`, else `fallback`.
double env_number(const char* name, double fallback, double min) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const double x = std::strtod(v, &end);
  return *end == '\0' && x >= min ? x : fallback;
}

}  // namespace

bool series_profile_on() {
  static const bool on = [] {
    const char* v = std::getenv("MPGPU_SERIES_PROFILE");
    return v && *v == '1';
  }();
  return on;
}

SplitPlan series_plan(const Context& ctx, const SeriesOptions& options) {
  SplitPlan plan;
  plan.threads = options.threads ? options.threads : default_host_threads();
  if (options.host_max_bits > 0) {
    plan.host_max_bits = options.host_max_bits;
  } else if (ctx.is_cuda()) {
    plan.host_max_bits = env_number("MPGPU_SERIES_HOST_BITS", kSeriesHostMaxBits, 1);
  }
  if (options.device_threads > 0)
    plan.device_threads = options.device_threads;
  else if (ctx.is_cuda())
    plan.device_threads = static_cast<unsigned>(env_number("MPGPU_SERIES_DEVICE_THREADS", kSeriesDeviceThreads, 0));
  plan.device_subtree_max_bits = options.device_subtree_max_bits > 0
                                     ? options.device_subtree_max_bits
                                     : env_number("MPGPU_SERIES_DEVICE_BITS", kSeriesDeviceSubtreeMaxBits, 1);
  if (series_products_at_once(ctx, options))
    plan.level_group_max_bits = env_number("MPGPU_SERIES_GROUP_BITS", kSeriesLevelGroupMaxBits, 0);
  if (options.batched_share >= 0)
    plan.batched_share = options.batched_share;
  else if (ctx.is_cuda())
    plan.batched_share = std::min(1.0, env_number("MPGPU_SERIES_BATCHED_SHARE", kSeriesBatchedShare, 0));
  plan.batched_chunk = options.batched_chunk
                           ? options.batched_chunk
                           : static_cast<std::size_t>(env_number("MPGPU_SERIES_BATCHED_CHUNK", kSeriesBatchedChunk, 1));
  if (options.caller_helps >= 0)
    plan.caller_helps = options.caller_helps != 0;
  else if (ctx.is_cuda())
    plan.caller_helps = env_number("MPGPU_SERIES_CALLER_HELPS", kSeriesCallerHelps ? 1 : 0, 0) != 0;
  return plan;
}

bool series_products_at_once(const Context& ctx, const SeriesOptions& options) {
  if (!ctx.is_cuda()) return false;
  if (options.products_at_once >= 0) return options.products_at_once != 0;
  return env_number("MPGPU_SERIES_MUL_EACH", kSeriesProductsAtOnce ? 1 : 0, 0) != 0;
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
  if (stats.upper_merges && stats.device_subtrees)
    std::snprintf(buf + n, sizeof buf - n,
                  "%llu merges of nodes over %.0f bits, those up to %.0f bits in %llu subtrees on %u device threads "
                  "(which slept %.3f s in all for host threads), the rest on the calling thread (which waited %.3f s); "
                  "in %.3f s",
                  static_cast<unsigned long long>(stats.upper_merges), plan.host_max_bits, plan.device_subtree_max_bits,
                  static_cast<unsigned long long>(stats.device_subtrees), stats.device_threads,
                  stats.device_waited_seconds, stats.waited_seconds, seconds);
  else if (stats.upper_merges)
    std::snprintf(buf + n, sizeof buf - n,
                  "%llu merges of nodes over %.0f bits on the calling thread, which waited %.3f s for host threads "
                  "and ran host jobs for %.3f s meanwhile%s; in %.3f s",
                  static_cast<unsigned long long>(stats.upper_merges), plan.host_max_bits, stats.waited_seconds,
                  stats.helped_seconds, plan.caller_helps ? "" : " (it takes none: MPGPU_SERIES_CALLER_HELPS=0)",
                  seconds);
  else
    std::snprintf(buf + n, sizeof buf - n, "in %.3f s", seconds);
  std::string text = buf;
  if (stats.batched_subtrees) {
    std::snprintf(buf, sizeof buf, "\n    %llu subtrees batched (%.0f%% share) in %llu calls on a thread of their own: %.3f s",
                  static_cast<unsigned long long>(stats.batched_subtrees), 100 * plan.batched_share,
                  static_cast<unsigned long long>(stats.batched_chunks), stats.batched_seconds);
    text += buf;
  }
  if (stats.uploads && stats.upper_merges) {
    std::snprintf(buf, sizeof buf, "\n    %llu host nodes into the merging context: %.3f s (%.3f ms a node)",
                  static_cast<unsigned long long>(stats.uploads), stats.upload_seconds,
                  1e3 * stats.upload_seconds / static_cast<double>(stats.uploads));
    text += buf;
  }
  // The merges above the cut by level, smallest first, in thread time (the
  // host nodes' copies into the merging context are the line above).
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
