// Signed (two's complement) forms at the class width 32W: bit 32W - 1 is the
// sign. add, sub, mul (low half), sqr and shift_left are the same operations
// as the unsigned ones and have no signed form here; what differs is order
// (compare_signed), right shifts (shift_right_arithmetic) and the high half
// of a product (mul_wide_signed, mul_high_signed). Values of a narrower
// logical width must be sign-extended to the class width first
// (sign_extend).
#pragma once

#include "mpgpu/batch/divide.cuh"
#include "mpgpu/batch/mul.cuh"

namespace mpgpu::batch {

/// r = -a mod 2^(32W).
template <class E>
MPGPU_HD void negate(const E& env, typename E::Num& r, const typename E::Num& a) {
  typename E::Num zero;
  set_zero(env, zero);
  sub(env, r, zero, a);
}

/// r = |a| as an unsigned number (so -2^(32W-1) gives 2^(32W-1)); returns 1
/// where a was negative, 0 otherwise, in every thread.
template <class E>
MPGPU_HD word_t abs_signed(const E& env, typename E::Num& r, const typename E::Num& a) {
  const word_t sign = top_bit(env, a);
  typename E::Num n;
  negate(env, n, a);
  select(env, r, sign != 0, n, a);
  return sign;
}

/// Copies bit bits - 1 of a into every bit above it (1 <= bits <= 32W): a
/// value of a logical width as a class-width two's complement number.
template <class E>
MPGPU_HD void sign_extend(const E& env, typename E::Num& r, const typename E::Num& a, int bits) {
  const int top = bits - 1;
  word_t mine = 0;  // the sign bit, from the thread that holds it
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i)
    if ((env.first_word() + i) * word_bits <= top && top < (env.first_word() + i + 1) * word_bits)
      mine = (a.w[i] >> (top % word_bits)) & 1u;
  const word_t sign = env.group.sum(mine);  // one thread holds it: the sum is the bit
  r = a;
  mask_bits(env, r, bits);
  if (sign == 0) return;  // local from here on
  typename E::Num ones;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) ones.w[i] = ~word_t{0};
  mask_bits(env, ones, bits);
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] |= ~ones.w[i];
}

/// Sign of a - b for two's complement a, b, in every thread.
template <class E>
MPGPU_HD int compare_signed(const E& env, const typename E::Num& a, const typename E::Num& b) {
  // Flipping the sign bits maps signed order onto unsigned order.
  typename E::Num x = a, y = b;
  if (env.rank() == E::threads - 1) {
    x.w[E::per_thread - 1] ^= 0x80000000u;
    y.w[E::per_thread - 1] ^= 0x80000000u;
  }
  return compare(env, x, y);
}

/// r = a >> n with copies of the sign shifted in (floor(a / 2^n)); n >= 0,
/// n >= 32W gives 0 or -1. The count is clamped below 32W, so the shift
/// takes the same path whatever n each instance has.
template <class E>
MPGPU_HD void shift_right_arithmetic(const E& env, typename E::Num& r, const typename E::Num& a, int n) {
  constexpr int last = E::words * word_bits - 1;
  const bool negative = top_bit(env, a) != 0;
  typename E::Num x;
  // ~a >> n == ~(a >> n) with ones shifted in: shift the non-negative one.
  bit_not(env, x, a);
  select(env, x, negative, x, a);
  shift_right(env, r, x, n < last ? n : last);
  bit_not(env, x, r);
  select(env, r, negative, x, r);
}

/// (hi, lo) = a * b as 64W-bit two's complement, for two's complement a, b:
/// the unsigned product, with hi corrected by - (a < 0 ? b : 0) - (b < 0 ? a : 0).
template <class E>
MPGPU_HD void mul_wide_signed(const E& env, typename E::Num& lo, typename E::Num& hi, const typename E::Num& a,
                              const typename E::Num& b) {
  typename E::Num zero, fa, fb;
  set_zero(env, zero);
  const bool a_neg = top_bit(env, a) != 0, b_neg = top_bit(env, b) != 0;
  select(env, fa, a_neg, b, zero);  // read before the product may overwrite a or b
  select(env, fb, b_neg, a, zero);
  mul_wide(env, lo, hi, a, b);
  sub(env, hi, hi, fa);
  sub(env, hi, hi, fb);
}

/// r = floor(a * b / 2^(32W)) for two's complement a, b (the high half of the
/// signed product).
template <class E>
MPGPU_HD void mul_high_signed(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
  typename E::Num lo;
  mul_wide_signed(env, lo, r, a, b);
}

}  // namespace mpgpu::batch
