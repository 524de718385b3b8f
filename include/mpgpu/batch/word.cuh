// 32-bit word primitives for the batched fixed-width layer.
//
// Why 32-bit words here when Integer uses 64-bit limbs: the batch layer is
// compute-bound, and the GPU's native multiplier is 32x32 (IMAD); a 64x64
// product costs ~4 IMADs (low) and ~9.5 (high). The storage is still GMP's:
// an instance of W words is the same bytes as W/2 little-endian 64-bit limbs.
#pragma once

#include <cstdint>

#include "mpgpu/limb/carry_chain32.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::batch {

using word_t = std::uint32_t;
inline constexpr int word_bits = 32;

/// r = a + b + c (c in {0,1}); returns the carry out.
MPGPU_HD word_t add_word(word_t a, word_t b, word_t c, word_t& r) {
  std::uint64_t s = static_cast<std::uint64_t>(a) + b + c;
  r = static_cast<word_t>(s);
  return static_cast<word_t>(s >> 32);
}

/// r = a - b - c (c in {0,1}); returns the borrow out.
MPGPU_HD word_t sub_word(word_t a, word_t b, word_t c, word_t& r) {
  std::uint64_t d = static_cast<std::uint64_t>(a) - b - c;
  r = static_cast<word_t>(d);
  return static_cast<word_t>(d >> 63);
}

/// r[0..n) = a + b + cin over n words as one carry chain (cin in {0, 1});
/// returns the carry out. On the device each word is one IADD3 of a PTX
/// carry chain: add_word's 64-bit sums made ptxas hold the operands as
/// 64-bit pairs (a single addition at 2^18 bits: 44 registers a thread, so
/// one 1024-thread block an SM; with the chain 28, two blocks).
template <int n>
MPGPU_HD word_t add_words(const word_t* a, const word_t* b, word_t* r, word_t cin = 0) {
#if defined(__CUDA_ARCH__)
  // One chain (limb/carry_chain32.cuh): nothing between its links touches
  // the carry flag.
  limb::set_carry_flag(cin);
#pragma unroll
  for (int i = 0; i < n; ++i) r[i] = limb::addc_cc(a[i], b[i]);
  return limb::carry_flag();
#else
  word_t c = cin;
  for (int i = 0; i < n; ++i) c = add_word(a[i], b[i], c, r[i]);
  return c;
#endif
}

/// r[0..n) = a - b - bin over n words (bin in {0, 1}); returns the borrow
/// out, as add_words.
template <int n>
MPGPU_HD word_t sub_words(const word_t* a, const word_t* b, word_t* r, word_t bin = 0) {
#if defined(__CUDA_ARCH__)
  limb::set_borrow_flag(bin);
#pragma unroll
  for (int i = 0; i < n; ++i) r[i] = limb::subc_cc(a[i], b[i]);
  return limb::borrow_flag() & 1u;
#else
  word_t c = bin;
  for (int i = 0; i < n; ++i) c = sub_word(a[i], b[i], c, r[i]);
  return c;
#endif
}

/// r[0..n) += k (k in {0, 1}); returns the carry out.
template <int n>
MPGPU_HD word_t add_carry_words(word_t* r, word_t k) {
#if defined(__CUDA_ARCH__)
  limb::set_carry_flag(k);
#pragma unroll
  for (int i = 0; i < n; ++i) r[i] = limb::propagate_carry(r[i]);
  return limb::carry_flag();
#else
  for (int i = 0; i < n; ++i) k = add_word(r[i], 0, k, r[i]);
  return k;
#endif
}

/// r[0..n) -= k (k in {0, 1}); returns the borrow out.
template <int n>
MPGPU_HD word_t sub_borrow_words(word_t* r, word_t k) {
#if defined(__CUDA_ARCH__)
  limb::set_borrow_flag(k);
#pragma unroll
  for (int i = 0; i < n; ++i) r[i] = limb::propagate_borrow(r[i]);
  return limb::borrow_flag() & 1u;
#else
  for (int i = 0; i < n; ++i) k = sub_word(r[i], 0, k, r[i]);
  return k;
#endif
}

/// One product-scanning term: (c:hi:lo) += a * b. The three words are one
/// column's accumulator; c counts overflows of the 64-bit (hi:lo), so a
/// column of up to 2^32 terms never overflows.
MPGPU_HD void mac_word(word_t a, word_t b, word_t& lo, word_t& hi, word_t& c) {
#if defined(__CUDA_ARCH__)
  limb::mul_accumulate_32(a, b, lo, hi, c);
#else
  std::uint64_t acc = (static_cast<std::uint64_t>(hi) << 32) | lo;
  std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  std::uint64_t s = acc + p;
  c += s < acc;
  lo = static_cast<word_t>(s);
  hi = static_cast<word_t>(s >> 32);
#endif
}

/// -x^{-1} mod 2^32 for odd x (Newton: each step doubles the correct bits).
MPGPU_HD word_t negated_inverse_word(word_t x) {
  word_t inv = x;  // correct to 3 bits: x*x = 1 mod 8 for odd x
  for (int i = 0; i < 4; ++i) inv *= 2u - x * inv;
  return static_cast<word_t>(0u - inv);
}

MPGPU_HD int clz_word(word_t x) {
#if defined(__CUDA_ARCH__)
  return __clz(static_cast<int>(x));
#else
  return x == 0 ? 32 : __builtin_clz(x);
#endif
}

MPGPU_HD int ctz_word(word_t x) {
#if defined(__CUDA_ARCH__)
  return x == 0 ? 32 : __ffs(static_cast<int>(x)) - 1;
#else
  return x == 0 ? 32 : __builtin_ctz(x);
#endif
}

MPGPU_HD int popcount_word(word_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}

}  // namespace mpgpu::batch
