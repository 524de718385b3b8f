// The state behind a Context handle. Private to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "mpgpu/context.hpp"

namespace mpgpu::detail {

struct ContextState {
  Backend backend = Backend::cpu;
  int device = -1;
  Stream stream = nullptr;       // owned (CUDA)
  void* mem_pool = nullptr;      // cudaMemPool_t of the device (not owned)
  // Small results of device operations (sizes, flags): kernels combine them
  // in device_words and the last block publishes them into pinned_words,
  // host memory mapped into the device (mapped_words is its device address).
  // See include/mpgpu/device/result_words.cuh.
  void* pinned_words = nullptr;  // owned (CUDA)
  void* mapped_words = nullptr;  // device view of pinned_words
  void* device_words = nullptr;  // owned (CUDA)
  bool words_dirty = false;
  std::uint64_t sequence = 0;    // numbers operations for the "done" word
  std::size_t total_memory = 0;  // bytes of device memory      // a failed operation may have left words set
  std::recursive_mutex mutex;    // guards the scratch words across threads
  // Device twiddles of the public NTT, per (prime, log2 length), made on
  // first use and kept until the context goes (guarded by `mutex`).
  std::map<std::pair<std::uint64_t, int>, std::uint64_t*> ntt_twiddles;

  ContextState() = default;
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;
  ~ContextState();
};

}  // namespace mpgpu::detail
