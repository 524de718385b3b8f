// add, sub, neg, abs, cmp, cmpabs, sgn and sum against GMP: every sign
// combination of the adversarial set, random and unbalanced sizes, full carry
// and borrow chains, results that shrink or vanish, aliasing, and sizes around
// the device's 1024-limb tiles (1M-limb carry chain included).
#include <span>
#include <vector>

#include "integer_test.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

class AddSub : public IntegerTest {
 protected:
  /// a + b, a - b, b - a, cmp and cmpabs both ways, into fresh results.
  ::testing::AssertionResult check_pair(const Mpz& a, const Mpz& b) const {
    const Integer x = make(a), y = make(b);
    Mpz want;
    Integer r(ctx());
    mpgpu::add(r, x, y);
    mpz_add(want, a, b);
    if (auto m = matches(r, want); !m) return m << " in " << a << " + " << b;
    mpgpu::sub(r, x, y);
    mpz_sub(want, a, b);
    if (auto m = matches(r, want); !m) return m << " in " << a << " - " << b;
    mpgpu::sub(r, y, x);
    mpz_sub(want, b, a);
    if (auto m = matches(r, want); !m) return m << " in " << b << " - " << a;
    if (int c = mpgpu::cmp(x, y); c != sign_of(mpz_cmp(a, b)))
      return ::testing::AssertionFailure() << "cmp " << c << " for " << a << " vs " << b;
    if (int c = mpgpu::cmp(y, x); c != sign_of(mpz_cmp(b, a)))
      return ::testing::AssertionFailure() << "cmp " << c << " for " << b << " vs " << a;
    if (int c = mpgpu::cmpabs(x, y); c != sign_of(mpz_cmpabs(a, b)))
      return ::testing::AssertionFailure() << "cmpabs " << c << " for " << a << " vs " << b;
    if (int c = mpgpu::cmpabs(y, x); c != sign_of(mpz_cmpabs(b, a)))
      return ::testing::AssertionFailure() << "cmpabs " << c << " for " << b << " vs " << a;
    if (!matches(x, a) || !matches(y, b)) return ::testing::AssertionFailure() << "an operand changed";
    return ::testing::AssertionSuccess();
  }

  /// sum() of the terms against repeated mpz_add.
  ::testing::AssertionResult check_sum(const std::vector<Mpz>& terms) const {
    std::vector<Integer> xs;
    Mpz want;
    for (const Mpz& v : terms) {
      xs.push_back(make(v));
      mpz_add(want, want, v);
    }
    Integer r = make(Mpz::from_si(99));  // overwritten
    mpgpu::sum(r, std::span<const Integer>(xs));
    return matches(r, want) << " (sum of " << terms.size() << " terms)";
  }
};
MPGPU_INSTANTIATE_ON_BACKEND(AddSub);

// Sanitizer-sized: every a against one b in three in rotation (check_pair
// runs both orders, so each pair of values still meets in one of them for a
// third of the set).
TEST_P(AddSub, EverySignCombinationOfEdgeValues) {
  const std::vector<Mpz> values = edge_pair_values();
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t j = 0; j < values.size(); ++j)
      if (sanitizer_keeps(i + j, 3)) {
        ASSERT_TRUE(check_pair(values[i], values[j]));
      }
}

TEST_P(AddSub, RandomAndUnbalancedSizes) {
  Operands gen;
  for (int i = 0; i < sized(150, 30); ++i) ASSERT_TRUE(check_pair(gen.random_signed(3000), gen.random_signed(3000)));
  for (int i = 0; i < sized(50, 10); ++i) {
    Mpz big = gen.random_bits(64 * (1000 + gen.below(100))), small = gen.random_bits(1 + gen.below(64));
    if (gen.coin()) big = -big;
    if (gen.coin()) small = -small;
    ASSERT_TRUE(check_pair(big, small));
  }
}

