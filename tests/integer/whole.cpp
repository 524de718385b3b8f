// Powers, roots, factorials, binomials, Fibonacci and Lucas numbers and
// exact digit counts (pow_ui, ui_pow_ui, sqrt, sqrtrem, root,
// perfect_square_p, fac_ui, fib_ui, lucnum_ui, bin_uiui, bin_ui, sizeinbase)
// against GMP at sizes below, at and above each crossover of
// integer_crossovers.hpp (kDevicePowerMinLimbs, kDeviceRootMinLimbs, kDeviceSqrtMinLimbs,
// kDeviceSequenceMinLimbs), so that integer_whole_gpu_test runs both the
// host and the device path of each (and roots 4x and 16x above the
// crossover, where the Newton step's division runs on the device); every
// sign, results aliasing operands, another stream, bad input leaving every
// operand untouched. On the CPU context these are GMP's own functions;
// tests/integer/whole_algorithms.cpp runs the device algorithms there.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "integer_test.hpp"
#include "support/mpz_arith.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();

/// log2 |b| for |b| >= 2.
double log2_abs(const Mpz& b) {
  long exp2 = 0;
  const double m = mpz_get_d_2exp(&exp2, b);
  return static_cast<double>(exp2) + std::log2(std::fabs(m));
}

/// Digits of |a| in `base` as mpz_get_str writes them.
std::uint64_t digits_of(const Mpz& a, int base) {
  const Mpz m = a.abs();
  std::string s(mpz_sizeinbase(m, base) + 2, '\0');
  mpz_get_str(s.data(), base, m);
  return std::strlen(s.c_str());
}

constexpr std::size_t kPow = mpgpu::kDevicePowerMinLimbs;
constexpr std::size_t kRoot = mpgpu::kDeviceRootMinLimbs;
constexpr std::size_t kSqrt = mpgpu::kDeviceSqrtMinLimbs;
constexpr std::size_t kSeq = mpgpu::kDeviceSequenceMinLimbs;

class Whole : public IntegerTest {
 protected:
  /// Another stream for the stream tests: a second context's stream on a
  /// CUDA device; on the CPU context there are no streams (nullptr).
  mpgpu::Stream other_stream() {
    if (!on_gpu()) return nullptr;
    if (!other_) other_.emplace(mpgpu::Context::cuda(ctx().device()));
    return other_->stream();
  }

  /// sqrt, sqrtrem, root(.., 2) and perfect_square_p of a >= 0 against GMP,
  /// and perfect_square_p of -a (false).
  ::testing::AssertionResult check_square_root(const Mpz& a) const {
    Mpz ws, wr;
    mpz_sqrtrem(ws, wr, a);
    const Integer x = make(a);
    Integer s(ctx()), r(ctx());
    mpgpu::sqrt(s, x);
    if (!matches(s, ws)) return ::testing::AssertionFailure() << "sqrt of " << a << ": " << value_of(s);
    s = Integer(ctx());
    mpgpu::sqrtrem(s, r, x);
    if (!matches(s, ws) || !matches(r, wr))
      return ::testing::AssertionFailure() << "sqrtrem of " << a << ": " << value_of(s) << ", " << value_of(r);
    s = Integer(ctx());
    const bool exact = mpgpu::root(s, x, 2);
    if (!matches(s, ws) || exact != (wr.sgn() == 0))
      return ::testing::AssertionFailure() << "root 2 of " << a << ": " << value_of(s) << " exact " << exact;
    const bool square = mpgpu::perfect_square_p(x);
    if (square != (mpz_perfect_square_p(a) != 0))
      return ::testing::AssertionFailure() << "perfect_square_p of " << a << ": " << square;
    if (a.sgn() > 0 && mpgpu::perfect_square_p(make(-a)))
      return ::testing::AssertionFailure() << "perfect_square_p of " << -a << " is true";
    if (!matches(x, a)) return ::testing::AssertionFailure() << "the radicand changed";
    return ::testing::AssertionSuccess();
  }

  /// root(r, a, k) (value and exactness) against mpz_root.
  ::testing::AssertionResult check_root(const Mpz& a, std::uint64_t k) const {
    Mpz want;
    const bool want_exact = mpz_root(want, a, k) != 0;
    const Integer x = make(a);
    Integer r(ctx());
    const bool exact = mpgpu::root(r, x, k);
    if (!matches(r, want) || exact != want_exact)
      return ::testing::AssertionFailure() << "root " << k << " of " << a << ": " << value_of(r) << " exact "
                                           << exact << "; GMP " << want << " exact " << want_exact;
    if (!matches(x, a)) return ::testing::AssertionFailure() << "the radicand changed";
    return ::testing::AssertionSuccess();
  }

