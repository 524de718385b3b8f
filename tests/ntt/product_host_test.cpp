// The host twin of the device product pipeline (three-prime NTT, Garner CRT,
// column sums; and digits of 2 and 4 limbs with 5 and 9 primes) against
// GMP's mpn_mul: random, all-ones (the CRT bound: every coefficient at its
// maximum t (2^(64 D) - 1)^2), sparse, unbalanced, lengths at powers of two
// and lengths that are not multiples of the digit size. Also CrtMany alone:
// values up to the bound back from their residues.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt/crt_many.cuh"
#include "mpgpu/ntt/product_host.hpp"

namespace {

using mpgpu::limb_t;

std::vector<limb_t> gmp_product(const std::vector<limb_t>& a, const std::vector<limb_t>& b) {
  std::vector<limb_t> r(a.size() + b.size());
  const bool a_longer = a.size() >= b.size();
  const auto& x = a_longer ? a : b;
  const auto& y = a_longer ? b : a;
  mpn_mul(reinterpret_cast<mp_ptr>(r.data()), reinterpret_cast<const mp_limb_t*>(x.data()),
          static_cast<mp_size_t>(x.size()), reinterpret_cast<const mp_limb_t*>(y.data()),
          static_cast<mp_size_t>(y.size()));
  return r;
}

void expect_product(const std::vector<limb_t>& a, const std::vector<limb_t>& b, int digit_limbs = 1) {
  const auto got = mpgpu::ntt::multiply_host(a.data(), a.size(), b.data(), b.size(), digit_limbs);
  ASSERT_EQ(got, gmp_product(a, b)) << a.size() << " x " << b.size() << " limbs, digits of " << digit_limbs;
}

std::vector<limb_t> random_limbs(std::mt19937_64& rng, std::size_t n) {
  std::vector<limb_t> v(n);
  for (auto& x : v) x = rng();
  if (n) v.back() |= 1;  // nonzero top limb (mpn_mul wants no zero top for clarity)
  return v;
}

TEST(ProductHost, RandomSizesIncludingPowersOfTwo) {
  std::mt19937_64 rng(20261122);
  for (std::size_t n : {1u, 2u, 3u, 7u, 8u, 64u, 255u, 256u, 257u, 1024u, 3000u})
    for (std::size_t m : {1u, 5u, 256u, 1023u}) expect_product(random_limbs(rng, n), random_limbs(rng, m));
}

TEST(ProductHost, AllOnesAtTheCrtBound) {
  for (std::size_t n : {1u, 2u, 100u, 1024u, 4096u, 16384u}) {
    std::vector<limb_t> ones(n, ~limb_t{0});
    expect_product(ones, ones);
  }
}

TEST(ProductHost, SparseAndUnbalanced) {
  std::mt19937_64 rng(7);
  std::vector<limb_t> sparse(5000, 0);
  sparse[0] = 1;
  sparse[2500] = limb_t{1} << 63;
  sparse[4999] = 3;
  expect_product(sparse, sparse);
  expect_product(random_limbs(rng, 1), random_limbs(rng, 20000));
  expect_product(std::vector<limb_t>(3, ~limb_t{0}), std::vector<limb_t>(9000, ~limb_t{0}));
}

TEST(ProductHost, DigitsOfTwoAndFourLimbs) {
  std::mt19937_64 rng(20261123);
  for (int d : {2, 4}) {
    for (std::size_t n : {1u, 2u, 3u, 5u, 8u, 255u, 256u, 1023u, 3001u})
      for (std::size_t m : {1u, 4u, 7u, 1024u}) expect_product(random_limbs(rng, n), random_limbs(rng, m), d);
    for (std::size_t n : {1u, 3u, 4u, 1000u, 4096u, 16383u}) {  // every coefficient at the bound
      std::vector<limb_t> ones(n, ~limb_t{0});
      expect_product(ones, ones, d);
    }
    std::vector<limb_t> sparse(5001, 0);
    sparse[0] = 1;
    sparse[2501] = limb_t{1} << 63;
    sparse[5000] = 3;
    expect_product(sparse, sparse, d);
    expect_product(random_limbs(rng, 1), random_limbs(rng, 20001), d);
    if (HasFatalFailure()) return;
  }
  EXPECT_THROW(mpgpu::ntt::multiply_host(nullptr, 1, nullptr, 1, 3), mpgpu::InvalidArgument);
}

// The primes digits_primes picks for D-limb digits bound every coefficient.
TEST(ProductHost, DigitPrimesCoverTheBound) {
  EXPECT_EQ(mpgpu::ntt::digits_primes(1, 1), 3);
  EXPECT_EQ(mpgpu::ntt::digits_primes(2, std::uint64_t{1} << 30), 5);
  EXPECT_EQ(mpgpu::ntt::digits_primes(4, std::uint64_t{1} << 30), 9);
  for (int d : {1, 2, 4})
    for (int log_t : {0, 10, 30}) {
      const int primes = mpgpu::ntt::digits_primes(d, std::uint64_t{1} << log_t);
      ASSERT_GT(primes, 0);
      mpz_t product, bound;
      mpz_init_set_ui(product, 1);
      for (int i = 0; i < primes; ++i) mpz_mul_ui(product, product, mpgpu::field::ntt_primes62[i].p);
      mpz_init(bound);  // t (2^(64 d) - 1)^2
      mpz_ui_pow_ui(bound, 2, 64 * d);
      mpz_sub_ui(bound, bound, 1);
      mpz_mul(bound, bound, bound);
      mpz_mul_2exp(bound, bound, log_t);
      EXPECT_GT(mpz_cmp(product, bound), 0) << d << " limbs, 2^" << log_t << " terms";
      mpz_clears(product, bound, nullptr);
    }
}

/// c back from its residues mod the first kP primes (c < 2^(61 kP) <= their
/// product, as kL = kP limbs).
template <int kP>
void expect_crt_round_trip(std::vector<limb_t> c) {
  const auto crt = mpgpu::ntt::CrtMany<kP>::make();
  c.back() &= (limb_t{1} << (61 * kP - 64 * (kP - 1))) - 1;
  std::uint64_t r[kP], got[kP];
  for (int i = 0; i < kP; ++i)
    r[i] = mpn_mod_1(reinterpret_cast<const mp_limb_t*>(c.data()), kP, mpgpu::field::ntt_primes62[i].p);
  crt.template combine<kP>(r, got);
  ASSERT_EQ(std::vector<limb_t>(got, got + kP), c);
}

TEST(ProductHost, CrtManyRoundTrips) {
  std::mt19937_64 rng(5);
  for (int rep = 0; rep < 200; ++rep) {
    std::vector<limb_t> c5(5), c9(9);
    for (auto& x : c5) x = rep % 4 == 1 ? ~limb_t{0} : rep % 4 == 2 ? 0 : rng();  // all ones, zero, random
    for (auto& x : c9) x = rep % 4 == 1 ? ~limb_t{0} : rep % 4 == 2 ? 0 : rng();
    if (rep % 4 == 3) c5[rng() % 5] = 0, c9[rng() % 9] = 0;
    expect_crt_round_trip<5>(c5);
    expect_crt_round_trip<9>(c9);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
