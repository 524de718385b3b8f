// Host side of include/mpgpu/device/result_words.cuh: one OpWords per
// operation holds the context's lock, hands kernels the ResultWords, and
// waits for the published results.
#pragma once

#include <cstdint>
#include <mutex>

#include "context_state.hpp"
#include "cuda/check.cuh"
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

/// One operation's use of the context's result words.
class OpWords {
 public:
  OpWords(ContextState& st, cudaStream_t s) : st_(st), lock_(st.mutex), stream_(s) {
    use_device(st.device);
    if (st.words_dirty) {  // an earlier operation failed between launch and read-back
      MPGPU_CUDA_CHECK(cudaMemsetAsync(st.device_words, 0, kWordsBytes, s));
    }
    st.words_dirty = true;
  }
  ResultWords words() const {
    auto* base = static_cast<unsigned long long*>(st_.device_words);
    return {base, reinterpret_cast<unsigned int*>(base + kSlotCount),
            static_cast<unsigned long long*>(st_.mapped_words)};
  }
  /// Waits for the stream; returns the words the final kernel published.
  const std::uint64_t* wait() {
    MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream_));
    st_.words_dirty = false;
    return static_cast<const std::uint64_t*>(st_.pinned_words);
  }
  /// The device words (slots + arrival counter) occupy this many bytes.
  static constexpr std::size_t kWordsBytes = (kSlotCount + 1) * sizeof(std::uint64_t);

 private:
  ContextState& st_;
  std::lock_guard<std::recursive_mutex> lock_;
  cudaStream_t stream_;
};

}  // namespace mpgpu::detail::cuda
