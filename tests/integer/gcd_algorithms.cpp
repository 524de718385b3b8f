// The gcd of huge integers (detail::gcd_by_half_gcd, src/integer/integer_gcd.cpp:
// a half-gcd recursion of Integer operations above host_max_limbs limbs,
// GMP's mpn_hgcd below) run on the CPU context, where GMP performs each of
// its Integer operations, with host_max_limbs of 4, 8, 16 and 33 instead of
// the device's kHostHalfGcdMaxLimbs, so that operands of 10 .. 400 limbs
// take the recursion's every branch (the top half-gcd and its matrix
// applied to the whole pair, the division steps, the second top half-gcd,
// the outer loop's division steps for unbalanced sizes). g is compared with
// mpz_gcdext's g and the cofactor s with mpz_gcdext's s bit for bit, for
// every order and sign of each pair; the call must return true (it falls
// back only when a check of the recursion fails, which a correct
// implementation never triggers with a normal libgmp). Also the public gcd,
// gcdext, lcm and invert on the CPU context (GMP) against GMP. CPU only: the
// GPU runs the same code through integer_gcd_gpu_test's public calls.
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "integer_test.hpp"
#include "support/mpz_arith.hpp"
#include "integer/integer_whole.hpp"  // private to the library (src/)

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

/// The host_max_limbs values every case runs with (the call clamps below 4).
const std::vector<std::size_t>& crossovers() {
  static const std::vector<std::size_t> c = {4, 8, 16, 33};
  return c;
}

class GcdAlgorithms : public IntegerTest {
 protected:
  /// gcd_by_half_gcd(a, b) with and without the cofactor at crossover c
  /// against mpz_gcdext; the operands must stay unchanged.
  ::testing::AssertionResult half_gcd_matches(const Mpz& a, const Mpz& b, std::size_t c,
                                              bool with_cofactor) const {
    Mpz want_g, want_s;
    mpz_gcdext(want_g, want_s, nullptr, a, b);
    const Integer x = make(a), y = make(b);
    Integer g = make(Mpz::from_si(-5)), s = make(Mpz::from_si(-7));
    const bool ok = mpgpu::detail::gcd_by_half_gcd(g, with_cofactor ? &s : nullptr, x, y, c);
    const char* kind = with_cofactor ? " (with cofactor)" : " (gcd only)";
    if (!ok)
      return ::testing::AssertionFailure() << "gcd_by_half_gcd(" << a << ", " << b << ") fell back (returned false)"
                                           << kind << ", crossover " << c;
    if (auto r = matches(g, want_g); !r)
      return ::testing::AssertionFailure() << "g of (" << a << ", " << b << ")" << kind << ", crossover " << c
                                           << ": " << r.message();
    if (with_cofactor) {
      if (auto r = matches(s, want_s); !r)
        return ::testing::AssertionFailure() << "s of (" << a << ", " << b << "), crossover " << c << ": "
                                             << r.message();
    } else if (!matches(s, Mpz::from_si(-7))) {
      return ::testing::AssertionFailure() << "s changed without a cofactor asked for";
    }
    if (!matches(x, a) || !matches(y, b))
      return ::testing::AssertionFailure() << "an operand changed: (" << a << ", " << b << ")";
    return ::testing::AssertionSuccess();
  }

  /// The pair in both orders and all four sign combinations, at every
  /// crossover: the cofactor every time, the gcd alone for the first
  /// combination (the cofactor's tracking must not change g).
  ::testing::AssertionResult all_orders_and_signs(const Mpz& a, const Mpz& b) const {
    for (std::size_t c : crossovers())
      for (const auto& [u, v] : {std::pair{a, b}, std::pair{b, a}})
        for (int signs = 0; signs < 4; ++signs) {
          const Mpz su = (signs & 1) ? -u : u, sv = (signs & 2) ? -v : v;
          if (auto r = half_gcd_matches(su, sv, c, true); !r) return r;
          if (signs == 0)
            if (auto r = half_gcd_matches(su, sv, c, false); !r) return r;
        }
    return ::testing::AssertionSuccess();
  }
};
MPGPU_INSTANTIATE_ON_BACKEND(GcdAlgorithms);

