// Z/pZ for p = r^k + 1 (Chen et al.): an element is k base-r digits, little
// endian, one limb each, with Chen et al.'s special case for x = r^k (= -1):
//   either 0 <= x_i < r for every i                  (values 0 .. r^k - 1),
//   or     x_{k-1} = r and x_{k-2} = ... = x_0 = 0    (the value r^k = p - 1).
// Every residue has exactly one representation, so == on digits is equality
// in Z/pZ. The same source runs on host (g++) and device (nvcc); a Field is a
// trivially copyable value (just r) to pass to kernels by value.
//
// Internally an element is hi * r^k + low with hi in {0, 1} (hi = 1 only for
// the special case, then low = 0) and low < r^k; r^k = -1 mod p turns every
// carry or borrow out of digit k-1 into a small integer to add back, which
// finish() does. Costs: add/sub/mul_pow_r O(k) word operations, mul O(k^2).
#pragma once

#include "mpgpu/gfp/digits.cuh"
#include "mpgpu/limb/arith.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::gfp {

template <int Digits>
struct Element {
  static_assert(Digits >= 2, "p = r^k + 1 needs k >= 2 digits");
  limb_t digit[Digits];

  friend MPGPU_HD bool operator==(const Element& a, const Element& b) {
    for (int i = 0; i < Digits; ++i)
      if (a.digit[i] != b.digit[i]) return false;
    return true;
  }
  friend MPGPU_HD bool operator!=(const Element& a, const Element& b) { return !(a == b); }
};

template <int Digits>
struct Field {
  static constexpr int k = Digits;
  using element = Element<Digits>;

  limb_t r;  ///< the radix, 2 <= r < 2^64; p = r^k + 1

  MPGPU_HD element zero() const {
    element z{};
    return z;
  }
  MPGPU_HD element one() const { return small(1); }
  /// v mod p for 0 <= v < r.
  MPGPU_HD element small(limb_t v) const {
    element z{};
    z.digit[0] = v;
    return z;
  }
  /// r^k = p - 1 = -1, the special representation.
  MPGPU_HD element minus_one() const {
    element z{};
    z.digit[k - 1] = r;
    return z;
  }
  /// r^i for 0 <= i < k: a single digit 1.
  MPGPU_HD element radix_power(int i) const {
    element z{};
    z.digit[i] = 1;
    return z;
  }

  MPGPU_HD bool is_special(const element& x) const { return x.digit[k - 1] == r; }
  MPGPU_HD bool is_zero(const element& x) const { return x == zero(); }
  /// Whether x is a valid representation (digits < r, or the special case).
  MPGPU_HD bool is_canonical(const element& x) const {
    if (is_special(x)) {
      for (int i = 0; i + 1 < k; ++i)
        if (x.digit[i] != 0) return false;
      return true;
    }
    for (int i = 0; i < k; ++i)
      if (x.digit[i] >= r) return false;
    return true;
  }

  /// (z + t) mod p for z < r^k given as digits and a small t in [-2, 2]:
  /// the canonical representation, written back into z.
  MPGPU_HD void finish(element& z, int t) const {
    if (t > 0) {
      if (add_small(z.digit, static_cast<unsigned>(t), k, r)) {
        // z + t = r^k + z', z' in {0, 1}, and r^k + z' = z' - 1 mod p.
        const bool z_prime_zero = z.digit[0] == 0;
        z = z_prime_zero ? minus_one() : zero();
      }
    } else if (t < 0) {
      if (sub_small(z.digit, static_cast<unsigned>(-t), k, r)) {
        // The digits now hold z + t + r^k in [r^k - 2, r^k); the true value
        // z + t is that minus r^k, i.e. that plus 1 mod p.
        if (add_small(z.digit, 1, k, r)) z = minus_one();  // wrapped to 0: r^k
      }
    }
  }

  /// Algorithm 6: x + y. low(x) + low(y) = z + c * r^k with c in {0, 1}, and
  /// x + y = z + (c + hx + hy) * r^k = z - (c + hx + hy) mod p; the total is
  /// at most 2 since x + y <= 2 r^k.
  MPGPU_HD element add(const element& x, const element& y) const {
    const int hx = is_special(x), hy = is_special(y);
    element z;
    unsigned carry = 0;
    for (int i = 0; i < k; ++i) {
      const limb_t a = (i == k - 1 && hx) ? 0 : x.digit[i];
      const limb_t b = (i == k - 1 && hy) ? 0 : y.digit[i];
      carry = add_digit(a, b, carry, r, z.digit[i]);
    }
    finish(z, -(static_cast<int>(carry) + hx + hy));
    return z;
  }

