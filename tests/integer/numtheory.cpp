// Powers, roots and number theory against GMP: pow_ui, powm (base >= m,
// negative base, exponent 0, negative exponents, even and odd moduli),
// sqrt/sqrtrem/root/perfect_square_p on perfect powers and their neighbours,
// gcd/lcm on values with constructed common factors, gcdext with the Bezout
// identity checked, invert, fac_ui, fib_ui; errors and aliasing.
#include <vector>

#include "integer_test.hpp"
#include "support/mpz_arith.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

class NumberTheory : public IntegerTest {};

TEST_P(NumberTheory, PowUi) {
  Operands gen(50);
  const std::vector<Mpz> bases = with_both_signs({Mpz(), Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_ui(3),
                                                  Mpz::all_ones(64), Mpz::pow2(64), gen.runs(200),
                                                  gen.uniform(64 * 20)});
  for (const Mpz& b : bases)
    for (unsigned long e : {0ul, 1ul, 2ul, 3ul, 10ul, 63ul, 64ul, 101ul}) {
      Integer r(ctx());
      mpgpu::pow_ui(r, make(b), e);
      ASSERT_TRUE(matches(r, pow_of(b, e))) << b << " ^ " << e;
    }
  Integer x = make(Mpz::from_si(-7));
  mpgpu::pow_ui(x, x, 33);  // aliasing
  EXPECT_TRUE(matches(x, pow_of(Mpz::from_si(-7), 33)));
  // 3^(2^40) has ~1.7e12 bits: refused before GMP would abort; r untouched.
  Integer r = make(Mpz::from_ui(5));
  EXPECT_THROW(mpgpu::pow_ui(r, make(Mpz::from_ui(3)), 1ul << 40), mpgpu::Overflow);
  EXPECT_TRUE(matches(r, Mpz::from_ui(5)));
  mpgpu::pow_ui(r, make(Mpz::from_si(-1)), 1ul << 40);  // |base| <= 1 never grows
  EXPECT_TRUE(matches(r, Mpz::from_ui(1)));
}

TEST_P(NumberTheory, Powm) {
  Operands gen(51);
  const std::vector<Mpz> moduli = {Mpz::from_ui(1),  Mpz::from_ui(2),     Mpz::from_ui(97),
                                   Mpz::pow2(64),    Mpz::all_ones(64),   Mpz::all_ones(127),
                                   gen.runs(1000),   plus(Mpz::pow2(521), 0), Mpz::all_ones(521)};
  // Sanitizer-sized: one sign of m a modulus (in turn), and a third of the
  // (base, exponent) pairs, in rotation.
  int turn = 0;
  for (std::size_t k = 0; k < moduli.size(); ++k)
    for (const Mpz& m : {moduli[k], -moduli[k]}) {
      const bool negative = turn++ % 2 == 1;
      if (!sanitizer_keeps(k + negative, 2)) continue;
      Mpz big;  // base >= m
      mpz_mul_ui(big, m.abs(), 3);
      mpz_add_ui(big, big, 5);
      const std::vector<Mpz> bases = {Mpz(), Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_si(-2), big, -big,
                                      plus(m.abs(), -1), m.abs(), gen.uniform(700)};
      const std::vector<Mpz> exps = {Mpz(), Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_ui(65537),
                                     Mpz::all_ones(130), gen.runs(1000)};
      std::size_t pair = static_cast<std::size_t>(turn);
      for (const Mpz& b : bases)
        for (const Mpz& e : exps) {
          if (!sanitizer_keeps(pair++, 3)) continue;
          Mpz want;
          mpz_powm(want, b, e, m);
          Integer r(ctx());
          mpgpu::powm(r, make(b), make(e), make(m));
          ASSERT_TRUE(matches(r, want)) << b << " ^ " << e << " mod " << m;
        }
    }
  // Negative exponents: the inverse's power when the inverse exists.
  const Mpz m = Mpz::all_ones(127);  // 2^127 - 1 is prime
  for (const Mpz& b : {Mpz::from_ui(3), Mpz::from_si(-10), gen.uniform(300)}) {
    Mpz inv, want;
    ASSERT_TRUE(mpz_invert(inv, b, m));
    mpz_powm_ui(want, inv, 12345, m);
    Integer r(ctx());
    mpgpu::powm(r, make(b), make(Mpz::from_si(-12345)), make(m));
    ASSERT_TRUE(matches(r, want)) << b;
  }
  Integer r = make(Mpz::from_ui(9));
  EXPECT_THROW(mpgpu::powm(r, make(Mpz::from_ui(6)), make(Mpz::from_si(-1)), make(Mpz::from_ui(9))),
               mpgpu::InvalidArgument);  // gcd(6, 9) = 3: no inverse
  EXPECT_THROW(mpgpu::powm(r, make(Mpz::from_ui(6)), make(Mpz::from_ui(2)), make(Mpz())), mpgpu::DivisionByZero);
  EXPECT_TRUE(matches(r, Mpz::from_ui(9)));
  Integer x = make(Mpz::from_ui(4));
  mpgpu::powm(x, x, x, make(Mpz::from_ui(1000)));  // 4^4 mod 1000, all aliased
  EXPECT_TRUE(matches(x, Mpz::from_ui(256)));
}

