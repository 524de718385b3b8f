// Small host -> device copies without a host wait (upload_ring.cu).
//
// A copy from pageable memory must either wait until the DMA has read the
// caller's buffer (cudaStreamSynchronize: every small upload then drains
// the stream) or first copy the bytes somewhere the caller does not own.
// The context keeps a pinned ring for that: an upload takes a region of the
// ring, memcpys the caller's bytes into it, queues the DMA from the region
// and records an event after it, and returns. A region is handed out again
// only once the events of the earlier uploads that overlap it have fired.
//
// This header is host-only (plain C++): the bookkeeping of regions and
// events is a template over the events, so that a test drives it with a
// simulated DMA (tests/integer/upload_ring_host.cpp).
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

#include "context/context_state.hpp"
#include "mpgpu/tuning/table.hpp"

namespace mpgpu::detail::cuda {

/// Pinned bytes of a context's ring: 256 uploads of 2^18 bits (the values a
/// binary-splitting merge uploads) in flight; the tuning table's value. A
/// context's TuningParams::upload_ring_bytes replaces it (0: no ring, every
/// small upload synchronizes its stream; other values are clamped to
/// [kUploadRingMinBytes, kUploadRingMaxBytes]).
inline constexpr std::size_t kUploadRingBytes = tuning::table::kUploadRingBytes;
inline constexpr std::size_t kUploadRingMinBytes = std::size_t{4} << 10;
inline constexpr std::size_t kUploadRingMaxBytes = std::size_t{1} << 30;
/// Regions start at multiples of this: the DMA engine reads aligned source
/// lines, and two uploads never share one.
inline constexpr std::size_t kUploadRingAlign = 256;
/// An upload may take at most 1/kUploadRingShare of the ring (larger ones
/// take the synchronous path), so that one upload never waits for the whole
/// ring to drain.
inline constexpr std::size_t kUploadRingShare = 4;
/// Events (and so uploads) in flight at most: the ring makes them as it
/// needs them; when all are in flight the oldest upload is waited for.
inline constexpr std::size_t kUploadRingEvents = 256;

/// Whether a host -> device copy of `bytes` goes through a ring of
/// `ring_bytes` (0: none): copies of at least `staging_min_bytes` are staged
/// (staging.hpp), empty ones and ones above the ring's share are made
/// synchronously.
inline bool upload_ring_takes(std::size_t bytes, std::size_t ring_bytes, std::size_t staging_min_bytes) {
  const std::size_t share = ring_bytes / kUploadRingShare / kUploadRingAlign * kUploadRingAlign;
  return bytes > 0 && bytes < staging_min_bytes && bytes <= share;
}

/// The regions of a ring of `capacity` bytes (a multiple of
/// kUploadRingAlign) held by uploads in flight, in the order they were
/// handed out (a bump pointer that wraps to 0). Events:
///   Event                  a copyable handle;
///   Event create()         a new event (at most max_events calls);
///   bool done(Event)       whether the transfer it was recorded after has
///                          finished (no wait);
///   void wait(Event)       returns once that transfer has finished.
/// Not thread-safe: the owner locks around reserve and the record of the
/// region's event, so that nobody waits for an event before it is recorded.
template <class Events>
class UploadRegions {
 public:
  using Event = typename Events::Event;

  struct Region {
    std::size_t offset;  // into the ring, a multiple of kUploadRingAlign
    Event event;         // to record after the transfer that reads the region
  };

  UploadRegions(Events& events, std::size_t capacity, std::size_t max_events = kUploadRingEvents)
      : events_(events), capacity_(capacity), max_events_(max_events ? max_events : 1) {}

  std::size_t capacity() const { return capacity_; }
  /// The largest upload the ring takes.
  std::size_t max_bytes() const { return capacity_ / kUploadRingShare / kUploadRingAlign * kUploadRingAlign; }
  /// Uploads whose events have not been seen to fire yet.
  std::size_t in_flight() const { return live_.size(); }
  /// Every event made so far (for the owner to destroy, after wait_all).
  const std::vector<Event>& all_events() const { return made_; }

  /// A region of `bytes` (0 < bytes <= max_bytes()) that no upload in flight reads,
  /// waiting for the uploads that held it, and the event that guards it
  /// from now on. The region is busy until the next call: the caller
  /// records the event before it lets anyone else reserve.
  Region reserve(std::size_t bytes) {
    const std::size_t len = (bytes + kUploadRingAlign - 1) / kUploadRingAlign * kUploadRingAlign;
    // Finished uploads leave from the oldest end, one query each.
    while (!live_.empty() && events_.done(live_.front().event)) retire_front();
    if (live_.empty()) head_ = 0;  // start over: wrap as rarely as possible
    if (head_ + len > capacity_) {
      // Wrap. The uploads between head_ and the end are the oldest (handed
      // out before the last wrap): waiting for them too keeps the regions
      // in flight one run in ring order, so that the ones a new region
      // overlaps are always the oldest.
      while (!live_.empty() && live_.front().offset >= head_) wait_front();
      head_ = 0;
    }
    // The oldest uploads at or beyond head_ lie in ring order from head_ on.
    while (!live_.empty() && live_.front().offset >= head_ && live_.front().offset < head_ + len) wait_front();
    if (free_.empty() && made_.size() >= max_events_) wait_front();  // every event in flight
    Event e;
    if (!free_.empty()) {
      e = free_.back();
      free_.pop_back();
    } else {
      e = events_.create();
      made_.push_back(e);
    }
    const Region r{head_, e};
    live_.push_back({head_, len, e});
    head_ += len;
    return r;
  }

  /// Waits for every upload in flight (before the ring's memory goes).
  void wait_all() {
    while (!live_.empty()) wait_front();
  }

 private:
  struct Live {
    std::size_t offset;
    std::size_t length;
    Event event;
  };

  void retire_front() {
    free_.push_back(live_.front().event);
    live_.pop_front();
  }
  void wait_front() {
    events_.wait(live_.front().event);
    retire_front();
  }

  Events& events_;
  std::size_t capacity_;
  std::size_t max_events_;
  std::size_t head_ = 0;    // the next region starts here (or at 0, wrapping)
  std::deque<Live> live_;   // in the order handed out
  std::vector<Event> free_;  // made, not in flight
  std::vector<Event> made_;
};

/// The context's ring (upload_ring.cu): made empty with the context unless
/// MPGPU_UPLOAD_RING_BYTES is 0; its pinned memory comes with the first
/// upload that uses it.
void init_upload_ring(ContextState& st);
/// Copies `bytes` from host `src` into the ring and queues their transfer
/// to `dst` on `s`, returning without a host wait (src may be reused at
/// once); on a stream other than the context's, the context's stream is
/// made to wait for the transfer too. Returns false, having done nothing,
/// when there is no ring, pinned memory was refused, or upload_ring_takes
/// says no.
bool ring_copy_to_device(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes,
                         std::size_t staging_min_bytes);
/// Waits for the uploads in flight, then frees the ring (with the context).
void free_upload_ring(ContextState& st) noexcept;

}  // namespace mpgpu::detail::cuda
