// One leaf of a series' binary splitting (mpgpu/series.hpp), shared by the
// CPU path (batch_series.cpp) and the CUDA kernel (cuda/batch_series.cu), so
// that both compute the same values by the same steps.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpgpu/limb/config.cuh"

namespace mpgpu::detail::batch {

/// Factors a polynomial of a series may have (series_leaves checks it).
inline constexpr unsigned kSeriesMaxFactors = 8;
/// Words a leaf value may need: T = a(k) p(k) has at most 2 * 8 factors of
/// 64 bits each.
inline constexpr unsigned kSeriesLeafWords = 2 * kSeriesMaxFactors;

/// SeriesTerms as the kernel takes it (by value): factor i of p is
/// p[i][0] * k + p[i][1].
struct SeriesTermsPod {
  std::int64_t p[kSeriesMaxFactors][2], q[kSeriesMaxFactors][2], a[kSeriesMaxFactors][2];
  unsigned np = 0, nq = 0, na = 0;
  bool alternating = false;
};

/// w (its `used` words, little-endian, zeros above) times the factors (each in [0, 2^64) at
/// k: series_leaves checks the range); returns the product's words.
MPGPU_HD unsigned multiply_by_factors(limb_t* w, unsigned used, unsigned n_words, const std::int64_t (*f)[2], unsigned n,
                                      std::uint64_t k) {
  for (unsigned i = 0; i < n; ++i) {
    // In 64 bits, as the checked range guarantees: slope * k + offset wraps
    // to the same value as the exact sum when that lies in [0, 2^64).
    const std::uint64_t v = static_cast<std::uint64_t>(f[i][0]) * k + static_cast<std::uint64_t>(f[i][1]);
    limb_t carry = 0;
    for (unsigned j = 0; j < used; ++j) {
#if defined(__CUDA_ARCH__)
      const limb_t lo = w[j] * v, hi = __umul64hi(w[j], v);
#else
      const unsigned __int128 x = static_cast<unsigned __int128>(w[j]) * v;
      const limb_t lo = static_cast<limb_t>(x), hi = static_cast<limb_t>(x >> 64);
#endif
      const limb_t s = lo + carry;
      carry = hi + (s < lo);
      w[j] = s;
    }
    if (carry && used < n_words) w[used++] = carry;
  }
  return used;
}

/// The product of factors in w (n_words words, cleared first); returns its words (>= 1).
MPGPU_HD unsigned product_of_factors(limb_t* w, unsigned n_words, const std::int64_t (*f)[2], unsigned n,
                                     std::uint64_t k) {
  for (unsigned i = 0; i < n_words; ++i) w[i] = 0;
  w[0] = 1;
  return multiply_by_factors(w, 1, n_words, f, n, k);
}

/// The node at `depth` of the balanced split of [a, b) (as binary_split
/// makes it: [lo, hi) into [lo, m) and [m, hi), m = lo + (hi - lo) / 2)
/// whose path from the root is `place` read from its top bit: left 0, right 1.
MPGPU_HD void place_range(std::uint64_t a, std::uint64_t b, unsigned depth, std::uint64_t place, std::uint64_t& lo,
                          std::uint64_t& hi) {
  lo = a;
  hi = b;
  for (unsigned d = depth; d-- > 0;) {
    const std::uint64_t m = lo + (hi - lo) / 2;
    if ((place >> d) & 1) lo = m;
    else hi = m;
  }
}

/// Writes v (used words, little-endian) into `out` (`limbs` limbs, the
/// instance's data limbs, then zeros up to `stride`), negated in two's
/// complement over `bits` bits if `negative`.
MPGPU_HD void put_leaf_value(limb_t* out, std::size_t stride, std::size_t bits, const limb_t* v, unsigned used,
                             bool negative) {
  const std::size_t limbs = (bits + 63) / 64;
  limb_t carry = 1;
  for (std::size_t j = 0; j < stride; ++j) {
    limb_t x = j < used ? v[j] : 0;
    if (j >= limbs) x = 0;
    else if (negative) {
      x = ~x + carry;
      carry = carry && x == 0;
    }
    if (j + 1 == limbs && bits % 64) x &= (limb_t{1} << (bits % 64)) - 1;
    out[j] = x;
  }
}

/// Leaf `place` of range [a, b) at `depth`: P, Q, T into instance pointers.
/// An empty node is the identity (P = Q = 1, T = 0); term 0 is P = Q = 1,
/// T = a(0); term k >= 1 is P = p(k), Q = q(k), T = (-1)^k a(k) p(k) if
/// alternating, else a(k) p(k); T in two's complement.
MPGPU_HD void series_leaf(const SeriesTermsPod& s, std::uint64_t a, std::uint64_t b, unsigned depth,
                          std::uint64_t place, limb_t* P, limb_t* Q, limb_t* T, std::size_t stride, std::size_t bits) {
  std::uint64_t lo, hi;
  place_range(a, b, depth, place, lo, hi);
  limb_t w[kSeriesLeafWords];
  const limb_t one = 1;
  if (hi == lo) {
    put_leaf_value(P, stride, bits, &one, 1, false);
    put_leaf_value(Q, stride, bits, &one, 1, false);
    put_leaf_value(T, stride, bits, &one, 0, false);
    return;
  }
  const std::uint64_t k = lo;
  if (k == 0) {
    put_leaf_value(P, stride, bits, &one, 1, false);
    put_leaf_value(Q, stride, bits, &one, 1, false);
    const unsigned n = product_of_factors(w, kSeriesLeafWords, s.a, s.na, 0);
    put_leaf_value(T, stride, bits, w, n, false);
    return;
  }
  unsigned n = product_of_factors(w, kSeriesLeafWords, s.q, s.nq, k);
  put_leaf_value(Q, stride, bits, w, n, false);
  // P = p(k), then T = a(k) p(k) by multiplying P on by a's factors.
  n = product_of_factors(w, kSeriesLeafWords, s.p, s.np, k);
  put_leaf_value(P, stride, bits, w, n, false);
  n = multiply_by_factors(w, n, kSeriesLeafWords, s.a, s.na, k);
  put_leaf_value(T, stride, bits, w, n, s.alternating && (k & 1));
}

}  // namespace mpgpu::detail::batch
