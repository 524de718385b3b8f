// Tile status words for the one-pass scans' decoupled look-back (scan add,
// single-limb division), tagged with the operation's epoch so that nothing
// resets them between operations (cub::ScanTileState needs an
// initialization kernel and an allocation before every scan).
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>

#include "context/context_state.hpp"
#include "cuda/backend.hpp"
#include "cuda/check.cuh"

namespace mpgpu::detail::cuda {

/// Status words of `word_bytes` each for a scan over `tiles` tiles. On the
/// context's own stream (operations there never overlap) they come from
/// `buffer`, zeroed once and tagged with a new epoch per operation: no
/// allocation and no initialization launch. On other streams, a zeroed
/// private buffer, freed after the kernel (stream-ordered). One tile needs
/// no look-back: then words() is nullptr.
class EpochTiles {
 public:
  EpochTiles(ContextState& st, Stream s, ContextState::EpochTileBuffer& buffer, std::size_t tiles,
             std::size_t word_bytes)
      : st_(st), s_(s) {
    if (tiles <= 1) return;
    const std::size_t bytes = tiles * word_bytes;
    if (s != st.stream) {
      private_ = allocate(st, s, bytes);
      MPGPU_CUDA_CHECK(cudaMemsetAsync(private_, 0, bytes, s));
      words_ = private_;
      epoch_ = 1;
      return;
    }
    if (bytes > buffer.bytes || buffer.epoch == UINT32_MAX) {
      if (bytes > buffer.bytes) {
        const std::size_t grown = std::max(bytes, 2 * buffer.bytes);
        void* fresh = allocate(st, s, grown);
        deallocate(st, s, buffer.words);
        buffer.words = fresh;
        buffer.bytes = grown;
      }
      MPGPU_CUDA_CHECK(cudaMemsetAsync(buffer.words, 0, buffer.bytes, s));
      buffer.epoch = 0;
    }
    words_ = buffer.words;
    epoch_ = ++buffer.epoch;
  }
  EpochTiles(const EpochTiles&) = delete;
  EpochTiles& operator=(const EpochTiles&) = delete;
  ~EpochTiles() { deallocate(st_, s_, private_); }  // stream-ordered: after the kernel

  void* words() const { return words_; }
  unsigned epoch() const { return epoch_; }

 private:
  ContextState& st_;
  Stream s_;
  void* private_ = nullptr;
  void* words_ = nullptr;
  unsigned epoch_ = 0;
};

}  // namespace mpgpu::detail::cuda