 private:
  std::optional<mpgpu::Context> other_;
};
MPGPU_INSTANTIATE_ON_BACKEND(Whole);

// ---- pow_ui, ui_pow_ui ------------------------------------------------------------

// Results of kDevicePowerMinLimbs - 2 .. + 2 limbs, then about 4x and 16x:
// bases with a power-of-two factor, odd bases, multi-limb bases, both signs,
// even and odd exponents.
TEST_P(Whole, PowUiAroundTheDeviceCrossover) {
  Operands gen(4001);
  Mpz multi = gen.runs(64 * 5 + 7);
  mpz_setbit(multi, 0);
  const std::vector<Mpz> bases = {Mpz::from_ui(3),       Mpz::from_si(-3),          Mpz::from_ui(10),
                                  times_ui(Mpz::pow2(70), 6), Mpz::all_ones(64),      -Mpz::all_ones(64 * 3),
                                  multi,                 -gen.uniform(64 * 17),     plus(Mpz::pow2(63), 1)};
  // Sanitizer-sized: kPow - 1 .. + 1 with one of e0, e0 + 1 in turn, 4x
  // for the first base only, no 16x.
  std::size_t turn = 0;
  for (std::size_t bi = 0; bi < bases.size(); ++bi) {
    const Mpz& b = bases[bi];
    const double lb = log2_abs(b);
    std::vector<std::size_t> targets =
        sized<std::vector<std::size_t>>({kPow - 2, kPow - 1, kPow, kPow + 1, kPow + 2}, {kPow - 1, kPow, kPow + 1});
    if (bi < sized<std::size_t>(3, 1)) {
      targets.push_back(4 * kPow);
      if (!sanitizer_sized()) targets.push_back(16 * kPow);
    }
    for (std::size_t t : targets) {
      const auto e0 = static_cast<std::uint64_t>(64.0 * static_cast<double>(t) / lb);
      if (sanitizer_sized()) ++turn;  // e0 at one target, e0 + 1 at the next
      for (std::uint64_t e : {e0, e0 + 1}) {
        if (!sanitizer_keeps(turn++, 2)) continue;
        Integer r(ctx());
        mpgpu::pow_ui(r, make(b), e);
        ASSERT_TRUE(matches(r, pow_of(b, e))) << b << " ^ " << e << " (about " << t << " limbs)";
      }
    }
  }
}

TEST_P(Whole, UiPowUi) {
  const std::vector<std::uint64_t> bases = {0, 1, 2, 3, 10, (1ull << 32) + 1, 1ull << 63, kMaxU64, 12};
  for (std::uint64_t b : bases) {
    std::vector<std::uint64_t> exps = {0, 1, 2, 3, 63, 64, 65};
    if (b >= 2) {
      const double lb = std::log2(static_cast<double>(b));
      // Sanitizer-sized: either side of the crossover.
      for (std::size_t t : sized<std::vector<std::size_t>>({kPow - 1, kPow, kPow + 1, 4 * kPow}, {kPow - 1, kPow + 1}))
        exps.push_back(static_cast<std::uint64_t>(64.0 * static_cast<double>(t) / lb));
    } else {
      exps.push_back(kMaxU64);
    }
    for (std::uint64_t e : exps) {
      Mpz want;
      if (b <= 1) want = Mpz::from_ui(e == 0 ? 1 : b);
      else mpz_ui_pow_ui(want, b, e);
      Integer r(ctx());
      mpgpu::ui_pow_ui(r, b, e);
      ASSERT_TRUE(matches(r, want)) << b << " ^ " << e;
      ASSERT_EQ(r.context(), ctx());
    }
  }
  // Too large for GMP: refused, r untouched.
  Integer r = make(Mpz::from_ui(5));
  EXPECT_THROW(mpgpu::ui_pow_ui(r, 3, std::uint64_t{1} << 40), mpgpu::Overflow);
  EXPECT_TRUE(matches(r, Mpz::from_ui(5)));
}

TEST_P(Whole, PowUiResultAliasingTheBase) {
  Operands gen(4002);
  for (const Mpz& b : {gen.runs(64 * 300), -gen.uniform(64 * 300), Mpz::from_si(-7), times_ui(Mpz::pow2(1000), 5)})
    for (std::uint64_t e : {5, 4}) {
      Integer x = make(b);
      mpgpu::pow_ui(x, x, e);
      ASSERT_TRUE(matches(x, pow_of(b, e))) << b << " ^ " << e;
    }
}

