// The host twin of the device product pipeline (three-prime NTT, Garner CRT,
// column sums) against GMP's mpn_mul: random, all-ones (the CRT bound:
// every coefficient at its maximum n * (2^64 - 1)^2), sparse, unbalanced,
// and lengths at powers of two.
#include <gmp.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

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

void expect_product(const std::vector<limb_t>& a, const std::vector<limb_t>& b) {
  const auto got = mpgpu::ntt::multiply_host(a.data(), a.size(), b.data(), b.size());
  ASSERT_EQ(got, gmp_product(a, b)) << a.size() << " x " << b.size() << " limbs";
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

}  // namespace
