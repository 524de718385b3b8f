// Where values live (integer.hpp, "Where values live"): on a CUDA context,
// values made on the host stay in host memory while small and operations on
// them run with GMP; a device operation copies them up once; results of
// device operations stay on the device. These tests chain operations across
// the crossovers (kHostValueMaxLimbs, kHostProductMaxLimbs) both ways, mix
// host and device operands, alias, change values that have copies on both
// sides, and use a user stream, always against GMP. On the CPU backend the
// same code checks the plain GMP path (every value is in host memory).
#include <cstdint>
#include <thread>
#include <vector>

#include "integer_test.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

class Placement : public IntegerTest {
 protected:
  /// v as a value made on the host (kept there while small).
  Integer host_value(const Mpz& v) const { return Integer::from_mpz(v, ctx()); }
};

/// A random value of about `bits` bits (runs or uniform) and a random sign.
Mpz signed_bits(Operands& gen, std::uint64_t bits) {
  Mpz v = gen.random_bits(bits);
  return gen.coin() ? -v : v;
}
MPGPU_INSTANTIATE_ON_BACKEND(Placement);

TEST_P(Placement, SmallValuesMadeOnTheHostStayThere) {
  Operands gen;
  const Mpz a = signed_bits(gen, 1000), b = signed_bits(gen, 900);
  const Integer x = host_value(a), y = host_value(b);
  EXPECT_TRUE(x.in_host_memory());
  EXPECT_TRUE(Integer(12345, ctx()).in_host_memory());
  EXPECT_TRUE(Integer::from_string("-123456789012345678901234567890", 10, ctx()).in_host_memory());
  Integer r(ctx());
  add(r, x, y);
  EXPECT_TRUE(r.in_host_memory());
  Mpz want;
  mpz_add(want, a, b);
  EXPECT_TRUE(matches(r, want));
  mul(r, r, y);
  mpz_mul(want, want, b);
  EXPECT_TRUE(r.in_host_memory());
  EXPECT_TRUE(matches(r, want));
  Integer q(ctx()), m(ctx());
  tdiv_qr(q, m, r, x);
  EXPECT_TRUE(q.in_host_memory());
  Mpz wq, wm;
  mpz_tdiv_qr(wq, wm, want, a);
  EXPECT_TRUE(matches(q, wq));
  EXPECT_TRUE(matches(m, wm));
}

TEST_P(Placement, ChainsCrossTheCrossoversBothWays) {
  Operands gen;
  const Mpz a = signed_bits(gen, 640);
  Integer x = host_value(a);
  Mpz want(a);
  // Squares grow past kHostProductMaxLimbs: from then on the device works.
  for (int i = 0; i < 8; ++i) {
    sqr(x, x);
    mpz_mul(want, want, want);
    ASSERT_TRUE(matches(x, want)) << "square " << i;
  }
  if (on_gpu()) {
    EXPECT_FALSE(x.in_host_memory());
  }
  // Shifted down to a few limbs it stays on the device (a device result)...
  const std::uint64_t bits = mpz_sizeinbase(want, 2);
  mpgpu::fdiv_q_2exp(x, x, bits - 200);
  mpz_fdiv_q_2exp(want, want, bits - 200);
  ASSERT_TRUE(matches(x, want));
  // ... and mixes with host values: the host operand is copied up.
  const Mpz b = signed_bits(gen, 300);
  const Integer y = host_value(b);
  add(x, x, y);
  mpz_add(want, want, b);
  ASSERT_TRUE(matches(x, want));
  mul(x, y, x);
  mpz_mul(want, b, want);
  ASSERT_TRUE(matches(x, want));
  // y was copied up for those; it still reads the same, on both sides.
  EXPECT_TRUE(matches(y, b));
  Integer z(ctx());
  sub(z, y, y);
  EXPECT_TRUE(z.is_zero());
}

TEST_P(Placement, ChangingAValueWithCopiesOnBothSides) {
  Operands gen;
  const Mpz big = gen.runs(64 * 3000), b = signed_bits(gen, 200);
  const Integer device_big = make(big);
  Integer y = host_value(b);
  Integer r(ctx());
  add(r, device_big, y);  // y now also on the device
  Mpz want;
  mpz_add(want, big, b);
  ASSERT_TRUE(matches(r, want));
  // Each change must reach the copy the next operation reads.
  Mpz wb(b);
  mpgpu::setbit(y, 150);
  mpz_setbit(wb, 150);
  add(r, device_big, y);
  mpz_add(want, big, wb);
  ASSERT_TRUE(matches(r, want));
  y.negate();
  mpz_neg(wb, wb);
  add(r, device_big, y);
  mpz_add(want, big, wb);
  ASSERT_TRUE(matches(r, want));
  EXPECT_TRUE(matches(y, wb));
  mpgpu::clrbit(y, 3);
  mpz_clrbit(wb, 3);
  sub(r, device_big, y);
  mpz_sub(want, big, wb);
  ASSERT_TRUE(matches(r, want));
  y = device_big;  // a device value assigned over a host one
  EXPECT_TRUE(matches(y, big));
  y = host_value(b);
  add(r, y, y);
  mpz_add(want, b, b);
  EXPECT_TRUE(matches(r, want));
}