// Sizes in limbs: small (at and just above the crossovers), middle, and up
// to 400, with partly filled top limbs.
const std::vector<std::size_t>& sizes() {
  static const std::vector<std::size_t> s = {10, 13, 17, 33, 34, 35, 50, 64, 67, 100, 128, 199, 256, 400};
  return s;
}

TEST_P(GcdAlgorithms, RandomPairsOfEqualSize) {
  Operands gen(5001);
  for (std::size_t n : sizes())
    for (int i = 0; i < 2; ++i) {
      const Mpz a = gen.random_bits(64 * n - gen.below(64)), b = gen.random_bits(64 * n - gen.below(64));
      ASSERT_TRUE(all_orders_and_signs(a, b));
    }
  // Same size with the same top limb (the first quotient is 1).
  for (std::size_t n : {20, 100, 300}) {
    const Mpz a = gen.uniform(64 * n);
    Mpz b = gen.uniform(64 * (n - 1));
    mpz_add(b, b, product(Mpz::pow2(64 * (n - 1)), Mpz::from_ui(mpz_getlimbn(a, n - 1))));
    ASSERT_TRUE(all_orders_and_signs(a, b));
  }
}

TEST_P(GcdAlgorithms, RandomPairsOfUnequalSize) {
  Operands gen(5002);
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {11, 10},  {20, 17},  {40, 34},  {51, 50},  {60, 40},   {100, 67},  {100, 90},  {128, 64}, {200, 101},
      {200, 199}, {300, 150}, {400, 270}, {400, 300}, {400, 399}, {400, 201}, {400, 133}};
  for (const auto& [na, nb] : shapes) {
    const Mpz a = gen.random_bits(64 * na - gen.below(64)), b = gen.random_bits(64 * nb - gen.below(64));
    ASSERT_TRUE(all_orders_and_signs(a, b));
  }
}

TEST_P(GcdAlgorithms, VeryUnbalancedPairs) {
  Operands gen(5003);
  // The smaller at or below every crossover and just above it, and one-limb values.
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {400, 1}, {400, 2}, {400, 4}, {400, 5}, {400, 8}, {400, 9}, {400, 16}, {400, 17}, {400, 33},
      {400, 34}, {400, 40}, {300, 12}, {100, 3}, {50, 33}, {34, 1}, {10, 1}, {10, 2}};
  for (const auto& [na, nb] : shapes) {
    const Mpz a = gen.random_bits(64 * na - gen.below(64)), b = gen.random_bits(64 * nb - gen.below(64));
    if (b.sgn() == 0) continue;
    ASSERT_TRUE(all_orders_and_signs(a, b));
  }
}

TEST_P(GcdAlgorithms, ConsecutiveFibonacciNumbers) {
  // gcd 1 after the longest chain of quotients 1: the worst case of every step.
  for (std::size_t limbs : {10, 17, 33, 34, 64, 100, 255, 400}) {
    const unsigned long n = fib_index_for_limbs(limbs);
    ASSERT_TRUE(all_orders_and_signs(fib(n), fib(n + 1))) << "F(" << n << ")";
    ASSERT_TRUE(all_orders_and_signs(fib(n), fib(n + 2))) << "F(" << n << "), F(" << n + 2 << ")";
  }
  // F(m) and F(n) with gcd F(gcd(m, n)), and Fibonacci pairs times a common factor.
  const unsigned long n = fib_index_for_limbs(300);
  ASSERT_TRUE(all_orders_and_signs(fib(n), fib(n - n % 7 + 7 * 3))) << "F(" << n << ")";
  ASSERT_TRUE(all_orders_and_signs(fib(5880), fib(2420)));  // gcd F(20) = 6765
  Operands gen(5004);
  const Mpz g = gen.uniform(64 * 50);
  const unsigned long k = fib_index_for_limbs(200);
  ASSERT_TRUE(all_orders_and_signs(product(g, fib(k)), product(g, fib(k + 1))));
}

