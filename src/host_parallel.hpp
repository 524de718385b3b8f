// Host threads for the parts of a conversion that GMP does on the host
// (radix leaves, digit validation). Private to the library.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace mpgpu::detail {

/// Runs fn(i) for i in [0, count) on up to hardware_concurrency host threads.
/// The first exception is rethrown after all threads have stopped.
template <class Fn>
void parallel_for(std::size_t count, Fn fn) {
  const std::size_t threads =
      std::min<std::size_t>(count, std::max(1u, std::min(16u, std::thread::hardware_concurrency())));
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

/// Runs fn(begin, end) over [0, n) cut into ranges of about `grain` items,
/// on host threads (parallel_for).
template <class Fn>
void parallel_ranges(std::size_t n, std::size_t grain, Fn fn) {
  grain = std::max<std::size_t>(grain, 1);
  parallel_for((n + grain - 1) / grain, [&](std::size_t r) { fn(r * grain, std::min(n, (r + 1) * grain)); });
}

}  // namespace mpgpu::detail
