// Tile statuses for the single-limb division's decoupled look-back, tagged
// with the operation's epoch like the scan add's (carry_tiles.cuh): one
// zeroed buffer serves every division on a stream without being reset. A
// word from another epoch (an earlier operation, or zero) reads as "not
// written yet".
//
// Word layout, 16 bytes: the remainder (64 bits), then epoch (32 bits) |
// kind (8 bits). One 16-byte store publishes a status with its value, and
// one 16-byte load reads it, as cub::ScanTileState does for 8-byte values
// (aligned 16-byte accesses are not split on the GPUs we build for), so a
// reader sees the whole status or an older word and no fence is needed.
#pragma once

#include <cstdint>

#include "mpgpu/limb/config.cuh"
#include "mpgpu/limb/volatile_pair.cuh"

namespace mpgpu::device {

struct RemainderTiles {
  ulonglong2* words;   ///< one per tile, device memory, 16-byte aligned
  unsigned int epoch;  ///< nonzero, new for each operation on `words`

  enum Kind : unsigned { kPartial = 1, kInclusive = 2, kOutOfBounds = 3 };

#if defined(__CUDACC__)
  __device__ void set_partial(int tile, limb_t remainder) const { store(tile, kPartial, remainder); }
  __device__ void set_inclusive(int tile, limb_t remainder) const { store(tile, kInclusive, remainder); }

  /// Waits until tile `tile` has published in this epoch; tiles below 0
  /// read as out of bounds at once (remainder 0).
  template <class Pause>
  __device__ void wait_for_valid(int tile, unsigned& kind, limb_t& remainder, Pause pause) const {
    if (tile < 0) {
      kind = kOutOfBounds;
      remainder = 0;
      return;
    }
    const volatile ulonglong2* w = words + tile;
    ulonglong2 v = load(w);
    while (static_cast<unsigned int>(v.y >> 32) != epoch) {
      pause();
      v = load(w);
    }
    kind = static_cast<unsigned>(v.y) & 0xff;
    remainder = v.x;
  }

 private:
  __device__ static ulonglong2 load(const volatile ulonglong2* w) { return limb::load_volatile_pair(w); }
  __device__ void store(int tile, unsigned kind, limb_t remainder) const {
    const unsigned long long tag = (static_cast<unsigned long long>(epoch) << 32) | kind;
    limb::store_volatile_pair(words + tile, remainder, tag);
  }
#endif
};

}  // namespace mpgpu::device