TEST_P(GcdAlgorithms, LargeCommonFactor) {
  Operands gen(5005);
  // (g limbs, x limbs, y limbs): g from a few limbs to nearly all of a and b.
  const std::vector<std::array<std::size_t, 3>> shapes = {
      {5, 100, 90},  {33, 100, 100}, {100, 100, 100}, {200, 100, 60}, {300, 10, 9},  {390, 5, 3},
      {380, 1, 1},   {350, 20, 1},   {64, 300, 1},    {34, 2, 300},   {399, 1, 1},   {150, 150, 149}};
  for (const auto& [ng, nx, ny] : shapes) {
    const Mpz g = gen.random_bits(64 * ng - gen.below(64));
    const Mpz x = gen.random_bits(64 * nx - gen.below(64)), y = gen.random_bits(64 * ny - gen.below(64));
    if (g.sgn() == 0 || x.sgn() == 0 || y.sgn() == 0) continue;
    ASSERT_TRUE(all_orders_and_signs(product(g, x), product(g, y))) << ng << " " << nx << " " << ny;
  }
  // b divides a: g = |b|, s = 0.
  for (std::size_t n : {10, 40, 200}) {
    const Mpz b = gen.uniform(64 * n), x = gen.uniform(64 * 3);
    ASSERT_TRUE(all_orders_and_signs(product(b, x), b));
    ASSERT_TRUE(all_orders_and_signs(product(b, Mpz::from_ui(3)), b));
  }
}

TEST_P(GcdAlgorithms, EqualOperandsAndTwiceTheGcd) {
  Operands gen(5006);
  for (std::size_t n : {10, 17, 33, 100, 400}) {
    const Mpz g = gen.random_bits(64 * n - gen.below(64));
    // a = b, a = -b: s = 0 (GMP's |a| = |b| case).
    ASSERT_TRUE(all_orders_and_signs(g, g));
    // |b| = 2g: s = sgn(a); |a| = 2g: t = sgn(b) (GMP's exceptions), with the other g, 3g, 5g.
    const Mpz g2 = times_ui(g, 2);
    ASSERT_TRUE(all_orders_and_signs(g, g2));
    ASSERT_TRUE(all_orders_and_signs(g2, times_ui(g, 3)));
    ASSERT_TRUE(all_orders_and_signs(g2, times_ui(g, 5)));
    ASSERT_TRUE(all_orders_and_signs(g2, g2));
    // |b| = 3g, 4g: the smallest B = |b| / g above 2.
    ASSERT_TRUE(all_orders_and_signs(g, times_ui(g, 3)));
    ASSERT_TRUE(all_orders_and_signs(times_ui(g, 3), times_ui(g, 4)));
  }
}

TEST_P(GcdAlgorithms, NeighboursAndOne) {
  Operands gen(5007);
  for (std::size_t n : {10, 16, 17, 33, 34, 100, 255, 400}) {
    const Mpz a = gen.random_bits(64 * n - gen.below(64));
    ASSERT_TRUE(all_orders_and_signs(a, plus(a, 1)));  // b = a + 1
    ASSERT_TRUE(all_orders_and_signs(a, plus(a, 2)));
    ASSERT_TRUE(all_orders_and_signs(a, Mpz::from_ui(1)));  // one operand 1
    ASSERT_TRUE(all_orders_and_signs(a, Mpz::from_ui(2)));
  }
  // 2^k and 2^k - 1, 2^k + 1.
  ASSERT_TRUE(all_orders_and_signs(Mpz::pow2(64 * 200), Mpz::all_ones(64 * 200)));
  ASSERT_TRUE(all_orders_and_signs(Mpz::pow2(64 * 200), plus(Mpz::pow2(64 * 200), 1)));
  ASSERT_TRUE(all_orders_and_signs(Mpz::all_ones(64 * 200), plus(Mpz::pow2(64 * 200), 1)));
}

