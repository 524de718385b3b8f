// The series stage shared by pi and e (constants_pi.cpp, constants_e.cpp):
// how SeriesOptions become a SplitPlan, and one call that runs a split with
// its progress and its `--timings` note.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "binary_splitting.hpp"
#include "constants.hpp"

namespace mpgpu::cli {

/// Whether MPGPU_SERIES_PROFILE=1: the series' own time breakdowns (a
/// tuning knob; they synchronize after each phase, serializing what would
/// overlap), printed to stderr at exit. Read once.
bool series_profile_on();

/// The plan for a series on ctx (SeriesOptions' defaults resolved).
SplitPlan series_plan(const Context& ctx, const SeriesOptions& options);

/// One line on how a split went: its subtrees, threads, host work and the
/// calling thread's waits, in `seconds` of series.
std::string describe_split(const SplitStats& stats, const SplitPlan& plan, double seconds);

/// The tree over [a, b) on ctx as `options` asks, reported as stage "series".
template <class Node>
Node evaluate_series(std::uint64_t a, std::uint64_t b, bool need_p, const Series<Node>& series, const Context& ctx,
                     const StageHooks& hooks, const SeriesOptions& options) {
  const StageProgress& progress = hooks.progress;
  if (progress) progress("series", 0);
  SplitProgress split_progress(progress ? ProgressFn([&](double f) { progress("series", f); }) : ProgressFn(), b - a);
  const SplitPlan plan = series_plan(ctx, options);
  SplitStats stats;
  const auto t0 = std::chrono::steady_clock::now();
  Node root = binary_split(a, b, need_p, series, ctx, plan, split_progress, &stats);
  if (hooks.note)
    hooks.note("series",
               describe_split(stats, plan, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
  return root;
}

}  // namespace mpgpu::cli
