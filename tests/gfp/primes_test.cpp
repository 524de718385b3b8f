// The gfp prime table and Algorithm 1's roots, against GMP: each p = r^k + 1
// is a probable prime (mpz_probab_prime_p with 25 rounds: Baillie-PSW plus
// Miller-Rabin, probabilistic, not a proof), the table matches seed 003's
// formulas, r has order exactly 2k, and root_of_unity(N) is a primitive N-th
// root with omega^(N/2k) = r.
#include <gmp.h>
#include <gtest/gtest.h>

#include "gfp_oracle.hpp"
#include "mpgpu/error.hpp"

namespace {

using namespace gfp_test;

Mpz formula(int w, int u, int sign, int k) {
  Mpz r = Mpz::pow2(w);
  if (sign > 0)
    mpz_add(r, r, Mpz::pow2(u));
  else
    mpz_sub(r, r, Mpz::pow2(u));
  mpz_pow_ui(r, r, k);
  mpz_add_ui(r, r, 1);
  return r;
}

TEST(GfpPrimes, TableMatchesSeedFormulas) {
  Mpz p;
  gfp::modulus(p, gfp::p3);
  EXPECT_EQ(p, formula(63, 34, +1, 8));
  gfp::modulus(p, gfp::p4);
  EXPECT_EQ(p, formula(62, 36, +1, 16));
  gfp::modulus(p, gfp::p5);
  EXPECT_EQ(p, formula(62, 56, +1, 32));
  EXPECT_EQ(gfp::p5.radix(), 4683743612465315840ull);
  EXPECT_EQ(gfp::p3.radix(), (1ull << 63) + (1ull << 34));
}

TEST(GfpPrimes, EveryEntryIsAProbablePrime) {
  for (const gfp::GfpPrime& q : gfp::gfp_primes) {
    Mpz p;
    gfp::modulus(p, q);
    EXPECT_NE(mpz_probab_prime_p(p, 25), 0) << "k = " << q.k;
    EXPECT_EQ(p.bits(), static_cast<std::uint64_t>(q.w) * q.k + 1) << "r^k has w*k + 1 bits";
    Mpz pm1;
    mpz_sub_ui(pm1, p, 1);
    EXPECT_EQ(static_cast<int>(mpz_scan1(pm1, 0)), q.two_adicity());
  }
}

TEST(GfpPrimes, RadixHasOrderTwoK) {
  for (const gfp::GfpPrime& q : gfp::gfp_primes) {
    Mpz p, t, r = Mpz::from_ui(q.radix());
    gfp::modulus(p, q);
    mpz_powm_ui(t, r, q.k, p);
    mpz_add_ui(t, t, 1);
    EXPECT_EQ(t, p) << "r^k = -1";  // so r has order exactly 2k (k a power of 2)
  }
}

TEST(GfpRoots, RootOfUnityHasOrderNAndPowerR) {
  for (const gfp::GfpPrime& q : gfp::gfp_primes) {
    const unsigned long big_k = q.base_dft_size();
    Mpz p, w, t, one = Mpz::from_ui(1), minus_one, r = Mpz::from_ui(q.radix());
    gfp::modulus(p, q);
    mpz_sub_ui(minus_one, p, 1);
    for (unsigned long n = big_k; n <= big_k * big_k * big_k; n *= big_k) {
      gfp::root_of_unity(w, q, n);
      mpz_powm_ui(t, w, n, p);
      EXPECT_EQ(t, one) << "k=" << q.k << " N=" << n;
      mpz_powm_ui(t, w, n / 2, p);  // N a power of 2: order exactly N
      EXPECT_EQ(t, minus_one) << "k=" << q.k << " N=" << n;
      mpz_powm_ui(t, w, n / big_k, p);
      EXPECT_EQ(t, r) << "k=" << q.k << " N=" << n;
    }
  }
}

TEST(GfpRoots, RejectsBadSizes) {
  Mpz w;
  EXPECT_THROW(gfp::root_of_unity(w, gfp::p3, 8), mpgpu::InvalidArgument);    // < K
  EXPECT_THROW(gfp::root_of_unity(w, gfp::p3, 48), mpgpu::InvalidArgument);   // not 2^s
  EXPECT_THROW(gfp::root_of_unity(w, gfp::p3, 0), mpgpu::InvalidArgument);
  // r = 2^8 + 2, k = 2: p - 1 = r^2 has only 2^2 | p - 1, so N = 8 cannot exist.
  EXPECT_THROW(gfp::root_of_unity(w, gfp::GfpPrime{8, 1, +1, 2}, 8), mpgpu::InvalidArgument);
}

}  // namespace
