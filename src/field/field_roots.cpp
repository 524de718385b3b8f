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

bool is_prime(std::uint64_t x) {
  if (x < 2) return false;
  for (std::uint64_t q : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37})
    if (x % q == 0) return x == q;
  // x odd and > 37: x - 1 = d * 2^s with d odd.
  const PrimeField64 f = PrimeField64::make(x);
  const int s = __builtin_ctzll(x - 1);
  const std::uint64_t d = (x - 1) >> s;
  for (std::uint64_t a : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}) {
    std::uint64_t y = f.pow(a, d);
    if (y == 1 || y == x - 1) continue;
    bool witness = true;  // a proves x composite unless some y^(2^i) == -1
    for (int i = 1; i < s && witness; ++i) {
      y = f.mul(y, y);
      if (y == x - 1) witness = false;
    }
    if (witness) return false;
  }
  return true;
}

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
  if (!is_prime(p))
    throw InvalidArgument("find_generator: modulus " + std::to_string(p) + " is not prime");
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
  throw InvalidArgument("find_generator: no primitive root mod " + std::to_string(p));
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