// Moduli of 8192 limbs and more: on a CUDA context the device path (Barrett
// reduction by the Newton reciprocal of m, 4-bit windows above 64 exponent
// bits). Both signs of m; bases 0, 1, |m| - 1, above m^2, negative; exponents
// 0, 1, 2, one of 64 bits and one of 100 bits (windows, zero digits inside);
// results aliasing the operands.
TEST_P(NumberTheory, PowmHugeModulus) {
  Operands gen(52);
  const std::uint64_t bits = 64 * 8192 + 77;
  Mpz odd = gen.uniform(bits);
  mpz_setbit(odd, bits - 1);
  mpz_setbit(odd, 0);
  Mpz even = Mpz::all_ones(bits);
  mpz_clrbit(even, 0);
  Mpz e100 = gen.uniform(100);
  mpz_setbit(e100, 99);
  for (int z = 40; z < 70; ++z) mpz_clrbit(e100, z);  // a run of zero digits
  Mpz e64 = Mpz::all_ones(64);
  // Sanitizer-sized (the modulus stays at the crossover): the (base,
  // exponent) pairs with i + j = 0 mod 3, 8 of 25: every base and every
  // exponent, 100 bits with |m| - 1 and 64 bits with a random base.
  for (const Mpz& m : {odd, -even}) {
    Mpz huge_base;  // > m^2: reduced by mod first
    mpz_mul(huge_base, m, m);
    mpz_add_ui(huge_base, huge_base, 12345);
    std::size_t i = 0;
    for (const Mpz& b : {Mpz(), Mpz::from_ui(1), plus(m.abs(), -1), gen.uniform(bits - 3), -huge_base}) {
      std::size_t j = 0;
      for (const Mpz& e : {Mpz(), Mpz::from_ui(1), Mpz::from_ui(2), e64, e100}) {
        if (!sanitizer_keeps(i + j++, 3)) continue;
        Mpz want;
        mpz_powm(want, b, e, m);
        Integer r(ctx());
        mpgpu::powm(r, make(b), make(e), make(m));
        ASSERT_TRUE(matches(r, want)) << mpz_sizeinbase(b, 2) << "-bit base ^ " << e << " mod a "
                                      << mpz_sizeinbase(m, 2) << "-bit m";
      }
      ++i;
    }
  }
  Mpz b = gen.uniform(bits), want;  // result aliasing the base, then the modulus
  mpz_powm(want, b, e64, odd);
  Integer x = make(b);
  mpgpu::powm(x, x, make(e64), make(odd));
  EXPECT_TRUE(matches(x, want));
  Integer y = make(odd);
  mpgpu::powm(y, make(b), make(e64), y);
  EXPECT_TRUE(matches(y, want));
}

