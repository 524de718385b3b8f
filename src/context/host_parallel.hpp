// Host threads for the parts of a computation that GMP does on the host
// (radix leaves, digit validation, the leaves of product trees). Private to
// the library.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace mpgpu::detail {

/// The host threads parallel_for and parallel_for_in_order use (the
/// calling one included): the hardware's, at most 16. Asked once: glibc
/// answers hardware_concurrency() by reading /sys (an open, a read and a
/// close, microseconds), which small parses would otherwise pay per call.
inline std::size_t host_thread_count() {
  static const std::size_t threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  return threads;
}

/// Runs fn(i) for i in [0, count) on up to hardware_concurrency host threads.
/// The first exception is rethrown after all threads have stopped.
template <class Fn>
void parallel_for(std::size_t count, Fn fn) {
  const std::size_t threads = count <= 1 ? count : std::min<std::size_t>(count, host_thread_count());
  if (threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) fn(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= count) return;
      try {
        fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        next.store(count);
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

/// Runs produce(i) for every i in [0, count) on the host threads of
/// parallel_for, and consume(i) on the calling thread in increasing i, each
/// as soon as produce(i) has returned, so that the caller's work on early
/// items (device calls, which must stay on one thread) overlaps the
/// production of later ones. Items are claimed in increasing order; while
/// item i is not ready the caller produces the next unclaimed item itself,
/// and it waits only once every item is claimed. The first exception, of
/// either function, stops the claiming of items and is rethrown after all
/// threads have stopped; consume is not called after it.
template <class Produce, class Consume>
void parallel_for_in_order(std::size_t count, Produce produce, Consume consume) {
  const std::size_t threads =
      std::min<std::size_t>(count, host_thread_count());
  if (threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) {
      produce(i);
      consume(i);
    }
    return;
  }
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<char> ready(count);  // guarded by mutex, as is error
  std::exception_ptr error;
  auto fail = [&](std::exception_ptr e) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!error) error = e;
      next.store(count);
    }
    changed.notify_all();
  };
  auto run = [&](std::size_t i) {
    try {
      produce(i);
    } catch (...) {
      fail(std::current_exception());
      return false;
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      ready[i] = 1;
    }
    changed.notify_all();
    return true;
  };
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= count || !run(i)) return;
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  try {
    for (std::size_t i = 0; i < count; ++i) {
      for (;;) {
        {
          std::unique_lock<std::mutex> lock(mutex);
          if (error) break;
          if (ready[i]) break;
          if (next.load() >= count) {
            changed.wait(lock, [&] { return ready[i] || error; });
            continue;
          }
        }
        const std::size_t j = next.fetch_add(1);
        if (j < count) run(j);
      }
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (error) break;
      }
      consume(i);
    }
  } catch (...) {
    fail(std::current_exception());
  }
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

/// Runs fn(begin, end) over [0, n) cut into ranges of about `grain` items,
/// on host threads (parallel_for).
template <class Fn>
void parallel_ranges(std::size_t n, std::size_t grain, Fn fn) {
  grain = std::max<std::size_t>(grain, 1);
  parallel_for((n + grain - 1) / grain, [&](std::size_t r) { fn(r * grain, std::min(n, (r + 1) * grain)); });
}

}  // namespace mpgpu::detail
