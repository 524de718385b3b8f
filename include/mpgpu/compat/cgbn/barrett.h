// CGBN's Barrett division at a logical width of N bits: its
// barrett_approximation and the barrett_div / rem / div_rem family and their
// _wide forms, as CGBN computes them (its impl_cuda.cu; docs/cgbn.md names the version read): the quotient
// from the caller's precomputed approximation of 2^(2N) / d -- two products,
// a few additions and at most three corrections -- instead of a long
// division, which is why a caller reuses one divisor through them.
//
// CGBN's preconditions: d != 0, approx and clz returned by
// barrett_approximation(d), and for the wide forms hi < d. Under them the
// estimate is never below the quotient and at most 3 above it (the bound
// below), so the result is exact after at most 3 corrections. Outside them
// CGBN is undefined (its correction loop is unbounded); here the estimate's
// remainder is checked exactly (0 <= r < d, with the whole difference's high
// part, not only a word of it as CGBN does), and any instance that fails the
// check takes the long division (arith.h's div_rem, wide.h's div_rem_wide):
// the results are those of div_rem and div_rem_wide for every input.
#pragma once

#include "bits.h"
#include "wide.h"

namespace mpgpu::compat::cgbn_detail {

/// approx = floor((2^(2N) - 1) / (d << z)) - 2^N, below 2^N, z = clz_N(d)
/// (CGBN's value, which its host model writes as floor(2^(2N) / (d << z)) -
/// 2^N, and 2^N - 1 for d << z = 2^(N-1): the same number). Returns z, N for
/// d == 0 (approx is then 2^N - 1: the wide division by zero's quotient).
template <int N, class E, class E2>
MPGPU_HD std::uint32_t barrett_approximation(const E& e, const E2& e2, typename E::Num& approx,
                                             const typename E::Num& d) {
  using Num = typename E::Num;
  const std::uint32_t z = clz<N>(e, d);
  Num s, ones, q, r;
  shift_left<N>(e, s, d, z == static_cast<std::uint32_t>(N) ? 0u : z);
  low_ones<N>(e, ones, N);
  // (2^N - 1) 2^N + 2^N - 1 over s in [2^(N-1), 2^N): a quotient in
  // [2^N, 2^(N+1)), which div_rem_wide keeps mod 2^N (minus 2^N).
  div_rem_wide<N>(e, e2, q, r, ones, ones, s);
  approx = q;
  return z;
}

/// How barrett_div_rem got its result: the division's status (status_ok,
/// or status_zero_divisor from the long division for d == 0), and the
/// corrections the estimate needed (0 to 3), or -1 where the check failed
/// and the long division gave the result. (The tests read `corrections`:
/// inputs within CGBN's preconditions must never take the long division.)
struct BarrettOutcome {
  word_t status;
  int corrections;
};

/// q = floor(x / d), r = x mod d for x = lo + hi 2^N (Wide) or x = lo (hi
/// unused), by CGBN's Barrett estimate from approx and clz (see the top).
/// For x >= d 2^N (wide, hi >= d) q is the quotient mod 2^N, and d == 0
/// gives q = 2^N - 1, r = lo, as div_rem_wide and div_rem. q and r may alias
/// the inputs.
///
/// The estimate, with s = d 2^z (2^(N-1) <= s < 2^N), X = x 2^z, top =
/// floor(X / 2^N) < 2^N (hi < d < 2^(N-z)) and v = approx + 2^N =
/// floor((2^(2N) - 1) / s), so 2^(2N)/s - 1 <= v <= (2^(2N) - 1)/s:
///   qe = floor(top v / 2^N) + 3 = floor(top approx / 2^N) + top + 3.
/// With T = top v / 2^N: T > top 2^N/s - top/2^N > top 2^N/s - 1, and the
/// quotient q = floor(X / s) <= X/s < (top + 1) 2^N/s <= top 2^N/s + 2 < T +
/// 3, so q <= floor(T) + 3 = qe. And T <= top 2^N/s <= X/s < q + 1, so
/// floor(T) <= q and qe <= q + 3. q < 2^N (x < d 2^N), so clamping qe to
/// 2^N - 1 keeps q <= qe. Then x - qe d is in [-3d, d): its part above bit N
/// is in [-3, 0], and each correction adds d until it is 0.
template <int N, bool Wide, class E, class E2>
MPGPU_HD BarrettOutcome barrett_div_rem(const E& e, const E2& e2, typename E::Num& q, typename E::Num& r,
                                        const typename E::Num& lo, const typename E::Num& hi,
                                        const typename E::Num& d, const typename E::Num& approx,
                                        std::uint32_t clz) {
  using Num = typename E::Num;
  // A clz of N or more (0xFFFFFFFF for d == 0) is no shift count; any z
  // gives a well-defined estimate, and a wrong one fails the check.
  const std::uint32_t z = clz < static_cast<std::uint32_t>(N) ? clz : 0u;
  Num top, t, qe, ones, plo, phi, rem, high, zero;
  mb::set_zero(e, zero);
  shift_right<N>(e, top, lo, static_cast<std::uint32_t>(N) - z);  // N - z in [1, N]; N gives 0
  if constexpr (Wide) {
    shift_left<N>(e, t, hi, z);
    mb::bit_or(e, top, top, t);  // hi 2^z + floor(lo / 2^(N-z)): disjoint bits
  }
  mul_high<N>(e, t, top, approx);
  const int32_t c1 = add<N>(e, qe, t, top);
  const int32_t c2 = add_ui32<N>(e, qe, qe, 3u);
  low_ones<N>(e, ones, N);
  mb::select(e, qe, (c1 | c2) != 0, ones, qe);  // qe >= 2^N: 2^N - 1

  // x - qe d = H 2^N + rem: rem = lo - plo mod 2^N with the borrow b, and
  // H = hi - phi - b, in the class as H_c - bh 2^(32W) (|H| <= 2^N, one
  // borrow is enough).
  mul_wide<N>(e, plo, phi, qe, d);
  const word_t b = mb::sub(e, rem, lo, plo);
  fit<N>(e, rem);
  word_t bh;
  if constexpr (Wide) {
    bh = mb::sub(e, high, hi, phi, b);
  } else {
    bh = mb::sub(e, high, zero, phi, b);
  }
  // H in [-4, 3] exactly when Z = (bh ? ~H_c : H_c) < 4 (for bh, H = -(~H_c
  // + 1)): every word of Z but the low two bits of word 0 is zero.
  Num zed;
  mb::bit_not(e, zed, high);
  mb::select(e, zed, bh != 0, zed, high);
  const word_t z0 = word_of(e, zed, 0);
  if (e.first_word() == 0) zed.w[0] &= ~word_t{3};
  const bool small = mb::is_zero(e, zed);
  int h = bh != 0 ? -static_cast<int>(z0 & 3u) - 1 : static_cast<int>(z0 & 3u);

  // Corrections while x - (qe - k) d < 0: at most 3 under the preconditions
  // (above). The loop runs as long as any lane that synchronizes with this
  // one needs it (every group operation reached by all of them).
  int k = 0;
  for (int j = 0; j < 3; ++j) {
    const bool negative = small && h < 0;
    if (mb::uniform_max(e, negative ? 1 : 0) == 0) break;
    Num s;
    const int32_t c = add<N>(e, s, rem, d);
    mb::select(e, rem, negative, s, rem);
    if (negative) {
      h += c;
      ++k;
    }
  }
  // x = (qe - k) d + rem with 0 <= rem < d: the exact division (and qe - k
  // >= 0, since x >= 0).
  const bool below = mb::compare(e, rem, d) < 0;
  const bool ok = small && h == 0 && below;
  Num qq;
  mb::sub_ui32(e, qq, qe, static_cast<word_t>(k));  // no borrow where ok; replaced below where not
  fit<N>(e, qq);
  BarrettOutcome out{mb::status_ok, ok ? k : -1};
  if (mb::uniform_max(e, ok ? 0 : 1) != 0) {
    Num fq, fr;
    word_t status;
    if constexpr (Wide) {
      status = div_rem_wide<N>(e, e2, fq, fr, lo, hi, d);
    } else {
      (void)e2;
      status = div_rem<N>(e, fq, fr, lo, d);
    }
    mb::select(e, qq, ok, qq, fq);
    mb::select(e, rem, ok, rem, fr);
    if (!ok) out.status = status;
  }
  q = qq;
  r = rem;
  return out;
}

}  // namespace mpgpu::compat::cgbn_detail