TEST_P(NumberTheory, SquareRootsOfPerfectSquaresAndNeighbours) {
  Operands gen(52);
  std::vector<Mpz> roots = {Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_ui(0xffffffffull),
                            Mpz::all_ones(64), Mpz::pow2(64), gen.runs(1000), gen.uniform(64 * 300)};
  std::vector<Mpz> values = {Mpz(), Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_ui(3), Mpz::all_ones(128)};
  for (const Mpz& k : roots) {
    const Mpz sq = pow_of(k, 2);
    values.push_back(sq);
    values.push_back(plus(sq, -1));
    values.push_back(plus(sq, 1));
  }
  for (const Mpz& a : values) {
    Mpz want_s, want_r;
    mpz_sqrtrem(want_s, want_r, a);
    Integer s(ctx()), r(ctx());
    mpgpu::sqrt(s, make(a));
    ASSERT_TRUE(matches(s, want_s)) << "sqrt " << a;
    mpgpu::sqrtrem(s, r, make(a));
    ASSERT_TRUE(matches(s, want_s)) << "sqrtrem " << a;
    ASSERT_TRUE(matches(r, want_r)) << "sqrtrem " << a;
    ASSERT_EQ(mpgpu::perfect_square_p(make(a)), mpz_perfect_square_p(a) != 0) << a;
    ASSERT_EQ(mpgpu::perfect_square_p(make(-a)), mpz_perfect_square_p((-a).get()) != 0) << -a;
  }
  Integer x = make(Mpz::from_ui(1000001));
  mpgpu::sqrt(x, x);
  EXPECT_TRUE(matches(x, Mpz::from_ui(1000)));
  const Mpz neg = Mpz::from_si(-4);
  Integer a = make(neg), s = make(Mpz::from_ui(7));
  EXPECT_THROW(mpgpu::sqrt(s, a), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::sqrtrem(s, x, a), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::sqrtrem(s, s, make(Mpz::from_ui(4))), mpgpu::InvalidArgument);
  EXPECT_TRUE(matches(a, neg));
  EXPECT_TRUE(matches(s, Mpz::from_ui(7)));
}

TEST_P(NumberTheory, KthRootsOfPerfectPowersAndNeighbours) {
  Operands gen(53);
  for (unsigned long k : {1ul, 2ul, 3ul, 5ul, 7ul, 64ul, 100ul})
    for (const Mpz& base : {Mpz::from_ui(2), Mpz::from_ui(3), Mpz::all_ones(64), gen.runs(300)}) {
      const Mpz p = pow_of(base, k);
      for (const Mpz& a : {p, plus(p, -1), plus(p, 1), -p, plus(-p, 1)}) {
        if (a.sgn() < 0 && k % 2 == 0) continue;
        Mpz want;
        const bool want_exact = mpz_root(want, a, k) != 0;
        Integer r(ctx());
        const bool exact = mpgpu::root(r, make(a), k);
        ASSERT_TRUE(matches(r, want)) << "root " << k << " of " << a;
        ASSERT_EQ(exact, want_exact) << "root " << k << " of " << a;
      }
    }
  Integer r = make(Mpz::from_ui(3));
  EXPECT_THROW(mpgpu::root(r, make(Mpz::from_si(-8)), 2), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::root(r, make(Mpz::from_ui(8)), 0), mpgpu::InvalidArgument);
  EXPECT_TRUE(matches(r, Mpz::from_ui(3)));
  EXPECT_TRUE(mpgpu::root(r, make(Mpz::from_si(-27)), 3));
  EXPECT_TRUE(matches(r, Mpz::from_si(-3)));
  Integer x = make(Mpz::from_ui(1000));
  EXPECT_TRUE(mpgpu::root(x, x, 3));
  EXPECT_TRUE(matches(x, Mpz::from_ui(10)));
}

