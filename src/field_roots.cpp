// Root search for NTT primes (see mpgpu/field/roots.hpp).
#include "mpgpu/field/roots.hpp"

#include <string>

#include "mpgpu/error.hpp"
#include "mpgpu/field/prime_field64.cuh"

namespace mpgpu::field {

namespace {

void require_odd_prime_candidate(std::uint64_t p, const char* who) {
  if (p < 3 || p % 2 == 0)
    throw InvalidArgument(std::string(who) + ": modulus " + std::to_string(p) +
                          " is not an odd prime");
}

}  // namespace

int two_adicity(std::uint64_t p) {
  require_odd_prime_candidate(p, "two_adicity");
  return __builtin_ctzll(p - 1);
}

std::vector<std::uint64_t> prime_factors(std::uint64_t x) {
  std::vector<std::uint64_t> factors;
  if (x == 0) throw InvalidArgument("prime_factors: 0 has no factorization");
  if (x % 2 == 0) {
    factors.push_back(2);
    while (x % 2 == 0) x /= 2;
  }
  // d <= x / d instead of d * d <= x: no overflow near 2^64.
  for (std::uint64_t d = 3; d <= x / d; d += 2) {
    if (x % d != 0) continue;
    factors.push_back(d);
    while (x % d == 0) x /= d;
  }
  if (x > 1) factors.push_back(x);  // the remaining cofactor has no factor <= its root
  return factors;
}

std::uint64_t find_generator(std::uint64_t p) {
  require_odd_prime_candidate(p, "find_generator");
  const PrimeField64 f = PrimeField64::make(p);
  const std::vector<std::uint64_t> factors = prime_factors(p - 1);
  for (std::uint64_t g = 2; g < p; ++g) {
    bool primitive = true;
    for (std::uint64_t q : factors)
      if (f.pow(g, (p - 1) / q) == 1) {
        primitive = false;
        break;
      }
    if (primitive) return g;
  }
  throw InvalidArgument("find_generator: no primitive root mod " + std::to_string(p) +
                        " (not a prime?)");
}

std::uint64_t root_of_unity(std::uint64_t p, std::uint64_t generator, int m) {
  const int n = two_adicity(p);
  if (m < 0 || m > n)
    throw InvalidArgument("root_of_unity: 2^" + std::to_string(m) + " does not divide " +
                          std::to_string(p) + " - 1 (largest power 2^" + std::to_string(n) +
                          ")");
  const PrimeField64 f = PrimeField64::make(p);
  return f.pow(generator % p, (p - 1) >> m);
}

}  // namespace mpgpu::field