TEST_P(GcdAlgorithms, AllOnesLimbs) {
  // gcd(2^k - 1, 2^j - 1) = 2^gcd(k, j) - 1; every remainder is all ones too.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> kj = {
      {64 * 10, 64 * 9},         {64 * 400, 64 * 399},       {64 * 400, 64 * 200},     {64 * 400, 64 * 10},
      {64 * 399 + 63, 64 * 300},  {64 * 300, 64 * 300 - 1},   {64 * 256, 64 * 255 + 1}, {64 * 100 + 7, 64 * 33},
      {25537, 25536},            {25600, 12800 + 64},        {6400, 64 * 34},          {64 * 34, 64 * 33},
      {64 * 17, 64 * 16},        {64 * 350, 64 * 350 - 640}, {17 * 1000, 13 * 1000},   {23 * 997, 19 * 997}};
  for (const auto& [k, j] : kj) ASSERT_TRUE(all_orders_and_signs(Mpz::all_ones(k), Mpz::all_ones(j))) << k << ", " << j;
  // All-ones limbs against random values and against 0xAAAA... limbs.
  Operands gen(5008);
  for (std::size_t n : {10, 34, 100, 400}) {
    ASSERT_TRUE(all_orders_and_signs(Mpz::all_ones(64 * n), gen.uniform(64 * n)));
    ASSERT_TRUE(all_orders_and_signs(Mpz::all_ones(64 * n), repeated_limb(0xAAAAAAAAAAAAAAAAull, n)));
    ASSERT_TRUE(all_orders_and_signs(Mpz::all_ones(64 * n), gen.uniform(64 * (n / 2 + 1))));
  }
}

TEST_P(GcdAlgorithms, PowersOfTwoTimesOddNumbers) {
  Operands gen(5009);
  // (odd limbs, shift) pairs: shifts within a limb, across many limbs, and pure powers of two.
  const std::vector<std::pair<std::size_t, std::uint64_t>> shapes = {
      {100, 0}, {100, 1}, {100, 63}, {100, 64}, {100, 640}, {50, 64 * 100 + 5}, {0, 64 * 200}, {0, 64 * 399 + 1},
      {300, 3}, {10, 64 * 300}, {0, 1}};
  std::vector<Mpz> values;
  for (const auto& [limbs, shift] : shapes) {
    Mpz o = limbs ? gen.random_bits(64 * limbs - gen.below(64)) : Mpz::from_ui(1);
    mpz_setbit(o, 0);
    mpz_mul_2exp(o, o, shift);
    values.push_back(o);
  }
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t j = i + 1; j < values.size(); ++j)
      if (values[i].limbs() >= 10 || values[j].limbs() >= 10) {
        ASSERT_TRUE(all_orders_and_signs(values[i], values[j]));
      }
  // An odd common factor and different powers of two.
  const Mpz g = gen.uniform(64 * 80);
  Mpz a = product(g, Mpz::pow2(64 * 30 + 3)), b = product(g, Mpz::pow2(5));
  ASSERT_TRUE(all_orders_and_signs(a, b));
}

TEST_P(GcdAlgorithms, ManyRandomShapes) {
  Operands gen(5010);
  for (int i = 0; i < 60; ++i) {
    const std::size_t na = 10 + gen.below(391), nb = 1 + gen.below(400);
    Mpz a = gen.random_bits(64 * na - gen.below(64)), b = gen.random_bits(64 * nb - gen.below(64));
    if (gen.below(3) == 0) {  // a common factor of random size
      const Mpz g = gen.random_bits(64 * (1 + gen.below(std::min(na, nb))));
      a = product(a, g);
      b = product(b, g);
    }
    if (a.sgn() == 0 || b.sgn() == 0) continue;
    ASSERT_TRUE(all_orders_and_signs(a, b));
  }
}

