#include "split_pool.hpp"

#include <chrono>
#include <cstdlib>
#include <memory>

namespace mpgpu::cli {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t since_ns(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}

}  // namespace

unsigned default_host_threads() {
  if (const char* v = std::getenv("MPGPU_THREADS")) {
    char* end = nullptr;
    const unsigned long n = std::strtoul(v, &end, 10);
    if (end != v && *end == '\0' && n > 0 && n <= 4096) return static_cast<unsigned>(n);
  }
  const unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

SplitPool::SplitPool(unsigned workers) {
  threads_.reserve(workers);
  for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { worker_loop(); });
}

SplitPool::~SplitPool() { stop(); }

void SplitPool::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  done_wake_.notify_all();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

void SplitPool::post(std::function<void()> job, bool first) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_ || stopping_) return;  // the computation is failing: nothing more to start
    if (first) queue_.push_front(std::move(job));
    else queue_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void SplitPool::run_job(std::unique_lock<std::mutex>& lock) {
  std::function<void()> job = std::move(queue_.front());
  queue_.pop_front();
  lock.unlock();
  const Clock::time_point t0 = Clock::now();
  std::exception_ptr error;
  try {
    job();
  } catch (...) {
    error = std::current_exception();
  }
  busy_ns_ += since_ns(t0);
  job = nullptr;  // its captures go before the waiters look again
  lock.lock();
  if (error && !error_) {
    error_ = error;
    queue_.clear();
  }
  wake_.notify_all();
  done_wake_.notify_all();
}

void SplitPool::worker_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || (!queue_.empty() && !error_); });
    if (stopping_) return;
    run_job(lock);
  }
}

void SplitPool::rethrow_if_failed() const {
  if (error_) std::rethrow_exception(error_);
}

void SplitPool::wait_until(const std::function<bool()>& done, bool help, const std::function<void()>& tick) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    rethrow_if_failed();
    if (done()) return;
    if (help && !queue_.empty()) {
      const Clock::time_point t0 = Clock::now();
      run_job(lock);
      helped_ns_ += since_ns(t0);
      continue;
    }
    const Clock::time_point t0 = Clock::now();
    if (tick) {
      wake_.wait_for(lock, std::chrono::milliseconds(100));
      waited_ns_ += since_ns(t0);
      lock.unlock();
      tick();
      lock.lock();
    } else {
      wake_.wait(lock);
      waited_ns_ += since_ns(t0);
    }
  }
}

void SplitPool::wait_until_done(const std::function<bool()>& done) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    rethrow_if_failed();
    if (done()) return;
    const Clock::time_point t0 = Clock::now();
    done_wake_.wait(lock);
    done_waited_ns_ += since_ns(t0);
  }
}

void SplitPool::wake_waiters() {
  // Taking the lock orders the caller's change before any waiter's next
  // look at done(): a waiter between its look and its sleep holds the lock.
  { std::lock_guard<std::mutex> lock(mutex_); }
  wake_.notify_all();
  done_wake_.notify_all();
}

void SplitPool::run_all(std::span<const std::function<void()>> steps) {
  const std::size_t n = steps.size();
  if (n == 0) return;
  // Queued copies of a step may run after this call returns (when this
  // thread ran the step itself): they only touch this shared state, which
  // says the step is taken.
  struct Shared {
    explicit Shared(std::size_t n) : taken(n) {}
    std::vector<std::atomic<bool>> taken;
    std::atomic<std::size_t> finished{0};
  };
  auto shared = std::make_shared<Shared>(n);
  for (std::size_t i = n; i-- > 1;) {
    post(
        [shared, step = &steps[i], i] {
          if (shared->taken[i].exchange(true)) return;
          struct Count {
            Shared& s;
            ~Count() { ++s.finished; }
          } count{*shared};
          (*step)();
        },
        true);
  }
  std::exception_ptr own_error;
  for (std::size_t i = 0; i < n; ++i) {
    if (shared->taken[i].exchange(true)) continue;
    if (!own_error) {
      try {
        steps[i]();
      } catch (...) {
        own_error = std::current_exception();
      }
    }
    ++shared->finished;  // run, or skipped after a failure
  }
  // Every step is taken now; wait for those other threads run (they use the
  // caller's data until they finish, even after one of them failed).
  {
    const Clock::time_point t0 = Clock::now();
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return shared->finished.load() == n; });
    busy_ns_ -= since_ns(t0);  // the job around this call counts it as busy: it was not
  }
  if (own_error) std::rethrow_exception(own_error);
  std::lock_guard<std::mutex> lock(mutex_);
  rethrow_if_failed();
}

}  // namespace mpgpu::cli
