// Host <-> device copies through pinned staging buffers (staging.cu).
//
// A copy from or to pageable host memory runs at the rate the driver's own
// staging reaches, well below the PCIe rate of pinned memory. Large copies
// therefore go through a ring of kStagingBuffers pinned chunk buffers owned
// by the context: host threads (CopyTeam) memcpy one chunk between the
// caller's memory and a pinned buffer while the DMA engine moves another,
// each buffer guarded by a CUDA event recorded after its last transfer.
//
// This header is host-only (plain C++): the chunk pipelines are templates
// over a "ring" of buffers, so that their order of waits, copies and
// transfers is the same code whether the transfers are DMAs or a test's
// memcpy.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>

#include "context/context_state.hpp"
#include "context/host_pages.hpp"
#include "mpgpu/tuning/table.hpp"

namespace mpgpu::detail::cuda {

/// Bytes of each pinned buffer: large enough that a chunk's fixed costs (a
/// cudaMemcpyAsync call, an event, waking the copy team: microseconds) stay
/// small beside its transfer, small enough that the pipeline fills quickly
/// (the first chunk's host copy and the last chunk's DMA overlap nothing)
/// and that the pinned memory of a context stays modest (32 MiB in all).
/// The tuning table's value; a context's TuningParams::staging_chunk_bytes
/// replaces it (clamped to [64 KiB, 256 MiB] when the buffers are made).
inline constexpr std::size_t kStagingChunkBytes = tuning::table::kStagingChunkBytes;
/// Buffers in the ring: two let the host fill one while the DMA reads the
/// other; four let the DMA queue run ahead of a host copy slowed by faults
/// on fresh destination pages.
inline constexpr int kStagingBuffers = 4;
/// Copies of fewer bytes go straight from or to pageable memory (one
/// cudaMemcpyAsync): the driver stages small copies as fast, and waking the
/// team costs more than it saves. The tuning table's value; a context's
/// TuningParams::staging_min_bytes replaces it.
inline constexpr std::size_t kStagingMinBytes = tuning::table::kStagingMinBytes;
/// Host threads per chunk copy, the caller included (at most the hardware
/// threads): one core's memcpy from pageable memory runs below the PCIe
/// rate, and the zeroing of a fresh destination's pages (in its faults)
/// scales with the threads that fault them. The tuning table's value; a
/// context's TuningParams::staging_threads replaces it.
inline constexpr unsigned kStagingThreads = tuning::table::kStagingThreads;

/// Which staged copies write with streaming stores (CopyTeam::Stores::
/// streaming, stream_copy.hpp), as a set of these bits. Uploads: the fill of
/// a pinned buffer, whose bytes only the DMA engine reads next, so caching
/// them only costs the line reads of ordinary stores. Downloads: the drain
/// into the caller's memory, which at these sizes does not stay in cache
/// either, but whose lines a fresh destination's page faults have just
/// zeroed through the cache.
inline constexpr unsigned kStreamUploads = 1;
inline constexpr unsigned kStreamDownloads = 2;
inline constexpr unsigned kStagingStreamingStores = kStreamUploads;
/// Replaces the set for the copies that start after it (an A/B switch for
/// bench/transfer_bench.cu; not for use while copies run on other threads).
void set_staging_streaming_stores(unsigned which) noexcept;

/// A fresh destination (device -> host) is faulted in by the copy team
/// ahead of the chunks being drained (host_pages.hpp), this many bytes at a
/// time: one huge page per thread, so that the threads zero pages side by
/// side rather than the one thread that first touches each page, and the
/// faults overlap the DMA of the chunks in flight. The ring keeps at least
/// this much faulted in beyond the chunk it drains.
inline std::size_t fault_ahead_bytes(unsigned threads, std::size_t chunk_bytes) {
  return std::max<std::size_t>(chunk_bytes, std::size_t{threads} * kHugePageBytes);
}

/// The windows of a destination [begin, end) to fault in ahead of a
/// download: next(upto) gives the next `window` bytes (fewer at the end)
/// while less than a window beyond `upto` has been handed out, and an empty
/// range otherwise. The windows follow each other and cover [begin, end)
/// exactly once.
struct FaultAhead {
  char* faulted;  // handed out: [begin, faulted)
  char* end;
  std::size_t window;