// ---- roots -------------------------------------------------------------------------

// Square roots of radicands of kDeviceSqrtMinLimbs - 1 .. + 1 limbs (perfect
// squares, their neighbours, a square plus 16 that passes the mod-16 test,
// all ones, a power of two, random), then 4x and 16x larger.
TEST_P(Whole, SquareRootsAroundTheDeviceCrossover) {
  // Sanitizer-sized: the squares and neighbours at one root size, kSqrt - 1
  // and kSqrt random, all ones and 2^(64 kSqrt); then 4x (a random radicand
  // and a perfect square), no 16x.
  Operands gen(4003);
  std::vector<Mpz> radicands;
  for (std::size_t limbs : sized<std::vector<std::size_t>>({kSqrt / 2, kSqrt / 2 + 1}, {kSqrt / 2})) {
    Mpz x = gen.random_bits(64 * limbs - gen.below(40));
    const Mpz sq = pow_of(x, 2);
    radicands.push_back(sq);
    radicands.push_back(plus(sq, -1));
    radicands.push_back(plus(sq, 1));
    radicands.push_back(plus(sq, 16));
    Mpz next = pow_of(plus(x, 1), 2);
    radicands.push_back(plus(next, -1));  // the largest radicand with root x
  }
  for (std::size_t limbs : sized<std::vector<std::size_t>>({kSqrt - 1, kSqrt, kSqrt + 1}, {kSqrt - 1, kSqrt}))
    radicands.push_back(gen.random_bits(64 * limbs - gen.below(64)));
  radicands.push_back(Mpz::all_ones(64 * kSqrt));
  radicands.push_back(Mpz::pow2(64 * kSqrt));      // (2^(32 kSqrt))^2
  if (!sanitizer_sized()) radicands.push_back(Mpz::pow2(64 * kSqrt - 1));  // not a square
  for (const Mpz& a : radicands) ASSERT_TRUE(check_square_root(a)) << a.limbs() << "-limb radicand";
  // 4x and 16x: the Newton step's division on the device.
  ASSERT_TRUE(check_square_root(gen.uniform(64 * 4 * kSqrt)));
  Mpz x = gen.runs(64 * 2 * kSqrt - 5);
  ASSERT_TRUE(check_square_root(pow_of(x, 2)));
  if (sanitizer_sized()) return;
  ASSERT_TRUE(check_square_root(plus(pow_of(x, 2), -1)));
  ASSERT_TRUE(check_square_root(gen.runs(64 * 16 * kSqrt)));
  Mpz y = gen.uniform(64 * 8 * kSqrt);
  mpz_setbit(y, 64 * 8 * kSqrt - 1);
  ASSERT_TRUE(check_square_root(pow_of(y, 2)));
}

TEST_P(Whole, KthRootsAroundTheDeviceCrossover) {
  // Sanitizer-sized: k of 1, 3 (odd) and 4 (even); one of p - 1, p, p + 1
  // at each size, in turn; kRoot - 1 and kRoot random.
  Operands gen(4004);
  std::size_t turn = 0;
  for (std::uint64_t k : sized<std::vector<std::uint64_t>>({1, 3, 4, 5, 7}, {1, 3, 4})) {
    std::vector<Mpz> radicands;
    const std::uint64_t root_bits = 64 * kRoot / k;
    for (std::int64_t d : {-64, 0, 64}) {  // x^k of about kRoot - 1, kRoot, kRoot + 1 limbs
      const Mpz x = gen.random_bits(root_bits + d);
      const Mpz p = pow_of(x, k);
      for (const Mpz& a : {p, plus(p, -1), plus(p, 1)})
        if (sanitizer_keeps(turn++, 3)) radicands.push_back(a);
      if (sanitizer_sized()) ++turn;  // the next size keeps the next of the three
    }
    for (std::size_t limbs : sized<std::vector<std::size_t>>({kRoot - 1, kRoot, kRoot + 1}, {kRoot - 1, kRoot}))
      radicands.push_back(gen.random_bits(64 * limbs));
    radicands.push_back(Mpz::all_ones(64 * kRoot));
    for (const Mpz& a : radicands) {
      ASSERT_TRUE(check_root(a, k)) << a.limbs() << "-limb radicand";
      if (k % 2 == 1) {
        ASSERT_TRUE(check_root(-a, k)) << a.limbs() << "-limb negative radicand";
      }
    }
  }
  // 4x for k = 3 (a cube and a random radicand), negative too.
  const Mpz x = gen.runs(64 * 4 * kRoot / 3);
  const Mpz cube = pow_of(x, 3);
  ASSERT_TRUE(check_root(cube, 3));
  ASSERT_TRUE(check_root(-plus(cube, 1), 3));
  ASSERT_TRUE(check_root(gen.uniform(64 * 4 * kRoot), 3));
}

