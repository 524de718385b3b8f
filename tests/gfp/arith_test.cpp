// gfp::Field arithmetic (host branches of the MPGPU_HD code) against GMP for
// P3 (k = 8), P4 (k = 16) and the k = 32 prime: add, sub, neg, mul, pow,
// x * r^i for every i in [0, 2k) (and beyond), conversions and the GMP
// inverse, on every pair of edge elements (0, 1, r-1, r^i, p-2 = all digits
// r-1, p-1 = the special case, (p-1)/2, (p+1)/2), on digit vectors built
// from 0, 1, r-2, r-1, and on uniform residues. Every result must also be
// canonical (digits < r, or exactly the special case).
#include <gmp.h>
#include <gtest/gtest.h>

#include <vector>

#include "gfp_oracle.hpp"
#include "mpgpu/error.hpp"

namespace {

using namespace gfp_test;

template <class P>
class GfpArith : public ::testing::Test {};
using Primes = ::testing::Types<P3, P4, P5>;
TYPED_TEST_SUITE(GfpArith, Primes);

/// Edge elements, then `extra` edgy and `extra` uniform ones.
template <class C>
std::vector<typename C::Elt> operands(const C& c, Operands& ops, int extra) {
  auto v = c.edge_elements();
  for (int i = 0; i < extra; ++i) v.push_back(c.edgy(ops));
  for (int i = 0; i < extra; ++i) v.push_back(c.random(ops));
  return v;
}

TYPED_TEST(GfpArith, ConversionRoundTrip) {
  Ctx<TypeParam> c;
  Operands ops(1);
  for (const auto& x : operands(c, ops, 200)) {
    ASSERT_TRUE(c.f.is_canonical(x));
    EXPECT_EQ(c.element(c.value(x)), x);
  }
  // Reduction of values outside [0, p), negative ones included.
  for (int i = 0; i < 200; ++i) {
    Mpz v = ops.random_bits(1 + ops.below(64 * c.k * 2 + 64));
    if (ops.coin()) v = -v;
    EXPECT_EQ(c.value(c.element(v)), c.mod(v));
  }
  Mpz pm1;
  mpz_sub_ui(pm1, c.p, 1);
  EXPECT_EQ(c.element(pm1), c.f.minus_one());
  EXPECT_EQ(c.element(c.p), c.f.zero());
  EXPECT_EQ(c.element(Mpz::from_si(-1)), c.f.minus_one());
}

TYPED_TEST(GfpArith, AddSubNegMulAgainstGmp) {
  Ctx<TypeParam> c;
  Operands ops(2);
  const auto xs = operands(c, ops, 40);  // all pairs: edge x edge included
  for (const auto& x : xs) {
    const Mpz vx = c.value(x);
    const auto n = c.f.neg(x);
    ASSERT_TRUE(c.f.is_canonical(n));
    EXPECT_EQ(c.value(n), c.mod(-vx)) << vx;
    for (const auto& y : xs) {
      const Mpz vy = c.value(y);
      Mpz e;
      const auto s = c.f.add(x, y);
      mpz_add(e, vx, vy);
      ASSERT_TRUE(c.f.is_canonical(s));
      ASSERT_EQ(c.value(s), c.mod(e)) << vx << " + " << vy;
      const auto d = c.f.sub(x, y);
      mpz_sub(e, vx, vy);
      ASSERT_TRUE(c.f.is_canonical(d));
      ASSERT_EQ(c.value(d), c.mod(e)) << vx << " - " << vy;
      const auto m = c.f.mul(x, y);
      mpz_mul(e, vx, vy);
      ASSERT_TRUE(c.f.is_canonical(m));
      ASSERT_EQ(c.value(m), c.mod(e)) << vx << " * " << vy;
    }
  }
}

TYPED_TEST(GfpArith, MulPowRForEveryShift) {
  Ctx<TypeParam> c;
  Operands ops(3);
  const Mpz r = Mpz::from_ui(c.f.r);
  for (const auto& x : operands(c, ops, 10)) {
    const Mpz vx = c.value(x);
    for (long long i = -2 * c.k; i < 4 * c.k; ++i) {  // [0, 2k) plus wrap-around
      const long long e = ((i % (2 * c.k)) + 2 * c.k) % (2 * c.k);
      Mpz t;
      mpz_powm_ui(t, r, static_cast<unsigned long>(e), c.p);
      mpz_mul(t, t, vx);
      const auto z = c.f.mul_pow_r(x, i);
      ASSERT_TRUE(c.f.is_canonical(z));
      ASSERT_EQ(c.value(z), c.mod(t)) << vx << " * r^" << i;
    }
  }
}

TYPED_TEST(GfpArith, PowAndInverse) {
  Ctx<TypeParam> c;
  Operands ops(4);
  for (const auto& x : operands(c, ops, 8)) {
    const unsigned long long e = ops.limb();
    Mpz t;
    mpz_powm(t, c.value(x), Mpz::from_ui(e), c.p);
    EXPECT_EQ(c.value(c.f.pow(x, e)), t);
    if (c.f.is_zero(x)) {
      EXPECT_THROW(gfp::inverse(c.f, x), mpgpu::DivisionByZero);
      continue;
    }
    const auto inv = gfp::inverse(c.f, x);
    EXPECT_EQ(c.f.mul(x, inv), c.f.one());
  }
}

TEST(GfpArithField, MakeFieldChecksDigits) {
  EXPECT_THROW(gfp::make_field<8>(gfp::p4), mpgpu::InvalidArgument);
  EXPECT_EQ(gfp::make_field<16>(gfp::p4).r, gfp::p4.radix());
}

}  // namespace
