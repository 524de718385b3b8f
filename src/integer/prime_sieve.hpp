// A segmented sieve of Eratosthenes over the odd numbers, for algorithms that
// visit every prime up to n (binomial_by_primes). Each segment is sieved on
// its own, so callers run segments on host threads (host_parallel.hpp).
// Host-only; private to the library.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace mpgpu::detail {

/// floor(sqrt(n)), exact for every 64-bit n.
inline std::uint64_t isqrt_u64(std::uint64_t n) {
  auto r = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(n)));
  r = std::min<std::uint64_t>(r, 0xffffffffu);  // the double may round up to 2^32
  while (r * r > n) --r;
  while (r < 0xffffffffu && (r + 1) * (r + 1) <= n) ++r;
  return r;
}

/// The odd primes <= limit, ascending, by a plain sieve of the odd numbers
/// (limit < 2^32: these are the sieving primes of a segment up to 2^64).
inline std::vector<std::uint32_t> odd_primes_up_to(std::uint32_t limit) {
  std::vector<std::uint32_t> primes;
  std::vector<unsigned char> composite(limit / 2 + 1);  // index i: 2i + 1
  for (std::uint64_t i = 1; 2 * i + 1 <= limit; ++i) {
    if (composite[i]) continue;
    const std::uint64_t p = 2 * i + 1;
    primes.push_back(static_cast<std::uint32_t>(p));
    for (std::uint64_t m = p * p; m <= limit; m += 2 * p) composite[m / 2] = 1;
  }
  return primes;
}

/// Calls visit(p) for each odd prime p in [lo, hi), ascending, where lo is
/// even, hi <= 2^63 and `sieving` holds every odd prime <= sqrt(hi - 1) (more are
/// ignored). `bytes` is scratch: one byte per odd number of the segment, so
/// a segment of 2^17 numbers sieves in 64 KiB (the core's L2 holds it).
/// Multiples of 3, 5, 7, 11 and 13 come from a copied pattern (period
/// 15015 odd numbers), which saves about 40% of the crossing off.
template <class Visit>
void for_each_odd_prime_in(std::uint64_t lo, std::uint64_t hi, const std::vector<std::uint32_t>& sieving,
                           std::vector<unsigned char>& bytes, Visit visit) {
  constexpr std::uint64_t kWheel = 3 * 5 * 7 * 11 * 13;  // odd numbers per period
  static const std::vector<unsigned char> pattern = [] {
    std::vector<unsigned char> v(2 * kWheel);  // two periods: any offset reads one whole period
    for (std::uint64_t j = 0; j < v.size(); ++j)
      for (std::uint64_t q : {3, 5, 7, 11, 13}) v[j] |= (2 * j + 1) % q == 0;
    return v;
  }();
  const std::uint64_t count = hi > lo ? (hi - lo) / 2 : 0;  // index j: the odd number lo + 2j + 1
  if (count == 0) return;
  bytes.resize(count);
  for (std::uint64_t j = 0, offset = (lo / 2) % kWheel; j < count; j += kWheel)
    std::memcpy(bytes.data() + j, pattern.data() + offset, std::min(count - j, kWheel));
  if (lo == 0) bytes[0] = 1;  // 1
  for (std::uint64_t q : {3, 5, 7, 11, 13})
    if (q > lo && q < hi) bytes[(q - lo) / 2] = 0;  // the pattern's primes themselves
  for (const std::uint32_t p32 : sieving) {
    const std::uint64_t p = p32;
    if (p <= 13) continue;
    if (p * p >= hi) break;
    // The first odd multiple of p that is >= max(p^2, lo + 1).
    std::uint64_t m = p * p;
    if (m <= lo) {
      m = (lo / p + 1) * p;
      if (!(m & 1)) m += p;
    }
    unsigned char* b = bytes.data();
    for (std::uint64_t j = (m - lo) / 2; j < count; j += p) b[j] = 1;
  }
  // Eight odd numbers at a time: a byte 0 is a prime (the first in memory
  // is the low byte of the word).
  static_assert(std::endian::native == std::endian::little);
  std::uint64_t j = 0;
  for (; j + 8 <= count; j += 8) {
    std::uint64_t x;
    std::memcpy(&x, bytes.data() + j, 8);
    x = ~x & 0x0101010101010101u;
    while (x) {
      visit(lo + 2 * (j + static_cast<std::uint64_t>(std::countr_zero(x)) / 8) + 1);
      x &= x - 1;
    }
  }
  for (; j < count; ++j)
    if (!bytes[j]) visit(lo + 2 * j + 1);
}

}  // namespace mpgpu::detail