TEST_P(Whole, RootsResultAliasingTheRadicand) {
  Operands gen(4005);
  const Mpz a = gen.runs(64 * kSqrt + 100), sq = pow_of(gen.uniform(64 * (kSqrt / 2 + 3)), 2);
  {
    Mpz want;
    mpz_sqrt(want, a);
    Integer x = make(a);
    mpgpu::sqrt(x, x);
    ASSERT_TRUE(matches(x, want));
  }
  {
    Mpz want;
    const bool want_exact = mpz_root(want, a, 3) != 0;
    Integer x = make(-a);
    ASSERT_EQ(mpgpu::root(x, x, 3), want_exact);
    ASSERT_TRUE(matches(x, -want));
  }
  for (const Mpz& v : {a, sq}) {
    Mpz ws, wr;
    mpz_sqrtrem(ws, wr, v);
    Integer x = make(v), rem(ctx());
    mpgpu::sqrtrem(x, rem, x);  // the root over the radicand
    ASSERT_TRUE(matches(x, ws));
    ASSERT_TRUE(matches(rem, wr));
    Integer y = make(v), s(ctx());
    mpgpu::sqrtrem(s, y, y);  // the remainder over the radicand
    ASSERT_TRUE(matches(s, ws));
    ASSERT_TRUE(matches(y, wr));
  }
  // Small ones too (the host path).
  Integer z = make(Mpz::from_ui(1000001));
  mpgpu::sqrt(z, z);
  EXPECT_TRUE(matches(z, Mpz::from_ui(1000)));
}

// Bad input: negative radicands of sqrt/sqrtrem, k = 0, an even root of a
// negative number; each throws with every operand untouched, small and at
// device size. perfect_square_p of a negative number is false.
TEST_P(Whole, RootsOfBadInput) {
  Operands gen(4006);
  for (const Mpz& m : {Mpz::from_ui(4), pow_of(gen.runs(64 * (kSqrt / 2 + 1)), 2)}) {
    const Mpz neg = -m;
    const Mpz before = Mpz::from_ui(7), before2 = Mpz::from_si(-9);
    const Integer a = make(neg), p = make(m);
    Integer s = make(before), r = make(before2);
    EXPECT_THROW(mpgpu::sqrt(s, a), mpgpu::InvalidArgument);
    EXPECT_THROW(mpgpu::sqrtrem(s, r, a), mpgpu::InvalidArgument);
    EXPECT_THROW(mpgpu::root(s, a, 2), mpgpu::InvalidArgument);
    EXPECT_THROW(mpgpu::root(s, a, 4), mpgpu::InvalidArgument);
    EXPECT_THROW(mpgpu::root(s, a, 0), mpgpu::InvalidArgument);
    EXPECT_THROW(mpgpu::root(s, p, 0), mpgpu::InvalidArgument);
    EXPECT_THROW(mpgpu::sqrtrem(s, s, p), mpgpu::InvalidArgument);  // root and rem the same object
    EXPECT_TRUE(matches(s, before));
    EXPECT_TRUE(matches(r, before2));
    EXPECT_TRUE(matches(a, neg));
    EXPECT_TRUE(matches(p, m));
    EXPECT_FALSE(mpgpu::perfect_square_p(a)) << neg;
    EXPECT_TRUE(mpgpu::perfect_square_p(p)) << m;
    Integer x = make(neg);  // aliased and refused: untouched
    EXPECT_THROW(mpgpu::sqrt(x, x), mpgpu::InvalidArgument);
    EXPECT_THROW(mpgpu::root(x, x, 6), mpgpu::InvalidArgument);
    EXPECT_TRUE(matches(x, neg));
  }
  EXPECT_FALSE(mpgpu::perfect_square_p(make(Mpz::from_si(-1))));
  EXPECT_TRUE(mpgpu::perfect_square_p(make(Mpz())));
  EXPECT_TRUE(mpgpu::perfect_square_p(make(Mpz::from_ui(1))));
}

// ---- factorials, Fibonacci and Lucas numbers ------------------------------------------

