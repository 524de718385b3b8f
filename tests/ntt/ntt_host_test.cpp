// The host NTT against its definition: forward and inverse equal the naive
// O(n^2) DFT for every table prime and n <= 256; inverse(forward(x)) == x up
// to 2^20 on random and all-(p-1) inputs; known transforms (constants,
// shifted deltas) at the large sizes; batches equal one-by-one transforms;
// twiddle layout, plan cache and argument errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt/ntt_host.hpp"
#include "ntt/naive.hpp"
#include "support/operands.hpp"

namespace {

namespace field = mpgpu::field;
namespace ntt = mpgpu::ntt;
using mpgpu_test::mulmod;
using mpgpu_test::naive_dft;
using mpgpu_test::Operands;
using mpgpu_test::powmod;

template <class Field>
std::vector<field::NttPrime> primes_for() {
  std::vector<field::NttPrime> v;
  field::for_each_ntt_prime([&](const field::NttPrime& q) {
    if (q.p <= std::numeric_limits<typename Field::word>::max()) v.push_back(q);
  });
  return v;
}

/// One prime per word class: the largest transforms run on these.
template <class Field>
std::vector<std::uint64_t> large_size_primes() {
  if constexpr (Field::word_bits == 32) return {2013265921, 3221225473};
  else return {4179340454199820289ull, field::goldilocks.p, 469762049};
}

template <class Word>
std::vector<Word> random_residues(std::size_t n, std::uint64_t p, Operands& gen) {
  std::vector<Word> x(n);
  for (auto& v : x) v = static_cast<Word>(gen.below(p));
  return x;
}

template <class Field>
class NttHostTest : public ::testing::Test {};
using Fields = ::testing::Types<field::PrimeField32, field::PrimeField64>;
TYPED_TEST_SUITE(NttHostTest, Fields);

TYPED_TEST(NttHostTest, MatchesNaiveDft) {
  using word = typename TypeParam::word;
  for (const field::NttPrime& q : primes_for<TypeParam>()) {
    Operands gen(q.p % 1000003);
    for (int log_n = 0; log_n <= 8; ++log_n) {
      SCOPED_TRACE(testing::Message() << "p=" << q.p << " n=2^" << log_n);
      const ntt::HostPlan<TypeParam> plan(q.p, log_n);
      const std::size_t n = plan.size();
      // The root is g^((p-1)/n) and has order exactly n.
      ASSERT_EQ(plan.root(), powmod(q.generator, (q.p - 1) >> log_n, q.p));
      ASSERT_EQ(powmod(plan.root(), n, q.p), 1u);
      if (n > 1) {
        ASSERT_EQ(powmod(plan.root(), n / 2, q.p), q.p - 1);
      }
      for (int round = 0; round < 2; ++round) {
        std::vector<word> x = round == 0 ? random_residues<word>(n, q.p, gen)
                                         : std::vector<word>(n, static_cast<word>(q.p - 1));
        const std::vector<word> want = naive_dft(x, plan.root(), q.p);
        std::vector<word> got = x;
        plan.forward(got.data());
        ASSERT_EQ(got, want);
        // inverse is n^-1 times the DFT with w^-1.
        std::vector<word> back = naive_dft(want, powmod(plan.root(), q.p - 2, q.p), q.p);
        for (auto& v : back) v = static_cast<word>(mulmod(v, plan.size_inverse(), q.p));
        plan.inverse(got.data());
        ASSERT_EQ(got, back);
        ASSERT_EQ(got, x);
      }
    }
  }
}

TYPED_TEST(NttHostTest, RoundTripSmallSizesEveryPrime) {
  using word = typename TypeParam::word;
  for (const field::NttPrime& q : primes_for<TypeParam>()) {
    Operands gen(q.p % 999983);
    for (int log_n = 9; log_n <= 12; ++log_n) {
      SCOPED_TRACE(testing::Message() << "p=" << q.p << " n=2^" << log_n);
      const auto plan = ntt::host_plan<TypeParam>(q.p, log_n);
      const std::vector<word> x = random_residues<word>(plan->size(), q.p, gen);
      std::vector<word> y = x;
      plan->forward(y.data());
      plan->inverse(y.data());
      ASSERT_EQ(y, x);
    }
  }
}

// Up to 2^20: random inputs round-trip; the constant p - 1 transforms to
// (n*(p-1), 0, ..., 0); a delta at index 1 transforms to the powers of w.
TYPED_TEST(NttHostTest, LargeSizes) {
  using word = typename TypeParam::word;
  for (std::uint64_t p : large_size_primes<TypeParam>()) {
    Operands gen(p % 999979);
    for (int log_n = 13; log_n <= 20; ++log_n) {
      SCOPED_TRACE(testing::Message() << "p=" << p << " n=2^" << log_n);
      const ntt::HostPlan<TypeParam> plan(p, log_n);
      const std::size_t n = plan.size();
      const std::vector<word> x = random_residues<word>(n, p, gen);
      std::vector<word> y = x;
      plan.forward(y.data());
      plan.inverse(y.data());
      ASSERT_EQ(y, x);

      std::vector<word> c(n, static_cast<word>(p - 1));
      plan.forward(c.data());
      ASSERT_EQ(c[0], mulmod(n % p, p - 1, p));
      for (std::size_t k = 1; k < n; ++k) ASSERT_EQ(c[k], 0u) << "k=" << k;
      plan.inverse(c.data());
      for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(c[k], p - 1) << "k=" << k;

      std::vector<word> d(n, 0);
      d[1] = 1;
      plan.forward(d.data());
      std::uint64_t wk = 1;
      for (std::size_t k = 0; k < n; ++k, wk = mulmod(wk, plan.root(), p))
        ASSERT_EQ(d[k], wk) << "k=" << k;
    }
  }
}

TYPED_TEST(NttHostTest, BatchesEqualSingleTransforms) {
  using word = typename TypeParam::word;
  const std::uint64_t p = large_size_primes<TypeParam>()[0];
  Operands gen(5);
  const std::pair<int, int> cases[] = {{0, 3}, {1, 1000}, {3, 257}, {10, 1}, {10, 7}};
  for (auto [log_n, count] : cases) {
    SCOPED_TRACE(testing::Message() << "n=2^" << log_n << " count=" << count);
    const auto plan = ntt::host_plan<TypeParam>(p, log_n);
    const std::size_t n = plan->size();
    const std::vector<word> x = random_residues<word>(n * count, p, gen);
    std::vector<word> batch = x, single = x;
    plan->forward(batch.data(), count);
    for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i)
      plan->forward(single.data() + i * n);
    ASSERT_EQ(batch, single);
    plan->inverse(batch.data(), count);
    ASSERT_EQ(batch, x);
  }
}