// Sanitizer-sized: the bit sizes within, at and past one and two limbs and
// 4096 bits, and every tile size.
TEST_P(AddSub, CarryAndBorrowChains) {
  std::vector<std::uint64_t> bits = sized<std::vector<std::uint64_t>>(boundary_bits(), {1, 63, 64, 65, 128, 129, 4096, 4097});
  for (std::uint64_t limbs : {1023, 1024, 1025, 2047, 2048, 2049, 4097, 100000}) bits.push_back(64 * limbs);
  const Mpz one = Mpz::from_ui(1);
  for (std::uint64_t n : bits) {
    const Mpz ones = Mpz::all_ones(n), pow = Mpz::pow2(n);
    ASSERT_TRUE(check_pair(ones, one)) << "2^" << n << " - 1 and 1";          // carry through every limb
    ASSERT_TRUE(check_pair(-ones, -one)) << "-(2^" << n << " - 1) and -1";
    ASSERT_TRUE(check_pair(pow, one)) << "2^" << n << " and 1";               // borrow through every limb
    ASSERT_TRUE(check_pair(pow, -one)) << "2^" << n << " and -1";
    ASSERT_TRUE(check_pair(ones, ones)) << "2^" << n << " - 1 twice";
    ASSERT_TRUE(check_pair(ones, -pow)) << "2^" << n << " - 1 and -2^" << n;
  }
}

TEST_P(AddSub, MillionLimbCarryChain) {
  const std::uint64_t n = 64ull << 20;  // 2^20 limbs
  const Integer ones = Integer::all_ones(n, ctx());
  ASSERT_TRUE(matches(ones, Mpz::all_ones(n), false));
  const Integer one(1, ctx());
  Integer r(ctx());
  mpgpu::add(r, ones, one);
  ASSERT_TRUE(matches(r, Mpz::pow2(n), false));
  mpgpu::sub(r, r, one);  // and the borrow back down
  ASSERT_TRUE(matches(r, Mpz::all_ones(n), false));
  mpgpu::sub(r, one, Integer::power_of_two(n, ctx()));
  Mpz want = Mpz::all_ones(n);
  ASSERT_TRUE(matches(r, -want, false));
}

// Sanitizer-sized: one random round a size instead of three.
TEST_P(AddSub, TileBoundarySizes) {
  Operands gen;
  for (std::size_t limbs : {1, 2, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 6143, 100000}) {
    for (int round = 0; round < sized(3, 1); ++round) {
      Mpz a = gen.random_bits(64 * limbs), b = gen.random_bits(64 * limbs - gen.below(64 * limbs));
      ASSERT_TRUE(check_pair(a, b)) << limbs << " limbs";
      ASSERT_TRUE(check_pair(-a, b)) << limbs << " limbs";
    }
    // Equal except one limb at a tile edge: the difference is short.
    Mpz a = gen.runs(64 * limbs), b = a;
    mpz_combit(b, 64 * std::min<std::size_t>(limbs - 1, 1023) + 5);
    ASSERT_TRUE(check_pair(a, b)) << limbs << " limbs, one bit apart";
    b = a;
    mpz_combit(b, 64 * std::min<std::size_t>(limbs - 1, 2047) + 5);
    ASSERT_TRUE(check_pair(a, b)) << limbs << " limbs, one bit apart";
    ASSERT_TRUE(check_pair(a, -b)) << limbs << " limbs, one bit apart";
  }
}

// Equal-size operands that differ in one limb, above, at and below the edge
// of the device search's probe (its top 4 chunks of 2048 limbs, run before
// the full search on more than 16 chunks), and operands that are equal.
TEST_P(AddSub, ComparisonsAcrossTheSearchProbe) {
  Operands gen;
  for (std::size_t limbs : {std::size_t{16 * 2048}, std::size_t{16 * 2048 + 1}, std::size_t{100000}}) {
    Mpz a = gen.random_bits(64 * limbs);
    mpz_setbit(a, 64 * limbs - 1);  // full size: the subtraction compares on the device
    for (std::size_t from_top : {std::size_t{0}, std::size_t{8191}, std::size_t{8192}, std::size_t{8193},
                                 std::size_t{30000}, limbs - 1}) {
      Mpz b = a;
      mpz_combit(b, 64 * (limbs - 1 - from_top) + 7);
      ASSERT_TRUE(check_pair(a, b)) << limbs << " limbs, differing " << from_top << " limbs from the top";
    }
    ASSERT_TRUE(check_pair(a, a)) << limbs << " limbs, equal";
  }
}