/// The smallest n whose n! has at least `limbs` limbs.
std::uint64_t factorial_reaching(std::size_t limbs) {
  Mpz f = Mpz::from_ui(1);
  std::uint64_t n = 1;
  while (f.limbs() < limbs) mpz_mul_ui(f, f, ++n);
  return n;
}

TEST_P(Whole, FactorialAroundTheDeviceCrossover) {
  // Sanitizer-sized: n0 - 1 .. n0 + 1 and 3 n0.
  const std::uint64_t n0 = factorial_reaching(kSeq);
  const std::uint64_t around = sized(3, 1);
  std::vector<std::uint64_t> ns;
  for (std::uint64_t n = n0 - around; n <= n0 + around; ++n) ns.push_back(n);
  ns.push_back(3 * n0);
  if (!sanitizer_sized()) ns.push_back(12 * n0);  // about 25x the crossover's size
  for (std::uint64_t n : ns) {
    Mpz want;
    mpz_fac_ui(want, n);
    Integer r(ctx());
    mpgpu::fac_ui(r, n);
    ASSERT_TRUE(matches(r, want)) << n << "!";
    ASSERT_EQ(r.context(), ctx());
  }
}

TEST_P(Whole, FibonacciAndLucasAroundTheDeviceCrossover) {
  // F(n) has about 0.6942 n bits: 2048 limbs from n ~ 188800; the size
  // estimate (0.6943 n + 64 bits) reaches them from n ~ 188690.
  const auto estimate_n = static_cast<std::uint64_t>((64.0 * kSeq - 64.0) / 0.6943);
  const auto true_n = static_cast<std::uint64_t>(64.0 * kSeq / 0.69424191363);
  // Sanitizer-sized: c - 1 .. c + 1 at each crossing, 4x once (odd n), no 16x.
  std::vector<std::uint64_t> ns = {0, 1, 2, 3, 93, 94, 1000, 1001};
  const std::uint64_t around = sized(2, 1);
  for (std::uint64_t c : {estimate_n, true_n})
    for (std::uint64_t n = c - around; n <= c + around; ++n) ns.push_back(n);
  for (std::uint64_t n : sized<std::vector<std::uint64_t>>({4 * true_n, 4 * true_n + 1, 16 * true_n + 1}, {4 * true_n + 1}))
    ns.push_back(n);
  for (std::uint64_t n : ns) {
    Mpz wf, wl;
    mpz_fib_ui(wf, n);
    mpz_lucnum_ui(wl, n);
    Integer f(ctx()), l(ctx());
    mpgpu::fib_ui(f, n);
    ASSERT_TRUE(matches(f, wf)) << "F(" << n << ")";
    mpgpu::lucnum_ui(l, n);
    ASSERT_TRUE(matches(l, wl)) << "L(" << n << ")";
    ASSERT_EQ(f.context(), ctx());
    ASSERT_EQ(l.context(), ctx());
  }
  // L(0) = 2, L(1) = 1, and a known value.
  Integer l(ctx());
  mpgpu::lucnum_ui(l, 0);
  EXPECT_EQ(l.to_uint64(), 2u);
  mpgpu::lucnum_ui(l, 1);
  EXPECT_EQ(l.to_uint64(), 1u);
  mpgpu::lucnum_ui(l, 10);
  EXPECT_EQ(l.to_uint64(), 123u);  // L(10) = F(9) + F(11) = 34 + 89
  EXPECT_THROW(mpgpu::lucnum_ui(l, kMaxU64), mpgpu::Overflow);
  EXPECT_EQ(l.to_uint64(), 123u);
}

// ---- binomial coefficients -----------------------------------------------------------

TEST_P(Whole, BinUiuiSmallAndSpecial) {
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> cases = {
      {0, 0},   {0, 1},   {1, 0},    {1, 1},     {1, 2},    {5, 6},          {5, 100},
      {5, 0},   {5, 5},   {5, 4},    {10, 3},    {64, 32},  {100, 50},       {1000, 999},
      {1000, 1000},       {1000, 1001}, {1ull << 40, 3},  {1ull << 40, (1ull << 40) - 2}, {kMaxU64 - 1, 2},
      {123456789, 40}};
  for (const auto& [n, k] : cases) {
    Mpz want;
    mpz_bin_uiui(want, n, k);
    Integer r = make(Mpz::from_si(-5));
    mpgpu::bin_uiui(r, n, k);
    ASSERT_TRUE(matches(r, want)) << "binomial(" << n << ", " << k << ")";
    ASSERT_EQ(r.context(), ctx());
  }
  Integer r = make(Mpz::from_ui(5));
  EXPECT_THROW(mpgpu::bin_uiui(r, std::uint64_t{1} << 63, std::uint64_t{1} << 62), mpgpu::Overflow);
  EXPECT_TRUE(matches(r, Mpz::from_ui(5)));
}