TYPED_TEST(NttHostTest, TwiddleLayout) {
  for (std::uint64_t p : large_size_primes<TypeParam>()) {
    const ntt::HostPlan<TypeParam> plan(p, 10);
    const auto f = plan.field();
    const std::size_t n = plan.size();
    ASSERT_EQ(plan.twiddles().size(), n);
    ASSERT_EQ(plan.twiddles()[0], 1u);
    for (std::size_t m = 1; m < n; m *= 2)
      for (std::size_t j = 0; j < m; ++j) {
        ASSERT_EQ(plan.twiddles()[m + j], powmod(plan.root(), n / (2 * m) * j, p)) << m << " " << j;
        ASSERT_EQ(plan.twiddles_shoup()[m + j], f.shoup(plan.twiddles()[m + j]));
      }
    ASSERT_EQ(mulmod(plan.size_inverse(), n, p), 1u);
  }
}

TYPED_TEST(NttHostTest, PlanCacheSharesPlans) {
  const std::uint64_t p = large_size_primes<TypeParam>()[0];
  const auto a = ntt::host_plan<TypeParam>(p, 5);
  const auto b = ntt::host_plan<TypeParam>(p, 5);
  EXPECT_EQ(a.get(), b.get());
  EXPECT_NE(a.get(), ntt::host_plan<TypeParam>(p, 6).get());
  ntt::clear_host_plans();
  const auto c = ntt::host_plan<TypeParam>(p, 5);
  EXPECT_NE(a.get(), c.get());  // a is still alive, so c is a new object
  EXPECT_EQ(a->root(), c->root());
}

TYPED_TEST(NttHostTest, RejectsUnsupportedLengths) {
  using Plan = ntt::HostPlan<TypeParam>;
  EXPECT_THROW(Plan(998244353, 24), mpgpu::InvalidArgument);  // 2^23 || p - 1
  EXPECT_THROW(Plan(998244353, -1), mpgpu::InvalidArgument);
  EXPECT_THROW(Plan(3221225473, 29 + 2), mpgpu::InvalidArgument);
  EXPECT_THROW(Plan(3221225473, 29), mpgpu::InvalidArgument);  // beyond max_log_n = 28
  EXPECT_THROW(Plan(1000, 2), mpgpu::InvalidArgument);         // even
  EXPECT_THROW(Plan(1, 0), mpgpu::InvalidArgument);
  EXPECT_THROW(Plan(65, 2), mpgpu::InvalidArgument);           // 5 * 13, off the table
  if constexpr (TypeParam::word_bits == 32) {
    EXPECT_THROW(Plan(4179340454199820289ull, 4), mpgpu::InvalidArgument);  // does not fit
  }
  EXPECT_NO_THROW(Plan(3221225473, 0));
}

// A prime outside the table: the plan finds its generator (97 = 3 * 2^5 + 1).
TYPED_TEST(NttHostTest, PrimeOffTheTable) {
  using word = typename TypeParam::word;
  Operands gen(11);
  for (int log_n = 0; log_n <= 5; ++log_n) {
    const ntt::HostPlan<TypeParam> plan(97, log_n);
    EXPECT_EQ(plan.generator(), 5u);
    const std::vector<word> x = random_residues<word>(plan.size(), 97, gen);
    std::vector<word> y = x;
    plan.forward(y.data());
    ASSERT_EQ(y, naive_dft(x, plan.root(), 97));
    plan.inverse(y.data());
    ASSERT_EQ(y, x);
  }
  EXPECT_THROW(ntt::HostPlan<TypeParam>(97, 6), mpgpu::InvalidArgument);
}

}  // namespace
