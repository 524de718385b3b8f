// Montgomery arithmetic and modular exponentiation on one instance, with
// R = 2^(32W) and an odd modulus n > 1 of at most W words.
//
// Groups of up to a warp multiply by interleaved rows in registers
// (montgomery/rows.cuh); larger groups do REDC with whole products (a wide
// product, a low product for m and a wide product m*n), load-balanced on
// every group size, as does montgomery_reduce everywhere. The constants
// need no division: R mod n comes from doubling n's top bit modulo n, R^2
// mod n from doublings and squarings, and -n^{-1} mod R from Newton's
// iteration with low products.
#pragma once

#include "mpgpu/batch/divide.cuh"  // uniform_max
#include "mpgpu/batch/montgomery/rows.cuh"
#include "mpgpu/batch/montgomery/rows_sqr.cuh"
#include "mpgpu/batch/mul.cuh"

namespace mpgpu::batch {

template <class E>
struct Modulus {
  typename E::Num n;       ///< the odd modulus
  typename E::Num n_inv;   ///< -n^{-1} mod R
  typename E::Num r_mod;   ///< R mod n: Montgomery form of 1
  typename E::Num r2_mod;  ///< R^2 mod n
  word_t np0 = 0;          ///< -n^{-1} mod 2^32, the low word of n_inv
};

/// r = 2a mod n for a < n.
template <class E>
MPGPU_HD void double_mod(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& n) {
  typename E::Num t;
  word_t carry = add(env, t, a, a);
  typename E::Num d;
  word_t borrow = sub(env, d, t, n);
  // t >= n exactly when the addition carried or the subtraction did not borrow.
  bool reduce = carry != 0 || borrow == 0;
  r = t;
  swap_if(env, reduce, r, d);
}

/// Exponent s of the squarings that take 2^(32W >> s) R mod n to R^2 mod n:
/// as many as leave at least 32 doublings before them (a doubling costs
/// about as much as a word step of a product by rows, a squaring W steps).
template <class E>
constexpr int r2_squarings() {
  int s = 0;
  while (((E::words * word_bits) >> (s + 1)) >= word_bits && ((E::words * word_bits) >> (s + 1) << (s + 1)) == E::words * word_bits) ++s;
  return s;
}

/// Sets up the constants for modulus n (odd; n > 1 for meaningful results).
template <class E>
MPGPU_HD void setup_modulus(const E& env, Modulus<E>& m, const typename E::Num& n) {
  m.n = n;
  // n^{-1} mod 2^32 from one word, then Newton: y <- y (2 - n y) doubles the
  // correct low words each step.
  word_t n0 = env.group.broadcast(n.w[0], 0);
  m.np0 = negated_inverse_word(n0);
  typename E::Num y, t, two;
  set_ui32(env, y, static_cast<word_t>(0u - m.np0));
  set_ui32(env, two, 2);
  for (int bits = word_bits; bits < E::words * word_bits; bits *= 2) {
    mul(env, t, n, y);
    sub(env, t, two, t);
    mul(env, y, y, t);
  }
  typename E::Num zero;
  set_zero(env, zero);
  sub(env, m.n_inv, zero, y);
  // R mod n: n's top bit 2^(len-1) < n doubled 32W - len + 1 times (once
  // for a modulus of the full width). The count differs between instances
  // and the loop must be uniform over the warp: an instance done keeps x.
  constexpr int bits = E::words * word_bits;
  const int len = bits - count_leading_zeros(env, n);
  const int top = len > 0 ? len - 1 : 0;
  typename E::Num x;
  set_zero(env, x);
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i)
    if (env.first_word() + i == top / word_bits) x.w[i] = word_t{1} << (top % word_bits);
  const int doublings = bits - top;
  const int most = uniform_max(env, doublings);
  for (int i = 0; i < most; ++i) {
    typename E::Num d;
    double_mod(env, d, x, n);
    swap_if(env, i < doublings, x, d);
  }
  m.r_mod = x;
  if constexpr (montgomery_by_rows<E>) {
    // R^2 = 2^(32W) R: 2^d R by d doublings, then s exact squarings
    // (x^2 / R each), d 2^s = 32W.
    constexpr int s = r2_squarings<E>();
    for (int i = 0; i < (bits >> s); ++i) double_mod(env, x, x, n);
    for (int i = 0; i < s; ++i) montgomery_mul_rows<E, true>(env, x, x, x, n, m.np0);
  } else {
    for (int i = 0; i < bits; ++i) double_mod(env, x, x, n);
  }
  m.r2_mod = x;
}