  std::pair<char*, std::size_t> next(const char* upto) {
    if (faulted == end || (faulted > upto && static_cast<std::size_t>(faulted - upto) >= window)) return {nullptr, 0};
    const std::size_t len = std::min<std::size_t>(window, static_cast<std::size_t>(end - faulted));
    char* const at = faulted;
    faulted += len;
    return {at, len};
  }
};

/// A copy of `bytes` cut into chunks of `chunk` bytes (the last one shorter).
struct ChunkPlan {
  std::size_t bytes;
  std::size_t chunk;
  std::size_t count() const { return (bytes + chunk - 1) / chunk; }
  std::size_t offset(std::size_t i) const { return i * chunk; }
  std::size_t length(std::size_t i) const { return std::min(chunk, bytes - i * chunk); }
};

/// Host -> device through `buffers` staging buffers. Ring:
///   wait(b)              returns once buffer b's last transfer has finished;
///   fill(b, off, len)    copies source bytes [off, off + len) into buffer b;
///   send(b, off, len)    queues buffer b's first len bytes to destination
///                        offset off, and marks b busy until they are moved.
/// When it returns, every source byte has been read.
template <class Ring>
void upload_in_chunks(Ring& ring, int buffers, const ChunkPlan& plan) {
  for (std::size_t i = 0; i < plan.count(); ++i) {
    const int b = static_cast<int>(i % buffers);
    ring.wait(b);
    ring.fill(b, plan.offset(i), plan.length(i));
    ring.send(b, plan.offset(i), plan.length(i));
  }
}

/// Device -> host through `buffers` staging buffers. Ring:
///   wait(b)              as above;
///   receive(b, off, len) queues source bytes [off, off + len) into buffer b
///                        and marks b busy until they arrive;
///   ready()              called once, when the first chunks are queued:
///                        the host may prepare the destination meanwhile;
///   drain(b, off, len)   copies buffer b's first len bytes to destination
///                        offset off.
/// The first `buffers` chunks are queued at once; each later chunk is queued
/// as soon as its buffer is drained, so the DMA runs while the host drains.
/// When it returns, every destination byte is written.
template <class Ring>
void download_in_chunks(Ring& ring, int buffers, const ChunkPlan& plan) {
  const std::size_t n = plan.count();
  const auto receive = [&](std::size_t i) {
    const int b = static_cast<int>(i % buffers);
    ring.wait(b);  // a transfer of an earlier copy may still read it
    ring.receive(b, plan.offset(i), plan.length(i));
  };
  for (std::size_t i = 0; i < std::min<std::size_t>(n, buffers); ++i) receive(i);
  ring.ready();
  for (std::size_t i = 0; i < n; ++i) {
    const int b = static_cast<int>(i % buffers);
    ring.wait(b);
    ring.drain(b, plan.offset(i), plan.length(i));
    if (i + buffers < n) receive(i + buffers);
  }
}

/// Staged copies (staging.cu): the context's staging mutex is taken, its
/// buffers made on first use. They return false, having done nothing, when
/// the copy is better made directly: src (or dst) is not pageable host memory
/// (pinned or managed already), or pinned memory could not be allocated.
/// copy_to_device returns with the stream synchronized, as the synchronous
/// direct path (small uploads take the upload ring instead, upload_ring.hpp).
bool staged_copy_to_device(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes);
bool staged_copy_to_host(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes);
/// Huge-page advice and the pages of [dst, dst + bytes) faulted in by the
/// copy team (no copy; contents unchanged). Nothing if pinned memory was
/// refused (no team).
void staged_prefault(ContextState& st, void* dst, std::size_t bytes);
/// Frees the buffers, events and team (with the context; no copy may run).
void free_staging(ContextState& st) noexcept;

}  // namespace mpgpu::detail::cuda
