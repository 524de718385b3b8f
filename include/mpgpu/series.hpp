// The bottom of binary splitting for hypergeometric-type series, as batches:
// every leaf of many ranges of terms at once, on the device on a CUDA
// context. Host API, compiled by g++.
//
// A series here is s = sum_{k>=0} (-1)^k? a(k) prod_{j=1..k} p(j) / q(j),
// with p, q and a products of linear factors slope * k + offset (pi's
// Chudnovsky series: p = (6k-5)(2k-1)(6k-1), q = k^3 640320^3 / 24,
// a = 13591409 + 545140134 k, alternating; e: p = 1, q = k, a = 1). Binary
// splitting merges the nodes (P, Q, T) of [a, m) and [m, b) into that of
// [a, b) as P = Pl Pr, Q = Ql Qr, T = Tl Qr + Pl Tr; its leaves are the
// terms: P(k) = p(k), Q(k) = q(k), T(k) = (-1)^k? a(k) p(k), and for term 0
// P = Q = 1, T = a(0). Why in the library: the leaves of a large series are
// tens of millions of small products, which the host makes one at a time
// (and then copies), while one kernel makes them where the merges above
// will run (mpgpu's pi, tools/mpgpu/chudnovsky_batch.cpp, merges them level
// by level with Batch operations).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "mpgpu/batch.hpp"
#include "mpgpu/context.hpp"

namespace mpgpu {

/// slope * k + offset.
struct LinearFactor {
  std::int64_t slope = 0, offset = 0;
};

/// p, q and a as products of at most 8 linear factors each (an empty list is
/// 1). Over the terms asked for, every factor of p and q must lie in
/// [1, 2^64) and every factor of a in [0, 2^64) (series_leaves checks it).
struct SeriesTerms {
  std::vector<LinearFactor> p, q, a;
  bool alternating = false;
};

/// The terms [a, b).
struct SeriesRange {
  std::uint64_t a = 0, b = 0;
};

/// P, Q and T of count nodes, one width; T in two's complement.
struct SeriesNodes {
  Batch P, Q, T;
};

/// The nodes at `depth` of the balanced split of each range (each
/// b - a <= 2^depth, so every such node holds one term or none): node j of
/// range r (j's bits from the top: the path from the range's root, 0 left,
/// 1 right; the split of [lo, hi) is at lo + (hi - lo) / 2) is instance
/// r * 2^depth + j of `bits` bits. An empty node is the identity of the
/// merge (P = Q = 1, T = 0). Queued on the context's stream. On a context
/// over several devices the leaves are made on the host and scattered to
/// the parts.
///
/// InvalidArgument, before any work, for: an empty range or one of more than
/// 2^depth terms; more than 8 factors in a list; a factor outside its range
/// (above) at a term asked for; a width below the values' bound (P and Q:
/// the product of their factors' largest values; T: that of p's and a's and
/// a sign bit) or above Batch::max_bits; a leaf value of more than 16 words.
SeriesNodes series_leaves(const SeriesTerms& terms, std::span<const SeriesRange> ranges, unsigned depth,
                          std::size_t bits, const Context& ctx = Context::default_context());

}  // namespace mpgpu
