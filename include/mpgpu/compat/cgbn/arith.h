// CGBN's arithmetic at a logical width of N bits on an Env<W, G> of 32W >= N
// bits (shape.h): additions, subtractions, products and their high halves,
// division, the 32-bit scalar forms. Values keep every bit at and above N
// zero; `fit` restores that after an operation of the class width. When
// 32W == N (the common case) each function is the Env operation itself.
#pragma once

#include "mpgpu/batch/batch.cuh"

namespace mpgpu::compat::cgbn_detail {

namespace mb = mpgpu::batch;
using mb::word_t;

template <int N, class E>
inline constexpr bool padded_v = 32 * E::words != N;

/// r mod 2^N.
template <int N, class E>
MPGPU_HD void fit(const E& env, typename E::Num& r) {
  if constexpr (padded_v<N, E>) mb::mask_bits(env, r, N);
}

/// Word k of a in every thread (0 outside the class): one broadcast, made
/// for any k so that no instance skips it.
template <class E>
MPGPU_HD word_t word_of(const E& env, const typename E::Num& a, int k) {
  return mb::divide_detail::word_at(env, a, k);
}

/// Bits [start, start + len) of a as a word, len <= 32; bits past the class
/// read as zero. Two broadcasts for every call.
template <class E>
MPGPU_HD word_t bits_ui32(const E& env, const typename E::Num& a, std::uint32_t start, std::uint32_t len) {
  constexpr std::uint32_t class_bits = 32u * E::words;
  const bool inside = start < class_bits;
  const int k = inside ? static_cast<int>(start / 32) : E::words;  // E::words reads as 0
  const int s = static_cast<int>(start % 32);
  const word_t lo = word_of(env, a, k), hi = word_of(env, a, k + 1);
  word_t v = s == 0 ? lo : (lo >> s) | (hi << (32 - s));
  if (len < 32) v &= (word_t{1} << len) - 1u;
  return v;
}

/// r = a + b; returns the carry out of bit N (CGBN: 1 or 0).
template <int N, class E>
MPGPU_HD int32_t add(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
  word_t c = mb::add(env, r, a, b);
  if constexpr (padded_v<N, E>) {
    c = bits_ui32(env, r, N, 1);  // a, b < 2^N: the sum fits the class
    fit<N>(env, r);
  }
  return static_cast<int32_t>(c);
}

/// r = a - b mod 2^N; returns -1 when b > a, else 0 (CGBN's borrow).
template <int N, class E>
MPGPU_HD int32_t sub(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
  const word_t borrow = mb::sub(env, r, a, b);  // a, b < 2^N: the class borrow is the borrow at N
  fit<N>(env, r);
  return borrow != 0 ? -1 : 0;
}

template <int N, class E>
MPGPU_HD int32_t add_ui32(const E& env, typename E::Num& r, const typename E::Num& a, word_t v) {
  typename E::Num t;
  mb::set_ui32(env, t, v);
  fit<N>(env, t);  // N < 32: v mod 2^N, as CGBN's add of a value of its width
  if constexpr (N >= 32) {
    return add<N>(env, r, a, t);
  } else {
    // A width below a word: the carry is bit N of a + v taken whole.
    const std::uint64_t s = std::uint64_t{word_of(env, a, 0)} + v;
    mb::set_ui32(env, r, static_cast<word_t>(s));
    fit<N>(env, r);
    return static_cast<int32_t>((s >> N) != 0);
  }
}

template <int N, class E>
MPGPU_HD int32_t sub_ui32(const E& env, typename E::Num& r, const typename E::Num& a, word_t v) {
  typename E::Num t;
  mb::set_ui32(env, t, v);
  // CGBN compares a with the whole v: a < v borrows even when v >= 2^N.
  const int below = mb::compare(env, a, t) < 0 ? -1 : 0;
  mb::sub(env, r, a, t);
  fit<N>(env, r);
  return below;
}

template <int N, class E>
MPGPU_HD int32_t negate(const E& env, typename E::Num& r, const typename E::Num& a) {
  typename E::Num zero;
  mb::set_zero(env, zero);
  return sub<N>(env, r, zero, a);
}

/// (hi:lo) >> N for the class halves of a product below 2^(2N): the high
/// half at the logical width.
template <int N, class E>
MPGPU_HD void high_of(const E& env, typename E::Num& r, const typename E::Num& lo, const typename E::Num& hi) {
  if constexpr (!padded_v<N, E>) {
    r = hi;
  } else {
    typename E::Num up, down;
    mb::shift_left(env, up, hi, 32 * E::words - N);
    mb::shift_right(env, down, lo, N);
    mb::bit_or(env, r, up, down);
  }
}

template <int N, class E>
MPGPU_HD void mul(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
  mb::mul(env, r, a, b);
  fit<N>(env, r);
}

template <int N, class E>
MPGPU_HD void sqr(const E& env, typename E::Num& r, const typename E::Num& a) {
  mb::sqr(env, r, a);
  fit<N>(env, r);
}

/// lo = a b mod 2^N, hi = floor(a b / 2^N).
template <int N, class E>
MPGPU_HD void mul_wide(const E& env, typename E::Num& lo, typename E::Num& hi, const typename E::Num& a,
                       const typename E::Num& b) {
  typename E::Num l, h;
  mb::mul_wide(env, l, h, a, b);
  high_of<N>(env, hi, l, h);
  lo = l;
  fit<N>(env, lo);
}

template <int N, class E>
MPGPU_HD void sqr_wide(const E& env, typename E::Num& lo, typename E::Num& hi, const typename E::Num& a) {
  typename E::Num l, h;
  mb::sqr_wide(env, l, h, a);
  high_of<N>(env, hi, l, h);
  lo = l;
  fit<N>(env, lo);
}

template <int N, class E>
MPGPU_HD void mul_high(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
  if constexpr (!padded_v<N, E>) {
    mb::mul_high(env, r, a, b);
  } else {
    typename E::Num lo;
    mul_wide<N>(env, lo, r, a, b);
  }
}

template <int N, class E>
MPGPU_HD void sqr_high(const E& env, typename E::Num& r, const typename E::Num& a) {
  typename E::Num lo;
  sqr_wide<N>(env, lo, r, a);
}

/// r = a v mod 2^N; returns floor(a v / 2^N), below 2^32.
template <int N, class E>
MPGPU_HD word_t mul_ui32(const E& env, typename E::Num& r, const typename E::Num& a, word_t v) {
  word_t c = mb::mul_ui32(env, r, a, v);  // c: the word past the class
  if constexpr (padded_v<N, E>) {
    constexpr int above = 32 * E::words - N;  // bits of the class above N
    word_t h = bits_ui32(env, r, N, 32);
    if constexpr (above < 32) h |= c << (above % 32);
    c = h;
    fit<N>(env, r);
  }
  return c;
}

/// q = floor(a / b), r = a mod b; returns mpgpu's status (mb::status_*).
/// b == 0: q = 2^N - 1, r = a (CGBN leaves them undefined).
template <int N, class E>
MPGPU_HD word_t div_rem(const E& env, typename E::Num& q, typename E::Num& r, const typename E::Num& a,
                        const typename E::Num& b) {
  const word_t status = mb::divide(env, q, r, a, b);
  fit<N>(env, q);
  return status;
}

}  // namespace mpgpu::compat::cgbn_detail
