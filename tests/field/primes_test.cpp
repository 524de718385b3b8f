// The NTT prime table and the root search, against GMP: every prime is prime
// (and is_prime agrees with GMP on small, random and pseudoprime inputs),
// p - 1 == k * 2^n exactly, every generator is a primitive root, every
// root_of_unity(p, g, m) has order exactly 2^m, and seed 000's stated
// "generators" are primitive 2^n-th roots of unity.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/roots.hpp"
#include "support/mpz.hpp"
#include "support/operands.hpp"

namespace {

namespace field = mpgpu::field;
using mpgpu_test::Mpz;

std::vector<field::NttPrime> all_primes() {
  std::vector<field::NttPrime> v;
  field::for_each_ntt_prime([&](const field::NttPrime& q) { v.push_back(q); });
  return v;
}

Mpz from_u64(std::uint64_t x) { return Mpz::from_ui(x); }  // unsigned long is 64 bits here

/// g^e mod p by GMP.
std::uint64_t powm(std::uint64_t g, const Mpz& e, std::uint64_t p) {
  Mpz r;
  mpz_powm(r, from_u64(g), e, from_u64(p));
  return mpz_get_ui(r);
}

/// The distinct prime factors of x, from GMP (trial division by primes found
/// with mpz_nextprime, then a GMP-prime cofactor): an oracle independent of
/// field::prime_factors.
std::vector<std::uint64_t> gmp_prime_factors(std::uint64_t x) {
  std::vector<std::uint64_t> out;
  Mpz rest = from_u64(x), d = from_u64(2);
  while (mpz_cmp_ui(rest.get(), 1) > 0) {
    if (mpz_probab_prime_p(rest, 50)) {
      out.push_back(mpz_get_ui(rest));
      break;
    }
    if (mpz_divisible_p(rest, d)) {
      out.push_back(mpz_get_ui(d));
      while (mpz_divisible_p(rest, d)) mpz_divexact(rest, rest, d);
    }
    mpz_nextprime(d, d);
  }
  return out;
}

TEST(NttPrimes, EveryEntryIsPrimeWithStatedShape) {
  const auto primes = all_primes();
  ASSERT_GE(std::size(field::ntt_primes31) + std::size(field::ntt_primes32), 3u);
  for (const field::NttPrime& q : primes) {
    SCOPED_TRACE(q.p);
    EXPECT_NE(mpz_probab_prime_p(from_u64(q.p), 50), 0);
    EXPECT_EQ(q.k % 2, 1u);
    Mpz want = from_u64(q.k);
    mpz_mul_2exp(want, want, q.n);
    mpz_add_ui(want, want, 1);
    EXPECT_EQ(from_u64(q.p), want) << "p != k * 2^n + 1";
    EXPECT_EQ(field::two_adicity(q.p), q.n);
  }
}

TEST(NttPrimes, WordClassesAndRequiredEntries) {
  for (const auto& q : field::ntt_primes31) EXPECT_LT(q.p, 1ull << 31);
  for (const auto& q : field::ntt_primes32) {
    EXPECT_GT(q.p, 1ull << 31);
    EXPECT_LT(q.p, 1ull << 32);
  }
  for (const auto& q : field::ntt_primes62) {
    EXPECT_GT(q.p, 1ull << 61);
    EXPECT_LT(q.p, 1ull << 62);
    EXPECT_GE(q.n, 40);
  }
  EXPECT_EQ(field::goldilocks.p, 0xffffffff00000001ull);
  for (std::uint64_t p : {3221225473ull, 2013265921ull, 469762049ull, 754974721ull,
                          4179340454199820289ull, 0xffffffff00000001ull})
    EXPECT_NE(field::find_ntt_prime(p), nullptr) << p;
  EXPECT_EQ(field::find_ntt_prime(97), nullptr);
  EXPECT_EQ(field::find_ntt_prime(3221225473)->n, 30);
  EXPECT_EQ(field::find_ntt_prime(4179340454199820289ull)->n, 57);
}

// The product of the first three 62-bit primes bounds every coefficient of a
// convolution of 64-bit inputs of length <= 2^57 (see primes.hpp).
TEST(NttPrimes, CrtSetBound) {
  Mpz product = from_u64(1), bound = Mpz::all_ones(64);
  for (int i = 0; i < 3; ++i) mpz_mul_ui(product, product, field::ntt_primes62[i].p);
  mpz_mul(bound, bound, bound);
  mpz_mul_2exp(bound, bound, 57);
  EXPECT_GT(mpz_cmp(product, bound), 0);
  EXPECT_GT(mpz_cmp(product, Mpz::pow2(185)), 0);
}

TEST(NttPrimes, GeneratorsArePrimitiveRoots) {
  for (const field::NttPrime& q : all_primes()) {
    SCOPED_TRACE(q.p);
    const auto factors = gmp_prime_factors(q.p - 1);
    for (std::uint64_t f : factors) {
      Mpz e = from_u64((q.p - 1) / f);
      EXPECT_NE(powm(q.generator, e, q.p), 1u) << "g^((p-1)/" << f << ") == 1";
    }
    EXPECT_EQ(powm(q.generator, from_u64(q.p - 1), q.p), 1u);
    // The table holds the smallest one, which the search must find.
    EXPECT_EQ(field::find_generator(q.p), q.generator);
  }
}

TEST(NttPrimes, LargestTransformRootsHaveOrderTwoToTheN) {
  for (const field::LargestTransformRoot& s : field::largest_transform_roots) {
    SCOPED_TRACE(s.p);
    const field::NttPrime* q = field::find_ntt_prime(s.p);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(powm(s.root, Mpz::pow2(q->n), s.p), 1u);
    EXPECT_EQ(powm(s.root, Mpz::pow2(q->n - 1), s.p), s.p - 1);
    // ...and so not a primitive root: its order misses the factor k.
    EXPECT_NE(s.root, q->generator);
  }
}

TEST(NttPrimes, PrimeFactorsMatchGmp) {
  for (const field::NttPrime& q : all_primes())
    EXPECT_EQ(field::prime_factors(q.p - 1), gmp_prime_factors(q.p - 1)) << q.p;
  for (std::uint64_t x : {1ull, 2ull, 3ull, 4ull, 97ull, 96ull, 65536ull, 4294967295ull,
                          2147483647ull /* prime */, 1000003ull * 999983ull /* two primes */,
                          0xffffffff00000000ull /* Goldilocks - 1 */})
    EXPECT_EQ(field::prime_factors(x), gmp_prime_factors(x)) << x;
  EXPECT_THROW(field::prime_factors(0), mpgpu::InvalidArgument);
}

TEST(NttPrimes, RootsOfUnityHaveExactOrder) {
  for (const field::NttPrime& q : all_primes()) {
    SCOPED_TRACE(q.p);
    for (int m = 0; m <= q.n; ++m) {
      const std::uint64_t w = field::root_of_unity(q.p, q.generator, m);
      ASSERT_LT(w, q.p);
      ASSERT_EQ(powm(w, Mpz::pow2(m), q.p), 1u) << "m=" << m;
      if (m > 0) {  // w^(2^(m-1)) == -1: the order is not a smaller power of two
        ASSERT_EQ(powm(w, Mpz::pow2(m - 1), q.p), q.p - 1) << "m=" << m;
      } else {
        ASSERT_EQ(w, 1u);
      }
    }
    EXPECT_THROW(field::root_of_unity(q.p, q.generator, q.n + 1), mpgpu::InvalidArgument);
    EXPECT_THROW(field::root_of_unity(q.p, q.generator, -1), mpgpu::InvalidArgument);
  }
}

TEST(NttPrimes, IsPrimeMatchesGmp) {
  auto gmp_prime = [](std::uint64_t x) { return mpz_probab_prime_p(from_u64(x), 50) != 0; };
  for (std::uint64_t x = 0; x < 20000; ++x) ASSERT_EQ(field::is_prime(x), gmp_prime(x)) << x;
  // Strong pseudoprimes to small bases (3825123056546413051 fools bases 2..23),
  // Carmichael numbers, squares, products of two large primes, extremes.
  for (std::uint64_t x : {2047ull, 1373653ull, 3215031751ull, 3825123056546413051ull, 561ull,
                          41041ull, 4294967291ull * 4294967291ull, 4294967291ull * 4294967279ull,
                          0xffffffffffffffc5ull, 0xffffffffffffffffull, 0xfffffffffffffffeull})
    EXPECT_EQ(field::is_prime(x), gmp_prime(x)) << x;
  for (const field::NttPrime& q : all_primes()) EXPECT_TRUE(field::is_prime(q.p)) << q.p;
  mpgpu_test::Operands gen(17);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t x = gen.limb() | 1;
    ASSERT_EQ(field::is_prime(x), gmp_prime(x)) << x;
  }
}

TEST(NttPrimes, SearchWorksOffTheTable) {
  // 97 = 3 * 2^5 + 1, smallest primitive root 5; 7681 = 15 * 2^9 + 1, root 17.
  EXPECT_EQ(field::find_generator(97), 5u);
  EXPECT_EQ(field::find_generator(7681), 17u);
  EXPECT_EQ(field::find_generator(3), 2u);
  EXPECT_EQ(field::two_adicity(97), 5);
  const std::uint64_t w = field::root_of_unity(97, 5, 5);
  EXPECT_EQ(powm(w, from_u64(16), 97), 96u);
  EXPECT_THROW(field::find_generator(2), mpgpu::InvalidArgument);
  EXPECT_THROW(field::find_generator(100), mpgpu::InvalidArgument);
  EXPECT_THROW(field::find_generator(65), mpgpu::InvalidArgument);  // 5 * 13
  EXPECT_THROW(field::two_adicity(1), mpgpu::InvalidArgument);
}

}  // namespace