// Equal-size operands with equal top limbs, longer than the tiles that all
// SMs hold at once: the blocks find the order from the top down before
// they subtract (scan_add.cuh, order_from_top), later blocks joining after
// the first wave; differences at the bottom, in the middle, at a tile's
// top limb, and none.
TEST_P(AddSub, EqualTopsLongerThanOneWave) {
  if (!on_gpu()) GTEST_SKIP() << "the order search across waves of blocks is the device's";
  Operands gen;
  const std::size_t limbs = std::size_t{3} << 20;  // 3072 tiles of 1024 limbs
  Mpz a = gen.random_bits(64 * limbs);
  mpz_setbit(a, 64 * limbs - 1);
  const Integer x = make(a);
  for (std::size_t at : {std::size_t{0}, limbs / 2, std::size_t{1024 * 1000 - 1}}) {
    Mpz b = a;
    mpz_combit(b, 64 * at + 17);
    const Integer y = make(b);
    for (bool swap : {false, true}) {
      Integer r(ctx());
      mpgpu::sub(r, swap ? y : x, swap ? x : y);
      Mpz want;
      mpz_sub(want, swap ? b : a, swap ? a : b);
      ASSERT_TRUE(matches(r, want)) << "differing at limb " << at << (swap ? ", b - a" : ", a - b");
    }
  }
  Integer r(ctx());
  mpgpu::sub(r, x, make(a));
  ASSERT_TRUE(matches(r, Mpz())) << "a - a";
}

// Equal-size operands around the one-block comparison (a subtraction of up
// to 1024 limbs is one block; a comparison of up to 2048 limbs hands its key
// straight to the host), differing in the top,
// a middle, the bottom limb, or not at all.
TEST_P(AddSub, ComparisonsAroundTheOneBlockSearch) {
  Operands gen;
  for (std::size_t limbs : {std::size_t{1}, std::size_t{1023}, std::size_t{1024}, std::size_t{1025}, std::size_t{2047},
                            std::size_t{2048}, std::size_t{2049}}) {
    Mpz a = gen.random_bits(64 * limbs);
    mpz_setbit(a, 64 * limbs - 1);
    for (std::size_t from_top : {std::size_t{0}, limbs / 2, limbs - 1}) {
      Mpz b = a;
      mpz_combit(b, 64 * (limbs - 1 - from_top) + 63);
      if (mpz_sizeinbase(b, 2) != 64 * limbs) continue;  // b lost its top limb: not the same size
      ASSERT_TRUE(check_pair(a, b)) << limbs << " limbs, differing " << from_top << " limbs from the top";
    }
    ASSERT_TRUE(check_pair(a, a)) << limbs << " limbs, equal";
  }
}

TEST_P(AddSub, ResultsThatShrinkOrVanish) {
  Operands gen;
  std::vector<Mpz> values = edge_values();
  for (int i = 0; i < sized(30, 8); ++i) values.push_back(gen.random_signed(2000));
  for (const Mpz& a : values) {
    const Integer x = make(a);
    Integer r(ctx());
    mpgpu::sub(r, x, x);
    ASSERT_TRUE(matches(r, Mpz())) << a << " - itself";
    mpgpu::add(r, x, make(-a));
    ASSERT_TRUE(matches(r, Mpz())) << a << " + its negation";
  }
  for (std::uint64_t n : {64, 65, 128, 1000, 64 * 2048, 64 * 5000}) {
    Mpz big = Mpz::pow2(n), small = Mpz::from_ui(5);
    mpz_add(big, big, small);  // 2^n + 5
    Integer r(ctx());
    mpgpu::sub(r, make(big), make(Mpz::pow2(n)));
    ASSERT_TRUE(matches(r, small)) << "(2^" << n << " + 5) - 2^" << n;
    mpgpu::add(r, make(-Mpz::pow2(n)), make(big));
    ASSERT_TRUE(matches(r, small)) << "-2^" << n << " + (2^" << n << " + 5)";
    // A random number minus itself with a changed low limb.
    Mpz a = gen.runs(n), b = a;
    mpz_add_ui(b, b, 12345);
    ASSERT_TRUE(check_pair(a, b)) << n << " bits";
  }
}