/// The smallest k whose binomial(n, k) has at least `limbs` limbs (k <= n/2),
/// by GMP: binomial(n, k + 1) = binomial(n, k) (n - k) / (k + 1).
std::uint64_t binomial_reaching(std::uint64_t n, std::size_t limbs) {
  Mpz b = Mpz::from_ui(1);
  std::uint64_t k = 0;
  while (b.limbs() < limbs && k < n / 2) {
    mpz_mul_ui(b, b, n - k);
    mpz_divexact_ui(b, b, ++k);
  }
  return k;
}

// Results crossing kDeviceSequenceMinLimbs: central binomials of n ~ 2^17
// (k near n/2 on either side), and binomial(2^40, k) with k near the
// crossing, 4x and 16x.
TEST_P(Whole, BinUiuiAroundTheDeviceCrossover) {
  // Sanitizer-sized: central n of - 64, + 8 and + 129 with one of n/2,
  // n/2 + 1 in turn; k0 - 1 .. k0 + 1; 4 k0; k > n/2.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cases;
  const std::uint64_t central = 64 * kSeq;  // binomial(n, n/2) ~ 2^n / sqrt(n)
  std::size_t turn = 0;
  for (std::uint64_t n : sized<std::vector<std::uint64_t>>(
           {central - 64, central, central + 8, central + 16, central + 64, central + 129},
           {central - 64, central + 8, central + 129})) {
    const bool half = sanitizer_keeps(turn++, 2);
    if (half) cases.emplace_back(n, n / 2);
    if (!sanitizer_sized() || !half) cases.emplace_back(n, n / 2 + 1);
  }
  const std::uint64_t big = std::uint64_t{1} << 40;
  const std::uint64_t k0 = binomial_reaching(big, kSeq);
  const std::uint64_t around = sized(2, 1);
  for (std::uint64_t k = k0 - around; k <= k0 + around; ++k) cases.emplace_back(big, k);
  cases.emplace_back(big, 4 * k0);
  if (!sanitizer_sized()) cases.emplace_back(big, 8 * k0);
  cases.emplace_back(big, big - 4 * k0);  // k > n/2
  for (const auto& [n, k] : cases) {
    Mpz want;
    mpz_bin_uiui(want, n, k);
    Integer r(ctx());
    mpgpu::bin_uiui(r, n, k);
    ASSERT_TRUE(matches(r, want)) << "binomial(" << n << ", " << k << ")";
  }
}

// n = 2^64 - 1, the largest n: device code that forms n + 1 in 64 bits
// would wrap (k = 3000, 6000, 9000 give results above kDeviceSequenceMinLimbs).
TEST_P(Whole, BinUiuiOfTheLargestN) {
  for (std::uint64_t k : {0, 1, 2, 3, 100, 3000, 6000, 9000}) {
    Mpz want;
    mpz_bin_uiui(want, kMaxU64, k);
    Integer r(ctx());
    mpgpu::bin_uiui(r, kMaxU64, k);
    EXPECT_TRUE(matches(r, want)) << "binomial(2^64 - 1, " << k << ")";
    mpgpu::bin_uiui(r, kMaxU64, kMaxU64 - k);
    EXPECT_TRUE(matches(r, want)) << "binomial(2^64 - 1, 2^64 - 1 - " << k << ")";
  }
}

