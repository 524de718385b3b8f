// One term of the Chudnovsky series (constants_pi.cpp) in machine words:
// P(k, k+1) = (6k-5)(2k-1)(6k-1), Q(k, k+1) = k^3 640320^3 / 24,
// T(k, k+1) = (-1)^k P (13591409 + 545140134 k), for 1 <= k <= kChudnovskyLeafMaxTerm.
// Why: pi to 10^9 digits has 7 * 10^7 leaves; as Integer products (seven of
// them, each a library call and an allocation) a leaf costs several times what
// copying its three values into Integers does, and the leaves are a quarter of
// the host's series work there.
#pragma once

#include <cstdint>

namespace mpgpu::cli {

/// Up to here (2^32 - 1, far beyond the 7.1 * 10^8 terms of 10^10 digits):
/// P < 72 k^3 < 2^103 (two words), Q < 2^96 2^53.3 < 2^150 and
/// T < 2^103 2^62 < 2^165 (three words each).
inline constexpr std::uint64_t kChudnovskyLeafMaxTerm = 0xffffffffull;
inline constexpr std::uint64_t kChudnovskyC3Over24 = 10939058860032000ull;  // 640320^3 / 24
inline constexpr std::uint64_t kChudnovskyA = 13591409, kChudnovskyB = 545140134;

/// Magnitudes little-endian, 64-bit words; T's sign apart.
struct ChudnovskyLeafWords {
  std::uint64_t p[2];
  std::uint64_t q[3];
  std::uint64_t t[3];
  int t_sign;
};

namespace chudnovsky_detail {
/// r = a * b, three words (a < 2^128, b < 2^64).
inline void mul_128_64(std::uint64_t r[3], unsigned __int128 a, std::uint64_t b) {
  using u128 = unsigned __int128;
  const u128 lo = static_cast<u128>(static_cast<std::uint64_t>(a)) * b;
  const u128 hi = static_cast<u128>(static_cast<std::uint64_t>(a >> 64)) * b + (lo >> 64);
  r[0] = static_cast<std::uint64_t>(lo);
  r[1] = static_cast<std::uint64_t>(hi);
  r[2] = static_cast<std::uint64_t>(hi >> 64);
}
}  // namespace chudnovsky_detail

/// The term k (1 <= k <= kChudnovskyLeafMaxTerm; the caller checks).
inline ChudnovskyLeafWords chudnovsky_leaf_words(std::uint64_t k) {
  using u128 = unsigned __int128;
  ChudnovskyLeafWords w{};
  // Each factor fits 64 bits (6k < 2^35, 545140134 k < 2^62); the
  // products are taken in 128 bits from the first one on.
  const u128 p = static_cast<u128>(6 * k - 5) * (2 * k - 1) * (6 * k - 1);
  w.p[0] = static_cast<std::uint64_t>(p);
  w.p[1] = static_cast<std::uint64_t>(p >> 64);
  chudnovsky_detail::mul_128_64(w.q, static_cast<u128>(k) * k * k, kChudnovskyC3Over24);
  chudnovsky_detail::mul_128_64(w.t, p, kChudnovskyB * k + kChudnovskyA);
  w.t_sign = k % 2 ? -1 : 1;
  return w;
}

}  // namespace mpgpu::cli