/// r = (hi:lo) / R mod n for (hi:lo) < n R.
template <class E>
MPGPU_HD void redc(const E& env, typename E::Num& r, const typename E::Num& lo, const typename E::Num& hi,
                   const Modulus<E>& m) {
  typename E::Num q, qn_lo, qn_hi;
  mul(env, q, lo, m.n_inv);
  mul_wide(env, qn_lo, qn_hi, q, m.n);
  // lo + qn_lo is 0 mod R: it is R exactly when lo != 0.
  word_t low_carry = is_zero(env, lo) ? 0u : 1u;
  typename E::Num t, d;
  word_t carry = add(env, t, hi, qn_hi, low_carry);
  word_t borrow = sub(env, d, t, m.n);
  bool reduce = carry != 0 || borrow == 0;  // t (< 2n) >= n
  r = t;
  swap_if(env, reduce, r, d);
}

/// r = a b / R mod n (a b < n R, e.g. a, b < n).
template <class E>
MPGPU_HD void montgomery_mul(const E& env, typename E::Num& r, const typename E::Num& a,
                             const typename E::Num& b, const Modulus<E>& m) {
  if constexpr (montgomery_by_rows<E>) {
    montgomery_mul_rows<E, true>(env, r, a, b, m.n, m.np0);
  } else {
    typename E::Num lo, hi;
    mul_wide(env, lo, hi, a, b);
    redc(env, r, lo, hi, m);
  }
}

/// r = a^2 / R mod n (a^2 < n R). By rows: the square's own rows (about
/// 3/4 of a product's multiplies) where they pay, else a product.
template <class E>
MPGPU_HD void montgomery_sqr(const E& env, typename E::Num& r, const typename E::Num& a, const Modulus<E>& m) {
  if constexpr (montgomery_sqr_by_rows<E>) {
    montgomery_sqr_rows<E, true>(env, r, a, m.n, m.np0);
  } else if constexpr (montgomery_by_rows<E>) {
    montgomery_mul_rows<E, true>(env, r, a, a, m.n, m.np0);
  } else {
    typename E::Num lo, hi;
    sqr_wide(env, lo, hi, a);
    redc(env, r, lo, hi, m);
  }
}

/// The products inside powm: r = a b / R mod n for a, b below R, with r
/// below R (by rows, the product that skips the comparison with n), or
/// below n (REDC by whole products).
template <class E>
MPGPU_HD void montgomery_mul_step(const E& env, typename E::Num& r, const typename E::Num& a,
                                  const typename E::Num& b, const Modulus<E>& m) {
  if constexpr (montgomery_by_rows<E>) montgomery_mul_rows<E, false>(env, r, a, b, m.n, m.np0);
  else montgomery_mul(env, r, a, b, m);
}
template <class E>
MPGPU_HD void montgomery_sqr_step(const E& env, typename E::Num& r, const typename E::Num& a, const Modulus<E>& m) {
  if constexpr (montgomery_sqr_by_rows<E>) montgomery_sqr_rows<E, false>(env, r, a, m.n, m.np0);
  else if constexpr (montgomery_by_rows<E>) montgomery_mul_rows<E, false>(env, r, a, a, m.n, m.np0);
  else montgomery_sqr(env, r, a, m);
}

/// r = (hi:lo) / R mod n for any hi, lo < R: hi mod n first (hi r_mod / R, one
/// product below n R), then REDC of ((hi mod n):lo) < n R.
template <class E>
MPGPU_HD void montgomery_reduce(const E& env, typename E::Num& r, const typename E::Num& lo,
                                const typename E::Num& hi, const Modulus<E>& m) {
  typename E::Num high;
  montgomery_mul(env, high, hi, m.r_mod, m);
  redc(env, r, lo, high, m);
}

