// `mpgpu selftest`: which family a worker runs next, so that each family
// gets its share of the workers' time (not of the cases).
//
// A case's cost differs by four orders of magnitude between families and
// contexts: a batch case on a GPU takes 0.1-1 s of its thread (millions of
// instances and their GMP oracle), an Integer case 0.3-54 ms there, and on
// the CPU context it is the other way round. Drawing families by case count
// let the costliest families take almost all of the time, so the scheduler
// counts time instead: a worker takes the selected family that has used the
// least of its share, counting the finished cases' time and, for each case
// still running, the larger of its time so far and its family's mean.
//
// Case numbers stay a function of the family alone: the k-th case of family
// f (in all_families() order) is case k * families + f, so `--replay N`
// knows its family from N, and its values come from (seed, N) as before.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <vector>

namespace mpgpu::cli::selftest {

class TimeShareScheduler {
 public:
  using Clock = std::chrono::steady_clock;

  /// `shares`: per family, its share of the workers' time (any scale; 0 for
  /// a family that does not run; at least one above 0). `workers`: the
  /// threads that claim cases.
  TimeShareScheduler(std::vector<double> shares, unsigned workers)
      : shares_(std::move(shares)),
        seconds_(shares_.size(), 0),
        finished_(shares_.size(), 0),
        next_(shares_.size(), 0),
        running_(workers) {}

  struct Claim {
    std::size_t family;
    std::uint64_t case_number;
  };

  /// The next case for `worker` (which has no case running).
  Claim claim(unsigned worker) {
    std::lock_guard<std::mutex> lock(mutex_);
    const Clock::time_point now = Clock::now();
    std::vector<double>& used = used_;
    used = seconds_;  // no allocation after the first claim
    for (const Running& r : running_) {
      if (!r.busy) continue;
      const double elapsed = std::chrono::duration<double>(now - r.start).count();
      used[r.family] += std::max(elapsed, mean(r.family));
    }
    std::size_t best = 0;
    double best_ratio = std::numeric_limits<double>::infinity();
    for (std::size_t f = 0; f < shares_.size(); ++f) {
      if (!(shares_[f] > 0)) continue;
      const double ratio = used[f] / shares_[f];
      if (ratio < best_ratio) best = f, best_ratio = ratio;  // ties: the first family, so all start early
    }
    running_[worker] = {true, best, now};
    return {best, next_[best]++ * shares_.size() + best};
  }

  /// `worker`'s case took `seconds` of its thread.
  void finish(unsigned worker, double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    Running& r = running_[worker];
    seconds_[r.family] += seconds;
    ++finished_[r.family];
    r.busy = false;
  }

  /// The family of case `n` of a run over `families` families.
  static std::size_t family_of(std::uint64_t n, std::size_t families) { return static_cast<std::size_t>(n % families); }

 private:
  struct Running {
    bool busy = false;
    std::size_t family = 0;
    Clock::time_point start{};
  };

  double mean(std::size_t f) const { return finished_[f] ? seconds_[f] / static_cast<double>(finished_[f]) : 0; }

  std::mutex mutex_;
  std::vector<double> shares_, seconds_, used_;
  std::vector<std::uint64_t> finished_, next_;
  std::vector<Running> running_;
};

}  // namespace mpgpu::cli::selftest
