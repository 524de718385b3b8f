// Arithmetic mod an odd prime p < 2^64 on 64-bit words, the same source for
// host (g++) and device (nvcc); the 64x64 -> 128-bit products come from
// limb::mul_wide (umul64hi on the device). The interface is PrimeField32's:
// canonical residues in [0, p), Montgomery (R = 2^64) and Shoup
// (w' = floor(w * 2^64 / p)) multiplication, plain-residue mul/pow/inv.
//
// p may exceed 2^63 (Goldilocks, 2^64 - 2^32 + 1): then a + b and Shoup's
// intermediate remainder (< 2p) can pass 2^64, and the code below recovers
// the 65th bit from a carry instead of assuming it is zero.
#pragma once

#include "mpgpu/limb/arith.cuh"
#include "mpgpu/limb/config.cuh"

namespace mpgpu::field {

struct PrimeField64 {
  using word = std::uint64_t;
  static constexpr int word_bits = 64;

  word p;      ///< odd prime, p < 2^64
  word p_inv;  ///< p^-1 mod 2^64
  word r1;     ///< R mod p: 1 in Montgomery form
  word r2;     ///< R^2 mod p: to_mont multiplies by it

  /// The field mod p (p odd; prime for inv() to be an inverse). Set-up only:
  /// one `%` and 64 modular doublings.
  static MPGPU_HD PrimeField64 make(word p) {
    PrimeField64 f{p, limb::inverse_odd(p), (word{0} - p) % p, 0};  // (2^64 - p) mod p == 2^64 mod p
    word r2 = f.r1;
    for (int i = 0; i < 64; ++i) r2 = f.add(r2, r2);  // R * 2^64 = R^2 mod p
    f.r2 = r2;
    return f;
  }

  /// a + b mod p. a + b < 2p may pass 2^64 (p > 2^63); then the carry says
  /// the true sum is >= p and the wrapped s - p is exactly a + b - p.
  MPGPU_HD word add(word a, word b) const {
    word s;
    const limb_t carry = limb::add_with_carry(a, b, 0, s);
    return (carry || s >= p) ? s - p : s;
  }
  MPGPU_HD word sub(word a, word b) const {
    const word d = a - b;
    return a < b ? d + p : d;  // wraps back into [0, p)
  }
  MPGPU_HD word neg(word a) const { return a == 0 ? 0 : p - a; }

  /// a * b / 2^64 mod p, for a * b < p * 2^64 (limb::montgomery_mul; p >
  /// 2^63 is fine).
  MPGPU_HD word mont_mul(word a, word b) const { return limb::montgomery_mul(a, b, p, p_inv); }
  MPGPU_HD word to_mont(word a) const { return mont_mul(a, r2); }
  MPGPU_HD word from_mont(word a) const { return mont_mul(a, 1); }

  /// a * b mod p on plain residues (two Montgomery products).
  MPGPU_HD word mul(word a, word b) const { return mont_mul(mont_mul(a, b), r2); }

  /// Shoup's quotient of a constant w < p: floor(w * 2^64 / p) < 2^64.
  /// Set-up (twiddle tables), not a hot path: the host divides in 128 bits,
  /// the device by 64 steps of restoring division.
  MPGPU_HD word shoup(word w) const {
#if defined(__CUDA_ARCH__)
    word q = 0, rem = w;  // invariant rem < p; each step brings down a 0 bit
    for (int i = 0; i < 64; ++i) {
      const word top = rem >> 63;  // 2 * rem may need 65 bits when p > 2^63
      rem <<= 1;
      q <<= 1;
      if (top || rem >= p) {
        rem -= p;
        q |= 1;
      }
    }
    return q;
#else
    return static_cast<word>((static_cast<unsigned __int128>(w) << 64) / p);
#endif
  }

  /// a * w mod p for any 64-bit a, given w < p and w_shoup = shoup(w).
  /// q = hi(a * w') underestimates a*w/p by less than a/2^64 + 1 < 2, so the
  /// true r = a*w - q*p is in [0, 2p). For p < 2^63 its low 64 bits are r
  /// itself; for p > 2^63 the 65th bit comes from the high halves.
  MPGPU_HD word mul_shoup(word a, word w, word w_shoup) const {
    word q;
    limb::mul_wide(a, w_shoup, q);
    const word r = a * w - q * p;
    if ((p >> 63) == 0) return r >= p ? r - p : r;
    word aw_hi, qp_hi;
    const word aw_lo = limb::mul_wide(a, w, aw_hi);
    const word qp_lo = limb::mul_wide(q, p, qp_hi);
    const word bit64 = aw_hi - qp_hi - (aw_lo < qp_lo);  // 0 or 1
    return (bit64 || r >= p) ? r - p : r;
  }

  /// As mul_shoup without the final subtraction: a * w mod p in [0, 2p),
  /// for p < 2^63 only (then 2p < 2^64 and the wrapped difference is the
  /// true r). For lazy butterflies that reduce later.
  MPGPU_HD word mul_shoup_lazy(word a, word w, word w_shoup) const {
    word q;
    limb::mul_wide(a, w_shoup, q);
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
