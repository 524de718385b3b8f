// Host side of include/mpgpu/device/result_words.cuh: one OpWords per
// operation holds the context's lock, hands kernels the ResultWords, and
// waits for the published results.
#pragma once

#include <atomic>
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
  OpWords(ContextState& st, cudaStream_t s) : st_(st), lock_(st.mutex), stream_(s), sequence_(++st.sequence) {
    use_device(st.device);
    if (st.words_dirty) {  // an earlier operation failed between launch and read-back
      MPGPU_CUDA_CHECK(cudaMemsetAsync(st.device_words, 0, kWordsBytes, s));
    }
    st.words_dirty = true;
  }
  ResultWords words() const {
    auto* base = static_cast<unsigned long long*>(st_.device_words);
    return {base, reinterpret_cast<unsigned int*>(base + kSlotCount),
            static_cast<unsigned long long*>(st_.mapped_words), sequence_};
  }
  /// Waits until the operation's final kernel has published its words
  /// (polling the "done" word, with a stream query now and then so that a
  /// failed kernel raises its error instead of hanging); returns the words.
  const std::uint64_t* wait() {
    const volatile std::uint64_t* done = static_cast<const volatile std::uint64_t*>(st_.pinned_words) + kSlotCount;
    for (unsigned spins = 1; *done != sequence_; ++spins) {
      if (spins % 256 == 0) {
        const cudaError_t e = cudaStreamQuery(stream_);
        if (e == cudaSuccess && *done != sequence_)
          throw Error("mpgpu: internal error: a device operation finished without publishing its result");
        if (e != cudaSuccess && e != cudaErrorNotReady) check(e, "cudaStreamQuery", __FILE__, __LINE__);
      }
    }
    std::atomic_thread_fence(std::memory_order_acquire);
    st_.words_dirty = false;
    return static_cast<const std::uint64_t*>(st_.pinned_words);
  }
  /// For operations whose last step is not a publishing kernel (a CUB call
  /// writing straight into the mapped words): waits for the whole stream.
  const std::uint64_t* wait_stream() {
    MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream_));
    st_.words_dirty = false;
    return static_cast<const std::uint64_t*>(st_.pinned_words);
  }
  /// The device words (slots + arrival counter) and the published words
  /// (slots + "done") occupy this many bytes each.
  static constexpr std::size_t kWordsBytes = (kSlotCount + 1) * sizeof(std::uint64_t);

 private:
  ContextState& st_;
  std::lock_guard<std::recursive_mutex> lock_;
  cudaStream_t stream_;
  std::uint64_t sequence_;
};

}  // namespace mpgpu::detail::cuda
