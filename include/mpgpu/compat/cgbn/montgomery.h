// CGBN's Montgomery arithmetic with R = 2^N (N = BITS) and the caller's
// np0 = -n^-1 mod 2^32, on mpgpu's product by rows (montgomery/rows.cuh),
// which takes n and np0 as they are: no setup per call. The Env's R is
// 2^(32W); when 32W > N, a is first multiplied by 2^(32W - N), so that
// a 2^(32W-N) b / 2^(32W) = a b / 2^N.
#pragma once

#include "wide.h"

namespace mpgpu::compat::cgbn_detail {

/// r = a - n if a >= n, else a (one comparison, no branch).
template <class E>
MPGPU_HD void reduce_once(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& n) {
  typename E::Num d;
  const word_t borrow = mb::sub(env, d, a, n);
  mb::select(env, r, borrow == 0, d, a);
}

/// r = a b / 2^N mod n for odd n. For a, b < n (Montgomery forms, what CGBN
/// documents) r < n, the reduced value. For any a, b < 2^N, r < 2^N and r =
/// a b / 2^N (mod n), as CGBN's own result (< 2^BITS, not always < n).
/// Bounds: the rows' exact product is below n when a' b < n 2^(32W), a' =
/// a 2^(32W-N); in any case below 2^(32W) and, padded, below 2^N + n
/// ((a' b + q n) / 2^(32W) with a' b < 2^(32W+N), q < 2^(32W)), so one
/// conditional subtraction of n leaves it below 2^N.
template <int N, class E>
MPGPU_HD void mont_mul(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& b,
                       const typename E::Num& n, word_t np0) {
  static_assert(mb::montgomery_by_rows<E>, "the CGBN header needs Montgomery products by rows (no MPGPU_MONTGOMERY_BY_REDC)");
  typename E::Num x;
  if constexpr (padded_v<N, E>) {
    mb::shift_left(env, x, a, 32 * E::words - N);
  } else {
    x = a;
  }
  mb::montgomery_mul_rows<E, true>(env, r, x, b, n, np0);
  reduce_once(env, r, r, n);
}

/// r = (lo + hi 2^N) / 2^N mod n = lo / 2^N + hi (mod n), r < n, for any
/// lo, hi < 2^N. hi >= n takes a division, run only when the lanes that
/// synchronize together (uniform_max) need it.
template <int N, class E>
MPGPU_HD void mont_reduce_wide(const E& env, typename E::Num& r, const typename E::Num& lo,
                               const typename E::Num& hi, const typename E::Num& n, word_t np0) {
  using Num = typename E::Num;
  Num one, t, h;
  mb::set_ui32(env, one, 1);
  mont_mul<N>(env, t, lo, one, n, np0);  // lo 2^(32W-N) * 1 < n 2^(32W): exact, t < n
  const bool big = mb::compare(env, hi, n) >= 0;
  h = hi;
  if (mb::uniform_max(env, big ? 1 : 0) != 0) {
    Num q, rem;
    mb::divide(env, q, rem, hi, n);
    h = rem;
  }
  // t + h < 2n: one conditional subtraction (carry out of the class or
  // no borrow means t + h >= n).
  Num s, d;
  const word_t carry = mb::add(env, s, t, h);
  const word_t borrow = mb::sub(env, d, s, n);
  mb::select(env, r, carry != 0 || borrow == 0, d, s);
}

/// bn = mont / 2^N mod n (< n) for any mont < 2^N.
template <int N, class E>
MPGPU_HD void mont2bn(const E& env, typename E::Num& bn, const typename E::Num& mont, const typename E::Num& n,
                      word_t np0) {
  typename E::Num one;
  mb::set_ui32(env, one, 1);
  mont_mul<N>(env, bn, mont, one, n, np0);
}

/// r = x^-1 mod 2^N for odd x, by Newton's iteration y <- y (2 - x y), which
/// doubles the correct low bits (from 32: the word inverse). Even x gives a
/// value with no meaning (CGBN: undefined).
template <int N, class E>
MPGPU_HD void binary_inverse(const E& env, typename E::Num& r, const typename E::Num& x) {
  typename E::Num y, t, two;
  mb::set_ui32(env, y, 0u - mb::negated_inverse_word(word_of(env, x, 0)));
  mb::set_ui32(env, two, 2);
  for (int bits = 32; bits < N; bits *= 2) {
    mb::mul(env, t, x, y);
    mb::sub(env, t, two, t);
    mb::mul(env, y, y, t);
  }
  r = y;
  fit<N>(env, r);
}

}  // namespace mpgpu::compat::cgbn_detail
