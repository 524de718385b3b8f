// Integer square roots for CGBN's sqrt, sqrt_rem and their wide forms, on
// top of the Env's division (mpgpu's device API has no square root).
#pragma once

#include "wide.h"

namespace mpgpu::compat::cgbn_detail {

/// s = floor(sqrt(a)) for any a of the class width, by Newton's iteration
/// from above: x0 = 2^ceil(len/2) >= sqrt(a) (len = bit length of a), then
/// x <- (x + floor(a/x)) / 2 while that decreases; the first x that does
/// not decrease is floor(sqrt(a)) (x stays >= floor(sqrt(a)) throughout).
/// x + a/x < 2^(16W + 2) since x >= sqrt(a), so nothing overflows. From
/// x0 < 2 sqrt(a) the error halves at least every step and then squares,
/// so about log2(len) + 2 steps, each one division. The loop runs until
/// every lane that synchronizes with this one is done (uniform_max: the
/// instance's subgroup with WarpSync::group); lanes already done keep x. a == 0: x goes 1, 0, and the division by 0 (q all ones) ends it.
template <class E>
MPGPU_HD void isqrt(const E& env, typename E::Num& s, const typename E::Num& a) {
  using Num = typename E::Num;
  const int len = mb::bit_length(env, a);
  Num x;
  mb::set_zero(env, x);
  mb::or_bit(env, x, (len + 1) / 2, true);
  bool active = true;
  while (mb::uniform_max(env, active ? 1 : 0) != 0) {
    Num q, r, y;
    mb::divide(env, q, r, a, x);
    mb::add(env, y, x, q);
    mb::shift_right(env, y, y, 1);
    const bool smaller = mb::compare(env, y, x) < 0;  // the group operation first, then the decision
    active = active && smaller;
    mb::select(env, x, active, y, x);
  }
  s = x;
}

/// s = floor(sqrt(a)), r = a - s^2 (<= 2s), for a < 2^N.
template <int N, class E>
MPGPU_HD void sqrt_rem(const E& env, typename E::Num& s, typename E::Num& r, const typename E::Num& a) {
  typename E::Num sq;
  isqrt(env, s, a);
  mb::mul(env, sq, s, s);  // s^2 <= a < 2^N: the low product is the product
  mb::sub(env, r, a, sq);
}

/// s = floor(sqrt(lo + hi 2^N)) (< 2^N); with `want_rem`, rlo + rhi 2^N =
/// the remainder (<= 2s < 2^(N+1)).
template <int N, bool want_rem, class E, class E2>
MPGPU_HD void sqrt_rem_wide(const E& e, const E2& e2, typename E::Num& s, typename E::Num& rlo,
                            typename E::Num& rhi, const typename E::Num& lo, const typename E::Num& hi) {
  typename E2::Num x, s2;
  join<N>(e, e2, x, lo, hi);
  isqrt(e2, s2, x);
  restage(e2, s2, e, s, e2.work);
  if constexpr (want_rem) {
    // s^2 by the narrow Env's product (E2 has no product scratch), then
    // the remainder in E2.
    typename E::Num plo, phi;
    typename E2::Num p, r2;
    mul_wide<N>(e, plo, phi, s, s);
    join<N>(e, e2, p, plo, phi);
    mb::sub(e2, r2, x, p);
    split<N>(e, e2, rlo, rhi, r2);
  }
}

}  // namespace mpgpu::compat::cgbn_detail
