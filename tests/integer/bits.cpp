// Shifts, two's-complement bitwise operations and bit queries against GMP:
// mul_2exp / tdiv_q_2exp / fdiv_q_2exp at limb-boundary counts and counts
// beyond the number, and/ior/xor/com for every sign combination, popcount,
// sizeinbase2, tstbit / setbit / clrbit inside and beyond the magnitude.
#include <limits>
#include <vector>

#include "integer_test.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

class Bits : public IntegerTest {};
MPGPU_INSTANTIATE_ON_BACKEND(Bits);

/// Shift counts: limb boundaries, random, and past the top of `v`
/// (sanitizer-sized: 0, 1, a whole limb, a limb and a bit, two limbs).
std::vector<std::uint64_t> shift_counts(const Mpz& v, Operands& gen) {
  std::vector<std::uint64_t> s =
      sized<std::vector<std::uint64_t>>({0, 1, 2, 63, 64, 65, 127, 128, 129, 1000}, {0, 1, 64, 65, 128});
  s.push_back(gen.below(64 * 40));
  s.push_back(v.bits());
  s.push_back(v.bits() + 1);
  if (v.bits()) s.push_back(v.bits() - 1);
  s.push_back(v.bits() + 64 * 3 + 7);
  return s;
}

TEST_P(Bits, Shifts) {
  Operands gen;
  std::vector<Mpz> values = edge_values();
  for (int i = 0; i < sized(20, 4); ++i) values.push_back(gen.random_signed(2500));
  // Sizes at the edges of the device's blocks (512 output limbs a block).
  for (std::uint64_t limbs : {511, 512, 513, 1025, 4097}) {
    const Mpz v = gen.random_bits(64 * limbs);
    values.push_back(gen.coin() ? -v : v);
  }
  for (const Mpz& a : values) {
    const Integer x = make(a);
    for (std::uint64_t k : shift_counts(a, gen)) {
      Integer r(ctx());
      Mpz want;
      mpgpu::mul_2exp(r, x, k);
      mpz_mul_2exp(want, a, k);
      ASSERT_TRUE(matches(r, want)) << a << " << " << k;
      mpgpu::tdiv_q_2exp(r, x, k);
      mpz_tdiv_q_2exp(want, a, k);
      ASSERT_TRUE(matches(r, want)) << "tdiv_q_2exp(" << a << ", " << k << ")";
      mpgpu::fdiv_q_2exp(r, x, k);
      mpz_fdiv_q_2exp(want, a, k);
      ASSERT_TRUE(matches(r, want)) << "fdiv_q_2exp(" << a << ", " << k << ")";
    }
    ASSERT_TRUE(matches(x, a));
  }
}

TEST_P(Bits, ShiftsByHugeCounts) {
  // Right shifts by counts far past any size: 0, or -1 when flooring a negative.
  for (const Mpz& a : edge_pair_values())
    for (std::uint64_t k : {std::uint64_t{1} << 40, std::uint64_t{1} << 62, std::numeric_limits<std::uint64_t>::max()}) {
      Integer r(ctx());
      Mpz want;
      mpgpu::tdiv_q_2exp(r, make(a), k);
      mpz_tdiv_q_2exp(want, a, k);
      ASSERT_TRUE(matches(r, want)) << "tdiv_q_2exp(" << a << ", " << k << ")";
      mpgpu::fdiv_q_2exp(r, make(a), k);
      mpz_fdiv_q_2exp(want, a, k);
      ASSERT_TRUE(matches(r, want)) << "fdiv_q_2exp(" << a << ", " << k << ")";
    }
  Integer r(ctx());
  mpgpu::mul_2exp(r, Integer(ctx()), std::uint64_t{1} << 40);  // zero stays zero
  EXPECT_TRUE(matches(r, Mpz()));
}

TEST_P(Bits, ShiftsInPlace) {
  Operands gen;
  for (int i = 0; i < sized(40, 8); ++i) {
    const Mpz a = gen.random_signed(300);
    const std::uint64_t k = gen.below(64 * 5);
    Mpz want;
    Integer x = make(a);
    mpgpu::mul_2exp(x, x, k);
    mpz_mul_2exp(want, a, k);
    ASSERT_TRUE(matches(x, want));
    x = make(a);
    mpgpu::fdiv_q_2exp(x, x, k);
    mpz_fdiv_q_2exp(want, a, k);
    ASSERT_TRUE(matches(x, want));
    x = make(a);
    mpgpu::tdiv_q_2exp(x, x, k);
    mpz_tdiv_q_2exp(want, a, k);
    ASSERT_TRUE(matches(x, want));
  }
}

