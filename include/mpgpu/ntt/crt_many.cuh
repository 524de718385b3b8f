// Chinese remaindering for P ~62-bit NTT primes (Garner's mixed radix), the
// same source on host and device, for products whose digits are D limbs
// (src/cuda/ntt_mul.cu, mul_abs_digits). Residues r_i < p_i give the unique
// c < p_0 ... p_(P-1) with c = r_i mod p_i:
//     x_0 = r_0
//     x_k = (r_k - (x_0 + x_1 p_0 + ... + x_(k-1) p_0...p_(k-2))) / (p_0...p_(k-1))   mod p_k
//     c   = x_0 + p_0 (x_1 + p_1 (x_2 + ... + p_(P-2) x_(P-1)))
// The sum inside x_k is evaluated mod p_k by Horner with the constants
// p_j mod p_k (Shoup products), and c by Horner in multiprecision. Every
// Horner intermediate is at most c, so when c is known to fit in L limbs
// (a product coefficient: L = 2 D + 1, see digits_primes) the limbs above L
// are never needed and are not computed.
//
// Exactness (the caller's side): a coefficient of a product of D-limb
// digits is below t (2^(64 D) - 1)^2 < 2^(128 D) t, for t the number of
// terms (the shorter operand's digit count); digits_primes picks the
// smallest P whose primes multiply past 2^(128 D + ceil(log2 t) + 1).
#pragma once

#include <cstdint>

#include "mpgpu/field/primes.hpp"
#include "mpgpu/limb/arith.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::ntt {

/// A constant w < p with Shoup's quotient floor(w 2^64 / p).
struct ShoupWord {
  std::uint64_t w, q;
};

/// Most primes a digits product uses (D = 4: 9; see digits_primes).
inline constexpr int kCrtMaxPrimes = 9;

/// Primes needed for digits of `digit_limbs` limbs when a coefficient sums
/// at most `terms` digit products: the first P of ntt_primes62 with
/// sum floor(log2 p_i) >= 128 D + ceil(log2 terms) + 1; 0 when the table
/// (kCrtMaxPrimes) is too short.
inline int digits_primes(int digit_limbs, std::uint64_t terms) {
  int need = 128 * digit_limbs + 1;
  while (terms > 1 && (std::uint64_t{1} << (need - 128 * digit_limbs - 1)) < terms) ++need;
  int bits = 0;
  for (int i = 0; i < kCrtMaxPrimes && i < int(sizeof(field::ntt_primes62) / sizeof(field::ntt_primes62[0])); ++i) {
    int log = 63;
    while (!((field::ntt_primes62[i].p >> log) & 1)) --log;
    bits += log;  // floor(log2 p_i): a lower bound on its contribution
    if (bits >= need) return i + 1;
  }
  return 0;
}

template <int kP>
struct CrtMany {
  static_assert(kP >= 2 && kP <= kCrtMaxPrimes);
  std::uint64_t p[kP];
  /// Row k (1 <= k < kP) at k (k - 1) / 2: p_j mod p_k for j < k - 1, then
  /// (p_0 ... p_(k-1))^-1 mod p_k in slot k - 1.
  ShoupWord c[kP * (kP - 1) / 2];

  static ShoupWord shoup(std::uint64_t w, std::uint64_t p) {
    return {w, static_cast<std::uint64_t>((static_cast<unsigned __int128>(w) << 64) / p)};
  }
  static std::uint64_t mulmod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % p);
  }

  /// Host set-up from the first kP primes of ntt_primes62.
  static CrtMany make() {
    CrtMany r{};
    for (int i = 0; i < kP; ++i) r.p[i] = field::ntt_primes62[i].p;
    for (int k = 1; k < kP; ++k) {
      ShoupWord* row = r.c + k * (k - 1) / 2;
      std::uint64_t prod = 1;  // p_0 ... p_(k-1) mod p_k
      for (int j = 0; j < k; ++j) {
        const std::uint64_t pj = r.p[j] % r.p[k];
        if (j < k - 1) row[j] = shoup(pj, r.p[k]);
        prod = mulmod(prod, pj, r.p[k]);
      }
      std::uint64_t inv = 1, base = prod, e = r.p[k] - 2;  // Fermat
      for (; e; e >>= 1, base = mulmod(base, base, r.p[k]))
        if (e & 1) inv = mulmod(inv, base, r.p[k]);
      row[k - 1] = shoup(inv, r.p[k]);
    }
    return r;
  }

  /// a w mod p in [0, 2p) for any 64-bit a (Shoup, p < 2^62).
  static MPGPU_HD std::uint64_t mul_lazy(std::uint64_t a, ShoupWord w, std::uint64_t p) {
    std::uint64_t q;
    limb::mul_wide(a, w.q, q);
    return a * w.w - q * p;
  }

  /// c mod 2^(64 kL) (kL limbs, least significant first) from canonical
  /// residues r_i < p_i; exact when c < 2^(64 kL).
  template <int kL>
  MPGPU_HD void combine(const std::uint64_t (&r)[kP], std::uint64_t (&out)[kL]) const {
    std::uint64_t x[kP];
    x[0] = r[0];
MPGPU_UNROLL
    for (int k = 1; k < kP; ++k) {
      const ShoupWord* row = c + k * (k - 1) / 2;
      const std::uint64_t pk = p[k], pk2 = 2 * p[k];
      std::uint64_t s = x[k - 1];  // < p_(k-1) < 2 p_k (all primes lie in (2^61, 2^62))
MPGPU_UNROLL
      for (int j = k - 2; j >= 0; --j) {
        s = mul_lazy(s, row[j], pk) + x[j];  // < 2 p_k + 2^62 < 4 p_k
        s = s >= pk2 ? s - pk2 : s;          // [0, 2 p_k)
      }
      // (r_k - s) / (p_0 ... p_(k-1)): r_k + 2 p_k - s in (0, 3 p_k); the lazy
      // product is below 2 p_k, one subtraction makes it canonical.
      const std::uint64_t t = mul_lazy(r[k] + pk2 - s, row[k - 1], pk);
      x[k] = t >= pk ? t - pk : t;
    }
    // c = x_0 + p_0 (x_1 + p_1 (...)), Horner over kL limbs.
MPGPU_UNROLL
    for (int i = 0; i < kL; ++i) out[i] = 0;
    out[0] = x[kP - 1];
MPGPU_UNROLL
    for (int j = kP - 2; j >= 0; --j) {
      // The value after this step is below p_j ... p_(kP-1) < 2^(64 (kP - j)):
      // kP - j limbs, so the carry out of the last one computed is 0.
      std::uint64_t carry = x[j];
MPGPU_UNROLL
      for (int i = 0; i < kL && i < kP - j; ++i) {
        std::uint64_t hi;
        const std::uint64_t lo = limb::mul_wide(out[i], p[j], hi);
        hi += limb::add_with_carry(lo, carry, 0, out[i]);
        carry = hi;
      }
    }
  }
};

}  // namespace mpgpu::ntt
