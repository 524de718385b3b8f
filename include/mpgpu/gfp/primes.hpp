// Sparse-radix generalized Fermat primes p = r^k + 1 with r = 2^w + sign * 2^u
// (Chen et al.'s "SRGFN"): r < 2^64 fits one limb, k is a power of two, and r has
// order exactly 2k mod p (r^k = -1), so r is a primitive K-th root of unity,
// K = 2k. Every entry is checked prime in tests/gfp/primes_test.cpp with GMP's
// mpz_probab_prime_p (probabilistic: Baillie-PSW plus Miller-Rabin rounds; a
// composite passes with probability far below 4^-25, but it is not a proof).
//
// Plain C++ with constexpr data: nvcc and g++ both compile it.
#pragma once

#include <cstdint>

namespace mpgpu::gfp {

struct GfpPrime {
  int w;     ///< r = 2^w + sign * 2^u, 0 < u < w <= 63
  int u;
  int sign;  ///< +1 or -1
  int k;     ///< digits per element, a power of two; p = r^k + 1

  constexpr std::uint64_t radix() const {
    return sign > 0 ? (std::uint64_t{1} << w) + (std::uint64_t{1} << u)
                    : (std::uint64_t{1} << w) - (std::uint64_t{1} << u);
  }
  /// K = 2k: the order of r mod p, the size of the shift-only base DFT.
  constexpr int base_dft_size() const { return 2 * k; }
  /// p - 1 = r^k = 2^(u*k) * (2^(w-u) +- 1)^k, the second factor odd: DFT
  /// sizes 2^s with s <= u*k exist mod p.
  constexpr int two_adicity() const { return u * k; }
};

/// Chen et al.'s P3 = (2^63 + 2^34)^8 + 1 (512 bits, K = 16).
inline constexpr GfpPrime p3 = {63, 34, +1, 8};
/// Chen et al.'s P4 = (2^62 + 2^36)^16 + 1 (1 K bits, K = 32).
inline constexpr GfpPrime p4 = {62, 36, +1, 16};
/// k = 32 (about 2 K bits, K = 64), not in Chen et al. Found by a host search
/// over r = 2^w + sign * 2^u for w = 63 then 62, u = w-1 down to 1, sign +1
/// then -1, testing r^32 + 1 with mpz_probab_prime_p(., 50): no w = 63
/// candidate passed; the first w = 62 hit is u = 56, sign +1, i.e.
/// r = 2^62 + 2^56 = 4683743612465315840.
inline constexpr GfpPrime p5 = {62, 56, +1, 32};

inline constexpr GfpPrime gfp_primes[] = {p3, p4, p5};

}  // namespace mpgpu::gfp
