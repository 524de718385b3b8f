// The state behind a Context handle. Private to the library.
#pragma once

#include <cstddef>
#include <mutex>

#include "mpgpu/context.hpp"

namespace mpgpu::detail {

struct ContextState {
  Backend backend = Backend::cpu;
  int device = -1;
  Stream stream = nullptr;       // owned (CUDA)
  void* mem_pool = nullptr;      // cudaMemPool_t of the device (not owned)
  // Pinned host words that kernels' small results (sizes, flags) are copied
  // into before the stream is synchronized; see cuda_runtime.hpp.
  void* pinned_words = nullptr;  // owned (CUDA), 64 x 8 bytes
  // Device scratch words matching pinned_words, for atomics and flags.
  void* device_words = nullptr;  // owned (CUDA), 64 x 8 bytes
  std::recursive_mutex mutex;    // guards the scratch words across threads

  ContextState() = default;
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;
  ~ContextState();
};

}  // namespace mpgpu::detail
