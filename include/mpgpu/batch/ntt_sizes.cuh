// Sizes of the in-group NTT product (ntt_mul.cuh) that the Env needs for
// its shared-memory layout: which classes use it and how many words of
// work it takes.
#pragma once

#include "mpgpu/tuning/table.hpp"

namespace mpgpu::batch {

/// Products (mul, mul_wide, mul_high, sqr and the Montgomery products built
/// on them) of classes of at least this many words run through the NTT.
/// The crossover measured on batches of independent products (the tuning
/// table's kBatchNttProductMinWords; docs/batch.md).
/// (-DMPGPU_NTT_PRODUCT_MIN_WORDS=n moves it, for A/B measurements of a
/// whole program: it changes Env's shared-memory layout.)
#ifdef MPGPU_NTT_PRODUCT_MIN_WORDS
inline constexpr int kNttProductMinWords = MPGPU_NTT_PRODUCT_MIN_WORDS;
#else
inline constexpr int kNttProductMinWords = ::mpgpu::tuning::table::kBatchNttProductMinWords;
#endif
/// Widest class the NTT product takes: transforms up to 2^25 points would
/// be allowed by the primes; shared memory ends far earlier.
inline constexpr int kNttProductMaxWords = 1 << 20;

/// log2 of the transform length: the smallest power of two >= 2W - 1, so
/// no coefficient of the product wraps around (then also L >= 2W).
constexpr int ntt_log_length(int W) {
  int k = 1;
  while ((1 << k) < 2 * W - 1) ++k;
  return k;
}
/// Shared words of a product of W-word operands: X, Y and the twiddles.
constexpr int ntt_work_words(int W) { return 3 << ntt_log_length(W); }

}  // namespace mpgpu::batch
