// Chinese remaindering for three ~62-bit NTT primes (Garner's algorithm),
// the same source on host and device. Three residues r_i < p_i give the
// unique c < p1*p2*p3 (< 2^186, three limbs) with c = r_i mod p_i:
//     x1 = r1
//     x2 = (r2 - x1) / p1                 mod p2
//     x3 = (r3 - x1 - x2*p1) / (p1*p2)    mod p3
//     c  = x1 + x2*p1 + x3*p1*p2          (x_i < p_i, so no reduction)
// Exactness: a product coefficient of 64-bit digits is below
// N * (2^64 - 1)^2 < p1*p2*p3 for every N <= 2^57 (primes.hpp); the
// product pipeline caps its transforms at 2^40 points.
#pragma once

#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/limb/arith.cuh"

namespace mpgpu::ntt {

struct Crt3 {
  field::PrimeField64 f2, f3;  ///< arithmetic mod p2 and p3
  std::uint64_t p1, p2;
  std::uint64_t inv_p1_mod_p2;    ///< plain residue
  std::uint64_t inv_p1p2_mod_p3;  ///< plain residue
  std::uint64_t p1_mod_p3;
  std::uint64_t p1p2_lo, p1p2_hi;  ///< p1 * p2 as 128 bits

  /// Set-up (host or device): p1, p2, p3 distinct odd primes below 2^63.
  static MPGPU_HD Crt3 make(std::uint64_t p1, std::uint64_t p2, std::uint64_t p3) {
    Crt3 c;
    c.f2 = field::PrimeField64::make(p2);
    c.f3 = field::PrimeField64::make(p3);
    c.p1 = p1;
    c.p2 = p2;
    c.inv_p1_mod_p2 = c.f2.inv(reduce(p1, p2));
    c.p1_mod_p3 = reduce(p1, p3);
    c.inv_p1p2_mod_p3 = c.f3.inv(c.f3.mul(c.p1_mod_p3, reduce(p2, p3)));
    c.p1p2_lo = limb::mul_wide(p1, p2, c.p1p2_hi);
    return c;
  }

  /// x mod p for x < 2^64, p > 2^61 (at most 7 subtractions; set-up and
  /// values already below 2p in the hot path).
  static MPGPU_HD std::uint64_t reduce(std::uint64_t x, std::uint64_t p) {
    while (x >= p) x -= p;
    return x;
  }

  /// c (three limbs, least significant first) from residues r1 < p1,
  /// r2 < p2, r3 < p3.
  MPGPU_HD void combine(std::uint64_t r1, std::uint64_t r2, std::uint64_t r3, std::uint64_t c[3]) const {
    const std::uint64_t x1 = r1;
    // x1 < p1 < 2*p2: one conditional subtraction reduces it mod p2 (and p3).
    const std::uint64_t x1_2 = x1 >= p2 ? x1 - p2 : x1;
    const std::uint64_t x2 = f2.mul(f2.sub(r2, x1_2), inv_p1_mod_p2);
    const std::uint64_t x1_3 = x1 >= f3.p ? x1 - f3.p : x1;
    const std::uint64_t x2_3 = x2 >= f3.p ? x2 - f3.p : x2;
    const std::uint64_t partial = f3.add(x1_3, f3.mul(x2_3, p1_mod_p3));
    const std::uint64_t x3 = f3.mul(f3.sub(r3, partial), inv_p1p2_mod_p3);
    // c = x1 + x2*p1 + x3*(p1p2_hi:p1p2_lo)
    std::uint64_t hi;
    std::uint64_t lo = limb::mul_wide(x2, p1, hi);
    hi += limb::add_with_carry(lo, x1, 0, lo);
    std::uint64_t t_hi;
    const std::uint64_t t_lo = limb::mul_wide(x3, p1p2_lo, t_hi);
    std::uint64_t u_hi;
    const std::uint64_t u_lo = limb::mul_wide(x3, p1p2_hi, u_hi);
    // (u_hi : u_lo + t_hi : t_lo) is x3 * p1p2 as 192 bits
    std::uint64_t mid;
    const std::uint64_t c_mid = limb::add_with_carry(u_lo, t_hi, 0, mid);
    const std::uint64_t top = u_hi + c_mid;
    const std::uint64_t k0 = limb::add_with_carry(lo, t_lo, 0, c[0]);
    const std::uint64_t k1 = limb::add_with_carry(hi, mid, static_cast<unsigned>(k0), c[1]);
    c[2] = top + k1;
  }
};

}  // namespace mpgpu::ntt
