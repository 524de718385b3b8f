// The instance layout of a Batch, shared by the host API and the CPU
// backend: an instance is `stride` limbs, of which the low ceil(bits / 64)
// carry data and every bit at and above `bits` is zero. Private to the library.
#pragma once

#include <algorithm>
#include <cstddef>

#include "mpgpu/limb/config.cuh"

namespace mpgpu::detail::batch {

/// ceil(bits / 64): the limbs of an instance that may be nonzero.
inline std::size_t data_limbs(std::size_t bits) { return (bits + 63) / 64; }

/// Clears the bits at and above `bits` of one instance of `stride` limbs,
/// the padding limbs included (stride >= data_limbs(bits)).
inline void mask_instance(limb_t* x, std::size_t stride, std::size_t bits) {
  const std::size_t full = bits / 64, partial = bits % 64;
  std::size_t first_clear = full;
  if (partial) {
    x[full] &= (limb_t{1} << partial) - 1;
    first_clear = full + 1;
  }
  std::fill(x + first_clear, x + stride, limb_t{0});
}

/// Number of limbs up to and including the highest nonzero one.
inline std::size_t normalized_limbs(const limb_t* x, std::size_t n) {
  while (n && x[n - 1] == 0) --n;
  return n;
}

}  // namespace mpgpu::detail::batch