/// r = a R mod n for any a < R (also a >= n).
template <class E>
MPGPU_HD void to_montgomery(const E& env, typename E::Num& r, const typename E::Num& a, const Modulus<E>& m) {
  montgomery_mul(env, r, a, m.r2_mod, m);
}

/// r = a / R mod n, for any a < R.
template <class E>
MPGPU_HD void from_montgomery(const E& env, typename E::Num& r, const typename E::Num& a, const Modulus<E>& m) {
  if constexpr (montgomery_by_rows<E>) {
    typename E::Num one;
    set_ui32(env, one, 1);
    montgomery_mul_rows<E, true>(env, r, a, one, m.n, m.np0);  // a * 1 < R <= n R: exact
  } else {
    typename E::Num zero;
    set_zero(env, zero);
    redc(env, r, a, zero, m);
  }
}

/// Highest set bit of e + 1 over the instance, made uniform over everything
/// that synchronizes together (group.uniform_max: the warp for G <= 32, or
/// the group with WarpSync::group), so loops bounded by it keep every lane
/// on the same path.
template <class E>
MPGPU_HD int uniform_bit_length(const E& env, const typename E::Num& e) {
  return env.group.uniform_max(E::words * word_bits - count_leading_zeros(env, e));
}

/// Copies the exponent e to env.exponent (shared memory), so that every
/// thread of the instance can read any window of it.
template <class E>
MPGPU_HD void stage_exponent(const E& env, const typename E::Num& e) {
  env.group.sync();
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) env.exponent[env.first_word() + i] = e.w[i];
  env.group.sync();
}

/// r = base^e mod n, fixed 4-bit windows, left to right. Any base < R.
/// 0^0 = 1 mod n. The window sequence is the same for every instance a warp
/// runs together (it only depends on the largest exponent length among them).
template <class E>
MPGPU_HD void powm(const E& env, typename E::Num& r, const typename E::Num& base, const typename E::Num& e,
                   const Modulus<E>& m) {
  constexpr int window = 4;
  typename E::Num table[1 << window];
  table[0] = m.r_mod;
  to_montgomery(env, table[1], base, m);
  for (int i = 2; i < (1 << window); ++i) montgomery_mul_step(env, table[i], table[i - 1], table[1], m);
  stage_exponent(env, e);
  const int len = uniform_bit_length(env, e);
  const int windows = (len + window - 1) / window;
  typename E::Num acc = m.r_mod;
  for (int k = windows - 1; k >= 0; --k) {
    for (int s = 0; s < window; ++s) montgomery_sqr_step(env, acc, acc, m);
    const int bit = k * window;  // a window never straddles a word: 32 % 4 == 0
    const word_t digit = (env.exponent[bit / word_bits] >> (bit % word_bits)) & ((1u << window) - 1u);
    montgomery_mul_step(env, acc, acc, table[digit], m);
  }
  from_montgomery(env, r, acc, m);
}

/// Bits lo .. lo + count - 1 (count <= 32) of the exponent that powm_sliding
/// staged in env.exponent, as a number; bits past the width read as 0.
template <class E>
MPGPU_HD word_t staged_exponent_bits(const E& env, int lo, int count) {
  const int word = lo / word_bits, shift = lo % word_bits;
  std::uint64_t v = env.exponent[word];
  if (word + 1 < E::words) v |= std::uint64_t{env.exponent[word + 1]} << word_bits;
  return static_cast<word_t>((v >> shift) & ((std::uint64_t{1} << count) - 1u));
}

/// Window of powm_sliding for a class width b: near the minimum of its cost
/// b / (k + 1) + 2^(k - 1) products beyond the b squarings; 6 bits from
/// 2048 bits by rows, where the 32-entry table is cheap (docs/batch.md,
/// "PowmWindow"), else capped at 5 so that REDC's table (products staged in
/// shared memory, larger Nums a thread) has no more entries than powm's
/// fixed 4-bit one.
template <class E>
constexpr int sliding_window_bits() {
  constexpr int bits = E::words * word_bits;
  return bits <= 64 ? 2 : bits <= 192 ? 3 : bits <= 640 ? 4 : (bits < 2048 || !montgomery_by_rows<E>) ? 5 : 6;
}

