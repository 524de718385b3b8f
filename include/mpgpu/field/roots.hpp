// Host-side searches for NTT primes p = k * 2^n + 1: the factors of p - 1,
// a primitive root, and primitive 2^m-th roots of unity. Plain C++ (g++);
// results feed the constant tables that device code reads.
#pragma once

#include <cstdint>
#include <vector>

namespace mpgpu::field {

/// Whether x is prime: deterministic Miller-Rabin (the first 12 primes as
/// bases are a proof for every x < 3.3 * 10^24, so for all 64-bit x).
bool is_prime(std::uint64_t x);

/// 2-adic valuation of p - 1 (p odd): the largest n with 2^n | p - 1.
int two_adicity(std::uint64_t p);

/// The distinct prime factors of x >= 1, ascending, by trial division: after
/// the 2s, about sqrt(f) divisions where f is x's second-largest prime
/// factor at most. Cheap for p - 1 = k * 2^n with small k (Goldilocks'
/// k = 2^32 - 1 = 3 * 5 * 17 * 257 * 65537 takes ~130 steps).
std::vector<std::uint64_t> prime_factors(std::uint64_t x);

/// The smallest primitive root mod the odd prime p: the least g >= 2 with
/// g^((p-1)/q) != 1 for every prime q | p - 1. Throws
/// mpgpu::InvalidArgument unless p is an odd prime.
std::uint64_t find_generator(std::uint64_t p);

/// A primitive 2^m-th root of unity mod p: generator^((p-1)/2^m), which has
/// order exactly 2^m when `generator` is a primitive root. Throws
/// mpgpu::InvalidArgument unless 0 <= m <= two_adicity(p).
std::uint64_t root_of_unity(std::uint64_t p, std::uint64_t generator, int m);

}  // namespace mpgpu::field
