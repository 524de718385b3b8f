// Host threads for binary splitting (binary_splitting.hpp): a queue of jobs
// (subtrees, the merges above them, the products of one large merge) that a
// few worker threads and the calling thread take from. Jobs only run GMP on
// values of a CPU context; device operations run outside any job, on the
// calling thread and on device threads, which wait here for host jobs
// without taking any (wait_until_done), so that a device thread is never
// held up by a long host job.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace mpgpu::cli {

/// Host threads to use by default: MPGPU_THREADS when set (a positive
/// number), else std::thread::hardware_concurrency() (at least 1).
unsigned default_host_threads();

class SplitPool {
 public:
  /// Starts `workers` threads besides the calling one (0: jobs run only when
  /// the calling thread helps).
  explicit SplitPool(unsigned workers);
  /// stop().
  ~SplitPool();
  SplitPool(const SplitPool&) = delete;
  SplitPool& operator=(const SplitPool&) = delete;

  unsigned workers() const { return static_cast<unsigned>(threads_.size()); }

  /// Drops the jobs not started, waits for the running ones, joins the
  /// workers (again: nothing). Jobs that use the caller's data must be over
  /// before that data goes: call this (or destroy the pool) first.
  void stop();

  /// Queues a job; `first` puts it ahead of the queued ones. A job that
  /// throws stops the pool: the waits below then rethrow its exception.
  void post(std::function<void()> job, bool first = false);

  /// On the calling thread: runs queued jobs (when `help`) or sleeps until
  /// done() holds. done() is read under the pool's lock after each job ends,
  /// so a job must make it true before it returns. `tick` (may be empty) is
  /// called now and then while waiting, for progress reports.
  void wait_until(const std::function<bool()>& done, bool help, const std::function<void()>& tick = {});

  /// On a thread that must not run jobs (one that drives a device): sleeps
  /// until done() holds, read under the pool's lock after each job ends and
  /// after each wake_waiters(). Rethrows a job's failure.
  void wait_until_done(const std::function<bool()>& done);

  /// Makes every waiting thread look at its done() again: call after making
  /// one true outside a job.
  void wake_waiters();

  /// Runs independent steps at once: all but the first are queued ahead of
  /// everything, this thread runs the first and then each step no other
  /// thread has started, then waits for the rest. May be called from a job.
  void run_all(std::span<const std::function<void()>> steps);

  /// Seconds spent inside jobs, summed over threads, less their waits in
  /// run_all (the host work).
  double busy_seconds() const { return busy_ns_.load() * 1e-9; }
  /// Seconds the calling thread slept in wait_until.
  double waited_seconds() const { return waited_ns_.load() * 1e-9; }
  /// Seconds the calling thread spent in the jobs it ran in wait_until
  /// (part of busy_seconds).
  double helped_seconds() const { return helped_ns_.load() * 1e-9; }
  /// Seconds slept in wait_until_done, summed over the threads.
  double done_waited_seconds() const { return done_waited_ns_.load() * 1e-9; }

 private:
  void worker_loop();
  /// Runs one job outside the lock (`lock` is released meanwhile), records an exception.
  void run_job(std::unique_lock<std::mutex>& lock);
  void rethrow_if_failed() const;

  std::mutex mutex_;
  std::condition_variable wake_;       // workers and helping waiters: a job or a change
  std::condition_variable done_wake_;  // wait_until_done: a job ended or wake_waiters()
  std::deque<std::function<void()>> queue_;
  std::vector<std::thread> threads_;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::atomic<std::int64_t> busy_ns_{0}, waited_ns_{0}, done_waited_ns_{0}, helped_ns_{0};
};

}  // namespace mpgpu::cli
