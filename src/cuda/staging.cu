// The context's pinned staging buffers and the staged copies (staging.hpp).
#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include "context/copy_team.hpp"
#include "cuda/check.cuh"
#include "cuda/staging.hpp"

namespace mpgpu::detail::cuda {

struct Staging {
  std::size_t chunk_bytes = 0;
  void* buffers[kStagingBuffers] = {};       // pinned, chunk_bytes each
  cudaEvent_t done[kStagingBuffers] = {};    // recorded after each buffer's last transfer
  std::unique_ptr<CopyTeam> team;            // null: pinned memory was refused, copy directly

  Staging() = default;
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  ~Staging() {
    for (int b = 0; b < kStagingBuffers; ++b) {
      if (done[b]) {
        cudaEventSynchronize(done[b]);  // no DMA may still read or write the buffer
        cudaEventDestroy(done[b]);
      }
      if (buffers[b]) cudaFreeHost(buffers[b]);
    }
    cudaGetLastError();  // a failure here has nobody to report to
  }
};

namespace {

std::atomic<unsigned> g_streaming_stores{kStagingStreamingStores};

CopyTeam::Stores stores_for(unsigned direction) {
  return (g_streaming_stores.load(std::memory_order_relaxed) & direction) ? CopyTeam::Stores::streaming
                                                                           : CopyTeam::Stores::cached;
}

/// The context's staging, made on first use; nullptr if pinned memory is
/// refused (then it is not asked again). The caller holds st.staging_mutex.
Staging* staging_of(ContextState& st) {
  if (!st.staging) {
    auto g = std::make_unique<Staging>();
    // The context's TuningParams (kStagingChunkBytes, kStagingThreads by default).
    g->chunk_bytes = std::clamp<std::size_t>(st.tuning.staging_chunk_bytes, std::size_t{1} << 16, std::size_t{1} << 28);
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const unsigned threads = std::clamp(st.tuning.staging_threads, 1u, hardware);
    bool pinned = true;
    for (int b = 0; b < kStagingBuffers && pinned; ++b) {
      MPGPU_CUDA_CHECK(cudaEventCreateWithFlags(&g->done[b], cudaEventDisableTiming));
      const cudaError_t e = cudaHostAlloc(&g->buffers[b], g->chunk_bytes, cudaHostAllocDefault);
      if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();  // not sticky: the direct path still works
        g->buffers[b] = nullptr;
        pinned = false;
      } else {
        MPGPU_CUDA_CHECK(e);
      }
    }
    if (pinned) g->team = std::make_unique<CopyTeam>(threads);
    st.staging = g.release();
  }
  return st.staging->team ? st.staging : nullptr;
}

/// Pageable host memory: what the driver copies slowly. Pinned (or
/// registered) and managed memory are moved directly by the DMA engine.
bool is_pageable(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;  // unknown memory: leave it to the direct path
  }
  return a.type == cudaMemoryTypeUnregistered;
}

struct UploadRing {
  Staging& g;
  cudaStream_t s;
  char* dst;        // device
  const char* src;  // pageable host

  void wait(int b) { MPGPU_CUDA_CHECK(cudaEventSynchronize(g.done[b])); }
  CopyTeam::Stores stores = stores_for(kStreamUploads);

  void fill(int b, std::size_t off, std::size_t len) {
    g.team->copy(g.buffers[b], src + off, len, nullptr, 0, stores);
  }
  void send(int b, std::size_t off, std::size_t len) {
    MPGPU_CUDA_CHECK(cudaMemcpyAsync(dst + off, g.buffers[b], len, cudaMemcpyHostToDevice, s));
    MPGPU_CUDA_CHECK(cudaEventRecord(g.done[b], s));
  }
};

struct DownloadRing {
  Staging& g;
  cudaStream_t s;
  char* dst;        // pageable host
  const char* src;  // device
  FaultAhead ahead;  // of [dst, dst + bytes)
  CopyTeam::Stores stores = stores_for(kStreamDownloads);

  void wait(int b) { MPGPU_CUDA_CHECK(cudaEventSynchronize(g.done[b])); }
  void receive(int b, std::size_t off, std::size_t len) {
    MPGPU_CUDA_CHECK(cudaMemcpyAsync(g.buffers[b], src + off, len, cudaMemcpyDeviceToHost, s));
    MPGPU_CUDA_CHECK(cudaEventRecord(g.done[b], s));
  }
  void ready() {  // while the first chunks move: the first window
    const auto [at, len] = ahead.next(dst);
    g.team->copy(nullptr, nullptr, 0, at, len);
  }
  void drain(int b, std::size_t off, std::size_t len) {
    const auto [at, window] = ahead.next(dst + off + len);
    g.team->copy(dst + off, g.buffers[b], len, at, window, stores);
  }
};

}  // namespace

void set_staging_streaming_stores(unsigned which) noexcept {
  g_streaming_stores.store(which, std::memory_order_relaxed);
}

bool staged_copy_to_device(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes) {
  if (!is_pageable(src)) return false;
  std::lock_guard<std::mutex> lock(st.staging_mutex);
  Staging* g = staging_of(st);
  if (!g) return false;
  UploadRing ring{*g, s, static_cast<char*>(dst), static_cast<const char*>(src)};
  upload_in_chunks(ring, kStagingBuffers, ChunkPlan{bytes, g->chunk_bytes});
  g->team->rest();
  // The source is read; the direct path also returns with the stream idle,
  // and callers may rely on it.
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(s));
  return true;
}

bool staged_copy_to_host(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes) {
  if (!is_pageable(dst)) return false;
  std::lock_guard<std::mutex> lock(st.staging_mutex);
  Staging* g = staging_of(st);
  if (!g) return false;
  char* const host = static_cast<char*>(dst);
  // Before the first touch: a fresh destination then faults in 2 MiB at a
  // time (a destination in use keeps its pages; the advice only decides
  // how its unfaulted pages will come).
  advise_huge_pages(host, bytes);
  DownloadRing ring{*g, s, host, static_cast<const char*>(src),
                    FaultAhead{host, host + bytes, fault_ahead_bytes(g->team->threads(), g->chunk_bytes)}};
  // The last chunk's event is the last work queued on s: once it is drained
  // the stream is idle, as after the direct path's synchronization.
  download_in_chunks(ring, kStagingBuffers, ChunkPlan{bytes, g->chunk_bytes});
  g->team->rest();
  return true;
}

void staged_prefault(ContextState& st, void* dst, std::size_t bytes) {
  if (!is_pageable(dst)) return;
  std::lock_guard<std::mutex> lock(st.staging_mutex);
  Staging* g = staging_of(st);
  if (!g) return;
  advise_huge_pages(dst, bytes);
  g->team->copy(nullptr, nullptr, 0, dst, bytes);
  g->team->rest();
}

void free_staging(ContextState& st) noexcept {
  delete st.staging;
  st.staging = nullptr;
}

}  // namespace mpgpu::detail::cuda
