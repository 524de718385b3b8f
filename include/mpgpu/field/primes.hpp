// NTT-friendly primes p = k * 2^n + 1 (k odd): the multiplicative group has
// an element of order 2^m for every m <= n, so transforms of every length
// 2^m <= 2^n exist mod p. Each entry is checked in tests/field/primes_test.cpp:
// p prime (GMP, 50 rounds), p - 1 == k * 2^n, and `generator` a primitive
// root (g^((p-1)/q) != 1 for every prime q | p - 1).
//
// Oancea & Watt's midsize-integer paper lists 3221225473 with "g = 13" and
// 4179340454199820289 with "g = 21". Those are not primitive roots: 13 has
// order exactly 2^30 and 21 order exactly 2^57, i.e. they are primitive
// 2^n-th roots of unity (the largest transform each prime supports). The
// table holds the smallest true primitive roots (5 and 3); the paper's values
// are kept as `largest_transform_roots` and checked to have order 2^n.
#pragma once

#include <cstdint>

namespace mpgpu::field {

struct NttPrime {
  std::uint64_t p;
  std::uint64_t k;          ///< odd; p - 1 = k * 2^n
  int n;                    ///< 2-adic valuation of p - 1: transforms up to 2^n
  std::uint64_t generator;  ///< smallest primitive root mod p
};

/// p < 2^31: values below 2p still fit in 32 bits (room for lazy reduction).
inline constexpr NttPrime ntt_primes31[] = {
    {2013265921, 15, 27, 31},   // 15 * 2^27 + 1
    {469762049, 7, 26, 3},      //  7 * 2^26 + 1
    {754974721, 45, 24, 11},    // 45 * 2^24 + 1
    {998244353, 119, 23, 3},    // 119 * 2^23 + 1
    {167772161, 5, 25, 3},      //  5 * 2^25 + 1
    {2113929217, 63, 25, 5},    // 63 * 2^25 + 1
    {1811939329, 27, 26, 13},   // 27 * 2^26 + 1
    {2130706433, 127, 24, 3},   // 127 * 2^24 + 1
};

/// 2^31 < p < 2^32: full 32-bit words, strict reduction only.
inline constexpr NttPrime ntt_primes32[] = {
    {3221225473, 3, 30, 5},     // 3 * 2^30 + 1 (Oancea & Watt's PrimeField32)
    {2281701377, 17, 27, 3},    // 17 * 2^27 + 1
    {3489660929, 13, 28, 3},    // 13 * 2^28 + 1
};

/// 2^61 < p < 2^62: values below 4p still fit in 64 bits. The first three
/// are a CRT set: their product exceeds 2^185 > 2^57 * (2^64 - 1)^2, so a
/// convolution of 64-bit coefficients of any supported length (<= 2^53) is
/// recovered exactly from its residues. The products with digits of D > 1
/// limbs (ntt/crt_many.cuh) take the first 5 (D = 2) or 9 (D = 4); the last
/// three were found for them (the largest k * 2^m + 1 below 2^62 with m =
/// 52, 51, 50), so every prime here has 2^50 dividing p - 1.
inline constexpr NttPrime ntt_primes62[] = {
    {4179340454199820289ull, 29, 57, 3},   //  29 * 2^57 + 1 (Oancea & Watt's PrimeField64)
    {4512606826625236993ull, 501, 53, 7},  // 501 * 2^53 + 1
    {4242390848983007233ull, 471, 53, 11}, // 471 * 2^53 + 1
    {2485986994308513793ull, 69, 55, 5},   //  69 * 2^55 + 1
    {2936346957045563393ull, 163, 54, 3},  // 163 * 2^54 + 1
    {3188548536178311169ull, 177, 54, 7},  // 177 * 2^54 + 1
    {4472074429978902529ull, 993, 52, 7},  // 993 * 2^52 + 1
    {4546383823830515713ull, 2019, 51, 10},  // 2019 * 2^51 + 1
    {4601552919265804289ull, 4087, 50, 3},   // 4087 * 2^50 + 1
};

/// Goldilocks, 2^64 - 2^32 + 1 = (2^32 - 1) * 2^32 + 1 > 2^63: sums of two
/// residues overflow 64 bits, so its add/sub use the carry (PrimeField64 does).
inline constexpr NttPrime goldilocks = {18446744069414584321ull, 4294967295ull, 32, 7};

/// A primitive 2^n-th root of unity mod p: the root of the largest transform
/// p supports. These are Oancea & Watt's stated "generators", which are not
/// primitive roots (see the top of this file).
struct LargestTransformRoot {
  std::uint64_t p;
  std::uint64_t root;  ///< order exactly 2^n mod p
};
inline constexpr LargestTransformRoot largest_transform_roots[] = {{3221225473, 13}, {4179340454199820289ull, 21}};

/// Calls f(prime) for every prime of the table, smallest words first.
template <class F>
constexpr void for_each_ntt_prime(F&& f) {
  for (const NttPrime& q : ntt_primes31) f(q);
  for (const NttPrime& q : ntt_primes32) f(q);
  for (const NttPrime& q : ntt_primes62) f(q);
  f(goldilocks);
}

/// The table entry for p, or nullptr when p is not in the table.
constexpr const NttPrime* find_ntt_prime(std::uint64_t p) {
  for (const NttPrime& q : ntt_primes31)
    if (q.p == p) return &q;
  for (const NttPrime& q : ntt_primes32)
    if (q.p == p) return &q;
  for (const NttPrime& q : ntt_primes62)
    if (q.p == p) return &q;
  if (goldilocks.p == p) return &goldilocks;
  return nullptr;
}

}  // namespace mpgpu::field
