// Division against GMP: tdiv/fdiv/cdiv in their qr, q and r forms, mod,
// divexact, divisible_p, congruent_p and the / % operators, for every sign
// combination of dividend and divisor. Divisors: powers of two, all-ones,
// just above half the dividend (q = 1), equal to it (q = 1, r = 0), larger
// than it (q = 0), single-limb and multi-limb, and random sizes. Division by
// zero must throw and change nothing; results may alias operands.
#include <functional>
#include <utility>
#include <vector>

#include "integer_test.hpp"

namespace {

using mpgpu::Integer;
using mpgpu::Stream;
using namespace mpgpu_test;

using QrFn = void (*)(Integer&, Integer&, const Integer&, const Integer&, Stream);
using OneFn = void (*)(Integer&, const Integer&, const Integer&, Stream);
using GmpQrFn = void (*)(mpz_ptr, mpz_ptr, mpz_srcptr, mpz_srcptr);
using GmpOneFn = void (*)(mpz_ptr, mpz_srcptr, mpz_srcptr);

/// One rounding: its three mpgpu forms and GMP's.
struct Rounding {
  const char* name;
  QrFn qr;
  OneFn q, r;
  GmpQrFn gmp_qr;
};

const std::vector<Rounding>& roundings() {
  static const std::vector<Rounding> r = {
      {"tdiv", mpgpu::tdiv_qr, mpgpu::tdiv_q, mpgpu::tdiv_r, mpz_tdiv_qr},
      {"fdiv", mpgpu::fdiv_qr, mpgpu::fdiv_q, mpgpu::fdiv_r, mpz_fdiv_qr},
      {"cdiv", mpgpu::cdiv_qr, mpgpu::cdiv_q, mpgpu::cdiv_r, mpz_cdiv_qr},
  };
  return r;
}

/// Non-negative (dividend, divisor) pairs; the tests add the signs.
/// Sanitizer-sized: dividends of 1 bit, one limb, just past it, 1000 bits
/// and 300 limbs; power-of-two and all-ones divisors of 0, 1, 64, 65, 200
/// and 40 limbs of bits; 4 random pairs.
std::vector<std::pair<Mpz, Mpz>> division_pairs() {
  Operands gen(40);
  std::vector<std::pair<Mpz, Mpz>> cases;
  auto add = [&](const Mpz& n, const Mpz& d) {
    if (d.sgn()) cases.emplace_back(n, d);
  };
  auto plus = [](const Mpz& a, long k) {
    Mpz r;
    if (k >= 0) mpz_add_ui(r, a, static_cast<unsigned long>(k));
    else mpz_sub_ui(r, a, static_cast<unsigned long>(-k));
    return r;
  };
  const std::vector<std::uint64_t> dividend_bits = sized<std::vector<std::uint64_t>>(
      {1u, 63u, 64u, 65u, 128u, 129u, 1000u, 64u * 40, 64u * 300 + 17}, {1u, 64u, 65u, 1000u, 64u * 300 + 17});
  const std::vector<std::uint64_t> divisor_bits = sized<std::vector<std::uint64_t>>(
      {0u, 1u, 31u, 63u, 64u, 65u, 127u, 200u, 64u * 40}, {0u, 1u, 64u, 65u, 200u, 64u * 40});
  for (std::uint64_t nbits : dividend_bits) {
    const Mpz n = gen.random_bits(nbits);
    const Mpz ones = Mpz::all_ones(nbits);
    for (std::uint64_t k : divisor_bits) {
      add(n, Mpz::pow2(k));       // powers of two, below and above n
      add(n, Mpz::all_ones(k));   // all-ones divisors
      add(ones, Mpz::all_ones(k));
    }
    Mpz half;
    mpz_fdiv_q_2exp(half, n, 1);
    add(n, plus(half, 1));  // just above half: q = 1
    add(n, half);           // q = 2 (or more for tiny n)
    add(n, n);              // q = 1, r = 0
    add(n, plus(n, -1));    // q = 1, r = 1 (or q = n for n = 2)
    add(n, plus(n, 1));     // larger: q = 0, r = n
    add(n, Mpz::pow2(nbits + 64));
    add(ones, plus(ones, 0));
    add(Mpz(), n);  // zero dividend
    add(n, Mpz::from_ui(1));
    add(n, Mpz::from_ui(3));
    add(n, Mpz::from_ui(0xffffffffffffffffull));  // largest single limb
    add(n, gen.random_bits(1 + gen.below(64)));   // single-limb divisor
    add(n, gen.random_bits(1 + gen.below(nbits)));
  }
  for (int i = 0; i < sized(12, 4); ++i) {  // random multi-limb sizes, including nd > nn
    const Mpz n = gen.random_value(2000), d = gen.random_value(1200);
    add(n, d);
  }
  return cases;
}

class Div : public IntegerTest {
 protected:
  /// Every division function on (n, d) against GMP.
  ::testing::AssertionResult check(const Mpz& n, const Mpz& d) const {
    const Integer x = make(n), y = make(d);
    for (const Rounding& rd : roundings()) {
      Mpz want_q, want_r;
      rd.gmp_qr(want_q, want_r, n, d);
      Integer q(ctx()), r(ctx());
      rd.qr(q, r, x, y, nullptr);
      if (auto m = matches(q, want_q); !m) return m << " in " << rd.name << "_qr q of " << n << " / " << d;
      if (auto m = matches(r, want_r); !m) return m << " in " << rd.name << "_qr r of " << n << " / " << d;
      Integer q1(ctx()), r1(ctx());
      rd.q(q1, x, y, nullptr);
      rd.r(r1, x, y, nullptr);
      if (auto m = matches(q1, want_q); !m) return m << " in " << rd.name << "_q of " << n << " / " << d;
      if (auto m = matches(r1, want_r); !m) return m << " in " << rd.name << "_r of " << n << " / " << d;
    }
    Mpz want;
    mpz_mod(want, n, d);
    Integer r(ctx());
    mpgpu::mod(r, x, y);
    if (auto m = matches(r, want); !m) return m << " in mod " << n << " % " << d;
    mpz_tdiv_q(want, n, d);
    if (auto m = matches(x / y, want); !m) return m << " in operator/ " << n << " / " << d;
    mpz_tdiv_r(want, n, d);
    if (auto m = matches(x % y, want); !m) return m << " in operator% " << n << " % " << d;
    if (mpgpu::divisible_p(x, y) != (mpz_divisible_p(n, d) != 0))
      return ::testing::AssertionFailure() << "divisible_p " << n << " by " << d;
    for (long k : {0L, 1L, -3L}) {  // c = n + k*d is congruent, c + 1 is not (unless |d| = 1)
      Mpz c;
      mpz_mul_si(c, d, k);
      mpz_add(c, c, n);
      for (int delta : {0, 1}) {
        if (delta) mpz_add_ui(c, c, 1);
        if (mpgpu::congruent_p(x, make(c), y) != (mpz_congruent_p(n, c, d) != 0))
          return ::testing::AssertionFailure() << "congruent_p " << n << ", " << c << " mod " << d;
      }
    }
    if (!matches(x, n) || !matches(y, d)) return ::testing::AssertionFailure() << "an operand changed";
    return ::testing::AssertionSuccess();
  }
  /// Every sign combination of (n, d); sanitizer-sized, one of the four,
  /// the next each call (so consecutive cases take all four in turn).
  ::testing::AssertionResult check_signs(const Mpz& n, const Mpz& d) {
    const int turn = signs_turn_++;
    for (int signs = 0; signs < 4; ++signs) {
      if (sanitizer_sized() && signs != turn % 4) continue;
      if (auto m = check((signs & 1) ? -n : n, (signs & 2) ? -d : d); !m) return m;
    }
    return ::testing::AssertionSuccess();
  }

