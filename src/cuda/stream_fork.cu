// StreamFork (stream_fork.hpp): side streams of a context and the event that
// orders them, both under the context's lock.
#include <mutex>

#include "cuda/check.cuh"
#include "cuda/stream_fork.hpp"
#include "cuda/result_words.cuh"

namespace mpgpu::detail::cuda {

namespace {

/// `waiter` waits for the work queued on `after` so far (caller holds st.mutex).
void order(ContextState& st, Stream after, Stream waiter) {
  const auto event = static_cast<cudaEvent_t>(st.fork_event);
  MPGPU_CUDA_CHECK(cudaEventRecord(event, after));
  MPGPU_CUDA_CHECK(cudaStreamWaitEvent(waiter, event, 0));
}

}  // namespace

StreamFork::StreamFork(ContextState& st, Stream s, int branches)
    : st_(st), branches_(branches < 1 ? 1 : branches > kMaxBranches ? kMaxBranches : branches) {
  streams_[0] = s;
  if (branches_ == 1) return;
  use_device(st.device);
  std::lock_guard<std::recursive_mutex> lock(st.mutex);
  if (!st.fork_event) {
    cudaEvent_t e = nullptr;
    MPGPU_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    st.fork_event = e;
  }
  for (int i = 1; i < branches_; ++i) {
    Stream& side = st.fork_streams[st.fork_next];
    st.fork_next = (st.fork_next + 1) % ContextState::kForkSideStreams;
    if (!side) MPGPU_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    streams_[i] = side;
  }
  // One record on s serves every side stream's wait.
  const auto event = static_cast<cudaEvent_t>(st.fork_event);
  MPGPU_CUDA_CHECK(cudaEventRecord(event, s));
  for (int i = 1; i < branches_; ++i) MPGPU_CUDA_CHECK(cudaStreamWaitEvent(streams_[i], event, 0));
}

void StreamFork::join() {
  if (joined_) return;
  joined_ = true;
  if (branches_ == 1) return;
  std::lock_guard<std::recursive_mutex> lock(st_.mutex);
  for (int i = 1; i < branches_; ++i) order(st_, streams_[i], streams_[0]);
}

StreamFork::~StreamFork() {
  if (joined_ || branches_ == 1) return;
  // On the way out of an exception: order what can be ordered, throw nothing.
  joined_ = true;
  std::lock_guard<std::recursive_mutex> lock(st_.mutex);
  const auto event = static_cast<cudaEvent_t>(st_.fork_event);
  for (int i = 1; i < branches_; ++i)
    if (cudaEventRecord(event, streams_[i]) != cudaSuccess || cudaStreamWaitEvent(streams_[0], event, 0) != cudaSuccess)
      cudaStreamSynchronize(streams_[i]);
}

}  // namespace mpgpu::detail::cuda
