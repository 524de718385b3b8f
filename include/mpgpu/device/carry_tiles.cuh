// Tile statuses for the scan add's decoupled look-back, tagged with the
// operation's epoch: one zeroed buffer serves every addition on a stream
// without being reset (cub::ScanTileState needs an initialization kernel
// before each scan, which costs a launch and an allocation per addition).
// A word from another epoch (an earlier operation, or zero) reads as "not
// written yet".
//
// Word layout: epoch (32 bits) | kind (8 bits) | carry status (8 bits). One
// 64-bit store publishes a status, so a reader sees either the whole status
// or an older word; nothing else travels with it, so no fence is needed.
#pragma once

#include <cstdint>

namespace mpgpu::device {

struct CarryTiles {
  unsigned long long* words;  ///< one per tile, device memory
  unsigned int epoch;         ///< nonzero, new for each operation on `words`

  enum Kind : unsigned { kPartial = 1, kInclusive = 2, kOutOfBounds = 3 };

#if defined(__CUDACC__)
  __device__ void set_partial(int tile, std::uint32_t status) const { store(tile, kPartial, status); }
  __device__ void set_inclusive(int tile, std::uint32_t status) const { store(tile, kInclusive, status); }

  /// Waits until tile `tile` has published in this epoch; tiles below 0
  /// read as out of bounds at once.
  template <class Pause>
  __device__ void wait_for_valid(int tile, unsigned& kind, std::uint32_t& status, Pause pause) const {
    if (tile < 0) {
      kind = kOutOfBounds;
      status = 0;
      return;
    }
    const volatile unsigned long long* w = words + tile;
    unsigned long long v = *w;
    while (static_cast<unsigned int>(v >> 32) != epoch) {
      pause();
      v = *w;
    }
    kind = static_cast<unsigned>(v >> 8) & 0xff;
    status = static_cast<std::uint32_t>(v) & 0xff;
  }

 private:
  __device__ void store(int tile, unsigned kind, std::uint32_t status) const {
    *reinterpret_cast<volatile unsigned long long*>(words + tile) =
        (static_cast<unsigned long long>(epoch) << 32) | (kind << 8) | (status & 0xff);
  }
#endif
};

}  // namespace mpgpu::device