// bin_ui for any n: negative n (the fast path up to 2^62 and GMP beyond),
// n that does not fit 64 bits, k > n >= 0, results crossing the device
// crossover, and the result aliasing n.
TEST_P(Whole, BinUiOfAnyN) {
  std::vector<Mpz> ns = {Mpz(), Mpz::from_ui(1), Mpz::from_ui(5), Mpz::from_ui(1000), Mpz::pow2(64),
                         plus(Mpz::pow2(100), 3), Mpz::all_ones(64)};
  for (const Mpz& m : {Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_ui(10), Mpz::pow2(40), Mpz::all_ones(62),
                       Mpz::pow2(62), plus(Mpz::pow2(62), 1), Mpz::pow2(63), Mpz::pow2(64), Mpz::pow2(100)})
    ns.push_back(-m);
  // Sanitizer-sized: k of 0, 1, 3, 100 and 1001.
  for (const Mpz& n : ns)
    for (std::uint64_t k : sized<std::vector<std::uint64_t>>({0, 1, 2, 3, 7, 10, 100, 1001}, {0, 1, 3, 100, 1001})) {
      Mpz want;
      mpz_bin_ui(want, n, k);
      Integer r(ctx());
      mpgpu::bin_ui(r, make(n), k);
      ASSERT_TRUE(matches(r, want)) << "binomial(" << n << ", " << k << ")";
    }
  // Around the device crossover, negative n: binomial(-2^40, k) = (-1)^k binomial(2^40 + k - 1, k).
  const std::uint64_t k0 = binomial_reaching(std::uint64_t{1} << 40, kSeq);
  const Mpz n = -Mpz::pow2(40);
  for (std::uint64_t k : sized<std::vector<std::uint64_t>>({k0 - 1, k0, k0 + 1, 4 * k0 + 1}, {k0 - 1, k0, 4 * k0 + 1})) {
    Mpz want;
    mpz_bin_ui(want, n, k);
    Integer r(ctx());
    mpgpu::bin_ui(r, make(n), k);
    ASSERT_TRUE(matches(r, want)) << "binomial(-2^40, " << k << ")";
  }
  Integer x = make(Mpz::from_si(-7));
  mpgpu::bin_ui(x, x, 5);
  Mpz want;
  mpz_bin_ui(want, Mpz::from_si(-7), 5);
  EXPECT_TRUE(matches(x, want));
}

// ---- sizeinbase -------------------------------------------------------------------------

TEST_P(Whole, SizeinbaseBadBase) {
  const Mpz v = Mpz::from_ui(12345);
  const Integer a = make(v);
  for (int base : {-10, -1, 0, 1, 63, 64, 100}) {
    EXPECT_THROW(mpgpu::sizeinbase(a, base), mpgpu::InvalidArgument) << "base " << base;
    EXPECT_THROW(mpgpu::sizeinbase(make(Mpz()), base), mpgpu::InvalidArgument) << "base " << base << ", zero";
  }
  EXPECT_TRUE(matches(a, v));
}

TEST_P(Whole, SizeinbaseOfZeroAndSmallValues) {
  Operands gen(4007);
  for (int base = 2; base <= 62; ++base) {
    ASSERT_EQ(mpgpu::sizeinbase(make(Mpz()), base), 1u) << "zero in base " << base;
    std::vector<Mpz> values = {Mpz::from_ui(1), Mpz::from_ui(base - 1), Mpz::from_ui(base), Mpz::from_ui(base + 1),
                               Mpz::all_ones(64), Mpz::pow2(64)};
    // Sanitizer-sized (every base still): k of 2, 20 and 41; 2 random values.
    for (std::uint64_t k : sized<std::vector<std::uint64_t>>({2, 3, 10, 20, 40, 41}, {2, 20, 41})) {
      const Mpz p = pow_of(Mpz::from_ui(base), k);
      values.push_back(plus(p, -1));
      values.push_back(p);
      values.push_back(plus(p, 1));
    }
    for (int i = 0; i < sized(12, 2); ++i) values.push_back(gen.random_bits(1 + gen.below(64 * 64)));
    for (const Mpz& v : with_both_signs(values))
      ASSERT_EQ(mpgpu::sizeinbase(make(v), base), digits_of(v, base)) << v << " in base " << base;
  }
}

// Powers of two as bases: GMP's mpz_sizeinbase is exact there.
TEST_P(Whole, SizeinbasePowerOfTwoBases) {
  for (const Mpz& v : edge_values())
    for (int base : {2, 4, 8, 16, 32})
      ASSERT_EQ(mpgpu::sizeinbase(make(v), base), mpz_sizeinbase(v, base)) << v << " in base " << base;
}

