// Host threads that share one memcpy (and fault in the pages of a fresh
// destination ahead of it), kept for the life of a context's staging
// buffers (cuda/staging.cu). A staged copy of a 2^30-bit value makes
// dozens of chunk copies in a row, and starting threads for each chunk (tens
// of microseconds a thread) would cost as much as the chunk itself; so the
// helpers stay, spin between the chunks of a copy and sleep on a condition
// variable after it (rest()) or once no chunk has come for a while. The
// parts of a copy are claimed, not assigned: on a host whose cores are busy
// (threads sharing a context), a helper that is not running leaves its part
// to the threads that are, instead of holding the copy for a time slice.
// Private to the library; host-only, plain C++.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace mpgpu::detail {

class CopyTeam {
 public:
  /// How a copy writes its destination: through the caches (memcpy), or
  /// with streaming stores that bypass them (stream_copy.hpp), for a
  /// destination the CPU will not read soon.
  enum class Stores : unsigned char { cached, streaming };

  /// A team of `threads` threads (at least 1): the caller of copy() and
  /// threads - 1 helpers, started here.
  explicit CopyTeam(unsigned threads);
  /// Stops and joins the helpers (no copy may be running).
  ~CopyTeam();
  CopyTeam(const CopyTeam&) = delete;
  CopyTeam& operator=(const CopyTeam&) = delete;

  unsigned threads() const { return threads_; }

  /// memcpy(dst, src, bytes) (no overlap), cut into threads() parts of
  /// whole 4 KiB multiples, so that the threads fault in the pages of a
  /// fresh destination side by side (at most one page shared at each cut);
  /// returns once every part is copied. One caller at a time (the staging
  /// mutex serializes them).
  ///
  /// With `ahead`, each thread then also faults in its part of
  /// [ahead, ahead + ahead_bytes) for writing (fault_in_for_write,
  /// host_pages.hpp): memory a later copy will fill. Those parts are cut at
  /// 2 MiB-aligned addresses when each thread gets at least one huge page,
  /// so that no two threads fault in the same huge page. Either range may
  /// be empty.
  void copy(void* dst, const void* src, std::size_t bytes, void* ahead = nullptr, std::size_t ahead_bytes = 0,
            Stores stores = Stores::cached);

  /// Says no copy follows soon (the end of a staged copy): the helpers sleep
  /// at once instead of spinning for the next chunk.
  void rest() { resting_.store(true, std::memory_order_release); }

 private:
  void helper_loop();
  /// Claims and runs parts of job `job` until none is left (the caller and
  /// every awake helper alike: a helper the scheduler has put aside holds
  /// up no part it has not claimed).
  void run_parts(std::uint64_t job);
  /// next_part_ holds the job's low 32 bits above the next part's index.
  static constexpr std::uint64_t kPartMask = 0xffffffffu;
  static std::uint64_t job_tag(std::uint64_t job) { return job << 32; }
  /// The next generation after `seen`, or `seen` when stopping.
  std::uint64_t wait_for_work(std::uint64_t seen);
  void copy_part(unsigned part) const;
  void populate_part(unsigned part) const;

  unsigned threads_;
  // The job, written by copy() before it bumps generation_ (release) and
  // read by the helpers after they see the new generation (acquire).
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t part_bytes_ = 0;
  Stores stores_ = Stores::cached;
  // Pages to fault in: part p is [cut(p), cut(p + 1)) with
  // cut(k) = clamp(ahead_base_ + k * ahead_part_, ahead_, ahead_end_).
  std::uintptr_t ahead_ = 0;
  std::uintptr_t ahead_end_ = 0;
  std::uintptr_t ahead_base_ = 0;
  std::size_t ahead_part_ = 0;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::uint64_t> next_part_{0};  // job_tag(job) | the next unclaimed part
  std::atomic<unsigned> unfinished_{0};  // parts of the current job not yet copied
  std::atomic<bool> stopping_{false};
  std::atomic<bool> resting_{false};
  std::mutex mutex_;  // with wake_: a helper never misses a generation it sleeps through
  std::condition_variable wake_;
  std::vector<std::thread> helpers_;
};

}  // namespace mpgpu::detail
