// Base-r digit primitives for Z/pZ, p = r^k + 1, r < 2^64 (Chen et al.). One
// digit is one limb in [0, r). r may exceed 2^63 (P3: r = 2^63 + 2^34), so
// the sum of two digits can pass 2^64: every step recovers the 65th bit from
// the limb carry instead of assuming it is zero. Host and device share the
// source (MPGPU_HD); the only branch on __CUDA_ARCH__ is the 128/64 division.
#pragma once

#include "mpgpu/limb/arith.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::gfp {

/// s = a + b + carry_in for digits a, b < r; returns the base-r carry out.
/// a + b + 1 <= 2r - 1, so one conditional subtraction of r suffices.
MPGPU_HD unsigned add_digit(limb_t a, limb_t b, unsigned carry_in, limb_t r, limb_t& s) {
  const limb_t c64 = limb::add_with_carry(a, b, carry_in, s);
  if (c64 || s >= r) {
    s -= r;  // true value - r < r, so the wrapped difference is exact
    return 1;
  }
  return 0;
}

/// d = a - b - borrow_in for digits a, b < r; returns the base-r borrow out.
/// The true difference lies in [-r, r); adding r modulo 2^64 fixes a negative one.
MPGPU_HD unsigned sub_digit(limb_t a, limb_t b, unsigned borrow_in, limb_t r, limb_t& d) {
  const limb_t b64 = limb::sub_with_borrow(a, b, borrow_in, d);
  if (b64) {
    d += r;
    return 1;
  }
  return 0;
}

/// (hi:lo) = q * r + rem with hi < r (so q < 2^64); returns q, writes rem.
MPGPU_HD limb_t div_by_radix(limb_t hi, limb_t lo, limb_t r, limb_t& rem) {
#if defined(__CUDA_ARCH__)
  // Restoring division, one quotient bit per step; rem < r throughout, and
  // 2 * rem may need 65 bits when r > 2^63, hence `top`.
  limb_t q = 0;
  for (int i = 63; i >= 0; --i) {
    const limb_t top = hi >> 63;
    hi = (hi << 1) | ((lo >> i) & 1u);
    q <<= 1;
    if (top || hi >= r) {
      hi -= r;
      q |= 1u;
    }
  }
  rem = hi;
  return q;
#else
  const unsigned __int128 n = (static_cast<unsigned __int128>(hi) << 64) | lo;
  rem = static_cast<limb_t>(n % r);
  return static_cast<limb_t>(n / r);
#endif
}

/// out[0..k) = a - b (base r, all digits < r); returns the borrow out: the
/// true difference is out - borrow * r^k. out may alias a or b.
MPGPU_HD unsigned sub_digits(limb_t* out, const limb_t* a, const limb_t* b, int k, limb_t r) {
  unsigned borrow = 0;
  for (int i = 0; i < k; ++i) borrow = sub_digit(a[i], b[i], borrow, r, out[i]);
  return borrow;
}

/// out[0..k) = a + b (base r, all digits < r); returns the carry out.
MPGPU_HD unsigned add_digits(limb_t* out, const limb_t* a, const limb_t* b, int k, limb_t r) {
  unsigned carry = 0;
  for (int i = 0; i < k; ++i) carry = add_digit(a[i], b[i], carry, r, out[i]);
  return carry;
}

/// z += t (t small, digits < r); returns the carry out of digit k-1.
MPGPU_HD unsigned add_small(limb_t* z, unsigned t, int k, limb_t r) {
  for (int i = 0; i < k && t != 0; ++i) t = add_digit(z[i], 0, t, r, z[i]);
  return t;
}

/// z -= t (t <= r, digits < r); returns the borrow out of digit k-1.
MPGPU_HD unsigned sub_small(limb_t* z, unsigned t, int k, limb_t r) {
  for (int i = 0; i < k && t != 0; ++i) {
    if (z[i] >= t) {
      z[i] -= t;
      t = 0;
    } else {
      z[i] = z[i] + (r - t);  // z[i] - t + r, in [r - t, r)
      t = 1;
    }
  }
  return t;
}

}  // namespace mpgpu::gfp
