// Text in bases 2, 4, 8, 16 and 32 (k = 1..5 bits a digit) from and to a
// limb vector, on the device: a linear regrouping of bits with no
// arithmetic, so one map each way. Digit p (p = 0 least significant) holds
// bits [k p, k p + k) of the magnitude; bases 8 and 32 have digits that
// straddle two limbs. The per-item functions serve the kernels and the
// host tests alike.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

/// The characters of the digits 0 .. 2^k - 1 (GMP's lower-case letters).
struct Pow2Alphabet {
  char c[32];
};

/// The values of the characters (0xff: not a digit; validated before).
struct Pow2DigitValues {
  unsigned char v[256];
};

/// Value of digit p of a (n limbs), k bits a digit.
MPGPU_HD unsigned pow2_digit(const limb_t* a, std::size_t n, int k, std::size_t p) {
  const std::uint64_t bit = std::uint64_t(k) * p;
  const std::size_t i = static_cast<std::size_t>(bit / 64);
  const unsigned sh = static_cast<unsigned>(bit % 64);
  limb_t v = i < n ? a[i] >> sh : 0;
  if (sh + static_cast<unsigned>(k) > 64 && i + 1 < n) v |= a[i + 1] << (64 - sh);
  return static_cast<unsigned>(v & ((limb_t{1} << k) - 1));
}

/// Limb j of the value of the `len` characters text[0..len) (text[0] most
/// significant), k bits a digit: the digits p with k p in (64 j - k, 64 j + 64).
MPGPU_HD limb_t pow2_limb(const char* text, std::size_t len, int k, std::size_t j, const Pow2DigitValues& values) {
  const std::uint64_t lo = 64 * std::uint64_t(j);
  limb_t out = 0;
  for (std::uint64_t p = lo / static_cast<unsigned>(k); p < len && std::uint64_t(k) * p < lo + 64; ++p) {
    const limb_t v = values.v[static_cast<unsigned char>(text[len - 1 - p])];
    const std::uint64_t bit = std::uint64_t(k) * p;
    out |= bit >= lo ? v << (bit - lo) : v >> (lo - bit);
  }
  return out;
}

#if defined(__CUDACC__)

/// Digits a thread of the text kernel writes (one 16-byte store when the
/// run is whole).
inline constexpr int kPow2TextRun = 16;

/// out[c] for c < digits: the character of digit digits - 1 - c (the most
/// significant first). Templates, like the other kernels of this layer.
template <int kRun = kPow2TextRun>
__global__ void pow2_to_text_kernel(char* __restrict__ out, const limb_t* __restrict__ a, std::size_t n,
                                    std::size_t digits, int k, Pow2Alphabet alphabet_param) {
  // Per-lane lookups in shared memory, not in the kernel parameters (whose
  // bank serializes different addresses).
  __shared__ Pow2Alphabet alphabet;
  if (threadIdx.x < 32) alphabet.c[threadIdx.x] = alphabet_param.c[threadIdx.x];
  __syncthreads();
  const std::size_t runs = (digits + kRun - 1) / kRun;
  for (std::size_t r = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; r < runs;
       r += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t c0 = r * kRun;
    if (c0 + kRun <= digits) {
      union {
        char c[kRun];
        uint4 v;
      } run;
#pragma unroll
      for (int i = 0; i < kRun; ++i) run.c[i] = alphabet.c[pow2_digit(a, n, k, digits - 1 - (c0 + i))];
      *reinterpret_cast<uint4*>(out + c0) = run.v;  // out is 16-byte aligned, c0 a multiple of 16
    } else {
      for (std::size_t c = c0; c < digits; ++c) out[c] = alphabet.c[pow2_digit(a, n, k, digits - 1 - c)];
    }
  }
}

/// r[j] = pow2_limb(text, len, k, j) for j < limbs.
template <int kUnused = 0>
__global__ void pow2_from_text_kernel(limb_t* __restrict__ r, std::size_t limbs, const char* __restrict__ text,
                                      std::size_t len, int k, Pow2DigitValues values_param) {
  __shared__ Pow2DigitValues values;  // as in pow2_to_text_kernel
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) values.v[i] = values_param.v[i];
  __syncthreads();
  for (std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; j < limbs;
       j += std::size_t(gridDim.x) * blockDim.x)
    r[j] = pow2_limb(text, len, k, j, values);
}

#endif  // __CUDACC__

}  // namespace mpgpu::device