 private:
  int signs_turn_ = 0;
};

TEST_P(Div, EverySignAndSpecialDivisors) {
  for (const auto& [n, d] : division_pairs()) ASSERT_TRUE(check_signs(n, d));
}

TEST_P(Div, EdgeValuePairs) {
  // Sanitizer-sized: a third of the pairs, in rotation (see Bits).
  const std::vector<Mpz> values = edge_pair_values();
  std::size_t pair = 0;
  for (const Mpz& n : values)
    for (const Mpz& d : values) {
      if (d.sgn() == 0 || !sanitizer_keeps(pair++, 3)) continue;
      ASSERT_TRUE(check(n, d));
    }
}

TEST_P(Div, SmallValuesAgainstCSemantics) {
  // tdiv is C's / and %; fdiv is Python's // and %.
  struct Case {
    long n, d, tq, tr, fq, fr, cq, cr, mod;
  };
  for (const Case& c : {Case{7, 2, 3, 1, 3, 1, 4, -1, 1}, Case{-7, 2, -3, -1, -4, 1, -3, -1, 1},
                        Case{7, -2, -3, 1, -4, -1, -3, 1, 1}, Case{-7, -2, 3, -1, 3, -1, 4, 1, 1},
                        Case{6, 3, 2, 0, 2, 0, 2, 0, 0}, Case{0, -5, 0, 0, 0, 0, 0, 0, 0}}) {
    const Integer n(c.n, ctx()), d(c.d, ctx());
    Integer q(ctx()), r(ctx());
    mpgpu::tdiv_qr(q, r, n, d);
    EXPECT_EQ(q.to_int64(), c.tq) << c.n << " tdiv " << c.d;
    EXPECT_EQ(r.to_int64(), c.tr) << c.n << " tdiv " << c.d;
    mpgpu::fdiv_qr(q, r, n, d);
    EXPECT_EQ(q.to_int64(), c.fq) << c.n << " fdiv " << c.d;
    EXPECT_EQ(r.to_int64(), c.fr) << c.n << " fdiv " << c.d;
    mpgpu::cdiv_qr(q, r, n, d);
    EXPECT_EQ(q.to_int64(), c.cq) << c.n << " cdiv " << c.d;
    EXPECT_EQ(r.to_int64(), c.cr) << c.n << " cdiv " << c.d;
    mpgpu::mod(r, n, d);
    EXPECT_EQ(r.to_int64(), c.mod) << c.n << " mod " << c.d;
  }
}

TEST_P(Div, DivexactOfExactMultiples) {
  Operands gen(41);
  // Sanitizer-sized: 3, a power of two, all ones, 50 and 900 limbs.
  std::vector<Mpz> factors = {Mpz::from_ui(1), Mpz::from_ui(3), Mpz::pow2(64), Mpz::all_ones(64),
                              Mpz::all_ones(64 * 7), gen.runs(64 * 50), gen.uniform(64 * 900 + 3)};
  if (sanitizer_sized()) factors = {factors[1], factors[2], factors[4], factors[5], factors[6]};
  for (const Mpz& d : factors)
    for (const Mpz& k : factors)
      for (const Mpz& sd : {d, -d})
        for (const Mpz& sk : {k, -k, Mpz()}) {
          Mpz n;
          mpz_mul(n, sd, sk);
          Integer q(ctx());
          mpgpu::divexact(q, make(n), make(sd));
          ASSERT_TRUE(matches(q, sk)) << "divexact " << n << " / " << sd;
          ASSERT_TRUE(mpgpu::divisible_p(make(n), make(sd)));
        }
}

TEST_P(Div, DivisionByZeroThrowsAndChangesNothing) {
  const Mpz nv = Mpz::all_ones(200);
  const Integer n = make(nv), zero(0, ctx());
  const Mpz q0 = Mpz::from_si(-12345), r0 = Mpz::pow2(70);
  Integer q = make(q0), r = make(r0);
  auto unchanged = [&] {
    return matches(n, nv) && matches(zero, Mpz()) && matches(q, q0) && matches(r, r0);
  };
  for (const Rounding& rd : roundings()) {
    EXPECT_THROW(rd.qr(q, r, n, zero, nullptr), mpgpu::DivisionByZero) << rd.name;
    EXPECT_THROW(rd.q(q, n, zero, nullptr), mpgpu::DivisionByZero) << rd.name;
    EXPECT_THROW(rd.r(r, n, zero, nullptr), mpgpu::DivisionByZero) << rd.name;
    EXPECT_TRUE(unchanged()) << rd.name;
  }
  EXPECT_THROW(mpgpu::mod(r, n, zero), mpgpu::DivisionByZero);
  EXPECT_THROW(mpgpu::divexact(q, n, zero), mpgpu::DivisionByZero);
  EXPECT_THROW((void)(n / zero), mpgpu::DivisionByZero);
  EXPECT_THROW((void)(n % zero), mpgpu::DivisionByZero);
  Integer x = n;
  EXPECT_THROW(x /= zero, mpgpu::DivisionByZero);
  EXPECT_THROW(x %= zero, mpgpu::DivisionByZero);
  EXPECT_TRUE(matches(x, nv));
  EXPECT_THROW(mpgpu::tdiv_q(x, x, zero), mpgpu::DivisionByZero);  // aliased and failing
  EXPECT_TRUE(matches(x, nv));
  EXPECT_TRUE(unchanged());
  try {
    mpgpu::fdiv_qr(q, r, n, zero);
    ADD_FAILURE() << "no exception";
  } catch (const mpgpu::DivisionByZero& e) {
    EXPECT_NE(std::string(e.what()).find("fdiv_qr"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("division by zero"), std::string::npos) << e.what();
  }
  // GMP defines these for d = 0 instead of failing: only 0 is divisible by 0,
  // and congruence mod 0 is equality.
  EXPECT_FALSE(mpgpu::divisible_p(n, zero));
  EXPECT_TRUE(mpgpu::divisible_p(zero, zero));
  EXPECT_TRUE(mpgpu::congruent_p(n, n, zero));
  EXPECT_FALSE(mpgpu::congruent_p(n, zero, zero));
}

TEST_P(Div, QuotientAndRemainderMustBeDistinct) {
  const Mpz nv = Mpz::from_ui(100), qv = Mpz::from_ui(5);
  Integer q = make(qv);
  for (const Rounding& rd : roundings())
    EXPECT_THROW(rd.qr(q, q, make(nv), make(Mpz::from_ui(7)), nullptr), mpgpu::InvalidArgument) << rd.name;
  EXPECT_TRUE(matches(q, qv));
}

TEST_P(Div, ResultsMayAliasOperands) {
  Operands gen(42);
  const Mpz nv = gen.runs(64 * 30 + 5), dv = -gen.uniform(64 * 11);
  for (const Rounding& rd : roundings()) {
    Mpz want_q, want_r;
    rd.gmp_qr(want_q, want_r, nv, dv);
    Integer n = make(nv), d = make(dv);
    rd.qr(n, d, n, d, nullptr);  // q is n, r is d
    EXPECT_TRUE(matches(n, want_q)) << rd.name;
    EXPECT_TRUE(matches(d, want_r)) << rd.name;
    n = make(nv);
    d = make(dv);
    rd.qr(d, n, n, d, nullptr);  // q is d, r is n
    EXPECT_TRUE(matches(d, want_q)) << rd.name;
    EXPECT_TRUE(matches(n, want_r)) << rd.name;
    n = make(nv);
    rd.q(n, n, make(dv), nullptr);
    EXPECT_TRUE(matches(n, want_q)) << rd.name;
    d = make(dv);
    rd.r(d, make(nv), d, nullptr);
    EXPECT_TRUE(matches(d, want_r)) << rd.name;
    n = make(nv);
    rd.qr(n, d, n, n, nullptr);  // n / n
    EXPECT_TRUE(matches(n, Mpz::from_ui(1))) << rd.name;
    EXPECT_TRUE(matches(d, Mpz())) << rd.name;
  }
  Integer x = make(nv);
  x /= make(dv);
  Mpz want;
  mpz_tdiv_q(want, nv, dv);
  EXPECT_TRUE(matches(x, want));
  x = make(nv);
  x %= make(dv);
  mpz_tdiv_r(want, nv, dv);
  EXPECT_TRUE(matches(x, want));
  x = make(nv);
  mpgpu::mod(x, x, x);
  EXPECT_TRUE(matches(x, Mpz()));
}

MPGPU_INSTANTIATE_ON_BACKEND(Div);

}  // namespace
