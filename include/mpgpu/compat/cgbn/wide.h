// CGBN's wide operations (a 2N-bit number as two N-bit halves, its
// cgbn_wide_t) that need arithmetic on the whole 2N bits: division of a
// wide number, and moving numbers between the Env of the width, E, and the
// one twice as wide, E2 = Env<2W, G> (shape.h), which runs the division.
// E2 only divides, shifts, adds, compares and moves words here (its
// products would need much more shared memory than the scratch has).
#pragma once

#include "arith.h"

namespace mpgpu::compat::cgbn_detail {

/// y = x, from an Env of one width to one of another with the same group
/// (words past x's width read as 0, words past y's are dropped), through
/// `buf`: at least max(From::words, To::words) words of the instance's
/// scratch, not in use by anything else. Every access is ordered by a
/// group sync, before and after.
template <class From, class To>
MPGPU_HD void restage(const From& fe, const typename From::Num& x, const To& te, typename To::Num& y, word_t* buf) {
  static_assert(From::threads == To::threads, "one group");
  fe.group.sync();  // earlier readers of buf are done
#pragma unroll
  for (int i = 0; i < From::per_thread; ++i) buf[fe.first_word() + i] = x.w[i];
  fe.group.sync();
#pragma unroll
  for (int i = 0; i < To::per_thread; ++i) {
    const int j = te.first_word() + i;
    y.w[i] = j < From::words ? buf[j] : 0u;
  }
  fe.group.sync();  // our reads are done before the next write
}

/// x = lo + hi 2^N in E2 (lo < 2^N).
template <int N, class E, class E2>
MPGPU_HD void join(const E& e, const E2& e2, typename E2::Num& x, const typename E::Num& lo,
                   const typename E::Num& hi) {
  typename E2::Num l, h;
  restage(e, lo, e2, l, e2.work);
  restage(e, hi, e2, h, e2.work);
  mb::shift_left(e2, h, h, N);
  mb::bit_or(e2, x, l, h);
}

/// lo = x mod 2^N, hi = floor(x / 2^N) mod 2^N.
template <int N, class E, class E2>
MPGPU_HD void split(const E& e, const E2& e2, typename E::Num& lo, typename E::Num& hi, const typename E2::Num& x) {
  typename E2::Num t;
  restage(e2, x, e, lo, e2.work);
  fit<N>(e, lo);
  mb::shift_right(e2, t, x, N);
  restage(e2, t, e, hi, e2.work);
  fit<N>(e, hi);
}

/// q = floor((lo + hi 2^N) / d) mod 2^N, r = the remainder (< d). CGBN
/// requires hi < d (then q < 2^N); mpgpu computes the whole quotient and
/// keeps its low N bits when hi >= d. d == 0: the status says so, q =
/// 2^N - 1 and r = the low N bits of the numerator. Returns the status.
template <int N, class E, class E2>
MPGPU_HD word_t div_rem_wide(const E& e, const E2& e2, typename E::Num& q, typename E::Num& r,
                             const typename E::Num& lo, const typename E::Num& hi, const typename E::Num& d) {
  typename E2::Num x, d2, q2, r2;
  join<N>(e, e2, x, lo, hi);
  restage(e, d, e2, d2, e2.work);
  const word_t status = mb::divide(e2, q2, r2, x, d2);
  restage(e2, q2, e, q, e2.work);
  fit<N>(e, q);
  restage(e2, r2, e, r, e2.work);
  fit<N>(e, r);
  return status;
}

/// r = (a 2^N) mod n for any a < 2^N, n != 0: CGBN's bn2mont.
template <int N, class E, class E2>
MPGPU_HD void shifted_rem(const E& e, const E2& e2, typename E::Num& r, const typename E::Num& a,
                          const typename E::Num& n) {
  typename E::Num zero, q;
  mb::set_zero(e, zero);
  div_rem_wide<N>(e, e2, q, r, zero, a, n);
}

}  // namespace mpgpu::compat::cgbn_detail
