#include "copy_team.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "host_pages.hpp"
#include "stream_copy.hpp"

namespace mpgpu::detail {

namespace {

/// How long an idle helper spins before it sleeps: longer than the wait for
/// one chunk's DMA between two chunk copies (a few MiB over PCIe), so that a
/// staged copy keeps its helpers awake from its first chunk to its last.
constexpr std::chrono::microseconds kSpinBeforeSleep{2000};

/// Parts are whole pages long: the threads fault in a fresh destination's
/// pages side by side, sharing at most one page at each cut.
constexpr std::size_t kPartAlign = 4096;

/// Parts of a range to fault in ahead are cut at multiples of this when no
/// thread would get a whole huge page (small copies, 4 KiB pages): each
/// part still spans many pages, so one call faults in many.
constexpr std::size_t kSmallAheadAlign = std::size_t{64} << 10;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

CopyTeam::CopyTeam(unsigned threads) : threads_(std::max(1u, threads)) {
  helpers_.reserve(threads_ - 1);
  for (unsigned t = 1; t < threads_; ++t) helpers_.emplace_back([this] { helper_loop(); });
}

CopyTeam::~CopyTeam() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_.store(true, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& t : helpers_) t.join();
}

void CopyTeam::copy(void* dst, const void* src, std::size_t bytes, void* ahead, std::size_t ahead_bytes,
                    Stores stores) {
  if (!ahead) ahead_bytes = 0;
  if (bytes == 0 && ahead_bytes == 0) return;
  if (threads_ == 1) {
    if (stores == Stores::streaming) {
      stream_copy(dst, src, bytes);
    } else if (bytes) {
      std::memcpy(dst, src, bytes);
    }
    fault_in_for_write(ahead, ahead_bytes);
    return;
  }
  dst_ = static_cast<char*>(dst);
  src_ = static_cast<const char*>(src);
  bytes_ = bytes;
  stores_ = stores;
  const std::size_t share = (bytes + threads_ - 1) / threads_;
  part_bytes_ = (share + kPartAlign - 1) / kPartAlign * kPartAlign;
  ahead_ = reinterpret_cast<std::uintptr_t>(ahead);
  ahead_end_ = ahead_ + ahead_bytes;
  const std::size_t align = ahead_bytes >= threads_ * kHugePageBytes ? kHugePageBytes : kSmallAheadAlign;
  ahead_base_ = ahead_ & ~static_cast<std::uintptr_t>(align - 1);
  // Parts of whole `align` multiples from ahead_base_, enough of them to
  // reach ahead_end_: every cut but the first and the last is aligned.
  const std::size_t span = ahead_end_ - ahead_base_;
  ahead_part_ = ((span + threads_ - 1) / threads_ + align - 1) / align * align;
  unfinished_.store(threads_, std::memory_order_relaxed);
  resting_.store(false, std::memory_order_relaxed);
  const std::uint64_t job = generation_.load(std::memory_order_relaxed) + 1;
  // The job's fields above become visible with this store (release) to a
  // thread whose claim on it succeeds (acquire).
  next_part_.store(job_tag(job), std::memory_order_release);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    generation_.store(job, std::memory_order_release);
  }
  wake_.notify_all();  // no system call unless a helper sleeps
  run_parts(job);
  while (unfinished_.load(std::memory_order_acquire) != 0) cpu_relax();
}

void CopyTeam::run_parts(std::uint64_t job) {
  std::uint64_t seen = next_part_.load(std::memory_order_acquire);
  for (;;) {
    // A claim names its job: a helper late for an earlier job finds the
    // tag changed (or every part claimed) and takes nothing.
    if ((seen & ~kPartMask) != job_tag(job) || (seen & kPartMask) >= threads_) return;
    if (!next_part_.compare_exchange_weak(seen, seen + 1, std::memory_order_acq_rel, std::memory_order_acquire))
      continue;
    const unsigned part = static_cast<unsigned>(seen & kPartMask);
    copy_part(part);  // first: the staging buffer waits for it
    populate_part(part);
    unfinished_.fetch_sub(1, std::memory_order_acq_rel);
    seen = next_part_.load(std::memory_order_acquire);
  }
}

void CopyTeam::copy_part(unsigned part) const {
  const std::size_t begin = std::min(bytes_, part * part_bytes_);
  const std::size_t end = std::min(bytes_, begin + part_bytes_);
  if (begin >= end) return;
  if (stores_ == Stores::streaming) {
    stream_copy(dst_ + begin, src_ + begin, end - begin);  // fenced: done before unfinished_ drops
  } else {
    std::memcpy(dst_ + begin, src_ + begin, end - begin);
  }
}

void CopyTeam::populate_part(unsigned part) const {
  if (ahead_ == ahead_end_) return;
  const auto cut = [&](unsigned k) {
    return std::clamp<std::uintptr_t>(ahead_base_ + std::uintptr_t{k} * ahead_part_, ahead_, ahead_end_);
  };
  const std::uintptr_t begin = cut(part), end = cut(part + 1);
  if (begin < end) fault_in_for_write(reinterpret_cast<void*>(begin), end - begin);
}

std::uint64_t CopyTeam::wait_for_work(std::uint64_t seen) {
  const auto start = std::chrono::steady_clock::now();
  for (unsigned spins = 1;; ++spins) {
    const std::uint64_t g = generation_.load(std::memory_order_acquire);
    if (g != seen) return g;
    if (stopping_.load(std::memory_order_acquire)) return seen;
    if (resting_.load(std::memory_order_acquire)) break;
    if (spins % 256 == 0 && std::chrono::steady_clock::now() - start > kSpinBeforeSleep) break;
    cpu_relax();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  wake_.wait(lock, [&] {
    return stopping_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen;
  });
  const std::uint64_t g = generation_.load(std::memory_order_acquire);
  return stopping_.load(std::memory_order_acquire) && g == seen ? seen : g;
}

void CopyTeam::helper_loop() {
  // copy() posts a new generation only after every part of the previous one
  // is done. A helper that wakes late for a job finds its parts claimed.
  std::uint64_t seen = 0;
  for (;;) {
    const std::uint64_t g = wait_for_work(seen);
    if (g == seen) return;  // stopping
    seen = g;
    run_parts(g);
  }
}

}  // namespace mpgpu::detail
