// The leaves of the level-at-once radix conversion (src/integer/integer_radix.cpp)
// as text, on the device: a thread per leaf takes chunks of `digits` digits
// off its limbs by division by chunk = base^digits (one limb, 2-by-1 steps
// with a precomputed reciprocal: div_limb_math.cuh), then each chunk's
// digits by division by base. A leaf of 128 limbs is ~8,000 division steps
// of one thread, and the leaves of a 2^30-bit number in decimal are some
// 10^5 independent threads: the device is far ahead of GMP's mpn_get_str on
// host threads (docs/tuning-history.md, "Radix conversion").
// The CPU backend runs leaf_to_text itself, in a loop (the CI tests).
#pragma once

#include <cstddef>

#include "mpgpu/device/div_limb_math.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

/// The characters of the digits of bases up to 62, as mpz_get_str writes
/// them (lower-case letters up to base 36, then 0-9A-Za-z).
struct RadixAlphabet {
  char c[64];
};

/// Writes the `width` digits of the n limbs at `slot` (destroyed: divided
/// down to zero), most significant first and zero padded, into
/// dst[0..width). width is a multiple of `digits`, and chunk.d =
/// base^digits. Returns false if the value does not fit in width digits.
MPGPU_HD bool leaf_to_text(limb_t* slot, std::size_t n, char* dst, std::size_t width, const LimbDivisor& chunk,
                           int digits, unsigned base, const char* alphabet) {
  while (n > 0 && slot[n - 1] == 0) --n;
  for (std::size_t end = width; end > 0;) {
    limb_t r = 0;
    if (n > 0) {
      limb_t rn = 0;
      for (std::size_t i = n; i-- > 0;) slot[i] = div_step(rn, slot[i], chunk);
      r = rn >> chunk.shift;
      while (n > 0 && slot[n - 1] == 0) --n;
    }
    for (int j = 0; j < digits; ++j) {
      dst[--end] = alphabet[r % base];
      r /= base;
    }
  }
  return n == 0;
}

#if defined(__CUDACC__)

/// Slot i < slots of the row (pitch limbs each; limbs at row_size and above
/// read as zero) into text + (slots - 1 - i) width (the most significant
/// slot first). *overflow is set if a slot does not fit.
template <int kUnused = 0>
__global__ void radix_leaves_kernel(char* __restrict__ text, limb_t* __restrict__ row, std::size_t row_size,
                                    std::size_t slots, std::size_t pitch, std::size_t width, LimbDivisor chunk,
                                    int digits, unsigned base, RadixAlphabet alphabet_param, unsigned* overflow) {
  __shared__ RadixAlphabet alphabet;  // per-lane lookups: not from the parameter bank
  if (threadIdx.x < 64) alphabet.c[threadIdx.x] = alphabet_param.c[threadIdx.x];
  __syncthreads();
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < slots;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t begin = i * pitch;
    const std::size_t n = begin < row_size ? (row_size - begin < pitch ? row_size - begin : pitch) : 0;
    if (!leaf_to_text(row + begin, n, text + (slots - 1 - i) * width, width, chunk, digits, base, alphabet.c))
      *overflow = 1;
  }
}

#endif  // __CUDACC__

}  // namespace mpgpu::device
