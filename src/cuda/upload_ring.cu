// The context's pinned ring for small uploads (upload_ring.hpp).
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>

#include "cuda/check.cuh"
#include "cuda/upload_ring.hpp"

namespace mpgpu::detail::cuda {

namespace {

struct CudaUploadEvents {
  using Event = cudaEvent_t;
  Event create() {
    cudaEvent_t e = nullptr;
    MPGPU_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    return e;
  }
  bool done(Event e) {
    const cudaError_t r = cudaEventQuery(e);
    if (r == cudaErrorNotReady) return false;
    MPGPU_CUDA_CHECK(r);
    return true;
  }
  void wait(Event e) { MPGPU_CUDA_CHECK(cudaEventSynchronize(e)); }
};

/// The ring's size in bytes, 0 for none: the context's upload_ring_bytes
/// (TuningParams), clamped to [kUploadRingMinBytes, kUploadRingMaxBytes]
/// and aligned down.
std::size_t upload_ring_bytes(const ContextState& st) {
  const std::size_t b = st.tuning.upload_ring_bytes;
  if (b == 0) return 0;
  return std::clamp(b, kUploadRingMinBytes, kUploadRingMaxBytes) / kUploadRingAlign * kUploadRingAlign;
}

}  // namespace

/// Its own lock, never ContextState::mutex: callers may hold that one (a
/// recursive mutex) while they copy, and the ring must not take it back.
struct SmallUploadRing {
  std::mutex mutex;
  std::size_t capacity = 0;
  bool refused = false;  // pinned memory was refused: not asked again
  char* base = nullptr;  // pinned, capacity bytes, made on the first upload
  CudaUploadEvents events;
  std::optional<UploadRegions<CudaUploadEvents>> regions;  // with base

  SmallUploadRing() = default;
  SmallUploadRing(const SmallUploadRing&) = delete;
  SmallUploadRing& operator=(const SmallUploadRing&) = delete;
  ~SmallUploadRing() {
    // No DMA may still read the memory. Errors have nobody to report to.
    if (regions)
      for (cudaEvent_t e : regions->all_events()) {
        cudaEventSynchronize(e);
        cudaEventDestroy(e);
      }
    if (base) cudaFreeHost(base);
    cudaGetLastError();
  }
};

void init_upload_ring(ContextState& st) {
  const std::size_t capacity = upload_ring_bytes(st);
  if (capacity == 0) return;
  auto ring = std::make_unique<SmallUploadRing>();
  ring->capacity = capacity;
  st.upload_ring = ring.release();
}

bool ring_copy_to_device(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes,
                         std::size_t staging_min_bytes) {
  SmallUploadRing* const ring = st.upload_ring;
  if (!ring || !upload_ring_takes(bytes, ring->capacity, staging_min_bytes)) return false;
  std::lock_guard<std::mutex> lock(ring->mutex);
  if (!ring->base) {
    if (ring->refused) return false;
    void* p = nullptr;
    const cudaError_t e = cudaHostAlloc(&p, ring->capacity, cudaHostAllocDefault);
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // not sticky: the synchronous path still works
      ring->refused = true;
      return false;
    }
    MPGPU_CUDA_CHECK(e);
    ring->base = static_cast<char*>(p);
    ring->regions.emplace(ring->events, ring->capacity);
  }
  const auto region = ring->regions->reserve(bytes);
  char* const staged = ring->base + region.offset;
  std::memcpy(staged, src, bytes);
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(dst, staged, bytes, cudaMemcpyHostToDevice, s));
  MPGPU_CUDA_CHECK(cudaEventRecord(region.event, s));
  // On another stream: the context's stream, and through it every stream
  // that orders itself after it (ResultWordsLease), waits for the copy too, as the
  // host did before. The wait keeps the event's current record.
  if (s != st.stream) MPGPU_CUDA_CHECK(cudaStreamWaitEvent(st.stream, region.event, 0));
  return true;
}

void free_upload_ring(ContextState& st) noexcept {
  delete st.upload_ring;
  st.upload_ring = nullptr;
}

}  // namespace mpgpu::detail::cuda
