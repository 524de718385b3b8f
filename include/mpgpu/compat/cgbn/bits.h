// CGBN's bit operations at a logical width of N bits (see arith.h): masks,
// bit fields, select, shifts and rotations within N bits, bit counts.
// Counts and positions are CGBN's uint32_t/int32_t and may be anything;
// each function states what it does with out-of-range ones.
#pragma once

#include "arith.h"

namespace mpgpu::compat::cgbn_detail {

/// r = 2^k - 1 for 0 <= k <= N (k clamped into that range).
template <int N, class E>
MPGPU_HD void low_ones(const E& env, typename E::Num& r, int64_t k) {
  const int bits = k <= 0 ? 0 : k >= N ? N : static_cast<int>(k);
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = ~word_t{0};
  mb::mask_bits(env, r, bits);
}

/// CGBN's bitwise_mask_copy: numbits >= 0 sets the low numbits bits,
/// numbits < 0 the high -numbits bits (of N); |numbits| >= N sets all.
template <int N, class E>
MPGPU_HD void mask_copy(const E& env, typename E::Num& r, int32_t numbits) {
  if (numbits >= 0) {
    low_ones<N>(env, r, numbits);
  } else {
    typename E::Num all, low;
    low_ones<N>(env, all, N);
    low_ones<N>(env, low, int64_t{N} + numbits);
    mb::bit_xor(env, r, all, low);
  }
}

/// r = (set & select) | (clear & ~select), word by word.
template <class E>
MPGPU_HD void select_bits(const E&, typename E::Num& r, const typename E::Num& clear, const typename E::Num& set,
                          const typename E::Num& select) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = (set.w[i] & select.w[i]) | (clear.w[i] & ~select.w[i]);
}

template <int N, class E>
MPGPU_HD void complement(const E& env, typename E::Num& r, const typename E::Num& a) {
  mb::bit_not(env, r, a);
  fit<N>(env, r);
}

// The Env's shifts return early (no group operation) for counts of the
// class width or more; an instance of the warp that did so while the others
// staged their words would desynchronize the lanes (the warp emulation
// caught it). So every instance shifts by a count below the class width,
// and counts >= N select zero afterwards.

/// r = a << k mod 2^N; k >= N gives 0.
template <int N, class E>
MPGPU_HD void shift_left(const E& env, typename E::Num& r, const typename E::Num& a, std::uint32_t k) {
  const bool out = k >= static_cast<std::uint32_t>(N);
  typename E::Num zero;
  mb::set_zero(env, zero);
  mb::shift_left(env, r, a, out ? 0 : static_cast<int>(k));
  mb::select(env, r, out, zero, r);
  fit<N>(env, r);
}

/// r = a >> k; k >= N gives 0.
template <int N, class E>
MPGPU_HD void shift_right(const E& env, typename E::Num& r, const typename E::Num& a, std::uint32_t k) {
  const bool out = k >= static_cast<std::uint32_t>(N);
  typename E::Num zero;
  mb::set_zero(env, zero);
  mb::shift_right(env, r, a, out ? 0 : static_cast<int>(k));
  mb::select(env, r, out, zero, r);
}

/// Rotation left within N bits by k mod N.
template <int N, class E>
MPGPU_HD void rotate_left(const E& env, typename E::Num& r, const typename E::Num& a, std::uint32_t k) {
  const int s = static_cast<int>(k % static_cast<std::uint32_t>(N));
  if constexpr (!padded_v<N, E>) {
    mb::rotate_left(env, r, a, s);
  } else {
    typename E::Num up, down;
    mb::shift_left(env, up, a, s);
    mb::shift_right(env, down, a, N - s);  // s == 0: a >> N = 0
    mb::bit_or(env, r, up, down);
    fit<N>(env, r);
  }
}

template <int N, class E>
MPGPU_HD void rotate_right(const E& env, typename E::Num& r, const typename E::Num& a, std::uint32_t k) {
  const std::uint32_t s = k % static_cast<std::uint32_t>(N);
  rotate_left<N>(env, r, a, s == 0 ? 0u : static_cast<std::uint32_t>(N) - s);
}

/// r = bits [start, start + len) of a, at bit 0 (bits past N read as 0).
template <int N, class E>
MPGPU_HD void extract_bits(const E& env, typename E::Num& r, const typename E::Num& a, std::uint32_t start,
                           std::uint32_t len) {
  typename E::Num m;
  shift_right<N>(env, r, a, start);
  low_ones<N>(env, m, len);
  mb::bit_and(env, r, r, m);
}

/// r = a with bits [start, start + len) (within N) replaced by the low bits
/// of value.
template <int N, class E>
MPGPU_HD void insert_bits(const E& env, typename E::Num& r, const typename E::Num& a, std::uint32_t start,
                          std::uint32_t len, const typename E::Num& value) {
  typename E::Num field, below, placed;
  low_ones<N>(env, field, int64_t{start} + len);
  low_ones<N>(env, below, start);
  mb::bit_xor(env, field, field, below);  // ones at [start, start + len) within N
  shift_left<N>(env, placed, value, start);
  select_bits(env, r, a, placed, field);
}

/// Leading zeros within N bits (N for zero).
template <int N, class E>
MPGPU_HD std::uint32_t clz(const E& env, const typename E::Num& a) {
  return static_cast<std::uint32_t>(mb::count_leading_zeros(env, a) - (32 * E::words - N));
}

/// Trailing zeros (N for zero).
template <int N, class E>
MPGPU_HD std::uint32_t ctz(const E& env, const typename E::Num& a) {
  const int z = mb::count_trailing_zeros(env, a);
  return static_cast<std::uint32_t>(z > N ? N : z);
}

}  // namespace mpgpu::compat::cgbn_detail