TEST_P(GcdAlgorithms, ResultAliasingAnOperandAndZeroOperands) {
  Operands gen(5011);
  const Mpz a = gen.uniform(64 * 150), b = gen.uniform(64 * 140);
  Mpz want_g, want_s;
  mpz_gcdext(want_g, want_s, nullptr, a, b);
  for (std::size_t c : crossovers()) {
    Integer x = make(a), y = make(b);
    ASSERT_TRUE(mpgpu::detail::gcd_by_half_gcd(x, &y, x, y, c));  // g aliases a, s aliases b
    ASSERT_TRUE(matches(x, want_g));
    ASSERT_TRUE(matches(y, want_s));
    Integer u = make(a), v = make(b);
    ASSERT_TRUE(mpgpu::detail::gcd_by_half_gcd(v, &u, u, v, c));  // g aliases b, s aliases a
    ASSERT_TRUE(matches(v, want_g));
    ASSERT_TRUE(matches(u, want_s));
  }
  // A zero operand: declined (false), nothing changed.
  Integer g = make(Mpz::from_ui(9)), s = make(Mpz::from_ui(10));
  EXPECT_FALSE(mpgpu::detail::gcd_by_half_gcd(g, &s, make(Mpz()), make(a), 4));
  EXPECT_FALSE(mpgpu::detail::gcd_by_half_gcd(g, &s, make(a), make(Mpz()), 4));
  EXPECT_TRUE(matches(g, Mpz::from_ui(9)));
  EXPECT_TRUE(matches(s, Mpz::from_ui(10)));
}

// ---- the public calls on this context (GMP) ---------------------------------------

TEST_P(GcdAlgorithms, PublicCallsMatchGmp) {
  Operands gen(5012);
  const Mpz g = gen.uniform(64 * 30);
  std::vector<std::pair<Mpz, Mpz>> pairs = {
      {gen.uniform(64 * 50), gen.uniform(64 * 40)},
      {-gen.uniform(64 * 500), gen.uniform(64 * 499)},
      {product(g, gen.uniform(64 * 100)), -product(g, gen.uniform(64 * 90))},
      {fib(10000), fib(10001)},
      {Mpz::all_ones(64 * 300), Mpz::all_ones(64 * 200)},
      {gen.uniform(64 * (mpgpu::kDeviceGcdMinLimbs + 1)), -gen.uniform(64 * 1000)},
      {Mpz::from_ui(12), Mpz::from_ui(18)}};
  for (const auto& [a, b] : pairs) {
    Mpz want_g, want_s, want_t, want_l;
    mpz_gcdext(want_g, want_s, want_t, a, b);
    mpz_lcm(want_l, a, b);
    const Integer x = make(a), y = make(b);
    Integer r(ctx()), s(ctx()), t(ctx());
    mpgpu::gcd(r, x, y);
    ASSERT_TRUE(matches(r, want_g)) << a << ", " << b;
    mpgpu::lcm(r, x, y);
    ASSERT_TRUE(matches(r, want_l)) << a << ", " << b;
    mpgpu::gcdext(r, s, t, x, y);
    ASSERT_TRUE(matches(r, want_g) && matches(s, want_s) && matches(t, want_t)) << a << ", " << b;
    Mpz want_inv;
    const bool invertible = mpz_invert(want_inv, a, b) != 0;
    Integer inv = make(Mpz::from_si(-3));
    ASSERT_EQ(mpgpu::invert(inv, x, y), invertible) << a << " mod " << b;
    ASSERT_TRUE(matches(inv, invertible ? want_inv : Mpz::from_si(-3))) << a << " mod " << b;
  }
}

}  // namespace