TEST_P(NumberTheory, GcdLcmAndGcdext) {
  Operands gen(54);
  std::vector<std::pair<Mpz, Mpz>> pairs;
  const std::vector<Mpz> values = edge_pair_values();
  for (std::size_t i = 0; i < values.size(); i += 3)
    for (std::size_t j = 0; j < values.size(); j += 2) pairs.emplace_back(values[i], values[j]);
  for (int i = 0; i < 10; ++i) {  // common factors of every size
    const Mpz g = gen.random_value(200), x = gen.random_value(300), y = gen.random_value(100);
    Mpz a, b;
    mpz_mul(a, g, x);
    mpz_mul(b, g, y);
    pairs.emplace_back(a, gen.coin() ? -b : b);
  }
  for (const auto& [a, b] : pairs) {
    Mpz want_g, want_s, want_t, want_l;
    mpz_gcdext(want_g, want_s, want_t, a, b);
    mpz_lcm(want_l, a, b);
    const Integer x = make(a), y = make(b);
    Integer g(ctx()), s(ctx()), t(ctx()), l(ctx());
    mpgpu::gcd(g, x, y);
    ASSERT_TRUE(matches(g, want_g)) << "gcd " << a << ", " << b;
    mpgpu::lcm(l, x, y);
    ASSERT_TRUE(matches(l, want_l)) << "lcm " << a << ", " << b;
    mpgpu::gcdext(g, s, t, x, y);
    ASSERT_TRUE(matches(g, want_g)) << "gcdext " << a << ", " << b;
    ASSERT_TRUE(matches(s, want_s)) << "gcdext s " << a << ", " << b;
    ASSERT_TRUE(matches(t, want_t)) << "gcdext t " << a << ", " << b;
    // The identity itself, computed with mpgpu: a*s + b*t == g.
    ASSERT_TRUE(x * s + y * t == g) << "a*s + b*t != g for " << a << ", " << b;
    ASSERT_TRUE(matches(x, a) && matches(y, b));
  }
  Integer a = make(Mpz::from_ui(12)), b = make(Mpz::from_ui(18));
  mpgpu::gcd(a, a, b);  // aliasing
  EXPECT_TRUE(matches(a, Mpz::from_ui(6)));
  Integer g(ctx()), s(ctx());
  EXPECT_THROW(mpgpu::gcdext(g, s, s, a, b), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::gcdext(g, g, s, a, b), mpgpu::InvalidArgument);
  Integer x = make(Mpz::from_ui(240)), y = make(Mpz::from_ui(46));
  mpgpu::gcdext(x, y, s, x, y);  // g, s alias a, b
  EXPECT_TRUE(matches(x, Mpz::from_ui(2)));
  EXPECT_TRUE(matches(y * make(Mpz::from_ui(240)) + s * make(Mpz::from_ui(46)), Mpz::from_ui(2)));
}

TEST_P(NumberTheory, Invert) {
  Operands gen(55);
  const Mpz p = Mpz::all_ones(127);
  for (const Mpz& m : {p, -p, Mpz::pow2(200), Mpz::from_ui(2), Mpz::from_ui(1), Mpz::from_ui(15)})
    for (const Mpz& a : {Mpz(), Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_ui(3), Mpz::from_si(-7),
                         Mpz::from_ui(10), gen.uniform(400), p}) {
      Mpz want;
      const bool want_ok = mpz_invert(want, a, m) != 0;
      const Mpz before = Mpz::from_si(-99);
      Integer r = make(before);
      const bool ok = mpgpu::invert(r, make(a), make(m));
      ASSERT_EQ(ok, want_ok) << a << " mod " << m;
      ASSERT_TRUE(matches(r, ok ? want : before)) << a << " mod " << m;  // untouched when false
    }
  Integer r = make(Mpz::from_ui(1));
  EXPECT_THROW(mpgpu::invert(r, make(Mpz::from_ui(3)), make(Mpz())), mpgpu::DivisionByZero);
  EXPECT_TRUE(matches(r, Mpz::from_ui(1)));
}

TEST_P(NumberTheory, FactorialAndFibonacci) {
  for (unsigned long n : {0ul, 1ul, 2ul, 20ul, 21ul, 100ul, 1000ul, 30000ul}) {
    Mpz want;
    mpz_fac_ui(want, n);
    Integer r(ctx());
    mpgpu::fac_ui(r, n);
    ASSERT_TRUE(matches(r, want)) << n << "!";
    mpz_fib_ui(want, n);
    mpgpu::fib_ui(r, n);
    ASSERT_TRUE(matches(r, want)) << "F(" << n << ")";
  }
  Integer r(ctx());
  mpgpu::fac_ui(r, 20);
  EXPECT_EQ(r.to_uint64(), 2432902008176640000ull);
  mpgpu::fib_ui(r, 100);
  EXPECT_EQ(r.to_string(), "354224848179261915075");
  EXPECT_EQ(r.context(), ctx());
  EXPECT_THROW(mpgpu::fac_ui(r, 1ul << 40), mpgpu::Overflow);
  EXPECT_THROW(mpgpu::fib_ui(r, ~0ul), mpgpu::Overflow);
  EXPECT_EQ(r.to_string(), "354224848179261915075");
}

MPGPU_INSTANTIATE_ON_BACKEND(NumberTheory);

}  // namespace
