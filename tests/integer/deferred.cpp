// Results whose size and sign are still on the device (integer.hpp,
// "Streams"): on the CUDA backend add, sub, shifts, bitwise operations, mul
// and sum return before their kernels finish and the result reads its size
// when first needed. These tests chain such operations without looking at
// the intermediate values, drop unread results, keep more unread results
// alive than the context has result-word slots (4096), negate and copy unread
// results, and run on another stream (which must wait). On the CPU backend
// the same code checks the plain GMP path.
#include <cstdint>
#include <vector>

#include "integer_test.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

class Deferred : public IntegerTest {};
MPGPU_INSTANTIATE_ON_BACKEND(Deferred);

TEST_P(Deferred, LongChainOfMixedOperationsMatchesGmp) {
  Operands gen;
  Mpz a = gen.random_signed(80), b = gen.random_signed(60), c = gen.random_signed(2);
  Integer x = make(a), y = make(b), z = make(c);
  Mpz want(a);
  for (int i = 0; i < sized(300, 60); ++i) {  // sanitizer-sized: each of the six 10 times
    switch (i % 6) {
      case 0: add(x, x, y); mpz_add(want, want, b); break;
      case 1: sub(x, x, z); mpz_sub(want, want, c); break;
      case 2: mpgpu::mul_2exp(x, x, 5); mpz_mul_2exp(want, want, 5); break;
      case 3: mpgpu::fdiv_q_2exp(x, x, 3); mpz_fdiv_q_2exp(want, want, 3); break;
      case 4: mpgpu::xor_(x, x, z); mpz_xor(want, want, c); break;
      case 5: sub(x, y, x); mpz_sub(want, b, want); break;
    }
  }
  EXPECT_TRUE(matches(x, want));
}

TEST_P(Deferred, EqualSizeSubtractionTakesItsSignFromTheDevice) {
  Operands gen;
  for (int i = 0; i < sized(40, 14); ++i) {  // sanitizer-sized: each size twice
    const Mpz a = gen.runs(64 * (1 + i % 7)), b = gen.runs(64 * (1 + i % 7));  // equal sizes
    Mpz want;
    mpz_sub(want, a, b);
    const Integer x = make(a), y = make(b);
    Integer r = x - y;  // unread: size and order on the device
    Integer negated = r;  // a copy reads them
    negated.negate();
    Integer s = y - x;
    s.negate();           // negating an unread result flips its deferred sign
    Integer equal = x - x;  // zero: sign 0 once read
    EXPECT_TRUE(matches(r, want)) << a << " - " << b;
    EXPECT_TRUE(matches(s, want)) << "-(" << b << " - " << a << ")";
    mpz_neg(want, want);
    EXPECT_TRUE(matches(negated, want));
    EXPECT_EQ(equal.sign(), 0);
    EXPECT_EQ(equal.size(), 0u);
  }
}

// Sizes around 2048 limbs, where an equal-size subtraction switches from one
// block that compares and subtracts to a search and a multi-tile scan.
TEST_P(Deferred, EqualSizeSubtractionAroundTheOneBlockLimit) {
  Operands gen;
  for (std::size_t limbs : {std::size_t{2047}, std::size_t{2048}, std::size_t{2049}, std::size_t{4097}}) {
    const Mpz a = gen.runs(64 * limbs);
    for (int where = 0; where < 3; ++where) {
      Mpz b(a);
      if (where == 0) mpz_combit(b, 0);                // differ in the lowest bit only
      if (where == 1) mpz_combit(b, 64 * limbs - 2);   // differ near the top
      const Integer x = make(a), y = make(b);
      Mpz want;
      mpz_sub(want, a, b);
      EXPECT_TRUE(matches(x - y, want)) << limbs << " limbs, case " << where;
      mpz_neg(want, want);
      EXPECT_TRUE(matches(y - x, want)) << limbs << " limbs, case " << where;
    }
  }
}