/// A number of `limbs` limbs (or fewer, when `top` is 0) whose top limb is
/// `top` and whose lower limbs are runs of ones and zeros.
Mpz with_top_limb(Operands& gen, std::size_t limbs, std::uint64_t top) {
  Mpz v = gen.runs(64 * (limbs - 1)), t = Mpz::from_ui(top);
  mpz_mul_2exp(t, t, 64 * (limbs - 1));
  mpz_add(v, v, t);
  return v;
}

// On the device the top limbs decide the size of a multi-tile sum or
// difference, and the order of an equal-size difference, when they differ by
// 2 or more (scan_add.cuh: early publication); otherwise every block reports
// its highest limb. Both sides of that line, and borrows into the top limb.
TEST_P(AddSub, TopLimbsThatDecideTheSizeOrNot) {
  Operands gen;
  const std::uint64_t max = ~std::uint64_t{0};
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> tops = {
      {9, 5}, {5, 9}, {6, 5}, {5, 6}, {7, 7}, {2, 0}, {1, 0}, {max, max}, {max, 1}, {max - 1, max}, {1, 1}};
  for (std::size_t limbs : {std::size_t{2049}, std::size_t{4100}, std::size_t{70001}}) {
    for (const auto& [x, y] : tops) {
      for (int round = 0; round < sized(2, 1); ++round) {  // sanitizer-sized: one round
        const Mpz a = with_top_limb(gen, limbs, x), b = with_top_limb(gen, limbs, y);
        ASSERT_TRUE(check_pair(a, b)) << limbs << " limbs, tops " << x << " and " << y;
      }
    }
    // The borrow empties the top limb: 2^(64(n-1)) + 3 - (2^(64(n-1)) - 1).
    Mpz a = Mpz::pow2(64 * (limbs - 1)), b = Mpz::all_ones(64 * (limbs - 1));
    mpz_add_ui(a, a, 3);
    ASSERT_TRUE(check_pair(a, b)) << limbs << " limbs, top 1 against none";
  }
}

TEST_P(AddSub, NegAbsSgn) {
  for (const Mpz& a : edge_values()) {
    const Integer x = make(a);
    Integer r(ctx());
    mpgpu::neg(r, x);
    ASSERT_TRUE(matches(r, -a));
    mpgpu::abs(r, x);
    ASSERT_TRUE(matches(r, a.abs()));
    ASSERT_EQ(mpgpu::sgn(x), a.sgn());
    Integer y = x;
    y.negate();
    ASSERT_TRUE(matches(y, -a));
    ASSERT_TRUE(matches(-x, -a));
    ASSERT_TRUE(matches(x, a));  // operands untouched
  }
}

TEST_P(AddSub, ResultsMayAliasOperands) {
  Operands gen;
  std::vector<Mpz> values = edge_pair_values();
  for (int i = 0; i < 10; ++i) values.push_back(gen.random_signed(500));
  // Sanitizer-sized: one b in five instead of one in two.
  const std::size_t b_step = sized<std::size_t>(2, 5);
  for (std::size_t i = 0; i < values.size(); i += 3)
    for (std::size_t j = 0; j < values.size(); j += b_step) {
      const Mpz &a = values[i], &b = values[j];
      Mpz want;
      Integer x = make(a);
      mpgpu::add(x, x, x);
      mpz_add(want, a, a);
      ASSERT_TRUE(matches(x, want)) << "add(a, a, a), a = " << a;
      x = make(a);
      Integer y = make(b);
      mpgpu::sub(x, x, y);
      mpz_sub(want, a, b);
      ASSERT_TRUE(matches(x, want)) << "sub(a, a, b), " << a << ", " << b;
      ASSERT_TRUE(matches(y, b));
      x = make(a);
      mpgpu::sub(y, x, y);
      ASSERT_TRUE(matches(y, want)) << "sub(b, a, b), " << a << ", " << b;
      y = make(b);
      mpgpu::add(y, x, y);
      mpz_add(want, a, b);
      ASSERT_TRUE(matches(y, want)) << "add(b, a, b), " << a << ", " << b;
      mpgpu::sub(x, x, x);
      ASSERT_TRUE(matches(x, Mpz())) << "sub(a, a, a)";
      x = make(a);
      mpgpu::neg(x, x);
      ASSERT_TRUE(matches(x, -a));
      mpgpu::abs(x, x);
      ASSERT_TRUE(matches(x, a.abs()));
    }
}

