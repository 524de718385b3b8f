// Result words: how device-wide algorithms hand small results (sizes, signs,
// found indices) to the host with one kernel launch, no memset and no copy:
// kernels combine their results in the words of a device "slot" with
// atomicMax; the last block to finish the final kernel of an operation moves
// the slot's words into host-mapped pinned memory, zeroes them (and the arrival counter) for the
// next operation, and then writes the operation's sequence number, which
// the host polls: cheaper than a stream synchronize for small operations.
// This file is the device side; the host side (the slots, ResultWordsLease,
// DeferredResultWords) is in src/cuda/, and docs/architecture.md ("Result words")
// names every part.
#pragma once

#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

/// The words of a slot (one operation's result words). Every word of a
/// device slot is zero between operations; results are combined with
/// atomicMax, so 0 means "nothing found".
enum SlotWord : int {
  kSlotSize = 0,   ///< 1 + index of the highest nonzero result limb
  kSlotOrder = 1,  ///< comparison key of two operands (see limb_search.cuh)
  kSlotLowA = 2,   ///< lowest-nonzero search over operand a
  kSlotLowB = 3,   ///< same over operand b
  kSlotLowR = 4,   ///< same over a two's-complement result
  kSlotFound = 5,  ///< generic search or reduction result
  kSlotCount = 6,
};

/// Host-mapped word of a slot, after "done" (published[kSlotCount]), that a
/// one-block operation returning one value writes directly (publish_ready).
inline constexpr int kReadyWord = kSlotCount + 1;

struct ResultWords {
  unsigned long long* slot;       ///< device memory, kSlotCount words (indexed by SlotWord)
  unsigned int* arrivals;         ///< device memory, counts finished blocks
  unsigned long long* published;  ///< host-mapped pinned memory, kSlotCount + 1 words
  unsigned long long sequence;    ///< written to published[kSlotCount] last: "done"

#if defined(__CUDACC__)
  /// Called by every thread of every block at the end of an operation's
  /// final kernel (after the block's atomics); `wrote_slot`: whether this
  /// thread updated a slot.
  ///
  /// Only thread 0 goes on after one barrier, and fences only when a
  /// thread of its block updated a slot (as cooperative groups' grid sync
  /// does: the barrier orders the block's slot atomics before the fence,
  /// which is cumulative). A fence and two barriers in every thread held
  /// each block until all its result stores were acknowledged (results the
  /// host reads only in stream order, after the kernel): a visible share of
  /// the single-limb division's stalls (docs/tuning-history.md, "Single-limb
  /// division").
  ///
  /// A grid of one block is last by itself: no count and no fences before
  /// its reads (the barrier already ordered its own slot updates before
  /// them), a microsecond less for every small operation.
  __device__ void publish_when_last(bool wrote_slot = true) const {
    const bool any_wrote = __syncthreads_or(wrote_slot);
    if (threadIdx.x != 0) return;
    const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
    if (blocks > 1) {
      if (any_wrote) __threadfence();  // the block's slot updates before the arrival below
      if (atomicAdd(arrivals, 1u) != blocks - 1) return;
      __threadfence();  // every block's updates, each fenced before its arrival, before the reads
    }
    if (blocks > 1) atomicExch(arrivals, 0u);
    publish_slot();
  }

  /// Moves the slot's words to the host, zeroes them and writes "done".
  /// Called by one thread that knows every update of the operation's slot is over
  /// and visible to it (publish_when_last's last block; a kernel whose
  /// prior grids wrote them and which alone ends the operation).
  __device__ void publish_slot() const {
    for (int k = 0; k < kSlotCount; ++k) published[k] = atomicExch(&slot[k], 0ull);
    __threadfence_system();  // the slot's words reach the host before "done"
    *static_cast<volatile unsigned long long*>(&published[kSlotCount]) = sequence;
  }

  /// The early publication of an operation whose published words are only
  /// a size and a comparison key that one thread of its final kernel knows
  /// before the kernel ends (the top of an addition, of a shift, of a
  /// bitwise map: see their kernels). That thread writes them, zeros for the
  /// other words, and "done" directly: no slot, no arrival count, no
  /// per-block fence, so "done" can precede the end of the kernel's other
  /// blocks. Hence the contract: the kernel's other blocks touch no slot,
  /// and it is used only on the context's own stream, where the host reads
  /// results and frees operands in stream order (cuda/result_words.cuh orders
  /// other streams after it). Call from one thread.
  __device__ void publish_now(unsigned long long size, unsigned long long order_key = 0) const {
    for (int k = 0; k < kSlotCount; ++k) published[k] = k == kSlotSize ? size : k == kSlotOrder ? order_key : 0;
    __threadfence_system();  // the words reach the host before "done"
    *static_cast<volatile unsigned long long*>(&published[kSlotCount]) = sequence;
  }

  /// The fast path of a one-block operation whose only result is `value`
  /// (< 2^63) and that the host waits for (ResultWordsLease::arm_ready/wait_ready):
  /// one 8-byte store of 2 value + 1 to the word the host cleared before
  /// the launch. No device slot, no atomics and no system fence, since the
  /// host reads nothing else: a small compare returns about a fifth sooner
  /// than through the slot (docs/tuning-history.md, "Result publication and
  /// searches"). Call from one thread.
  __device__ void publish_ready(unsigned long long value) const {
    *static_cast<volatile unsigned long long*>(&published[kReadyWord]) = 2 * value + 1;
  }
#endif
};

#if defined(__CUDACC__)
/// The block's largest `value`, valid in thread 0. Called by every thread
/// of a block of kWarps warps.
template <int kWarps>
__device__ __forceinline__ unsigned long long block_max(unsigned long long value) {
  __shared__ unsigned long long warp_max[kWarps];
#pragma unroll
  for (int d = 16; d > 0; d /= 2) {
    const unsigned long long other = __shfl_xor_sync(0xffffffffu, value, d);
    value = other > value ? other : value;
  }
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = value;
  __syncthreads();
  unsigned long long m = 0;
  if (threadIdx.x == 0) {
#pragma unroll
    for (int w = 0; w < kWarps; ++w) m = warp_max[w] > m ? warp_max[w] : m;
  }
  return m;
}

/// atomicMax of the block's largest `value` into `slot`: one atomic per
/// block. Called by every thread of a block of kWarps warps.
template <int kWarps>
__device__ __forceinline__ void block_max_into(unsigned long long value, unsigned long long* slot) {
  const unsigned long long m = block_max<kWarps>(value);
  if (threadIdx.x == 0 && m) atomicMax(slot, m);
}
#endif

}  // namespace mpgpu::device