// Multi-tile additions whose carries need the look-back (a run of all-ones
// limbs across every tile), alternating sizes so that the context's tile
// statuses are reused, grown, and read with statuses of earlier operations
// still in them.
// Sanitizer-sized: two rounds (the second reads statuses the first left),
// no 200 tiles (40 tiles already grow the statuses and look back past one
// window of 32).
TEST_P(Deferred, CarryLookBackAcrossReusedTileStatuses) {
  const std::vector<std::size_t> sizes = sized<std::vector<std::size_t>>(
      {3 * 2048, 40 * 2048 + 5, 5 * 2048 + 1, 200 * 2048, 2 * 2048}, {3 * 2048, 40 * 2048 + 5, 5 * 2048 + 1, 2 * 2048});
  for (int round = 0; round < sized(3, 2); ++round)
    for (std::size_t limbs : sizes) {
      Mpz ones;
      mpz_ui_pow_ui(ones, 2, 64 * limbs);
      mpz_sub_ui(ones, ones, 1);  // every limb all-ones
      const Integer x = make(ones);
      const Integer one(1, ctx());
      Mpz want;
      mpz_add_ui(want, ones, 1);
      Integer sum = x + one;  // carries from limb 0 through every tile
      EXPECT_TRUE(matches(sum, want)) << limbs << " limbs";
      Integer diff = sum - one;  // borrows back through every tile
      EXPECT_TRUE(matches(diff, ones)) << limbs << " limbs";
    }
}

TEST_P(Deferred, MoreUnreadResultsThanSlots) {
  Operands gen;
  const Mpz a = gen.runs(200);
  const Integer x = make(a);
  // The context has 4096 result-word slots; the count past them is the
  // point (sanitizer-sized: 64 past them).
  const int count = 4096 + sized(300, 64);
  std::vector<Integer> results;
  results.reserve(count);
  for (int i = 0; i < count; ++i) {
    results.push_back(x + Integer(i, ctx()));
  }
  for (int i = 0; i < count; i += 37) {
    Mpz want;
    mpz_add_ui(want, a, static_cast<unsigned long>(i));
    ASSERT_TRUE(matches(results[static_cast<std::size_t>(i)], want)) << i;
  }
  Mpz last;
  mpz_add_ui(last, a, count - 1);
  EXPECT_TRUE(matches(results.back(), last));
}

TEST_P(Deferred, DroppedUnreadResultsFreeTheirSlots) {
  Operands gen;
  const Mpz a = gen.runs(3000), b = gen.runs(3000);
  const Integer x = make(a), y = make(b);
  Integer keep(ctx());
  // More rounds than the 4096 slots is the point (sanitizer-sized: 4200).
  for (int i = 0; i < sized(10000, 4200); ++i) {
    Integer dropped = x + y;  // destroyed unread
    add(keep, x, y);          // overwrites an unread result in place
  }
  Mpz want;
  mpz_add(want, a, b);
  EXPECT_TRUE(matches(keep, want));
}

TEST_P(Deferred, ProductsAndSumsAreReadWhenNeeded) {
  Operands gen;
  const Mpz a = gen.runs(64 * 5000), b = -gen.runs(64 * 3000);  // a device (NTT) product
  Mpz want;
  mpz_mul(want, a, b);
  const Integer x = make(a), y = make(b);
  Integer p = x * y;
  Integer q = p + x;  // uses the unread product
  mpz_add(want, want, a);
  EXPECT_TRUE(matches(q, want));
  std::vector<Integer> terms{x, y, x, -y};
  Integer s(ctx());
  mpgpu::sum(s, terms);
  Mpz want_sum;
  mpz_add(want_sum, a, a);
  EXPECT_TRUE(matches(s, want_sum));
}

TEST_P(Deferred, OtherStreamsWaitForTheirResults) {
  if (!on_gpu()) GTEST_SKIP() << "streams are a CUDA matter";
  // Another context's stream is just another CUDA stream of the device.
  const mpgpu::Context other = mpgpu::Context::cuda(ctx().device());
  const mpgpu::Stream s = other.stream();
  Operands gen;
  const Mpz a = gen.runs(64 * 1000), b = gen.runs(64 * 1000);
  const Integer x = make(a), y = make(b);
  Integer r(ctx());
  sub(r, x, y, s);
  EXPECT_FALSE(mpgpu::detail::IntegerAccess::has_deferred(r));  // read before returning
  Mpz want;
  mpz_sub(want, a, b);
  EXPECT_TRUE(matches(r, want));
  Integer u = x + y;  // the context's stream: unread
  EXPECT_TRUE(mpgpu::detail::IntegerAccess::has_deferred(u));
  add(u, u, y, s);    // reads u, then waits for the new result
  EXPECT_FALSE(mpgpu::detail::IntegerAccess::has_deferred(u));
  mpz_add(want, a, b);
  mpz_add(want, want, b);
  EXPECT_TRUE(matches(u, want));
}

