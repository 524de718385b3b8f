// Products of a thread's own instance, entirely in registers (G == 1, up to
// kRegisterProductMaxWords words): operand scanning with the PTX carry
// chains, as CGBN does inside a thread. Row i adds a[i] * b as two chains,
// the low halves of the 32x32 products into columns i.. and the high halves
// into columns i+1..: two multiply-adds per term and one carry word per row,
// no shared memory and no synchronization. (The staged product runs of
// mul.cuh cost a shared-memory load per term at G == 1 and ~900 bytes of
// shared memory per 1024-bit instance, which capped the 1024-bit product
// well below the register form: docs/tuning-history.md, "Register
// products".)
#pragma once

#include "mpgpu/batch/word.cuh"
#include "mpgpu/limb/carry_chain32.cuh"

namespace mpgpu::batch {

/// Widest class (32-bit words) whose thread-per-instance products run in
/// registers: 1024 bits. A wide product then holds 128 words of operands
/// and result; wider classes would spill, and use the staged runs.
inline constexpr int kRegisterProductMaxWords = 32;

namespace register_mul_detail {

#if defined(__CUDACC__)
// The links of each chain are limb/carry_chain32.cuh's: mad_*_cc starts a
// chain, madc_*_cc continues it, madc_lo / madc_hi / add_carry end it.
using limb::add_carry;
using limb::mad_hi_cc;
using limb::mad_lo_cc;
using limb::madc_hi;
using limb::madc_hi_cc;
using limb::madc_lo;
using limb::madc_lo_cc;

/// r[i + j] += lo(a * b[j]) for j < n, with the carry chain; the carry out
/// of the last column is added into r[i + n] when `carry_out` (it must fit).
template <int n, bool carry_out>
__device__ __forceinline__ void row_low(word_t a, const word_t* b, word_t* r) {
  if constexpr (n == 1 && !carry_out) {
    r[0] += a * b[0];
  } else {
    r[0] = mad_lo_cc(a, b[0], r[0]);
#pragma unroll
    for (int j = 1; j < n; ++j) r[j] = (j + 1 < n || carry_out) ? madc_lo_cc(a, b[j], r[j]) : madc_lo(a, b[j], r[j]);
    if constexpr (carry_out) r[n] = add_carry(r[n]);
  }
}
/// r[1 + j] += hi(a * b[j]) for j < n, the same way.
template <int n, bool carry_out>
__device__ __forceinline__ void row_high(word_t a, const word_t* b, word_t* r) {
  if constexpr (n == 1 && !carry_out) {
    r[1] += __umulhi(a, b[0]);
  } else {
    r[1] = mad_hi_cc(a, b[0], r[1]);
#pragma unroll
    for (int j = 1; j < n; ++j)
      r[1 + j] = (j + 1 < n || carry_out) ? madc_hi_cc(a, b[j], r[1 + j]) : madc_hi(a, b[j], r[1 + j]);
    if constexpr (carry_out) r[1 + n] = add_carry(r[1 + n]);
  }
}

template <int W, int i>
__device__ __forceinline__ void rows_low(const word_t* a, const word_t* b, word_t* r) {
  if constexpr (i < W) {
    row_low<W - i, false>(a[i], b, r + i);
    if constexpr (W - i >= 2) row_high<W - i - 1, false>(a[i], b, r + i);
    rows_low<W, i + 1>(a, b, r);
  }
}
template <int W, int i>
__device__ __forceinline__ void rows_wide(const word_t* a, const word_t* b, word_t* r) {
  if constexpr (i < W) {
    // Before row i, r[i + W] holds the previous row's carry word (0 or 1):
    // the low chain's carry makes it at most 2. The high chain's carry goes
    // to r[i + W + 1], still zero, except in the last row, where the whole
    // product fits 2W words and that carry is 0.
    row_low<W, true>(a[i], b, r + i);
    row_high<W, (i + 1 < W)>(a[i], b, r + i);
    rows_wide<W, i + 1>(a, b, r);
  }
}

/// a^2's off-diagonal rows: r[i + j] += a[i] a[j] for i < j (and i + j < W
/// unless Wide), row i at r + 2i + 1 against a + i + 1, as rows_low /
/// rows_wide do for a product.
template <int W, bool Wide, int i>
__device__ __forceinline__ void square_rows(const word_t* a, word_t* r) {
  constexpr int n = Wide ? W - 1 - i : W - 1 - 2 * i;  // terms of row i
  if constexpr (n >= 1) {
    if constexpr (Wide) {
      // r[i + W] holds the previous row's carry word; the high chain's
      // carry goes to r[i + W + 1] <= r[2W - 1] (the sum is below 2^(64W-1)).
      row_low<n, true>(a[i], a + i + 1, r + 2 * i + 1);
      row_high<n, true>(a[i], a + i + 1, r + 2 * i + 1);
    } else {
      row_low<n, false>(a[i], a + i + 1, r + 2 * i + 1);
      if constexpr (n >= 2) row_high<n - 1, false>(a[i], a + i + 1, r + 2 * i + 1);
    }
    square_rows<W, Wide, i + 1>(a, r);
  }
}

/// r += the squares a[i]^2 at words 2i, 2i + 1 (2i < R), one carry chain;
/// the carry out of r[R - 1] is dropped.
template <int W, int R>
__device__ __forceinline__ void add_diagonal(const word_t* a, word_t* r) {
  r[0] = mad_lo_cc(a[0], a[0], r[0]);
#pragma unroll
  for (int k = 1; k < R; ++k) {
    const word_t x = a[k / 2];
    if (k % 2) r[k] = k + 1 < R ? madc_hi_cc(x, x, r[k]) : madc_hi(x, x, r[k]);
    else r[k] = k + 1 < R ? madc_lo_cc(x, x, r[k]) : madc_lo(x, x, r[k]);
  }
}

#endif

/// The host's rows (G == 1 in CPU tests): r += a * b with 64-bit arithmetic,
/// the low W words (Wide: all 2W words, r[W..2W) zero on entry).
template <int W, bool Wide>
void host_rows(const word_t* a, const word_t* b, word_t* r) {
  for (int i = 0; i < W; ++i) {
    std::uint64_t carry = 0;
    for (int j = 0; j < (Wide ? W : W - i); ++j) {
      const std::uint64_t t = static_cast<std::uint64_t>(a[i]) * b[j] + r[i + j] + carry;
      r[i + j] = static_cast<word_t>(t);
      carry = t >> 32;
    }
    if constexpr (Wide) r[i + W] = static_cast<word_t>(carry);
  }
}

}  // namespace register_mul_detail

/// r = r + a * b mod 2^(32W): the low half of a product accumulated onto
/// what r holds. Each row's chains run to the top word, so any starting
/// value works, and an addend costs nothing (the multiply-adds add r in
/// anyway). r must not alias a or b.
template <int W>
MPGPU_HD void register_product_onto(const word_t (&a)[W], const word_t (&b)[W], word_t (&r)[W]) {
  static_assert(W <= kRegisterProductMaxWords, "register products: at most kRegisterProductMaxWords words");
#if defined(__CUDA_ARCH__)
  register_mul_detail::rows_low<W, 0>(a, b, r);
#else
  register_mul_detail::host_rows<W, false>(a, b, r);
#endif
}

/// r = a * b: the low W words (Wide: all 2W words). r must not alias a or b.
template <int W, bool Wide>
MPGPU_HD void register_product(const word_t (&a)[W], const word_t (&b)[W], word_t (&r)[Wide ? 2 * W : W]) {
  static_assert(W <= kRegisterProductMaxWords, "register products: at most kRegisterProductMaxWords words");
  constexpr int R = Wide ? 2 * W : W;
#pragma unroll
  for (int k = 0; k < R; ++k) r[k] = 0;
  if constexpr (!Wide) {
    register_product_onto<W>(a, b, r);
  } else {
#if defined(__CUDA_ARCH__)
    register_mul_detail::rows_wide<W, 0>(a, b, r);
#else
    register_mul_detail::host_rows<W, true>(a, b, r);
#endif
  }
}

/// r = a^2: the low W words (Wide: all 2W words), with each off-diagonal
/// product a[i] a[j] (i < j) computed once and doubled by a shift, then the
/// diagonal a[i]^2 added: about half the multiply-adds of a product. r
/// must not alias a.
template <int W, bool Wide>
MPGPU_HD void register_square(const word_t (&a)[W], word_t (&r)[Wide ? 2 * W : W]) {
  static_assert(W <= kRegisterProductMaxWords, "register products: at most kRegisterProductMaxWords words");
  constexpr int R = Wide ? 2 * W : W;
#pragma unroll
  for (int k = 0; k < R; ++k) r[k] = 0;
#if defined(__CUDA_ARCH__)
  register_mul_detail::square_rows<W, Wide, 0>(a, r);
#pragma unroll
  for (int k = R - 1; k > 0; --k) r[k] = __funnelshift_l(r[k - 1], r[k], 1);
  r[0] <<= 1;
  register_mul_detail::add_diagonal<W, R>(a, r);
#else
  // The same three steps with 64-bit arithmetic.
  for (int i = 0; i < W; ++i) {
    std::uint64_t carry = 0;
    int j = i + 1;
    for (; j < W && i + j < R; ++j) {
      const std::uint64_t t = static_cast<std::uint64_t>(a[i]) * a[j] + r[i + j] + carry;
      r[i + j] = static_cast<word_t>(t);
      carry = t >> 32;
    }
    for (int k = i + j; k < R && carry; ++k) {
      const std::uint64_t t = static_cast<std::uint64_t>(r[k]) + carry;
      r[k] = static_cast<word_t>(t);
      carry = t >> 32;
    }
  }
  for (int k = R - 1; k > 0; --k) r[k] = (r[k] << 1) | (r[k - 1] >> 31);
  r[0] <<= 1;
  std::uint64_t carry = 0;
  for (int k = 0; k < R; ++k) {
    const std::uint64_t sq = static_cast<std::uint64_t>(a[k / 2]) * a[k / 2];
    const std::uint64_t t = static_cast<std::uint64_t>(r[k]) + (k % 2 ? sq >> 32 : sq & 0xffffffffu) + carry;
    r[k] = static_cast<word_t>(t);
    carry = t >> 32;
  }
#endif
}

// ---- product scanning ----------------------------------------------------------------
//
// The same products column by column: column c sums a[i] b[c - i] in a
// three-word accumulator (mac_word), and the accumulator's top two words
// carry into column c + 1. ptxas fuses each term's mad.lo.cc/madc.hi.cc
// into one IMAD.WIDE.U32 with a carry out and gathers two terms' carries
// into one IADD3.X (the ALU pipe). IMAD.WIDE and IMAD.HI take the multiply
// pipe twice as long as IMAD, so a term costs the pipe 4 cycles here
// against 6 for a row's IMAD + IMAD.HI, and rows keep the multiply pipe
// the busier (docs/tuning-history.md, "Register products").

/// r = a * b mod 2^(32W), column by column: column c sums a[i] b[c - i] in a
/// three-word accumulator whose top two words then carry into column c + 1.
/// The last column needs only low words: plain multiply-adds. r must not
/// alias a or b. (Products a thread per instance: mul.cuh's mul_runs.)
template <int W>
MPGPU_HD void column_product(const word_t (&a)[W], const word_t (&b)[W], word_t (&r)[W]) {
  word_t x0 = 0, x1 = 0, x2 = 0;
#pragma unroll
  for (int c = 0; c < W; ++c) {
    if (c == W - 1) {
#pragma unroll
      for (int i = 0; i <= c; ++i) x0 += a[i] * b[c - i];
    } else {
#pragma unroll
      for (int i = 0; i <= c; ++i) mac_word(a[i], b[c - i], x0, x1, x2);
    }
    r[c] = x0;
    x0 = x1, x1 = x2, x2 = 0;
  }
}

}  // namespace mpgpu::batch
