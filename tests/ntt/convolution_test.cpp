// Convolutions through the host NTT against schoolbook products mod p:
// acyclic products of balanced, unbalanced and length-1 operands, random and
// maximal (all p - 1) coefficients; cyclic convolutions with aliasing; and
// the argument errors (unreduced coefficients leave the output untouched,
// products longer than the largest transform mod p).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt/convolution_host.hpp"
#include "ntt/naive.hpp"
#include "support/operands.hpp"

namespace {

namespace field = mpgpu::field;
namespace ntt = mpgpu::ntt;
using mpgpu_test::Operands;
using mpgpu_test::schoolbook;
using mpgpu_test::schoolbook_cyclic;

template <class Field>
std::vector<std::uint64_t> test_primes() {
  if constexpr (Field::word_bits == 32) return {3221225473, 2013265921, 469762049};
  else return {4179340454199820289ull, field::goldilocks.p, 4512606826625236993ull, 998244353};
}

template <class Word>
std::vector<Word> coefficients(std::size_t n, std::uint64_t p, Operands& gen, bool maximal) {
  std::vector<Word> x(n, static_cast<Word>(p - 1));
  if (!maximal)
    for (auto& v : x) v = static_cast<Word>(gen.below(p));
  return x;
}

template <class Field>
class ConvolutionTest : public ::testing::Test {};
using Fields = ::testing::Types<field::PrimeField32, field::PrimeField64>;
TYPED_TEST_SUITE(ConvolutionTest, Fields);

TYPED_TEST(ConvolutionTest, AcyclicMatchesSchoolbook) {
  using word = typename TypeParam::word;
  const std::pair<std::size_t, std::size_t> sizes[] = {
      {1, 1}, {1, 7}, {7, 1}, {2, 3}, {17, 5}, {64, 65}, {100, 100}, {1000, 3}, {513, 512}};
  for (std::uint64_t p : test_primes<TypeParam>()) {
    Operands gen(p % 1000003);
    for (auto [na, nb] : sizes)
      for (bool maximal : {false, true}) {
        SCOPED_TRACE(testing::Message() << "p=" << p << " " << na << "x" << nb
                                        << (maximal ? " all p-1" : " random"));
        const auto a = coefficients<word>(na, p, gen, maximal);
        const auto b = coefficients<word>(nb, p, gen, maximal);
        const std::vector<word> got =
            ntt::convolve_acyclic<TypeParam>(p, std::span<const word>(a), std::span<const word>(b));
        ASSERT_EQ(got, schoolbook(a, b, p));
      }
  }
}

TYPED_TEST(ConvolutionTest, SquareEqualsSelfProduct) {
  using word = typename TypeParam::word;
  const std::uint64_t p = test_primes<TypeParam>()[0];
  Operands gen(3);
  const auto a = coefficients<word>(300, p, gen, false);
  const std::span<const word> s(a);
  EXPECT_EQ(ntt::convolve_acyclic<TypeParam>(p, s, s), schoolbook(a, a, p));
}

TYPED_TEST(ConvolutionTest, CyclicMatchesSchoolbook) {
  using word = typename TypeParam::word;
  for (std::uint64_t p : test_primes<TypeParam>()) {
    Operands gen(p % 999983);
    for (int log_n : {0, 1, 4, 9}) {
      for (bool maximal : {false, true}) {
        SCOPED_TRACE(testing::Message() << "p=" << p << " n=2^" << log_n);
        const auto plan = ntt::host_plan<TypeParam>(p, log_n);
        const auto a = coefficients<word>(plan->size(), p, gen, maximal);
        const auto b = coefficients<word>(plan->size(), p, gen, false);
        const auto want = schoolbook_cyclic(a, b, p);
        std::vector<word> r(plan->size());
        ntt::convolve_cyclic(*plan, r.data(), a.data(), b.data());
        ASSERT_EQ(r, want);
        std::vector<word> in_place = a;  // r aliases a
        ntt::convolve_cyclic(*plan, in_place.data(), in_place.data(), b.data());
        ASSERT_EQ(in_place, want);
      }
    }
  }
}

TYPED_TEST(ConvolutionTest, EmptyOperands) {
  using word = typename TypeParam::word;
  const std::vector<word> a = {1, 2, 3}, none;
  const std::uint64_t p = test_primes<TypeParam>()[0];
  EXPECT_TRUE(ntt::convolve_acyclic<TypeParam>(p, std::span<const word>(a), std::span<const word>(none)).empty());
  EXPECT_TRUE(ntt::convolve_acyclic<TypeParam>(p, std::span<const word>(none), std::span<const word>(a)).empty());
}

TYPED_TEST(ConvolutionTest, RejectsBadArguments) {
  using word = typename TypeParam::word;
  const std::uint64_t p = test_primes<TypeParam>()[0];
  const std::vector<word> ok = {1, 2, 3, 4}, bad = {1, static_cast<word>(p), 3, 4};
  EXPECT_THROW(ntt::convolve_acyclic<TypeParam>(p, std::span<const word>(ok), std::span<const word>(bad)),
               mpgpu::InvalidArgument);
  const auto plan = ntt::host_plan<TypeParam>(p, 2);
  std::vector<word> r = {9, 9, 9, 9};
  EXPECT_THROW(ntt::convolve_cyclic(*plan, r.data(), bad.data(), ok.data()), mpgpu::InvalidArgument);
  EXPECT_EQ(r, (std::vector<word>{9, 9, 9, 9}));  // untouched
  // 7 = 3 * 2 + 1 allows transforms of length 2 only: a product of 3 does not fit.
  const std::vector<word> two = {1, 2};
  EXPECT_THROW(ntt::convolve_acyclic<TypeParam>(7, std::span<const word>(two), std::span<const word>(two)),
               mpgpu::InvalidArgument);
  const std::vector<word> one = {5};
  EXPECT_EQ(ntt::convolve_acyclic<TypeParam>(7, std::span<const word>(two), std::span<const word>(one)),
            (std::vector<word>{5, 3}));
}

}  // namespace