// A result whose size the device published before its kernel ended
// (ResultWords::publish_now: multi-tile add, shift, bitwise map) read by an
// operation on another stream: that stream must wait for the context's
// stream's kernels, not only for the size. Large operands keep those
// kernels running while the other stream's work is queued.
TEST_P(Deferred, OtherStreamsWaitForTheContextStreamsKernels) {
  if (!on_gpu()) GTEST_SKIP() << "streams are a CUDA matter";
  const mpgpu::Context other = mpgpu::Context::cuda(ctx().device());
  const mpgpu::Stream s = other.stream();
  Operands gen;
  // Sanitizer-sized: 2^18 limbs (the instrumented kernels run far longer).
  const std::uint64_t limbs = sized(std::uint64_t{1} << 20, std::uint64_t{1} << 18);
  const Mpz a = gen.uniform(64 * limbs), b = gen.uniform(64 * limbs);
  const Integer x = make(a), y = make(b);
  for (int round = 0; round < 3; ++round) {
    Integer u = x + y;           // the context's stream
    (void)u.size();              // known, perhaps before the kernel ends
    Integer v(ctx()), w(ctx());
    mpgpu::mul_2exp(v, u, 3);    // the context's stream again
    (void)v.size();
    mpgpu::xor_(w, v, u, s);     // the other stream reads u and v
    Mpz want_u, want_v, want_w;
    mpz_add(want_u, a, b);
    mpz_mul_2exp(want_v, want_u, 3);
    mpz_xor(want_w, want_v, want_u);
    ASSERT_TRUE(matches(w, want_w)) << "round " << round;
  }
}

// Equal-size multi-tile subtractions on another stream, where the
// subtraction never publishes early (scan_add.cuh, order_by_tops): tops
// that give the order (by 1 and by more), equal tops with a > b, a < b
// (the blocks find the order from the top down first) and a == b.
TEST_P(Deferred, OrderedSubtractionsOnAnotherStream) {
  if (!on_gpu()) GTEST_SKIP() << "streams are a CUDA matter";
  const mpgpu::Context other = mpgpu::Context::cuda(ctx().device());
  const mpgpu::Stream s = other.stream();
  Operands gen;
  const std::size_t limbs = 5000;  // three tiles
  Mpz a = gen.runs(64 * limbs);
  mpz_setbit(a, 64 * limbs - 1);
  std::vector<Mpz> others;
  for (int delta : {1, 2, 1000}) {  // b = a less delta in the top limb: the tops give the order
    Mpz b = a, t = Mpz::from_ui(static_cast<unsigned long>(delta));
    mpz_mul_2exp(t, t, 64 * (limbs - 1));
    mpz_sub(b, b, t);
    others.push_back(b);
  }
  for (std::size_t from_top : {std::size_t{1}, std::size_t{2500}, limbs - 1}) {  // equal tops
    Mpz b = a;
    mpz_combit(b, 64 * (limbs - 1 - from_top) + 5);
    others.push_back(b);
  }
  others.push_back(a);
  const Integer x = make(a);
  for (const Mpz& b : others) {
    const Integer y = make(b);
    for (bool swap : {false, true}) {
      Integer r(ctx());
      sub(r, swap ? y : x, swap ? x : y, s);
      Mpz want;
      mpz_sub(want, swap ? b : a, swap ? a : b);
      ASSERT_TRUE(matches(r, want)) << "a - b = " << want;
      ASSERT_EQ(mpgpu::cmp(swap ? y : x, swap ? x : y), sign_of(mpz_cmp(swap ? b : a, swap ? a : b)));
    }
  }
}

}  // namespace
