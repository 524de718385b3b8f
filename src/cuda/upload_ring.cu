// The context's pinned ring for small uploads (upload_ring.hpp).
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/result_words.cuh"  // use_device
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
  char* device_base = nullptr;  // base as the device addresses it (copy_pieces_to_device)
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

namespace {
/// The ring's pinned memory, made on first use (the caller holds its lock);
/// false if pinned memory was refused (then it is not asked again, and the
/// callers take the synchronous path).
bool ring_memory(SmallUploadRing& ring) {
  if (ring.base) return true;
  if (ring.refused) return false;
  void* p = nullptr;
  const cudaError_t e = cudaHostAlloc(&p, ring.capacity, cudaHostAllocDefault);
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky: the synchronous path still works
    ring.refused = true;
    return false;
  }
  MPGPU_CUDA_CHECK(e);
  ring.base = static_cast<char*>(p);
  ring.regions.emplace(ring.events, ring.capacity);
  return true;
}
}  // namespace

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
  if (!ring_memory(*ring)) return false;
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

namespace {

/// Where a piece's limbs are in a region and where they go.
struct ScatterEntry {
  limb_t* dst;
  std::size_t offset;  // limbs from the region's data
  std::size_t limbs;
};

/// A block a piece (grid-stride over pieces), its threads over the limbs:
/// reads of the mapped pinned region go over the bus, coalesced.
__global__ void scatter_from_host_kernel(const limb_t* data, const ScatterEntry* table, std::size_t count) {
  for (std::size_t p = blockIdx.x; p < count; p += gridDim.x) {
    const ScatterEntry e = table[p];
    for (std::size_t i = threadIdx.x; i < e.limbs; i += blockDim.x) e.dst[i] = data[e.offset + i];
  }
}

constexpr std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

/// One group of pieces through one region: true if the ring took it.
bool ring_copy_group(ContextState& st, Stream s, const HostLimbs* pieces, std::size_t count, std::size_t data_limbs) {
  SmallUploadRing* const ring = st.upload_ring;
  const std::size_t table_bytes = round_up(count * sizeof(ScatterEntry), kUploadRingAlign);
  const std::size_t bytes = table_bytes + data_limbs * sizeof(limb_t);
  std::lock_guard<std::mutex> lock(ring->mutex);
  if (!ring_memory(*ring)) return false;
  // With unified addressing (every 64-bit platform CUDA supports) pinned
  // host memory is mapped at the same address; asked once, to be sure.
  if (!ring->device_base) {
    void* d = nullptr;
    if (cudaHostGetDevicePointer(&d, ring->base, 0) != cudaSuccess || !d) {
      cudaGetLastError();
      return false;
    }
    ring->device_base = static_cast<char*>(d);
  }
  const auto region = ring->regions->reserve(bytes);
  char* const staged = ring->base + region.offset;
  auto* const table = reinterpret_cast<ScatterEntry*>(staged);
  auto* const data = reinterpret_cast<limb_t*>(staged + table_bytes);
  std::size_t at = 0;
  for (std::size_t i = 0; i < count; ++i) {
    table[i] = {pieces[i].dst, at, pieces[i].limbs};
    std::memcpy(data + at, pieces[i].src, pieces[i].limbs * sizeof(limb_t));
    at += pieces[i].limbs;
  }
  const char* const device_staged = ring->device_base + region.offset;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>(count, 4096));
  scatter_from_host_kernel<<<blocks, 256, 0, s>>>(reinterpret_cast<const limb_t*>(device_staged + table_bytes),
                                                  reinterpret_cast<const ScatterEntry*>(device_staged), count);
  MPGPU_CHECK_LAUNCH("scatter_from_host_kernel");
  MPGPU_CUDA_CHECK(cudaEventRecord(region.event, s));
  if (s != st.stream) MPGPU_CUDA_CHECK(cudaStreamWaitEvent(st.stream, region.event, 0));
  return true;
}

}  // namespace

void copy_pieces_to_device(ContextState& st, Stream s, const HostLimbs* pieces, std::size_t count) {
  use_device(st.device);
  SmallUploadRing* const ring = st.upload_ring;
  const std::size_t share =
      ring ? ring->capacity / kUploadRingShare / kUploadRingAlign * kUploadRingAlign : std::size_t{0};
  auto one = [&](const HostLimbs& p) {
    if (p.limbs) copy_to_device(st, s, p.dst, p.src, p.limbs * sizeof(limb_t));
  };
  std::size_t first = 0;
  while (first < count) {
    // The longest run from `first` whose table and limbs fit a region.
    std::size_t end = first, limbs = 0;
    while (end < count) {
      const std::size_t next = limbs + pieces[end].limbs;
      if (round_up((end - first + 1) * sizeof(ScatterEntry), kUploadRingAlign) + next * sizeof(limb_t) > share) break;
      limbs = next;
      ++end;
    }
    if (end == first) {  // too large for a region (or no ring): alone
      one(pieces[first++]);
      continue;
    }
    if (end - first == 1 || !ring_copy_group(st, s, pieces + first, end - first, limbs))
      for (std::size_t i = first; i < end; ++i) one(pieces[i]);
    first = end;
  }
}

void free_upload_ring(ContextState& st) noexcept {
  delete st.upload_ring;
  st.upload_ring = nullptr;
}

}  // namespace mpgpu::detail::cuda