TEST_P(Placement, AliasingAndEveryKindOfOperation) {
  Operands gen;
  const Mpz a = signed_bits(gen, 700), b = signed_bits(gen, 130);
  Integer x = host_value(a);
  const Integer y = host_value(b);
  Mpz want(a);
  add(x, x, y);
  mpz_add(want, want, b);
  mul(x, x, x);
  mpz_mul(want, want, want);
  mpgpu::xor_(x, x, y);
  mpz_xor(want, want, b);
  mpgpu::mul_2exp(x, x, 77);
  mpz_mul_2exp(want, want, 77);
  mpgpu::com(x, x);
  mpz_com(want, want);
  mpgpu::fdiv_q_2exp(x, x, 13);
  mpz_fdiv_q_2exp(want, want, 13);
  EXPECT_TRUE(matches(x, want));
  EXPECT_EQ(mpgpu::sizeinbase2(x), mpz_sizeinbase(want, 2));
  EXPECT_EQ(mpgpu::tstbit(x, 5), mpz_tstbit(want, 5) != 0);
  EXPECT_EQ(mpgpu::cmp(x, y), sign_of(mpz_cmp(want, b)));
  Integer q(ctx());
  const std::uint64_t rem = mpgpu::tdiv_q_ui(q, x, 1000003);
  Mpz wq;
  EXPECT_EQ(rem, mpz_tdiv_q_ui(wq, want, 1000003));
  EXPECT_TRUE(matches(q, wq));
  EXPECT_EQ(x.to_string(16), want.str(16));
  std::vector<Integer> terms = {x, y, x};
  Integer total(ctx());
  mpgpu::sum(total, terms);
  Mpz wt;
  mpz_add(wt, want, b);
  mpz_add(wt, wt, want);
  EXPECT_TRUE(matches(total, wt));
}

TEST_P(Placement, PlaceOnDeviceKeepsTheValue) {
  Operands gen;
  const Mpz a = signed_bits(gen, 500), b = signed_bits(gen, 400);
  Integer x = host_value(a);
  x.place_on_device();
  if (on_gpu()) {
    EXPECT_FALSE(x.in_host_memory());
  }
  EXPECT_TRUE(matches(x, a));
  const Integer y = host_value(b);
  Integer r = x + y;  // a device operand: the device adds
  if (on_gpu()) {
    EXPECT_FALSE(r.in_host_memory());
  }
  Mpz want;
  mpz_add(want, a, b);
  EXPECT_TRUE(matches(r, want));
  Integer zero(ctx());
  zero.place_on_device();
  EXPECT_TRUE(zero.is_zero());
  EXPECT_TRUE(matches(zero + y, b));
}

TEST_P(Placement, DependentLoopMatchesGmp) {
  // The loop the end-to-end issue times: dependent additions and products
  // of ~1000-bit values (kept to that size by a shift).
  Operands gen;
  const Mpz a = signed_bits(gen, 1000), b = signed_bits(gen, 1000);
  Integer x = host_value(a);
  const Integer y = host_value(b);
  Mpz want(a);
  for (int i = 0; i < 2000; ++i) {
    if (i % 2) {
      mul(x, x, y);
      mpgpu::fdiv_q_2exp(x, x, 1000);
      mpz_mul(want, want, b);
      mpz_fdiv_q_2exp(want, want, 1000);
    } else {
      add(x, x, y);
      mpz_add(want, want, b);
    }
  }
  EXPECT_TRUE(matches(x, want));
  if (on_gpu()) {
    EXPECT_TRUE(x.in_host_memory());
  }
}

