// The device division paths against GMP (on the CPU backend the same bodies
// check GMP's own semantics): divisors of one limb (the scan of
// src/cuda/div_limb.cu: tiles of 4096 limbs, threads of 16, so sizes
// around 1, 16, a tile and many tiles) and divisors of at least kDeviceDivisionMinLimbs limbs (the
// Newton path), with every sign, every rounding, mod, divexact, divisible_p
// and the _ui functions. Failure messages give sizes, not values (operands
// reach 2^20 limbs).
#include <string>
#include <vector>

#include "integer_test.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

constexpr std::uint64_t kLimbMax = ~std::uint64_t{0};
/// Limbs per tile of the single-limb scan (DivLimbPolicy::kTile).
constexpr std::uint64_t kScanTile = 4096;

std::string describe(const Mpz& n, const Mpz& d) {
  return std::to_string(n.sgn() * static_cast<long>(n.limbs())) + "-limb / " +
         std::to_string(d.sgn() * static_cast<long>(d.limbs())) + "-limb (signed sizes)";
}

class DivDevice : public IntegerTest {
 protected:
  /// Every rounding in its qr, q and r forms, mod, divexact of n - r, and
  /// divisible_p, for n / d with the given signs.
  ::testing::AssertionResult check(const Mpz& n, const Mpz& d) const {
    const Integer x = make(n), y = make(d);
    struct Form {
      const char* name;
      void (*qr)(Integer&, Integer&, const Integer&, const Integer&, mpgpu::Stream);
      void (*q)(Integer&, const Integer&, const Integer&, mpgpu::Stream);
      void (*r)(Integer&, const Integer&, const Integer&, mpgpu::Stream);
      void (*gmp)(mpz_ptr, mpz_ptr, mpz_srcptr, mpz_srcptr);
    };
    const Form forms[] = {{"tdiv", mpgpu::tdiv_qr, mpgpu::tdiv_q, mpgpu::tdiv_r, mpz_tdiv_qr},
                          {"fdiv", mpgpu::fdiv_qr, mpgpu::fdiv_q, mpgpu::fdiv_r, mpz_fdiv_qr},
                          {"cdiv", mpgpu::cdiv_qr, mpgpu::cdiv_q, mpgpu::cdiv_r, mpz_cdiv_qr}};
    for (const Form& f : forms) {
      Mpz wq, wr;
      f.gmp(wq, wr, n, d);
      Integer q(ctx()), r(ctx());
      f.qr(q, r, x, y, nullptr);
      if (!matches(q, wq, false) || !matches(r, wr, false))
        return ::testing::AssertionFailure() << f.name << "_qr of " << describe(n, d);
      Integer q1(ctx()), r1(ctx());
      f.q(q1, x, y, nullptr);
      f.r(r1, x, y, nullptr);
      if (!matches(q1, wq, false)) return ::testing::AssertionFailure() << f.name << "_q of " << describe(n, d);
      if (!matches(r1, wr, false)) return ::testing::AssertionFailure() << f.name << "_r of " << describe(n, d);
    }
    Mpz want, rem;
    mpz_mod(want, n, d);
    Integer m(ctx());
    mpgpu::mod(m, x, y);
    if (!matches(m, want, false)) return ::testing::AssertionFailure() << "mod of " << describe(n, d);
    mpz_tdiv_r(rem, n, d);
    Mpz exact;
    mpz_sub(exact, n, rem);  // a multiple of d
    mpz_divexact(want, exact, d);
    Integer e(ctx());
    mpgpu::divexact(e, make(exact), y);
    if (!matches(e, want, false)) return ::testing::AssertionFailure() << "divexact of " << describe(exact, d);
    if (mpgpu::divisible_p(x, y) != (mpz_divisible_p(n, d) != 0))
      return ::testing::AssertionFailure() << "divisible_p of " << describe(n, d);
    if (!mpgpu::divisible_p(make(exact), y))
      return ::testing::AssertionFailure() << "divisible_p of a multiple, " << describe(exact, d);
    if (!matches(x, n, false) || !matches(y, d, false))
      return ::testing::AssertionFailure() << "an operand changed in " << describe(n, d);
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

/// Sanitizer-sized: 1, 3, 10 (even), 2^63, 2^64 - 1, 2^64 - 2, a random odd one.
std::vector<Mpz> limb_divisors(Operands& gen) {
  if (sanitizer_sized())
    return {Mpz::from_ui(1),        Mpz::from_ui(3),          Mpz::from_ui(10),           Mpz::pow2(63),
            Mpz::from_ui(kLimbMax), Mpz::from_ui(kLimbMax - 1), Mpz::from_ui(gen.limb() | 1)};
  std::vector<Mpz> v = {Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_ui(3), Mpz::from_ui(10),
                        Mpz::pow2(31), Mpz::pow2(32), Mpz::pow2(63), Mpz::from_ui(kLimbMax),
                        Mpz::from_ui(kLimbMax - 1), Mpz::from_ui((std::uint64_t{1} << 63) + 1),
                        Mpz::from_ui(0xffffffffull), Mpz::from_ui(1000000007)};
  for (int i = 0; i < 3; ++i) v.push_back(Mpz::from_ui(gen.limb() | 1));
  return v;
}

TEST_P(DivDevice, OneLimbDivisorsEverySignAroundTheTile) {
  Operands gen(51);
  const std::vector<Mpz> divisors = limb_divisors(gen);
  // Sanitizer-sized: 1 limb, a thread's 16 and one more, a tile less one,
  // a tile, a tile plus one, several tiles; one dividend of the three in
  // turn for each divisor.
  const std::vector<std::uint64_t> sizes = sized<std::vector<std::uint64_t>>(
      {1, 2, 15, 16, 17, kScanTile / 2 + 3, kScanTile - 1, kScanTile, kScanTile + 1, 3 * kScanTile + 17},
      {1, 16, 17, kScanTile - 1, kScanTile, kScanTile + 1, 3 * kScanTile + 17});
  std::size_t turn = 0;
  for (std::uint64_t limbs : sizes) {
    const std::vector<Mpz> dividends = {gen.runs(64 * limbs), gen.uniform(64 * limbs - 5),
                                        Mpz::all_ones(64 * limbs)};
    for (const Mpz& n : dividends)
      for (const Mpz& d : divisors)
        if (sanitizer_keeps(turn++, 3)) ASSERT_TRUE(check_signs(n, d));
  }
}

TEST_P(DivDevice, OneLimbQuotientsZeroAndOne) {
  Operands gen(52);
  for (const Mpz& d : limb_divisors(gen)) {
    Mpz below, plus_one, twice;
    mpz_sub_ui(below, d, 1);       // q = 0 (or n = 0 for d = 1)
    mpz_add_ui(plus_one, d, 0);    // q = 1, r = 0
    mpz_mul_2exp(twice, d, 1);
    mpz_sub_ui(twice, twice, 1);   // q = 1, r = d - 1
    for (const Mpz& n : {below, plus_one, twice, Mpz()}) ASSERT_TRUE(check_signs(n, d));
  }
}

TEST_P(DivDevice, LongScanAcrossManyTiles) {
  // 2^20 limbs: 512 tiles, so the look-back walks windows of 32 tiles; the
  // all-ones dividend gives the same remainder pattern in every tile.
  // Sanitizer-sized: 65 tiles, the fewest whose look-back crosses two whole
  // windows; divisors 3, 2^64 - 1 (odd), 2^63 and 10^19 (even).
  Operands gen(53);
  const std::uint64_t limbs = sized((std::uint64_t{1} << 20) + 5, 65 * kScanTile + 5);
  std::vector<std::uint64_t> divisors = {std::uint64_t{3}, kLimbMax, std::uint64_t{1} << 63, gen.limb() | 1,
                                         std::uint64_t{10000000000000000000ull}, (gen.limb() | 2) & ~std::uint64_t{1},
                                         std::uint64_t{3} << 40};
  if (sanitizer_sized()) divisors = {divisors[0], divisors[1], divisors[2], divisors[4]};
  for (const Mpz& n : {gen.uniform(64 * limbs), Mpz::all_ones(64 * limbs)})
    // Odd divisors, and even ones (the scan divides a >> twos by the odd part).
    for (std::uint64_t d : divisors) {
      const Mpz dv = Mpz::from_ui(d);
      const Integer x = make(n), y = make(dv), xneg = make(-n);
      Mpz wq, wr;
      mpz_tdiv_qr(wq, wr, n, dv);
      Integer q(ctx()), r(ctx());
      mpgpu::tdiv_qr(q, r, x, y);
      ASSERT_TRUE(matches(q, wq, false)) << "tdiv_qr q by " << d;
      ASSERT_TRUE(matches(r, wr, false)) << "tdiv_qr r by " << d;
      mpz_fdiv_qr(wq, wr, (-n).get(), dv);
      mpgpu::fdiv_qr(q, r, xneg, y);
      ASSERT_TRUE(matches(q, wq, false)) << "fdiv_qr q of -n by " << d;
      ASSERT_TRUE(matches(r, wr, false)) << "fdiv_qr r of -n by " << d;
      EXPECT_EQ(mpgpu::tdiv_ui(x, d), mpz_tdiv_ui(n, d)) << d;
    }
}

TEST_P(DivDevice, WordFunctions) {
  Operands gen(54);
  for (std::uint64_t limbs : {std::uint64_t{1}, std::uint64_t{3}, kScanTile + 1}) {
    for (const Mpz& n : {gen.runs(64 * limbs), -gen.uniform(64 * limbs), Mpz()})
      for (std::uint64_t d : {std::uint64_t{1}, std::uint64_t{7}, kLimbMax, gen.limb() | 1}) {
        Mpz wq, wr;
        const unsigned long want = mpz_tdiv_qr_ui(wq, wr, n, d);
        Integer q(ctx()), r(ctx());
        EXPECT_EQ(mpgpu::tdiv_qr_ui(q, r, make(n), d), want);
        EXPECT_TRUE(matches(q, wq));
        EXPECT_TRUE(matches(r, wr));
        Integer q1(ctx());
        EXPECT_EQ(mpgpu::tdiv_q_ui(q1, make(n), d), want);
        EXPECT_TRUE(matches(q1, wq));
        EXPECT_EQ(mpgpu::tdiv_ui(make(n), d), want);
      }
  }
  Integer q(ctx()), r(ctx());
  EXPECT_THROW(mpgpu::tdiv_qr_ui(q, r, Integer(5, ctx()), 0), mpgpu::DivisionByZero);
  EXPECT_THROW(mpgpu::tdiv_q_ui(q, Integer(5, ctx()), 0), mpgpu::DivisionByZero);
  EXPECT_THROW((void)mpgpu::tdiv_ui(Integer(5, ctx()), 0), mpgpu::DivisionByZero);
  EXPECT_THROW(mpgpu::tdiv_qr_ui(q, q, Integer(5, ctx()), 3), mpgpu::InvalidArgument);
  // Aliasing: the quotient replaces the dividend.
  const Mpz nv = gen.runs(64 * 100);
  Integer x = make(nv);
  Mpz wq;
  const unsigned long want = mpz_tdiv_q_ui(wq, nv, 12345);
  EXPECT_EQ(mpgpu::tdiv_q_ui(x, x, 12345), want);
  EXPECT_TRUE(matches(x, wq));
}

TEST_P(DivDevice, NewtonSizesAroundTheThreshold) {
  // Sanitizer-sized: the dividend sizes in turn, one a divisor size, the
  // host's side (t - 1) and the device's (t, t + 1) each once or more.
  Operands gen(55);
  const std::uint64_t t = mpgpu::kDeviceDivisionMinLimbs;
  std::size_t turn = 0;
  for (std::uint64_t dl : {t - 1, t, t + 1}) {
    const Mpz d = gen.random_bits(64 * dl);
    for (std::uint64_t nl : {dl, dl + 1, 2 * dl + 3})
      if (sanitizer_keeps(turn++, 2)) ASSERT_TRUE(check_signs(gen.random_bits(64 * nl), d));
  }
}

TEST_P(DivDevice, NewtonSpecialDivisors) {
  Operands gen(56);
  const std::uint64_t dl = mpgpu::kDeviceDivisionMinLimbs + 7, nl = 2 * dl + 5;
  const Mpz n = gen.runs(64 * nl), ones = Mpz::all_ones(64 * nl);
  Mpz half, half_plus, n_plus;
  mpz_fdiv_q_2exp(half, n, 1);
  mpz_add_ui(half_plus, half, 1);  // just above half: q = 1
  mpz_add_ui(n_plus, n, 1);        // larger than n: q = 0
  const std::vector<std::pair<Mpz, Mpz>> cases = {
      {n, Mpz::pow2(64 * dl)},            // power of two
      {n, Mpz::pow2(64 * dl + 37)},
      {n, Mpz::all_ones(64 * dl)},        // all-ones divisor
      {ones, Mpz::all_ones(64 * dl)},     // all-ones both
      {ones, Mpz::all_ones(64 * nl)},     // q = 1, r = 0
      {n, half_plus},
      {n, half},                          // q = 2
      {n, n},
      {n, n_plus},
      {Mpz(), gen.uniform(64 * dl)},
  };
  for (const auto& [nv, dv] : cases) ASSERT_TRUE(check_signs(nv, dv));
}

TEST_P(DivDevice, NewtonWellAboveTheThreshold) {
  // 2^16 by 2^15 limbs (2^22 by 2^21 bits), and an unbalanced pair.
  // Sanitizer-sized: 2^15 by 2^14 limbs, the smallest power of two whose
  // Newton steps multiply by NTTs at the last two precisions (2^14 and
  // 2^13 limbs: 2^13 * 2^13 > kSchoolbookMaxWork); -n once.
  Operands gen(57);
  const std::uint64_t dl = sized(std::uint64_t{1} << 15, std::uint64_t{1} << 14);
  const Mpz d = gen.uniform(64 * dl), n = gen.runs(64 * 2 * dl);
  if (!sanitizer_sized()) ASSERT_TRUE(check(n, d));
  ASSERT_TRUE(check(-n, d));
  ASSERT_TRUE(check(gen.uniform(64 * 3 * dl + 11), -gen.runs(64 * (mpgpu::kDeviceDivisionMinLimbs + 1))));
}

MPGPU_INSTANTIATE_ON_BACKEND(DivDevice);

}  // namespace