  /// x - y. low(x) - low(y) = z - b * r^k, so x - y = z + (hx - hy - b) r^k
  /// = z + (hy + b - hx) mod p, a correction in [-1, 2].
  MPGPU_HD element sub(const element& x, const element& y) const {
    const int hx = is_special(x), hy = is_special(y);
    element z;
    unsigned borrow = 0;
    for (int i = 0; i < k; ++i) {
      const limb_t a = (i == k - 1 && hx) ? 0 : x.digit[i];
      const limb_t b = (i == k - 1 && hy) ? 0 : y.digit[i];
      borrow = sub_digit(a, b, borrow, r, z.digit[i]);
    }
    finish(z, hy + static_cast<int>(borrow) - hx);
    return z;
  }

  MPGPU_HD element neg(const element& x) const { return sub(zero(), x); }

  /// x * r^i for any i (r has order 2k, so i is taken mod 2k). For 0 <= i < k
  /// and x = low: x r^i = A - B with A = digits shifted up by i (the top i
  /// fall off) and B = the i digits that fell off, at the bottom, because
  /// r^(k+j) = -r^j. A - B = z - b r^k = z + b mod p. For i >= k the result
  /// is negated by computing B - A instead. The special x = -1 gives -r^i.
  MPGPU_HD element mul_pow_r(const element& x, long long i) const {
    long long e = i % (2 * k);
    if (e < 0) e += 2 * k;
    const bool flip = e >= k;
    const int s = static_cast<int>(flip ? e - k : e);
    if (is_special(x)) {
      const element t = radix_power(s);  // x r^s = -r^s
      return flip ? t : neg(t);
    }
    element a, b;
    for (int h = 0; h < k; ++h) {
      a.digit[h] = h >= s ? x.digit[h - s] : 0;
      b.digit[h] = h < s ? x.digit[h + k - s] : 0;
    }
    element z;
    const unsigned borrow =
        flip ? sub_digits(z.digit, b.digit, a.digit, k, r) : sub_digits(z.digit, a.digit, b.digit, k, r);
    finish(z, static_cast<int>(borrow));
    return z;
  }

  /// Algorithm 7: x * y. With x, y < r^k (the special case is -1: a
  /// negation), the schoolbook product of the digit vectors gives columns
  /// c_m = sum_{i+j=m} x_i y_j < k r^2 < 2^(128 + log2 k) (3 limbs). Carrying
  /// base r turns them into 2k digits of x*y < r^(2k): x*y = L + H r^k with
  /// L, H < r^k, and x*y = L - H mod p (the negacyclic fold u_i = c_i - c_(i+k)
  /// of Chen et al., applied after the carries so no column goes negative).
  MPGPU_HD element mul(const element& x, const element& y) const {
    if (is_special(x)) return neg(y);
    if (is_special(y)) return neg(x);
    limb_t col[2 * k][3];
    for (int m = 0; m < 2 * k; ++m) col[m][0] = col[m][1] = col[m][2] = 0;
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < k; ++j)
        col[i + j][2] += limb::mul_add(x.digit[i], y.digit[j], 0, col[i + j][0], col[i + j][1]);
    // Carry: v = c_m + q with q < 2^128; v < (k + 1) r^2 + 2^64 keeps the top
    // limb below 2^8 < r, so two 128/64 divisions give q' = v / r and the digit.
    element lo, hi;
    limb_t q0 = 0, q1 = 0;
    for (int m = 0; m < 2 * k; ++m) {
      limb_t v0, v1, v2 = col[m][2];
      limb_t c = limb::add_with_carry(col[m][0], q0, 0, v0);
      c = limb::add_with_carry(col[m][1], q1, static_cast<unsigned>(c), v1);
      v2 += c;
      limb_t rem;
      const limb_t qa = div_by_radix(v2, v1, r, rem);
      const limb_t qb = div_by_radix(rem, v0, r, rem);
      (m < k ? lo.digit[m] : hi.digit[m - k]) = rem;
      q1 = qa;
      q0 = qb;
    }
    // x*y < r^(2k): nothing is left in q.
    element z;
    const unsigned borrow = sub_digits(z.digit, lo.digit, hi.digit, k, r);
    finish(z, static_cast<int>(borrow));
    return z;
  }

  MPGPU_HD element sqr(const element& x) const { return mul(x, x); }

  /// x^e by square-and-multiply (e a 64-bit exponent).
  MPGPU_HD element pow(const element& x, unsigned long long e) const {
    element acc = one(), base = x;
    while (e != 0) {
      if (e & 1u) acc = mul(acc, base);
      base = sqr(base);
      e >>= 1;
    }
    return acc;
  }
};

}  // namespace mpgpu::gfp
