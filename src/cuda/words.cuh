// Small device results (sizes, found indices, flags) travel through a few
// scratch words per context: kernels atomically update device words, one
// copy brings them to pinned host memory, one synchronize makes them
// readable. Holders of a WordsLock own the words until it is released.
#pragma once

#include <cstdint>
#include <mutex>

#include "context_state.hpp"
#include "cuda/check.cuh"

namespace mpgpu::detail::cuda {

inline constexpr int kWordCount = 64;

/// Slots used by the backend. Indices are "found" with atomicMax only, so
/// every slot starts at zero (a memset) and "not found" is 0.
enum WordSlot : int {
  kSlotSize = 0,      ///< 1 + index of the highest nonzero result limb
  kSlotCarry = 1,     ///< carry or flag out of a kernel
  kSlotLowA = 2,      ///< n - (lowest nonzero limb index of a), 0 if none
  kSlotLowB = 3,      ///< same for b
  kSlotLowR = 4,      ///< same for a two's-complement result
  kSlotFound = 5,     ///< generic search result
  kSlotsUsed = 6,
};

using WordsLock = std::lock_guard<std::recursive_mutex>;

inline unsigned long long* device_words(ContextState& st) {
  return static_cast<unsigned long long*>(st.device_words);
}

/// Zeroes all slots on stream s.
inline void clear_words(ContextState& st, cudaStream_t s) {
  MPGPU_CUDA_CHECK(cudaMemsetAsync(st.device_words, 0, kSlotsUsed * sizeof(std::uint64_t), s));
}

/// Copies the slots to pinned memory, waits for the stream, returns them.
inline const std::uint64_t* read_words(ContextState& st, cudaStream_t s) {
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(st.pinned_words, st.device_words, kSlotsUsed * sizeof(std::uint64_t),
                                   cudaMemcpyDeviceToHost, s));
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(s));
  return static_cast<const std::uint64_t*>(st.pinned_words);
}

}  // namespace mpgpu::detail::cuda
