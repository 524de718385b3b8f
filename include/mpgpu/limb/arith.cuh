// Per-thread limb primitives: carries, borrows, wide products, bit counts.
// The device branches use PTX carry chains (add.cc/addc, sub.cc/subc,
// mad.lo.cc/madc.hi.cc); the host branches are portable C++ and serve as the
// reference the GPU test compares against. PTX lives in limb/ only: here,
// carry_chain32.cuh (32-bit chains across statements), volatile_pair.cuh,
// grid_dependency.cuh and register_barrier.cuh.
#pragma once

#include "mpgpu/limb/config.cuh"

namespace mpgpu::limb {

/// r = a + b + carry_in (carry_in in {0,1}); returns the carry out.
MPGPU_HD limb_t add_with_carry(limb_t a, limb_t b, unsigned carry_in, limb_t& r) {
#if defined(__CUDA_ARCH__)
  limb_t sum;
  unsigned carry_out;
  // Set CC.CF from carry_in (carry_in + 0xffffffff overflows iff carry_in==1),
  // then chain a 64-bit add with carry and capture the final carry.
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "add.cc.u32 t, %4, 0xffffffff;\n\t"
      "addc.cc.u64 %0, %2, %3;\n\t"
      "addc.u32 %1, 0, 0;\n\t"
      "}"
      : "=l"(sum), "=r"(carry_out)
      : "l"(a), "l"(b), "r"(carry_in));
  r = sum;
  return carry_out;
#else
  limb_t s = a + b;
  limb_t c1 = s < a;
  limb_t s2 = s + carry_in;
  limb_t c2 = s2 < s;
  r = s2;
  return c1 | c2;
#endif
}

/// r = a - b - borrow_in (borrow_in in {0,1}); returns the borrow out.
MPGPU_HD limb_t sub_with_borrow(limb_t a, limb_t b, unsigned borrow_in, limb_t& r) {
#if defined(__CUDA_ARCH__)
  limb_t diff;
  unsigned borrow_out;
  // CC.CF after sub.cc is the borrow; 0 - borrow_in sets it iff borrow_in==1.
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "sub.cc.u32 t, 0, %4;\n\t"
      "subc.cc.u64 %0, %2, %3;\n\t"
      "subc.u32 %1, 0, 0;\n\t"
      "}"
      : "=l"(diff), "=r"(borrow_out)
      : "l"(a), "l"(b), "r"(borrow_in));
  r = diff;
  return borrow_out & 1u;
#else
  limb_t d = a - b;
  limb_t b1 = a < b;
  limb_t d2 = d - borrow_in;
  limb_t b2 = d < static_cast<limb_t>(borrow_in);
  r = d2;
  return b1 | b2;
#endif
}

/// Full 32x32 -> 64-bit product.
MPGPU_HD std::uint64_t mul_wide_32(std::uint32_t a, std::uint32_t b) {
  return static_cast<std::uint64_t>(a) * b;
}

/// Full 64x64 -> 128-bit product: returns the low half, writes the high half.
MPGPU_HD limb_t mul_wide(limb_t a, limb_t b, limb_t& hi) {
#if defined(__CUDA_ARCH__)
  hi = __umul64hi(a, b);
  return a * b;
#else
  unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  hi = static_cast<limb_t>(p >> 64);
  return static_cast<limb_t>(p);
#endif
}

/// High half of the 64x64 -> 128-bit product.
MPGPU_HD limb_t mul_hi(limb_t a, limb_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<limb_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

/// a^-1 mod 2^64 for odd a: Newton's x <- x (2 - a x) doubles the correct
/// low bits, from 3 (a * a == 1 mod 8) past 64 in five steps.
MPGPU_HD limb_t inverse_odd(limb_t a) {
  limb_t x = a;
  for (int i = 0; i < 5; ++i) x *= 2u - a * x;
  return x;
}

/// a * b / 2^64 mod m for odd m and a * b < m * 2^64 (e.g. b < m), given
/// m_inv = m^-1 mod 2^64 (Montgomery's REDC). With q = lo(a*b) * m_inv the
/// low halves of a*b and q*m agree, so the result is hi(a*b) - hi(q*m), in
/// (-m, m), fixed by one conditional add of m: no 129-bit sum, so m > 2^63
/// is fine.
MPGPU_HD limb_t montgomery_mul(limb_t a, limb_t b, limb_t m, limb_t m_inv) {
  limb_t t_hi;
  const limb_t t_lo = mul_wide(a, b, t_hi);
  const limb_t qm_hi = mul_hi(t_lo * m_inv, m);
  const limb_t r = t_hi - qm_hi;
  return t_hi < qm_hi ? r + m : r;
}

/// (c2:c1:c0) += a * b: a column accumulator of schoolbook products (the
/// caller keeps the sum below 2^192).
MPGPU_HD void mul_accumulate(limb_t a, limb_t b, limb_t& c0, limb_t& c1, limb_t& c2) {
#if defined(__CUDA_ARCH__)
  asm("mad.lo.cc.u64 %0, %3, %4, %0;\n\t"
      "madc.hi.cc.u64 %1, %3, %4, %1;\n\t"
      "addc.u64 %2, %2, 0;"
      : "+l"(c0), "+l"(c1), "+l"(c2)
      : "l"(a), "l"(b));
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  const unsigned __int128 s = ((static_cast<unsigned __int128>(c1) << 64) | c0) + p;
  c2 += s < p;
  c0 = static_cast<limb_t>(s);
  c1 = static_cast<limb_t>(s >> 64);
#endif
}

/// (hi:lo) += a * b + c, for accumulating schoolbook rows; returns the carry
/// out of the 128-bit accumulator (0 or 1: the total is below 2^129).
MPGPU_HD limb_t mul_add(limb_t a, limb_t b, limb_t c, limb_t& lo, limb_t& hi) {
#if defined(__CUDA_ARCH__)
  unsigned c1, c2;
  // (hi:lo) += c, then (hi:lo) += a*b through the multiply-add carry chain.
  asm("add.cc.u64 %0, %0, %4;\n\t"
      "addc.cc.u64 %1, %1, 0;\n\t"
      "addc.u32 %2, 0, 0;\n\t"
      "mad.lo.cc.u64 %0, %5, %6, %0;\n\t"
      "madc.hi.cc.u64 %1, %5, %6, %1;\n\t"
      "addc.u32 %3, 0, 0;"
      : "+l"(lo), "+l"(hi), "=r"(c1), "=r"(c2)
      : "l"(c), "l"(a), "l"(b));
  return c1 | c2;
#else
  limb_t phi;
  limb_t plo = mul_wide(a, b, phi);
  limb_t c1 = add_with_carry(plo, c, 0, plo);
  phi += c1;  // cannot overflow: a*b + c < 2^128
  limb_t c2 = add_with_carry(lo, plo, 0, lo);
  return add_with_carry(hi, phi, static_cast<unsigned>(c2), hi);
#endif
}

/// Leading zero bits; 64 for zero.
MPGPU_HD int count_leading_zeros(limb_t x) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(x));
#else
  return x == 0 ? 64 : __builtin_clzll(x);
#endif
}

/// Trailing zero bits; 64 for zero.
MPGPU_HD int count_trailing_zeros(limb_t x) {
#if defined(__CUDA_ARCH__)
  return x == 0 ? 64 : __ffsll(static_cast<long long>(x)) - 1;
#else
  return x == 0 ? 64 : __builtin_ctzll(x);
#endif
}

/// Number of set bits.
MPGPU_HD int popcount(limb_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return __builtin_popcountll(x);
#endif
}

}  // namespace mpgpu::limb