TEST_P(Placement, InlineAdditionsMatchGmpForEverySignSizeAndAlias) {
  // add and sub of host values run GMP's mpn layer inline (integer_inline.hpp,
  // gmp_aors_in_place) when the destination has room, else mpz_add/mpz_sub:
  // every sign pair, equal and unequal sizes (cancellation to fewer limbs and
  // to zero included), zero operands, each aliasing, and destinations with
  // and without room.
  Operands gen;
  std::vector<Mpz> values{Mpz(), Mpz::all_ones(128), Mpz::pow2(128), Mpz::all_ones(1024)};
  for (const std::uint64_t bits : {1, 63, 64, 65, 640, 1000, 1024, 1088})
    for (int k = 0; k < 3; ++k) values.push_back(gen.random_bits(bits));
  const std::size_t n = values.size();
  for (std::size_t i = 0; i < n; ++i) values.push_back(-values[i]);
  for (const Mpz& a : values)
    for (const Mpz& b : {values[gen.below(values.size())], values[gen.below(values.size())], a, Mpz(-a)}) {
      for (int op = 0; op < 2; ++op) {
        Mpz want;
        (op ? mpz_sub : mpz_add)(want, a, b);
        auto run = [&](Integer& r, const Integer& x, const Integer& y) { op ? sub(r, x, y) : add(r, x, y); };
        Integer x = host_value(a), y = host_value(b), fresh(ctx()), roomy = host_value(Mpz::pow2(3000));
        run(fresh, x, y);  // no room: mpz's own call
        EXPECT_TRUE(matches(fresh, want));
        run(roomy, x, y);  // room: the inline path
        EXPECT_TRUE(matches(roomy, want));
        run(x, x, y);  // r is a
        EXPECT_TRUE(matches(x, want));
        x = host_value(a);
        run(y, x, y);  // r is b
        EXPECT_TRUE(matches(y, want));
      }
    }
  Integer s = host_value(values[3]);
  Mpz want(values[3]);
  sub(s, s, s);  // r is a and b
  EXPECT_TRUE(matches(s, Mpz()));
  s = host_value(want);
  add(s, s, s);
  mpz_add(want, want, want);
  EXPECT_TRUE(matches(s, want));
}

TEST_P(Placement, ThreadsShareAHostValue) {
  // Several threads use one const host value in device operations at once:
  // the first copies it up, the others must wait for that copy.
  Operands gen;
  const Mpz a = signed_bits(gen, 900), big = gen.runs(64 * 3000);
  Mpz want;
  mpz_add(want, a, big);
  for (int round = 0; round < 20; ++round) {
    const Integer shared = host_value(a), d = make(big);
    std::vector<Integer> results(8, Integer(ctx()));
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t)
      threads.emplace_back([&, t] { add(results[t], shared, d); });
    for (std::thread& th : threads) th.join();
    for (const Integer& r : results) ASSERT_TRUE(matches(r, want)) << "round " << round;
  }
}

TEST_P(Placement, UserStreamOnHostValues) {
  if (!on_gpu()) GTEST_SKIP() << "streams are a CUDA matter";
  const mpgpu::Context other = mpgpu::Context::cuda(ctx().device());
  const mpgpu::Stream s = other.stream();
  Operands gen;
  const Mpz a = signed_bits(gen, 800), big = gen.runs(64 * 2000);
  const Integer x = host_value(a), d = make(big);
  Integer r(ctx());
  add(r, x, x, s);  // on the host: nothing queued
  Mpz want;
  mpz_add(want, a, a);
  EXPECT_TRUE(matches(r, want));
  add(r, r, d, s);  // r copied up, added on s
  mpz_add(want, want, big);
  EXPECT_TRUE(matches(r, want));
}

// A value made on the host goes up on the context's stream when a device
// operation first needs it, and the upload returns before its transfer (the
// upload ring): an operation on another stream must still see the value,
// even with long work queued on the context's stream before the upload.
// Products by columns (20 limbs) and by NTTs (10000 limbs).
TEST_P(Placement, UserStreamAfterUploadsBehindQueuedWork) {
  if (!on_gpu()) GTEST_SKIP() << "streams are a CUDA matter";
  const mpgpu::Context other = mpgpu::Context::cuda(ctx().device());
  const mpgpu::Stream s = other.stream();
  Operands gen;
  const Mpz big = gen.runs(64 * 200000);
  const Integer d = make(big);
  for (int round = 0; round < 6; ++round) {
    Integer busy(ctx());
    mul(busy, d, d);  // queued on the context's stream, not waited for
    const Mpz a = signed_bits(gen, 64 * (round % 2 ? 10000 : 20)), b = gen.runs(64 * 12000);
    const Integer x = host_value(a), y = make(b);
    Integer r(ctx());
    mul(r, x, y, s);  // x goes up on the context's stream, the product runs on s
    Mpz want;
    mpz_mul(want, a, b);
    EXPECT_TRUE(matches(r, want)) << "round " << round;
  }
}

}  // namespace
