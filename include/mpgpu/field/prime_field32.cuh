// Arithmetic mod an odd prime p < 2^32 on 32-bit words, the same source for
// host (g++) and device (nvcc). A PrimeField32 is a small trivially copyable
// value (p and three constants): build it once on the host with make() and
// pass it to kernels by value.
//
// Residues are canonical, in [0, p), on input and output of every operation
// unless stated. Two multiplications, neither using `%`:
//  - Montgomery (R = 2^32): mont_mul(a, b) = a * b / R mod p, on values kept
//    in Montgomery form (x * R mod p); to_mont/from_mont convert.
//  - Shoup: mul_shoup(a, w, shoup(w)) = a * w mod p for a constant w with its
//    precomputed quotient w' = floor(w * 2^32 / p) (NTT twiddles).
// mul, pow and inv take and return plain (non-Montgomery) residues.
#pragma once

#include "mpgpu/limb/config.cuh"

namespace mpgpu::field {

struct PrimeField32 {
  using word = std::uint32_t;
  static constexpr int word_bits = 32;

  word p;      ///< odd prime, p < 2^32
  word p_inv;  ///< p^-1 mod 2^32
  word r1;     ///< R mod p: 1 in Montgomery form
  word r2;     ///< R^2 mod p: to_mont multiplies by it

  /// The field mod p (p odd; prime for inv() to be an inverse). Uses `%`
  /// twice: set-up only.
  static MPGPU_HD PrimeField32 make(word p) {
    word inv = p;  // p * p == 1 mod 8: correct to 3 bits
    for (int i = 0; i < 4; ++i) inv *= 2u - p * inv;  // Newton: 3 -> 6 -> 12 -> 24 -> 48 bits
    const word r1 = static_cast<word>((std::uint64_t{1} << 32) % p);
    const word r2 = static_cast<word>((static_cast<std::uint64_t>(r1) << 32) % p);
    return PrimeField32{p, inv, r1, r2};
  }

  MPGPU_HD word add(word a, word b) const {
    // a + b < 2p < 2^33: the carry out of 32 bits means the sum is >= p.
    const word s = a + b;
    return (s < a || s >= p) ? s - p : s;
  }
  MPGPU_HD word sub(word a, word b) const {
    const word d = a - b;
    return a < b ? d + p : d;  // wraps back into [0, p)
  }
  MPGPU_HD word neg(word a) const { return a == 0 ? 0 : p - a; }

  /// a * b / 2^32 mod p, for any a, b with a * b < p * 2^32 (so a, b < p,
  /// or a < 2^32 and b < p). With m = (a*b mod 2^32) * p^-1 mod 2^32, the
  /// product t = a*b and m*p agree in their low 32 bits, so
  /// (t - m*p) / 2^32 = hi(t) - hi(m*p) exactly, which lies in (-p, p) since
  /// t < p * 2^32 and m * p < 2^32 * p: one conditional add of p. Unlike the
  /// t + m*p form, nothing here overflows even for p > 2^31.
  MPGPU_HD word mont_mul(word a, word b) const {
    const std::uint64_t t = static_cast<std::uint64_t>(a) * b;
    const word m = static_cast<word>(t) * p_inv;
    const word t_hi = static_cast<word>(t >> 32);
    const word mp_hi = static_cast<word>((static_cast<std::uint64_t>(m) * p) >> 32);
    const word r = t_hi - mp_hi;
    return t_hi < mp_hi ? r + p : r;
  }
  /// As mont_mul without the final correction: a * b / 2^32 mod p in
  /// (0, 2p), for p < 2^31 and a * b < p * 2^32 (e.g. a < 4p, b < p when
  /// p < 2^30). For lazy butterflies: hi(t) - hi(m p) + p in one addition.
  MPGPU_HD word mont_mul_lazy(word a, word b) const {
    const std::uint64_t t = static_cast<std::uint64_t>(a) * b;
    const word m = static_cast<word>(t) * p_inv;
    const word mp_hi = static_cast<word>((static_cast<std::uint64_t>(m) * p) >> 32);
    return static_cast<word>(t >> 32) - mp_hi + p;
  }
  MPGPU_HD word to_mont(word a) const { return mont_mul(a, r2); }
  MPGPU_HD word from_mont(word a) const { return mont_mul(a, 1); }

  /// a * b mod p on plain residues (two Montgomery products).
  MPGPU_HD word mul(word a, word b) const { return mont_mul(mont_mul(a, b), r2); }

  /// Shoup's quotient of a constant w < p: floor(w * 2^32 / p) < 2^32.
  MPGPU_HD word shoup(word w) const {
    return static_cast<word>((static_cast<std::uint64_t>(w) << 32) / p);
  }
  /// a * w mod p for any 32-bit a, given w < p and w_shoup = shoup(w).
  /// q = floor(a * w' / 2^32) underestimates a*w/p by less than a/2^32 + 1 < 2,
  /// so r = a*w - q*p is in [0, 2p): one conditional subtraction. r is formed
  /// in 64 bits because 2p may exceed 2^32 (p > 2^31).
  MPGPU_HD word mul_shoup(word a, word w, word w_shoup) const {
    const word q = static_cast<word>((static_cast<std::uint64_t>(a) * w_shoup) >> 32);
    const std::uint64_t r =
        static_cast<std::uint64_t>(a) * w - static_cast<std::uint64_t>(q) * p;
    return static_cast<word>(r >= p ? r - p : r);
  }

  /// As mul_shoup without the final subtraction: a * w mod p in [0, 2p),
  /// for p < 2^31 only (then 2p < 2^32 and the 32-bit wrapped difference is
  /// the true r). For lazy butterflies that reduce later.
  MPGPU_HD word mul_shoup_lazy(word a, word w, word w_shoup) const {
    const word q = static_cast<word>((static_cast<std::uint64_t>(a) * w_shoup) >> 32);
    return a * w - q * p;
  }

  /// a^e mod p (0^0 = 1), square-and-multiply in Montgomery form.
  MPGPU_HD word pow(word a, std::uint64_t e) const {
    word base = to_mont(a);
    word acc = r1;
    for (; e != 0; e >>= 1) {
      if (e & 1) acc = mont_mul(acc, base);
      base = mont_mul(base, base);
    }
    return from_mont(acc);
  }
  /// a^-1 mod p by Fermat (a^(p-2)); returns 0 for a == 0.
  MPGPU_HD word inv(word a) const { return pow(a, p - 2u); }
};

}  // namespace mpgpu::field
