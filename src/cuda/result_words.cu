// Result words, host side: the context's slots (cuda/result_words.hpp,
// cuda/result_words.cuh), a pool of result-word areas, one per operation in
// flight, the leases that queue an operation on one, and the deferred results
// (DeferredResultWords) that hold them until the host reads them.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "cuda/result_words.cuh"

namespace mpgpu::detail::cuda {

namespace {

constexpr std::size_t kPoolBytes = std::size_t{kSlotsPerContext} * kSlotStride * sizeof(std::uint64_t);

bool is_done(const ContextState& st, int slot, std::uint64_t sequence) {
  return published_words(st, slot)[kSlotCount] == sequence;
}

/// Frees the retired slots whose operation has finished.
void sweep_retired(ContextState& st) {
  auto& retired = st.retired_slots;
  auto finished = std::partition(retired.begin(), retired.end(),
                                 [&](const auto& e) { return !is_done(st, e.first, e.second); });
  for (auto it = finished; it != retired.end(); ++it) st.free_slots.push_back(it->first);
  retired.erase(finished, retired.end());
}

}  // namespace

void init_result_words(ContextState& st) {
  MPGPU_CUDA_CHECK(cudaHostAlloc(&st.pinned_words, kPoolBytes, cudaHostAllocMapped));
  MPGPU_CUDA_CHECK(cudaHostGetDevicePointer(&st.mapped_words, st.pinned_words, 0));
  std::memset(st.pinned_words, 0, kPoolBytes);  // "done" = 0; sequences start at 1
  MPGPU_CUDA_CHECK(cudaMalloc(&st.device_words, kPoolBytes));
  MPGPU_CUDA_CHECK(cudaMemset(st.device_words, 0, kPoolBytes));
  st.slot_owner.assign(kSlotsPerContext, nullptr);
  st.free_slots.clear();
  for (int i = kSlotsPerContext - 1; i >= 0; --i) st.free_slots.push_back(i);
}

void free_result_words(ContextState& st) noexcept {
  if (st.device_words) cudaFree(st.device_words);
  if (st.pinned_words) cudaFreeHost(st.pinned_words);
  st.device_words = st.pinned_words = st.mapped_words = nullptr;
  st.free_slots.clear();
  st.retired_slots.clear();
  st.slot_owner.clear();
}

const volatile std::uint64_t* published_words(const ContextState& st, int slot) {
  return static_cast<const volatile std::uint64_t*>(st.pinned_words) + std::size_t(slot) * kSlotStride;
}

namespace {
/// Spins until `arrived()`; every 256 polls asks the stream, so that a
/// failed kernel raises its error and a finished one that never published
/// is reported instead of waited for. After kYieldAfterPolls polls (with
/// the stream queries, of the order of 0.1 ms: past the wait of a small
/// operation; an estimate, not measured) each poll first yields
/// the core, so that a long wait on one thread does not take a core from
/// host threads with work (binary splitting's host jobs beside its device
/// threads); with nothing else to run, a yield returns at once.
template <class Arrived>
void spin_until(Arrived arrived, cudaStream_t s) {
  constexpr unsigned kYieldAfterPolls = 1u << 14;
  for (unsigned spins = 1; !arrived(); ++spins) {
    if (spins > kYieldAfterPolls) std::this_thread::yield();
    if (spins % 256 == 0) {
      const cudaError_t e = cudaStreamQuery(s);
      if (e == cudaSuccess && !arrived())
        throw Error("mpgpu: internal error: a device operation finished without publishing its result");
      if (e != cudaSuccess && e != cudaErrorNotReady) check(e, "cudaStreamQuery", __FILE__, __LINE__);
    }
  }
  std::atomic_thread_fence(std::memory_order_acquire);
}
}  // namespace

void wait_for_done(const ContextState& st, int slot, std::uint64_t sequence, cudaStream_t s) {
  const volatile std::uint64_t* done = published_words(st, slot) + kSlotCount;
  spin_until([&] { return *done == sequence; }, s);
}

void wait_for_ready(const ContextState& st, int slot, cudaStream_t s) {
  const volatile std::uint64_t* ready = published_words(st, slot) + device::kReadyWord;
  spin_until([&] { return *ready != 0; }, s);
}

int acquire_slot(ContextState& st) {
  if (st.free_slots.empty()) sweep_retired(st);
  if (st.free_slots.empty() && !st.retired_slots.empty()) {
    // More operations in flight than slots: wait for the device to catch up.
    MPGPU_CUDA_CHECK(cudaDeviceSynchronize());
    sweep_retired(st);
  }
  if (st.free_slots.empty()) {
    // Every slot holds an unread result: read the oldest one now.
    DeferredResultWords* pick = nullptr;
    std::uint64_t best = UINT64_MAX;
    for (DeferredResultWords* p : st.slot_owner)
      if (p && p->sequence() < best) {
        best = p->sequence();
        pick = p;
      }
    if (!pick) throw Error("mpgpu: internal error: no result-word slot is free, retired or owned");
    pick->settle_locked();
  }
  const int slot = st.free_slots.back();
  st.free_slots.pop_back();
  return slot;
}

void release_slot(ContextState& st, int slot) { st.free_slots.push_back(slot); }

ResultWordsLease::~ResultWordsLease() {
  if (state_ == State::deferred) return;
  if (state_ == State::queued) {
    // An exception between the first launch and the read: let the queued
    // kernels finish (errors are the caller's exception's business) and
    // clear the slot's scratch before anyone reuses it.
    cudaStreamSynchronize(stream_);
    cudaMemset(static_cast<std::uint64_t*>(st_.device_words) + std::size_t(slot_) * kSlotStride, 0,
               kSlotStride * sizeof(std::uint64_t));
    cudaGetLastError();
  }
  release_slot(st_, slot_);
}

// ---- DeferredResultWords -------------------------------------------------------------------

DeferredResultWords::DeferredResultWords(ContextState& st, int slot, std::uint64_t sequence, Stream stream)
    : st_(st), slot_(slot), sequence_(sequence), stream_(stream) {
  std::lock_guard<std::recursive_mutex> lock(st_.mutex);
  st_.slot_owner[slot_] = this;
}

DeferredResultWords::~DeferredResultWords() {
  std::lock_guard<std::recursive_mutex> lock(st_.mutex);
  if (slot_ < 0) return;
  st_.slot_owner[slot_] = nullptr;
  if (is_done(st_, slot_, sequence_)) release_slot(st_, slot_);
  else st_.retired_slots.emplace_back(slot_, sequence_);
}

const std::uint64_t* DeferredResultWords::wait() {
  std::lock_guard<std::recursive_mutex> lock(st_.mutex);
  if (slot_ >= 0) settle_locked();
  return words_;
}

void DeferredResultWords::settle_locked() {
  wait_for_done(st_, slot_, sequence_, static_cast<cudaStream_t>(stream_));
  const volatile std::uint64_t* w = published_words(st_, slot_);
  for (int i = 0; i < kSlotCount; ++i) words_[i] = w[i];
  st_.slot_owner[slot_] = nullptr;
  release_slot(st_, slot_);
  slot_ = -1;
}

}  // namespace mpgpu::detail::cuda
