// The state behind a Context handle. Private to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "mpgpu/context.hpp"

namespace mpgpu::detail {

namespace cuda {
class DeferredResultWords;
struct Staging;
struct SmallUploadRing;
}

struct ContextState {
  Backend backend = Backend::cpu;
  int device = -1;
  // A context over several devices (Context::cuda_devices): one ordinary
  // context per device, in the order given; empty for an ordinary context.
  // Such a state owns no stream, pool or cache of its own (every field
  // below stays empty): Context::state() is its first part's, so Integer
  // code, which knows nothing of parts, runs on the first device. `device`
  // is the first part's too. Set when the context is made, never written
  // after.
  std::vector<Context> parts;
  // The tuning values of every operation of this context (Context::tuning()).
  // Set before the context is made visible (init_context reads them), never
  // written after: threads read them without a lock. Hot paths read these,
  // never the environment.
  TuningParams tuning;
  Stream stream = nullptr;       // owned (CUDA)
  // Recorded on `stream` and waited for by an operation on another stream
  // (cuda/result_words.cuh: ResultWordsLease), so that it runs after the work queued here.
  void* stream_order_event = nullptr;  // owned (CUDA): cudaEvent_t
  void* mem_pool = nullptr;      // cudaMemPool_t of the device (not owned)
  // Small results of device operations (sizes, flags) travel as "result
  // words" (docs/architecture.md): each operation in flight owns one "word
  // slot" of this pool, whose kernels combine results in device scratch and
  // whose last block publishes them into host-mapped pinned memory
  // (include/mpgpu/device/result_words.cuh). A result the host has not read
  // yet keeps its slot (cuda/result_words.hpp), so an operation can return
  // before its kernels finish. Managed by cuda/result_words.cu under `mutex`.
  void* pinned_words = nullptr;  // owned (CUDA): kSlotsPerContext x kSlotStride words
  void* mapped_words = nullptr;  // device view of pinned_words
  void* device_words = nullptr;  // owned (CUDA): the slots' device scratch
  std::vector<int> free_slots;   // idle and clean
  // Slots whose reader went away before the operation finished: reusable
  // once their "done" word shows the sequence (slot, sequence).
  std::vector<std::pair<int, std::uint64_t>> retired_slots;
  // The unread result holding each slot (nullptr if none), so that when
  // every slot is taken the oldest can be read and its slot reclaimed.
  std::vector<cuda::DeferredResultWords*> slot_owner;
  std::uint64_t sequence = 0;    // numbers operations for the "done" word
  // Tile statuses of the one-pass scans on the context's stream
  // (cuda/epoch_tiles.hpp): zeroed once, each operation tags its statuses
  // with a new epoch. One buffer per word layout, so that no scan reads
  // another's data as a tag.
  struct EpochTileBuffer {
    void* words = nullptr;  // owned (CUDA, pool memory)
    std::size_t bytes = 0;
    std::uint32_t epoch = 0;
  };
  EpochTileBuffer carry_tiles;      // scan add (device/carry_tiles.cuh)
  EpochTileBuffer remainder_tiles;  // single-limb division (device/remainder_tiles.cuh)
  std::size_t total_memory = 0;  // bytes of device memory
  std::recursive_mutex mutex;    // guards the result-word slots and caches across threads
  // Device twiddles of the public NTT, per (prime, log2 length), made on
  // first use and kept until the context goes (guarded by `mutex`).
  std::map<std::pair<std::uint64_t, int>, std::uint64_t*> ntt_twiddles;
  // The same for the 32-bit transforms (cuda/ntt_public32.cu): uint2 pairs.
  std::map<std::pair<std::uint64_t, int>, void*> ntt_twiddles32;
  // Side streams for the independent branches of one operation
  // (cuda/stream_fork.hpp), made on first use and handed out in turn
  // (fork_next), and the event that orders them against the operation's
  // stream (recorded and waited for under `mutex`, so that no other thread
  // re-records it in between). Twelve: the products of one mul_each (up to
  // four at once) with their three primes each, without two chains on one
  // stream.
  static constexpr int kForkSideStreams = 12;
  Stream fork_streams[kForkSideStreams] = {};  // owned (CUDA)
  int fork_next = 0;                           // the next side stream to hand out
  void* fork_event = nullptr;                  // owned (CUDA): cudaEvent_t
  // Pinned chunk buffers, their events and host copy threads for the large
  // host <-> device copies (cuda/staging.hpp): made on the first such copy,
  // freed with the context. One staged copy at a time, under staging_mutex
  // (not `mutex`: a copy holds it for its whole length).
  std::mutex staging_mutex;
  cuda::Staging* staging = nullptr;  // owned (CUDA)
  // Pinned ring for the small host -> device copies (cuda/upload_ring.hpp),
  // so that they return without waiting for the stream; it has its own
  // lock. Made with the context, its memory on the first such copy.
  cuda::SmallUploadRing* upload_ring = nullptr;  // owned (CUDA)

  ContextState() = default;
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;
  ~ContextState();
};

}  // namespace mpgpu::detail
