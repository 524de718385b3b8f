// Device-wide searches for the highest or lowest limb index satisfying a
// predicate (first differing limb for a comparison, highest nonzero limb for
// normalization, lowest nonzero limb for two's complement).
//
// Blocks visit chunks in search order (the top chunk first for a highest
// search) and stop once a hit lies beyond their next chunk, so a search that
// ends near where it starts costs a few blocks' reads, not a pass over the
// number; the worst case (no hit) reads everything once. A long search is
// preceded by a probe of its first few chunks: the first wave of the full
// grid (~1000 blocks) would otherwise read its chunks before any block has
// found the hit that lets them stop: about half of a 2^28-bit operand pair
// read for operands that differ in their top limb (docs/tuning-history.md,
// "Result publication and searches").
#pragma once

#include "mpgpu/device/dependent_launch.cuh"
#include "mpgpu/device/result_words.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

struct LimbSearchPolicy {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 8;
  static constexpr int kChunk = kThreads * kItems;
};

/// Predicate results: 0 = no hit; 1 or 2 = hit, carrying one bit (result-1).
/// Highest search: *out = max over hits of 2*(i+1) + bit (0 if none).
/// Lowest search:  *out = max over hits of 2*(n-i) + bit (0 if none).
/// The result goes to words.slot[slot]; with `publish`, this kernel ends
/// the operation and publishes the slots; with `ready` (a search whose key
/// is the operation's only result, the host waiting on ResultWordsLease::
/// wait_ready), it ends the operation and hands the key to the host through
/// the ready word instead (ResultWords::publish_ready), leaving the slot
/// and the arrival count zero: at once when the search's first index hits
/// (no block then touches a slot), else from the last block to finish.
/// Only the first `max_chunks` chunks in search order are visited (a probe).
/// Launched as a dependent grid (dependent_launch.cuh), and lets the next
/// kernel launch at once: a search is short, and that kernel waits for it.
template <bool kHighest, class Pred, class Policy = LimbSearchPolicy>
__global__ void __launch_bounds__(Policy::kThreads)
    limb_search_kernel(Pred pred, std::size_t n, ResultWords words, int slot, bool publish, std::size_t max_chunks,
                       bool ready) {
  wait_for_prior_grids();
  allow_dependent_grids();
  unsigned long long* out = &words.slot[slot];
  __shared__ bool skip;
  const std::size_t all_chunks = (n + Policy::kChunk - 1) / Policy::kChunk;
  std::size_t chunks = all_chunks < max_chunks ? all_chunks : max_chunks;
  // A hit at the index where the search starts is the best key there is
  // (2n + bit either way): numbers whose top limbs differ, a number whose
  // low limb is nonzero. Every thread tests that index first (one broadcast
  // load an operand), so such a search reads no chunk at all.
  if (const int hit = pred(kHighest ? n - 1 : 0)) {
    if (ready) {  // every block sees the hit: none counts its arrival
      if (blockIdx.x == 0 && threadIdx.x == 0) {
        atomicExch(out, 0ull);  // a probe before this kernel may have left the key there
        words.publish_ready(2ull * n + (hit - 1));
      }
      return;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicMax(out, 2ull * n + (hit - 1));
    chunks = 0;
  }
  // Blocks stride over the chunks in search order; once a hit lies beyond a
  // block's chunk, it lies beyond all its later chunks too, and the block stops.
  for (std::size_t k = blockIdx.x; k < chunks; k += gridDim.x) {
    // Chunk [lo, hi) in index space.
    const std::size_t lo = kHighest ? (n > (k + 1) * Policy::kChunk ? n - (k + 1) * Policy::kChunk : 0)
                                    : k * Policy::kChunk;
    const std::size_t hi = kHighest ? n - k * Policy::kChunk : min(n, (k + 1) * Policy::kChunk);
    if (threadIdx.x == 0) {
      const unsigned long long found = *static_cast<volatile unsigned long long*>(out);
      // A hit in an earlier-visited chunk beats every index in this one.
      skip = kHighest ? (found / 2 > hi) : (found / 2 > n - lo);
    }
    __syncthreads();
    if (skip) break;  // uniform across the block
    unsigned long long best = 0;
#pragma unroll
    for (int j = 0; j < Policy::kItems; ++j) {
      const std::size_t i = lo + std::size_t(j) * Policy::kThreads + threadIdx.x;  // striped: coalesced
      if (i < hi) {
        const int hit = pred(i);
        if (hit) {
          const unsigned long long key = 2ull * (kHighest ? i + 1 : n - i) + (hit - 1);
          best = key > best ? key : best;
        }
      }
    }
    block_max_into<Policy::kThreads / 32>(best, out);
    __syncthreads();  // thread 0 is done with the shared words before the next chunk
  }
  if (ready) {
    if (threadIdx.x != 0) return;  // the loop's last barrier ordered the block's atomics before this
    const unsigned int blocks = gridDim.x;
    if (blocks > 1) {
      __threadfence();  // the block's key before its arrival
      if (atomicAdd(words.arrivals, 1u) != blocks - 1) return;
      __threadfence();
      atomicExch(words.arrivals, 0u);
    }
    words.publish_ready(atomicExch(out, 0ull));
    return;
  }
  if (publish) words.publish_when_last();
}

/// A search of one chunk (n <= Policy::kChunk) by one block that hands its
/// key straight to the host (ResultWords::publish_ready): no slot, no
/// atomics, no fences; keys as in limb_search_kernel.
template <bool kHighest, class Pred, class Policy = LimbSearchPolicy>
__global__ void __launch_bounds__(Policy::kThreads)
    limb_search_block_kernel(Pred pred, std::size_t n, ResultWords words) {
  unsigned long long best = 0;
#pragma unroll
  for (int j = 0; j < Policy::kItems; ++j) {
    const std::size_t i = std::size_t(j) * Policy::kThreads + threadIdx.x;
    if (i < n) {
      const int hit = pred(i);
      if (hit) {
        const unsigned long long key = 2ull * (kHighest ? i + 1 : n - i) + (hit - 1);
        best = key > best ? key : best;
      }
    }
  }
  best = block_max<Policy::kThreads / 32>(best);
  if (threadIdx.x == 0) words.publish_ready(best);
}

/// Queues a search over [0, n) (n >= 1) on `stream` into words.slot[slot],
/// which must be zero. Returns the launch error, if any. At most
/// kMaxBlocks blocks (about one resident wave on an H100 or H200): a search
/// that ends early then costs one short launch, not a grid over the whole number.
template <bool kHighest, class Pred, class Policy = LimbSearchPolicy>
cudaError_t launch_limb_search(Pred pred, std::size_t n, ResultWords words, int slot, bool publish,
                               cudaStream_t stream, bool ready = false) {
  constexpr std::size_t kMaxBlocks = 1024;
  // The probe: 4 chunks (8192 limbs), for searches of more than 16 chunks.
  constexpr std::size_t kProbeChunks = 4, kProbeFrom = 16;
  const std::size_t chunks = (n + Policy::kChunk - 1) / Policy::kChunk;
  if (chunks > kProbeFrom) {
    const cudaError_t e = launch_dependent(limb_search_kernel<kHighest, Pred, Policy>, kProbeChunks,
                                           Policy::kThreads, stream, pred, n, words, slot, false, kProbeChunks, false);
    if (e != cudaSuccess) return e;
  }
  const std::size_t blocks = chunks < kMaxBlocks ? chunks : kMaxBlocks;
  return launch_dependent(limb_search_kernel<kHighest, Pred, Policy>, static_cast<unsigned>(blocks),
                          Policy::kThreads, stream, pred, n, words, slot, publish, chunks, ready);
}

/// a[i] != 0
struct NonzeroLimb {
  const limb_t* a;
  __device__ int operator()(std::size_t i) const { return a[i] != 0; }
};

/// a[i] != b[i], carrying a[i] > b[i]
struct DifferingLimb {
  const limb_t* a;
  const limb_t* b;
  __device__ int operator()(std::size_t i) const {
    const limb_t x = a[i], y = b[i];
    return x == y ? 0 : (x > y ? 2 : 1);
  }
};

}  // namespace mpgpu::device