// 10^k - 1, 10^k, 10^k + 1 (and within the logarithm's window around 10^k)
// from one limb to ~10^4 limbs (the comparison's power on the device from
// kDevicePowerMinLimbs), both signs; the same for bases 3, 7, 36, 62.
TEST_P(Whole, SizeinbaseExactAroundPowers) {
  struct Case {
    int base;
    std::vector<std::uint64_t> ks;
  };
  // Sanitizer-sized: fewer k between the limb edges; the device's power
  // (from kDevicePowerMinLimbs: 10^60000, 3^150000) kept once for each base.
  const std::vector<Case> cases = sized<std::vector<Case>>(
      {{10, {1, 2, 9, 18, 19, 20, 38, 39, 40, 100, 1000, 19728, 19729, 19730, 60000, 200000}},
       {3, {1, 40, 41, 1000, 41000, 42000, 150000}},
       {7, {1, 22, 23, 5000, 23000}},
       {36, {1, 12, 13, 700, 13000}},
       {62, {1, 10, 11, 500, 11000}}},
      {{10, {1, 19, 20, 39, 1000, 19729, 60000}},
       {3, {1, 41, 1000, 150000}},
       {7, {1, 23, 5000}},
       {36, {1, 13, 700}},
       {62, {1, 11, 500}}});
  for (const Case& c : cases)
    for (std::uint64_t k : c.ks) {
      const Mpz p = pow_of(Mpz::from_ui(c.base), k);
      std::vector<std::pair<Mpz, std::uint64_t>> values = {{plus(p, -1), k}, {p, k + 1}, {plus(p, 1), k + 1}};
      if (k > 12) {
        const Mpz q = pow_of(Mpz::from_ui(c.base), k - 12);
        Mpz below, above;
        mpz_sub(below, p, q);
        mpz_add(above, p, q);
        values.emplace_back(below, k);
        values.emplace_back(above, k + 1);
      }
      for (const auto& [v, want] : values) {
        ASSERT_EQ(mpgpu::sizeinbase(make(v), c.base), want) << v << " in base " << c.base << " (k = " << k << ")";
        ASSERT_EQ(mpgpu::sizeinbase(make(-v), c.base), want) << -v << " in base " << c.base << " (k = " << k << ")";
      }
    }
}

// ---- another stream ---------------------------------------------------------------------

// Each function at device size on another stream (a second context's stream
// on a CUDA device; the CPU context has no streams and takes nullptr).
TEST_P(Whole, OnAnotherStream) {
  Operands gen(4008);
  const mpgpu::Stream s = other_stream();
  {
    const Mpz b = gen.runs(64 * 3 + 1);
    const std::uint64_t e = 64 * 2 * kPow / b.bits();
    Integer r(ctx());
    mpgpu::pow_ui(r, make(b), e, s);
    ASSERT_TRUE(matches(r, pow_of(b, e)));
    Mpz want;
    mpz_ui_pow_ui(want, 3, 200000);
    mpgpu::ui_pow_ui(r, 3, 200000, s);
    ASSERT_TRUE(matches(r, want));
  }
  {
    const Mpz a = gen.uniform(64 * (kSqrt + 10));
    Mpz ws, wr, w3;
    mpz_sqrtrem(ws, wr, a);
    const bool exact3 = mpz_root(w3, a, 3) != 0;
    Integer r(ctx()), rem(ctx());
    mpgpu::sqrt(r, make(a), s);
    ASSERT_TRUE(matches(r, ws));
    mpgpu::sqrtrem(r, rem, make(a), s);
    ASSERT_TRUE(matches(r, ws));
    ASSERT_TRUE(matches(rem, wr));
    ASSERT_EQ(mpgpu::root(r, make(a), 3, s), exact3);
    ASSERT_TRUE(matches(r, w3));
    ASSERT_TRUE(mpgpu::perfect_square_p(make(pow_of(ws, 2)), s));
    ASSERT_FALSE(mpgpu::perfect_square_p(make(plus(pow_of(ws, 2), 16)), s));
  }
  {
    const std::uint64_t n = 4 * 64 * kSeq;
    Mpz wf, wl, wfac, wbin;
    mpz_fib_ui(wf, n);
    mpz_lucnum_ui(wl, n);
    mpz_fac_ui(wfac, n / 10);
    mpz_bin_uiui(wbin, n, n / 2);
    Integer r(ctx());
    mpgpu::fib_ui(r, n, s);
    ASSERT_TRUE(matches(r, wf));
    mpgpu::lucnum_ui(r, n, s);
    ASSERT_TRUE(matches(r, wl));
    mpgpu::fac_ui(r, n / 10, s);
    ASSERT_TRUE(matches(r, wfac));
    mpgpu::bin_uiui(r, n, n / 2, s);
    ASSERT_TRUE(matches(r, wbin));
    mpgpu::bin_ui(r, make(Mpz::from_ui(n)), n / 2, s);
    ASSERT_TRUE(matches(r, wbin));
  }
  {
    const Mpz p = pow_of(Mpz::from_ui(10), 100000);
    ASSERT_EQ(mpgpu::sizeinbase(make(p), 10, s), 100001u);
    ASSERT_EQ(mpgpu::sizeinbase(make(plus(p, -1)), 10, s), 100000u);
  }
}

}  // namespace
