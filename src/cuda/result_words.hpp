// Result words, host side: the slots' layout and the deferred results (g++;
// the code is in cuda/result_words.cu; docs/architecture.md, "Result words").
//
// Every device operation that returns small results (a size, a comparison
// key) owns one slot of its context's result words while it runs
// (include/mpgpu/device/result_words.cuh). An operation queued on the
// context's own stream does not wait for them: it hands the slot to a
// DeferredResultWords, which the result Integer keeps until someone asks for its
// size or sign. A chain of additions then costs one launch per operation and
// no host-device round trip; the read-back (several microseconds) is paid
// once, when the value is looked at.
#pragma once

#include <cstdint>
#include <memory>

#include "context/context_state.hpp"
#include "mpgpu/device/result_words.cuh"

namespace mpgpu::detail::cuda {

/// Slots per context (more unread results than this make the oldest one be
/// read, which waits for it) and the words each occupies: kSlotCount result
/// words and one more, the arrival counter on the device and "done" on the
/// host; 8 words keep slots on separate 64-byte lines.
inline constexpr int kSlotsPerContext = 4096;
inline constexpr std::size_t kSlotStride = 8;
static_assert(device::kReadyWord < static_cast<int>(kSlotStride));

/// The comparison key of kSlotOrder as -1, 0, +1 (limb_search.cuh: 0 equal,
/// odd a > b, even nonzero a < b).
inline int order_of(const std::uint64_t* words) {
  const std::uint64_t key = words[device::kSlotOrder];
  return key == 0 ? 0 : ((key & 1) ? 1 : -1);
}

/// The result words an operation's final kernel will publish, owned until
/// read (`Deferred` below owns one).
/// Not movable: the context's pool points at it while it holds a slot.
class DeferredResultWords {
 public:
  DeferredResultWords(ContextState& st, int slot, std::uint64_t sequence, Stream stream);
  DeferredResultWords(const DeferredResultWords&) = delete;
  DeferredResultWords& operator=(const DeferredResultWords&) = delete;
  /// Gives the slot back (retired until the operation is done, if unread).
  ~DeferredResultWords();

  /// Waits for the operation (polling its "done" word; a failed kernel
  /// raises its CUDA error) and returns its kSlotCount words.
  const std::uint64_t* wait();
  Stream stream() const { return stream_; }
  std::uint64_t sequence() const { return sequence_; }

  /// For the pool, under the context's lock: reads the words now and frees
  /// the slot (the oldest unread result when every slot is taken).
  void settle_locked();

 private:
  ContextState& st_;
  int slot_;  // -1 once read
  std::uint64_t sequence_;
  Stream stream_;
  std::uint64_t words_[device::kSlotCount] = {};
};

using Deferred = std::unique_ptr<DeferredResultWords>;

}  // namespace mpgpu::detail::cuda