/// and, ior, xor of x = a and y = b into a fresh result.
::testing::AssertionResult check_bitwise(const Integer& x, const Integer& y, const Mpz& a, const Mpz& b) {
  Integer r(x.context());
  Mpz want;
  mpgpu::and_(r, x, y);
  mpz_and(want, a, b);
  if (auto m = matches(r, want); !m) return m << " in " << a << " & " << b;
  mpgpu::ior(r, x, y);
  mpz_ior(want, a, b);
  if (auto m = matches(r, want); !m) return m << " in " << a << " | " << b;
  mpgpu::xor_(r, x, y);
  mpz_xor(want, a, b);
  if (auto m = matches(r, want); !m) return m << " in " << a << " ^ " << b;
  return ::testing::AssertionSuccess();
}

TEST_P(Bits, BitwiseEverySignCombination) {
  // Sanitizer-sized: a third of the pairs (an odd number of values in
  // rotation, so every sign combination of every kind still comes round).
  const std::vector<Mpz> values = edge_pair_values();
  std::size_t pair = 0;
  for (const Mpz& a : values) {
    const Integer x = make(a);
    for (const Mpz& b : values)
      if (sanitizer_keeps(pair++, 3)) ASSERT_TRUE(check_bitwise(x, make(b), a, b));
    ASSERT_TRUE(matches(x, a));
  }
}

TEST_P(Bits, BitwiseRandomSizes) {
  Operands gen;
  const int rounds = sized(200, 24), small = rounds * 3 / 4;  // 3/4 of them up to 100 limbs
  for (int i = 0; i < rounds; ++i) {
    Mpz a = gen.random_signed(i < small ? 100 : 3000), b = gen.random_signed(i < small ? 100 : 3000);
    if (i % 4 == 0) mpz_mul_2exp(b, b, 64 * gen.below(20));  // low zero limbs: the tc borrow runs through them
    ASSERT_TRUE(check_bitwise(make(a), make(b), a, b));
  }
}

TEST_P(Bits, BitwiseSpecialCases) {
  const Mpz m1 = Mpz::from_si(-1), u64 = Mpz::all_ones(64), p64 = Mpz::pow2(64);
  const std::vector<std::pair<Mpz, Mpz>> cases = {
      {m1, u64},                       // -1 ^ (2^64 - 1) = -2^64
      {-p64, -p64},                    // -2^64 & -2^64
      {-p64, u64},                     // disjoint in two's complement
      {-p64, p64},
      {m1, m1},
      {-Mpz::pow2(128), Mpz::all_ones(128)},
      {-Mpz::all_ones(128), Mpz::all_ones(64)},
      {-Mpz::pow2(64 * 3000), -Mpz::pow2(64 * 2999 + 1)},
      {Mpz::all_ones(64 * 2049), -Mpz::from_ui(1)},
  };
  for (const auto& [a, b] : cases) {
    ASSERT_TRUE(check_bitwise(make(a), make(b), a, b));
    ASSERT_TRUE(check_bitwise(make(b), make(a), b, a));
  }
}

// On the device a nonzero top limb of the result of non-negative operands
// decides its size (bitwise.cuh: early publication); a zero top limb makes
// every block report its highest limb. Multi-tile operands of equal and
// unequal sizes whose top limbs do either for and, ior, xor.
TEST_P(Bits, BitwiseTopLimbsThatDecideTheSizeOrNot) {
  Operands gen;
  const std::uint64_t max = ~std::uint64_t{0};
  // Sanitizer-sized: a top that is zero for and (0xF0, 0x0F), one nonzero
  // for all three (max, max: xor's is zero), one nonzero for and, ior, xor (3, 5).
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> tops =
      sized<std::vector<std::pair<std::uint64_t, std::uint64_t>>>(
          {{0xF0, 0x0F}, {0xFF, 0xFF}, {max, max}, {max, 1}, {1, 1}, {3, 5}}, {{0xF0, 0x0F}, {max, max}, {3, 5}});
  for (std::size_t limbs : {std::size_t{513}, std::size_t{2049}, std::size_t{4100}, std::size_t{70001}}) {
    for (const auto& [x, y] : tops) {
      Mpz a = gen.runs(64 * (limbs - 1)), b = gen.runs(64 * (limbs - 1)), tx = Mpz::from_ui(x), ty = Mpz::from_ui(y);
      mpz_mul_2exp(tx, tx, 64 * (limbs - 1));
      mpz_mul_2exp(ty, ty, 64 * (limbs - 1));
      mpz_add(a, a, tx);
      mpz_add(b, b, ty);
      ASSERT_TRUE(check_bitwise(make(a), make(b), a, b)) << limbs << " limbs, tops " << x << " and " << y;
      const Mpz shorter = gen.runs(64 * (limbs / 2));
      ASSERT_TRUE(check_bitwise(make(a), make(shorter), a, shorter)) << limbs << " limbs against " << limbs / 2;
      ASSERT_TRUE(check_bitwise(make(shorter), make(a), shorter, a)) << limbs / 2 << " limbs against " << limbs;
    }
  }
}

