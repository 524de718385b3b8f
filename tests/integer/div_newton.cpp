// The Newton division algorithm of src/integer/integer_div_newton.cpp, run on the
// CPU context (GMP performs each of its Integer operations) against
// mpz_tdiv_qr, fdiv and cdiv. The reciprocal's seed comes from GMP on the
// host, up to kHostSeedBits = 32768 bits, and Newton steps take it from
// there: the sizes below put the reciprocal's precision (quotient bits + 65)
// below, at and just above the seed's size, and far above it (several
// steps). CI has no GPU, so this is where every commit checks the algorithm
// itself; tests/integer/div_device.cpp runs the same code on the device
// through the public functions (a CUDA context picks this path from
// kDeviceDivisionMinLimbs divisor limbs). Also powm_barrett, the powm a CUDA
// context runs for moduli of that size, against mpz_powm.
#include <string>
#include <vector>

#include "integer/integer_div_paths.hpp"  // private to the library (src/)
#include "integer_test.hpp"

namespace {

using mpgpu::Integer;
using mpgpu::detail::divide_newton;
using mpgpu::detail::NewtonDivisor;
using mpgpu::detail::powm_barrett;
using mpgpu::detail::Rounding;
using namespace mpgpu_test;

class DivNewton : public IntegerTest {
 protected:
  /// divide_newton's q and r for n / d in every rounding, against GMP.
  ::testing::AssertionResult check(const Mpz& n, const Mpz& d) const {
    const Integer x = make(n), y = make(d);
    struct Form {
      const char* name;
      Rounding rd;
      void (*gmp)(mpz_ptr, mpz_ptr, mpz_srcptr, mpz_srcptr);
    };
    const Form forms[] = {{"tdiv", Rounding::trunc, mpz_tdiv_qr},
                          {"fdiv", Rounding::floor, mpz_fdiv_qr},
                          {"cdiv", Rounding::ceil, mpz_cdiv_qr}};
    for (const Form& f : forms) {
      Integer q(ctx()), r(ctx());
      divide_newton(&q, &r, x, y, d.sgn(), f.rd, nullptr);
      Mpz wq, wr;
      f.gmp(wq.get(), wr.get(), n.get(), d.get());
      if (!matches(q, wq) || !matches(r, wr))
        return ::testing::AssertionFailure() << f.name << ": " << n.bits() << "-bit " << (n.sgn() < 0 ? "-" : "+")
                                             << " / " << d.bits() << "-bit " << (d.sgn() < 0 ? "-" : "+");
    }
    return ::testing::AssertionSuccess();
  }
};
MPGPU_INSTANTIATE_ON_BACKEND(DivNewton);

// Quotients of 0 .. 140000 bits by divisors of 64 .. 40000 bits; the seed
// covers quotients of up to 32703 bits (precision 32768), one Newton step
// 32704 .. ~65400, several beyond.
TEST_P(DivNewton, QuotientSizesAroundTheHostSeed) {
  Operands gen(71);
  for (std::uint64_t dbits : {64, 65, 1000, 6400, 40000}) {
    const Mpz d = gen.random_bits(dbits);
    for (std::uint64_t qbits : {0, 1, 63, 1000, 32702, 32703, 32704, 32705, 32800, 70000, 140000}) {
      const Mpz n = gen.random_bits(dbits + qbits);
      ASSERT_TRUE(check(n, d)) << "quotient of about " << qbits << " bits";
      ASSERT_TRUE(check(-n, d));
      ASSERT_TRUE(check(n, -d));
    }
  }
}

// All-ones and power-of-two divisors, q = 0 and q = 1, a divisor just above
// half the dividend, each with a quotient longer than the seed.
TEST_P(DivNewton, SpecialOperands) {
  Operands gen(72);
  const std::uint64_t dbits = 5000, nbits = dbits + 50000;
  const Mpz n = gen.runs(nbits), ones = Mpz::all_ones(nbits);
  Mpz half_plus, n_plus;
  mpz_fdiv_q_2exp(half_plus.get(), n.get(), 1);
  mpz_add_ui(half_plus.get(), half_plus.get(), 1);
  mpz_add_ui(n_plus.get(), n.get(), 1);
  const std::vector<std::pair<Mpz, Mpz>> cases = {
      {n, Mpz::pow2(dbits)},        {n, Mpz::pow2(dbits + 37)}, {n, Mpz::all_ones(dbits)},
      {ones, Mpz::all_ones(dbits)}, {ones, ones},               {n, half_plus},
      {n, n_plus},                  {Mpz(), gen.uniform(dbits)},
  };
  for (const auto& [nv, dv] : cases) ASSERT_TRUE(check(nv, dv));
}

// One NewtonDivisor (the reciprocal made once, as powm uses it) for many
// dividends up to its prepared size: N = Q |d| + R, 0 <= R < |d|.
TEST_P(DivNewton, PreparedDivisorForManyDividends) {
  Operands gen(73);
  const Mpz dm = gen.runs(3000);
  const std::uint64_t max_bits = 3000 + 70000;
  const NewtonDivisor divisor(make(dm), max_bits, nullptr);
  for (std::uint64_t bits : {std::uint64_t{1}, std::uint64_t{2999}, std::uint64_t{3000}, std::uint64_t{40000},
                             max_bits}) {
    const Mpz n = gen.random_bits(bits);
    Integer q(ctx()), r(ctx());
    divisor.divide(&q, r, make(n), nullptr);
    Mpz wq, wr;
    mpz_tdiv_qr(wq.get(), wr.get(), n.get(), dm.get());
    ASSERT_TRUE(matches(q, wq)) << bits << "-bit dividend";
    ASSERT_TRUE(matches(r, wr)) << bits << "-bit dividend";
  }
}

// powm by Barrett reduction with one prepared divisor: binary up to 64
// exponent bits, 4-bit windows above (digits of zero included); bases that
// are negative, zero, multiples of m or above it; negative moduli.
TEST_P(DivNewton, PowmBarrettMatchesGmp) {
  Operands gen(74);
  for (std::uint64_t mbits : {2, 65, 700, 5000}) {
    Mpz m = gen.random_bits(mbits);
    if (mpz_cmp_ui(m.get(), 1) <= 0) m = Mpz::from_ui(3);
    for (std::uint64_t ebits : {0, 1, 2, 63, 64, 65, 300}) {
      const Mpz e = ebits ? gen.random_bits(ebits) : Mpz();
      Mpz base_times_m;
      mpz_mul_ui(base_times_m.get(), m.get(), 12345);
      for (const Mpz& base : {gen.random_bits(mbits + 40), -gen.random_bits(mbits), Mpz(), base_times_m,
                              Mpz::from_ui(2)}) {
        for (const Mpz& mod : {m, -m}) {
          Integer r(ctx());
          powm_barrett(r, make(base), make(e), make(mod), nullptr);
          Mpz want;
          mpz_powm(want.get(), base.get(), e.get(), mod.get());
          ASSERT_TRUE(matches(r, want)) << mbits << "-bit modulus, " << ebits << "-bit exponent, base "
                                        << base.bits() << " bits";
        }
      }
    }
  }
}

}  // namespace
