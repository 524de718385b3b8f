// Greatest common divisor and modular inverse of one instance.
//
// Both run Bernstein and Yang's divsteps, 30 at a time (divsteps.cuh): about
// (2 to 3) x 32W / 30 matrix steps of a few whole-number operations each.
// -DMPGPU_GCD_BY_BINARY_STEPS keeps the binary (Stein) steps below instead,
// for A/B measurements (bench/cgbn_side_by_side.cu): one step per bit,
// every step running every operation and selecting the results, so
// instances sharing a warp stay on one path. One binary step on (u, v),
// u != 0, shrinks bits(u) + bits(v) by at least one:
//   u even: u /= 2;  else v even: v /= 2;
//   both odd: u >= v ? u = (u - v) / 2 : v = (v - u) / 2,
// so 64W steps leave u == 0 (or v == 0 when it started so). The extended
// form carries x1, x2 with x1 x = u, x2 x = v (mod n), halving them mod n,
// which needs n odd; invert reaches even moduli through the odd one (see
// invert).
#pragma once

#include "mpgpu/batch/divide.cuh"
#include "mpgpu/batch/divsteps.cuh"
#include "mpgpu/batch/mul.cuh"

namespace mpgpu::batch {

namespace gcd_detail {

/// r = x - y mod n for x, y < n.
template <class E>
MPGPU_HD void sub_mod(const E& env, typename E::Num& r, const typename E::Num& x, const typename E::Num& y,
                      const typename E::Num& n) {
  typename E::Num t;
  const word_t borrow = sub(env, r, x, y);
  add(env, t, r, n);
  select(env, r, borrow != 0, t, r);
}

/// r = x / 2 mod n for x < n, n odd: (x + n) / 2 when x is odd, the carry of
/// x + n becoming the top bit.
template <class E>
MPGPU_HD void half_mod(const E& env, typename E::Num& r, const typename E::Num& x, const typename E::Num& n) {
  typename E::Num t;
  const bool odd = low_bit(env, x) != 0;
  word_t carry = add(env, t, x, n);
  select(env, t, odd, t, x);
  shift_right(env, r, t, 1);
  if (env.rank() == E::threads - 1 && odd) r.w[E::per_thread - 1] |= carry << (word_bits - 1);
}

/// One binary step (see the file comment). With Extended, the coefficient of
/// the side that changes follows it: halved, or the difference halved, mod n.
template <bool Extended, class E>
MPGPU_HD void binary_step(const E& env, typename E::Num& u, typename E::Num& v, typename E::Num& x1,
                          typename E::Num& x2, const typename E::Num& n) {
  using Num = typename E::Num;
  const bool u_zero = is_zero(env, u);
  const bool u_even = low_bit(env, u) == 0;
  const bool v_even = low_bit(env, v) == 0;
  Num diff, neg, zero;
  set_zero(env, zero);
  const bool u_ge = sub(env, diff, u, v) == 0;
  sub(env, neg, zero, diff);
  select(env, diff, u_ge, diff, neg);  // |u - v|
  // The value halved: u if even, else v if even, else |u - v|.
  Num h;
  select(env, h, u_even, u, v);
  select(env, h, u_even || v_even, h, diff);
  shift_right(env, h, h, 1);
  const bool change_u = !u_zero && (u_even || (!v_even && u_ge));
  const bool change_v = !u_zero && !u_even && (v_even || !u_ge);
  select(env, u, change_u, h, u);
  select(env, v, change_v, h, v);
  if constexpr (Extended) {
    Num c, d;
    sub_mod(env, c, x1, x2, n);
    sub_mod(env, d, x2, x1, n);
    select(env, c, u_ge, c, d);
    select(env, d, u_even, x1, x2);
    select(env, c, u_even || v_even, d, c);
    half_mod(env, c, c, n);
    select(env, x1, change_u, c, x1);
    select(env, x2, change_v, c, x2);
  }
}

/// g = gcd(x, n) and y with y x = g (mod n), y < n, for n odd and x < n.
/// (For even n the loop still ends, with meaningless y.)
template <class E>
MPGPU_HD void extended_odd(const E& env, typename E::Num& g, typename E::Num& y, const typename E::Num& x,
                           const typename E::Num& n) {
#if !defined(MPGPU_GCD_BY_BINARY_STEPS)
  // f = n, g = x, with f = d x and g = e x (mod n) all along; at the end
  // f = +-gcd, so y = +-d.
  typename E::Num f = n, h = x, d, e, zero;
  set_zero(env, d);
  set_ui32(env, e, 1);
  bool f_negative = false;
  const word_t np0 = negated_inverse_word(env.group.broadcast(n.w[0], 0) | 1u);
  run_divsteps<true>(env, f, f_negative, h, d, e, n, np0);
  set_zero(env, zero);
  sub_mod(env, e, zero, d, n);
  select(env, y, f_negative, e, d);
  sub(env, h, zero, f);
  select(env, g, f_negative, h, f);
#else
  typename E::Num u = x, v = n, x1, x2;
  set_ui32(env, x1, 1);
  set_zero(env, x2);
  const int steps = uniform_max(env, bit_length(env, u) + bit_length(env, v));
  for (int s = 0; s < steps; ++s) binary_step<true>(env, u, v, x1, x2, n);
  g = v;  // u == 0
  y = x2;
#endif
}

/// r = a^-1 mod 2^(32W) for odd a (Newton: y <- y (2 - a y) doubles the
/// correct low bits, from the word inverse).
template <class E>
MPGPU_HD void inverse_mod_radix(const E& env, typename E::Num& r, const typename E::Num& a) {
  typename E::Num t, two;
  const word_t a0 = env.group.broadcast(a.w[0], 0);
  set_ui32(env, r, static_cast<word_t>(0u - negated_inverse_word(a0 | 1u)));
  set_ui32(env, two, 2);
  for (int bits = word_bits; bits < E::words * word_bits; bits *= 2) {
    mul(env, t, a, r);
    sub(env, t, two, t);
    mul(env, r, r, t);
  }
}

}  // namespace gcd_detail

/// g = gcd(a, b); gcd(a, 0) = a, gcd(0, 0) = 0. g may be a or b.
/// Common factors of two come out first (one shift); then divsteps from
/// the odd one of the two as f (both zero: g = 0 from the start, no step).
template <class E>
MPGPU_HD void gcd(const E& env, typename E::Num& g, const typename E::Num& a, const typename E::Num& b) {
  typename E::Num u, v;
  bit_or(env, u, a, b);
  int k = count_trailing_zeros(env, u);
  if (k >= E::words * word_bits) k = 0;  // both zero; keeps shifts off their early return
  shift_right(env, u, a, k);
  shift_right(env, v, b, k);
#if !defined(MPGPU_GCD_BY_BINARY_STEPS)
  const bool u_odd = low_bit(env, u) != 0;
  typename E::Num f, h, unused;
  select(env, f, u_odd, u, v);
  select(env, h, u_odd, v, u);
  bool f_negative = false;
  run_divsteps<false>(env, f, f_negative, h, unused, unused, unused, 0);
  set_zero(env, h);
  sub(env, h, h, f);
  select(env, g, f_negative, h, f);
  shift_left(env, g, g, k);
#else
  const int steps = uniform_max(env, bit_length(env, u) + bit_length(env, v));
  for (int s = 0; s < steps; ++s) gcd_detail::binary_step<false>(env, u, v, u, v, v);
  bit_or(env, g, u, v);  // one of them is zero
  shift_left(env, g, g, k);
#endif
}

/// r = a^-1 mod m for any a and any m >= 1 (a >= m too; a^-1 mod 1 = 0).
/// Returns status_ok, status_zero_divisor for m == 0, or status_no_inverse
/// when gcd(a, m) != 1; r = 0 on failure. r may be a or m.
///
/// With a1 = a mod m: an odd m runs the extended binary steps on (a1, m). An
/// even m needs a1 odd; then y = m^-1 mod a1 from the steps on (m mod a1, a1),
/// and r = (1 + m (a1 - y)) / a1, an exact quotient below 2^(32W), so it is
/// computed mod 2^(32W) as a product with a1^-1 mod 2^(32W). Both ways share
/// one run of the steps; the rest is computed for every instance and selected.
/// Cost: two divides, the divsteps of extended_odd, 2 log2(W) + 2 low products.
template <class E>
MPGPU_HD word_t invert(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& m) {
  using Num = typename E::Num;
  Num q, a1, mr;
  const word_t status = divide(env, q, a1, a, m);
  const bool m_even = low_bit(env, m) == 0;
  divide(env, q, mr, m, a1);  // a1 == 0 leaves mr = m, unused: no inverse then
  Num x, n, g, y;
  select(env, x, m_even, mr, a1);
  select(env, n, m_even, a1, m);
  gcd_detail::extended_odd(env, g, y, x, n);
  Num one;
  set_ui32(env, one, 1);
  const bool a1_odd = low_bit(env, a1) != 0;
  // equals is a group operation: it runs in every instance, never behind a
  // short-circuit on this instance's status (an m == 0 instance, e.g. a
  // padding one, sharing the warp would skip it and desynchronize the warp).
  const bool g_one = equals(env, g, one);
  const bool ok = status == status_ok && g_one && (!m_even || a1_odd);
  // The even-m way; r <= m + 1 as an integer, so one subtraction reduces it.
  Num t, inv, tm;
  sub(env, t, a1, y);
  mul(env, t, m, t);
  add_ui32(env, t, t, 1);
  gcd_detail::inverse_mod_radix(env, inv, a1);
  mul(env, t, t, inv);
  const bool ge = sub(env, tm, t, m) == 0;
  select(env, t, ge, tm, t);
  select(env, r, m_even, t, y);
  if (!ok) set_zero(env, r);  // local: no group operation
  return status != status_ok ? status : ok ? status_ok : status_no_inverse;
}

}  // namespace mpgpu::batch