TEST_P(Bits, ComplementAndAliasing) {
  Operands gen;
  std::vector<Mpz> values = edge_values();
  for (int i = 0; i < sized(10, 3); ++i) values.push_back(gen.random_signed(2000));
  for (const Mpz& a : values) {
    Integer r(ctx());
    Mpz want;
    mpz_com(want, a);
    mpgpu::com(r, make(a));
    ASSERT_TRUE(matches(r, want)) << "~" << a;
    Integer x = make(a);
    mpgpu::com(x, x);
    ASSERT_TRUE(matches(x, want)) << "com(a, a), " << a;
    x = make(a);
    mpgpu::and_(x, x, x);
    ASSERT_TRUE(matches(x, a)) << "a & a";
    mpgpu::ior(x, x, x);
    ASSERT_TRUE(matches(x, a)) << "a | a";
    mpgpu::xor_(x, x, x);
    ASSERT_TRUE(matches(x, Mpz())) << "a ^ a";
  }
}

TEST_P(Bits, PopcountAndSizeInBase2) {
  Operands gen;
  std::vector<Mpz> values = edge_values();
  for (int i = 0; i < sized(20, 4); ++i) values.push_back(gen.random_signed(3000));
  for (const Mpz& a : values) {
    const Integer x = make(a);
    // Negative numbers have infinitely many ones: GMP and mpgpu say ~0.
    const std::uint64_t want_pop =
        a.sgn() < 0 ? std::numeric_limits<std::uint64_t>::max() : mpz_popcount(a);
    ASSERT_EQ(mpgpu::popcount(x), want_pop) << a;
    ASSERT_EQ(mpgpu::sizeinbase2(x), mpz_sizeinbase(a, 2)) << a;
  }
}

// Around the one-block popcount (up to 8192 limbs: the count goes straight
// to the host): all ones, one bit at each end, random.
TEST_P(Bits, PopcountAroundTheOneBlockLimit) {
  Operands gen;
  for (std::size_t limbs : {std::size_t{8191}, std::size_t{8192}, std::size_t{8193}}) {
    Mpz ones;
    mpz_setbit(ones, 64 * limbs);
    mpz_sub_ui(ones, ones, 1);
    Mpz ends;
    mpz_setbit(ends, 0);
    mpz_setbit(ends, 64 * limbs - 1);
    for (const Mpz& a : {ones, ends, gen.random_bits(64 * limbs)})
      ASSERT_EQ(mpgpu::popcount(make(a)), mpz_popcount(a)) << limbs << " limbs";
  }
}

/// Bit indexes to probe: low, limb edges, the top of the magnitude and past it.
std::vector<std::uint64_t> bit_indexes(const Mpz& v, Operands& gen) {
  const std::uint64_t top = 64 * v.limbs();
  std::vector<std::uint64_t> s = {0, 1, 63, 64, 65, 127, 128, top, top + 1, top + 63, top + 64, top + 1000};
  if (top) {
    s.push_back(top - 1);
    s.push_back(v.bits() - 1);
    for (int i = 0; i < sized(6, 2); ++i) s.push_back(gen.below(top));
  }
  // The lowest set bit and its neighbours: where two's complement changes shape.
  if (v.sgn()) {
    const std::uint64_t low = mpz_scan1(v, 0);
    s.push_back(low);
    s.push_back(low + 1);
    if (low) s.push_back(low - 1);
  }
  return s;
}

TEST_P(Bits, TestBit) {
  Operands gen;
  std::vector<Mpz> values = edge_values();
  for (int i = 0; i < sized(20, 4); ++i) values.push_back(gen.random_signed(500));
  for (const Mpz& a : values) {
    const Integer x = make(a);
    for (std::uint64_t i : bit_indexes(a, gen))
      ASSERT_EQ(mpgpu::tstbit(x, i), mpz_tstbit(a, i) != 0) << "bit " << i << " of " << a;
    ASSERT_EQ(mpgpu::tstbit(x, std::uint64_t{1} << 40), a.sgn() < 0) << a;
  }
}

TEST_P(Bits, SetAndClearBit) {
  Operands gen;
  std::vector<Mpz> values = edge_pair_values();
  for (int i = 0; i < sized(10, 3); ++i) values.push_back(gen.random_signed(300));
  for (const Mpz& a : values)
    for (std::uint64_t i : bit_indexes(a, gen)) {
      Mpz want = a;
      mpz_setbit(want, i);
      Integer x = make(a);
      mpgpu::setbit(x, i);
      ASSERT_TRUE(matches(x, want)) << "setbit(" << a << ", " << i << ")";
      want = a;
      mpz_clrbit(want, i);
      x = make(a);
      mpgpu::clrbit(x, i);
      ASSERT_TRUE(matches(x, want)) << "clrbit(" << a << ", " << i << ")";
    }
  // Clearing the only bit leaves zero; clearing the top bit shrinks the size.
  Integer x = make(Mpz::pow2(64 * 5));
  mpgpu::clrbit(x, 64 * 5);
  EXPECT_TRUE(matches(x, Mpz()));
  x = make(Mpz::all_ones(64 * 5 + 1));
  mpgpu::clrbit(x, 64 * 5);
  EXPECT_TRUE(matches(x, Mpz::all_ones(64 * 5)));
}

}  // namespace