/// r = base^e mod n by left-to-right sliding windows of up to k =
/// sliding_window_bits bits that start and end with a 1 bit: about
/// b + b / (k + 1) products for a b-bit exponent and a table of the 2^(k-1)
/// odd powers, against b + b / 4 and 2^4 - 2 products to fill for powm's
/// fixed windows. Any base < R; 0^0 = 1 mod n.
///
/// Each instance's windows begin where its own exponent has a 1 bit, so
/// instances that share a warp are at different places of their schedules.
/// They still run in step: every step is one Montgomery product for every
/// instance, acc * acc (a squaring) or acc * table[d] (the end of a window)
/// as its own schedule says, and an instance whose schedule is over
/// computes a product it discards until the warp's last one is done. (So
/// its squarings are full products, not montgomery_sqr.) The step count is
/// the warp's largest b + windows, and the result does not depend on the
/// other instances.
template <class E, int k = sliding_window_bits<E>()>
MPGPU_HD void powm_sliding(const E& env, typename E::Num& r, const typename E::Num& base, const typename E::Num& e,
                           const Modulus<E>& m) {
  static_assert(k >= 1 && k <= 8, "sliding windows of 1 to 8 bits");
  typename E::Num table[1 << (k - 1)];  // table[j] = base^(2j + 1), Montgomery form
  to_montgomery(env, table[0], base, m);
  if constexpr (k > 1) {
    typename E::Num square;
    montgomery_sqr_step(env, square, table[0], m);
    for (int j = 1; j < (1 << (k - 1)); ++j) montgomery_mul_step(env, table[j], table[j - 1], square, m);
  }
  stage_exponent(env, e);
  // The schedule's state (the same in every thread of the instance): bits
  // above `pos` are consumed; `squares` squarings remain of the current
  // window, then the product by table[(digit - 1) / 2] if digit != 0.
  int pos = E::words * word_bits - 1 - count_leading_zeros(env, e);
  int squares = 0;
  word_t digit = 0;
  // Lowest bit of the window that begins at bit `top` (a 1 bit): the
  // window is as long as k allows and ends with a 1 bit.
  auto window_low = [&](int top) {
    int low = top - k + 1 < 0 ? 0 : top - k + 1;
    while (staged_exponent_bits(env, low, 1) == 0) ++low;
    return low;
  };
  typename E::Num acc = m.r_mod;
  if (pos >= 0) {  // the first window sets acc without products
    const int low = window_low(pos);
    const word_t d = staged_exponent_bits(env, low, pos - low + 1);
    acc = table[(d - 1) / 2];
    pos = low - 1;
  }
  for (;;) {
    bool active = true, square = true;
    if (squares > 0) {
      --squares;
    } else if (digit != 0) {
      square = false;
    } else if (pos < 0) {
      active = false;
    } else if (staged_exponent_bits(env, pos, 1) == 0) {
      --pos;
    } else {
      const int low = window_low(pos);
      digit = staged_exponent_bits(env, low, pos - low + 1);
      squares = pos - low;  // this step is the window's first squaring
      pos = low - 1;
    }
    if (uniform_max(env, active ? 1 : 0) == 0) break;
    // One product, one call site: instances of a warp that want different
    // operands differ only in this copy, not in which product code runs
    // (two call sites behind a per-instance branch ran both products,
    // one after the other, in every warp that mixed them, and put group
    // operations behind a branch that is not uniform over the warp).
    typename E::Num x = acc;
    if (!square) {
      x = table[(digit - 1) / 2];
      digit = 0;
    }
    typename E::Num t;
    montgomery_mul_step(env, t, acc, x, m);
    if (active) acc = t;
  }
  from_montgomery(env, r, acc, m);
}

}  // namespace mpgpu::batch