// The result may be one of the terms (first, middle or last), whose value
// the sum still needs after the first addition.
TEST_P(AddSub, SumIntoOneOfItsTerms) {
  Operands gen;
  for (std::size_t count : {1, 2, 3, 8}) {
    for (std::size_t target = 0; target < count; ++target) {
      std::vector<Mpz> values;
      Mpz want;
      for (std::size_t i = 0; i < count; ++i) {
        values.push_back(gen.random_signed(64 * (1 + i * 7)));
        mpz_add(want, want, values.back());
      }
      std::vector<Integer> xs;
      for (const Mpz& v : values) xs.push_back(make(v));
      mpgpu::sum(xs[target], std::span<const Integer>(xs));
      ASSERT_TRUE(matches(xs[target], want)) << count << " terms, into term " << target;
    }
  }
}

TEST_P(AddSub, SumOfManyTerms) {
  Operands gen;
  EXPECT_TRUE(check_sum({}));
  EXPECT_TRUE(check_sum({Mpz::from_si(-7)}));
  EXPECT_TRUE(check_sum({Mpz(), Mpz(), Mpz()}));
  // Mixed signs and lengths.
  for (int round = 0; round < 6; ++round) {
    std::vector<Mpz> terms;
    const std::size_t count = 2 + gen.below(round < 3 ? 10 : 300);
    for (std::size_t i = 0; i < count; ++i) terms.push_back(gen.random_signed(round < 3 ? 3000 : 100));
    ASSERT_TRUE(check_sum(terms));
  }
  // Many all-ones terms: every column sum overflows 64 bits many times over.
  for (std::size_t count : {2, 3, 257, 1000}) {
    std::vector<Mpz> terms(count, Mpz::all_ones(64 * 50));
    ASSERT_TRUE(check_sum(terms));
    for (std::size_t i = 0; i < count; i += 2) terms[i] = -terms[i];  // alternating signs
    ASSERT_TRUE(check_sum(terms));
    for (std::size_t i = 0; i < count; ++i) terms[i] = -Mpz::all_ones(64 * (1 + i % 70));  // all negative
    ASSERT_TRUE(check_sum(terms));
  }
  // The device sums results of up to 2048 limbs from up to 16 terms in one
  // block (small_sum_kernel); just inside and just outside both limits, with
  // carries that run through every limb of the block.
  for (std::size_t limbs : {std::size_t{2047}, std::size_t{2048}}) {
    ASSERT_TRUE(check_sum(std::vector<Mpz>(16, Mpz::all_ones(64 * limbs))));
    ASSERT_TRUE(check_sum(std::vector<Mpz>(17, Mpz::all_ones(64 * limbs))));
    ASSERT_TRUE(check_sum({Mpz::all_ones(64 * limbs), Mpz::from_ui(1)}));
    ASSERT_TRUE(check_sum({Mpz::from_ui(1), Mpz::all_ones(64 * (limbs - 1)), gen.runs(64 * 9)}));
  }
  // Terms that cancel exactly, and long chains across tiles.
  Mpz a = gen.runs(64 * 3000), b = gen.uniform(64 * 2500);
  ASSERT_TRUE(check_sum({a, b, -a, -b}));
  ASSERT_TRUE(check_sum({Mpz::all_ones(64 * 4097), Mpz::from_ui(1), Mpz::all_ones(64 * 2049)}));
}

}  // namespace
