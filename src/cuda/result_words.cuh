// Result words, host side (include/mpgpu/device/result_words.cuh is the
// device side): one ResultWordsLease per operation holds the context's lock
// and a slot, hands kernels the slot's ResultWords, and waits for the
// published words or defers them to a DeferredResultWords
// (cuda/result_words.hpp, which g++ code includes).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "context/context_state.hpp"
#include "cuda/check.cuh"
#include "cuda/result_words.hpp"
#include "mpgpu/device/result_words.cuh"

namespace mpgpu::detail::cuda {

using device::ResultWords;
using device::kSlotCount;
using device::kSlotFound;
using device::kSlotLowA;
using device::kSlotLowB;
using device::kSlotLowR;
using device::kSlotOrder;
using device::kSlotSize;

/// Makes `device` current if it is not (cudaGetDevice costs no driver call).
inline void use_device(int device) {
  int current = -1;
  MPGPU_CUDA_CHECK(cudaGetDevice(&current));
  if (current != device) MPGPU_CUDA_CHECK(cudaSetDevice(device));
}

// The context's pool of slots (result_words.cu); callers hold st.mutex.
void init_result_words(ContextState& st);
void free_result_words(ContextState& st) noexcept;
int acquire_slot(ContextState& st);
void release_slot(ContextState& st, int slot);
/// Host view of a slot's published words (kSlotCount + "done").
const volatile std::uint64_t* published_words(const ContextState& st, int slot);
/// Polls the slot's "done" word until it shows `sequence`; every 256 polls
/// asks the stream, so that a failed kernel raises its error.
void wait_for_done(const ContextState& st, int slot, std::uint64_t sequence, cudaStream_t s);
/// Polls the slot's ready word until it is nonzero (publish_ready), asking
/// the stream as wait_for_done does.
void wait_for_ready(const ContextState& st, int slot, cudaStream_t s);

/// Whether an operation's final kernel may publish its words before the
/// kernel ends (ResultWords::publish_now): only on the context's own
/// stream, where the host reads results, reuses buffers and frees operands
/// in stream order.
inline bool publish_early(const ContextState& st, cudaStream_t s) { return s == st.stream; }

/// Makes `s` wait for the work queued so far on the context's stream, when
/// it is another stream: an operand written there may still be in flight
/// even once its size is known (ResultWords::publish_now). No host wait.
inline void order_after_context_stream(const ContextState& st, cudaStream_t s) {
  if (s == st.stream) return;
  const auto event = static_cast<cudaEvent_t>(st.stream_order_event);
  MPGPU_CUDA_CHECK(cudaEventRecord(event, st.stream));
  MPGPU_CUDA_CHECK(cudaStreamWaitEvent(s, event, 0));
}

/// One operation's lease of a slot: holds the context's lock while the
/// operation queues its kernels, hands them the slot's ResultWords, and then
/// either waits for the published words or hands them, unread, to a
/// DeferredResultWords (defer).
class ResultWordsLease {
 public:
  ResultWordsLease(ContextState& st, cudaStream_t s)
      : st_(st),
        lock_(st.mutex),
        stream_(s),
        // The cross-stream wait before the slot: if it throws, no slot is held.
        slot_((use_device(st.device), order_after_context_stream(st, s), acquire_slot(st))),
        sequence_(++st.sequence) {}
  ResultWordsLease(const ResultWordsLease&) = delete;
  ResultWordsLease& operator=(const ResultWordsLease&) = delete;
  ~ResultWordsLease();

  ResultWords words() const {
    auto* base = static_cast<unsigned long long*>(st_.device_words) + slot_ * kSlotStride;
    auto* published = static_cast<unsigned long long*>(st_.mapped_words) + slot_ * kSlotStride;
    return {base, reinterpret_cast<unsigned int*>(base + kSlotCount), published, sequence_};
  }
  /// Waits until the operation's final kernel has published its words and
  /// returns them (valid while this object lives).
  const std::uint64_t* wait() {
    wait_for_done(st_, slot_, sequence_, stream_);
    state_ = State::read;
    std::atomic_thread_fence(std::memory_order_acquire);
    return const_cast<const std::uint64_t*>(published_words(st_, slot_));
  }
  /// The one-block fast path (ResultWords::publish_ready): clear the ready
  /// word before queueing the kernel, then wait_ready returns its value.
  void arm_ready() {
    *published_ready() = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);  // cleared before the launch
  }
  std::uint64_t wait_ready() {
    wait_for_ready(st_, slot_, stream_);
    state_ = State::read;
    std::atomic_thread_fence(std::memory_order_acquire);
    return *published_ready() / 2;
  }
  /// For operations whose last step is not a publishing kernel (a CUB call
  /// writing straight into the mapped words): waits for the whole stream.
  const std::uint64_t* wait_stream() {
    MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream_));
    state_ = State::read;
    return const_cast<const std::uint64_t*>(published_words(st_, slot_));
  }
  /// Call after queueing the final (publishing) kernel: the words will be
  /// read later, through the returned object.
  Deferred defer() {
    Deferred p = std::make_unique<DeferredResultWords>(st_, slot_, sequence_, stream_);
    state_ = State::deferred;
    return p;
  }

 private:
  volatile std::uint64_t* published_ready() const {
    return const_cast<volatile std::uint64_t*>(published_words(st_, slot_)) + device::kReadyWord;
  }
  enum class State { queued, read, deferred };
  ContextState& st_;
  std::lock_guard<std::recursive_mutex> lock_;
  cudaStream_t stream_;
  int slot_;
  std::uint64_t sequence_;
  State state_ = State::queued;
};

}  // namespace mpgpu::detail::cuda
