// The rest of the Integer API: operators against the named functions' GMP
// results, copies and moves, moving values between contexts, operands from
// different contexts (InvalidArgument), and the guarantee that a throwing
// operation leaves every operand untouched.
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "integer_test.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

class Api : public IntegerTest {};
MPGPU_INSTANTIATE_ON_BACKEND(Api);

// Sanitizer-sized: 3 random values instead of 8, and each a against one b
// in eight (in rotation) instead of one in three; every value still meets
// every unary operator and shift.
TEST_P(Api, Operators) {
  Operands gen;
  std::vector<Mpz> values = edge_pair_values();
  for (int i = 0; i < sized(8, 3); ++i) values.push_back(gen.random_signed(300));
  const std::size_t b_step = sized<std::size_t>(3, 8);
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t j = sanitizer_sized() ? i % b_step : 0; j < values.size(); j += b_step) {
      const Mpz &a = values[i], &b = values[j];
      const Integer x = make(a), y = make(b);
      Mpz want;
      mpz_add(want, a, b);
      ASSERT_TRUE(matches(x + y, want)) << a << " + " << b;
      mpz_sub(want, a, b);
      ASSERT_TRUE(matches(x - y, want)) << a << " - " << b;
      mpz_and(want, a, b);
      ASSERT_TRUE(matches(x & y, want)) << a << " & " << b;
      mpz_ior(want, a, b);
      ASSERT_TRUE(matches(x | y, want)) << a << " | " << b;
      mpz_xor(want, a, b);
      ASSERT_TRUE(matches(x ^ y, want)) << a << " ^ " << b;
      const int c = sign_of(mpz_cmp(a, b));
      ASSERT_EQ(x == y, c == 0) << a << " == " << b;
      ASSERT_EQ(x != y, c != 0) << a << " != " << b;
      ASSERT_EQ(x < y, c < 0) << a << " < " << b;
      ASSERT_EQ(x >= y, c >= 0) << a << " >= " << b;
      const std::strong_ordering want_order =
          c < 0 ? std::strong_ordering::less : c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal;
      ASSERT_TRUE((x <=> y) == want_order) << a << " <=> " << b;
    }
  for (const Mpz& a : values) {
    const Integer x = make(a);
    Mpz want;
    ASSERT_TRUE(matches(-x, -a));
    mpz_com(want, a);
    ASSERT_TRUE(matches(~x, want));
    for (std::uint64_t k : {0, 1, 63, 64, 65, 130}) {
      mpz_mul_2exp(want, a, k);
      ASSERT_TRUE(matches(x << k, want)) << a << " << " << k;
      mpz_fdiv_q_2exp(want, a, k);  // >> floors, as mpz_class
      ASSERT_TRUE(matches(x >> k, want)) << a << " >> " << k;
    }
  }
}

TEST_P(Api, CompoundAssignment) {
  Operands gen;
  for (int i = 0; i < sized(50, 12); ++i) {  // sanitizer-sized: 12 rounds
    const Mpz a = gen.random_signed(200), b = gen.random_signed(200);
    const std::uint64_t k = gen.below(200);
    Integer x = make(a);
    const Integer y = make(b);
    Mpz want = a;
    x += y;
    mpz_add(want, want, b);
    ASSERT_TRUE(matches(x, want));
    x -= y;
    mpz_sub(want, want, b);
    ASSERT_TRUE(matches(x, want));
    x ^= y;
    mpz_xor(want, want, b);
    ASSERT_TRUE(matches(x, want));
    x |= y;
    mpz_ior(want, want, b);
    ASSERT_TRUE(matches(x, want));
    x &= y;
    mpz_and(want, want, b);
    ASSERT_TRUE(matches(x, want));
    x <<= k;
    mpz_mul_2exp(want, want, k);
    ASSERT_TRUE(matches(x, want));
    x >>= k + 3;
    mpz_fdiv_q_2exp(want, want, k + 3);
    ASSERT_TRUE(matches(x, want));
    x += x;  // self
    mpz_add(want, want, want);
    ASSERT_TRUE(matches(x, want));
    ASSERT_TRUE(matches(y, b));
  }
}

TEST_P(Api, CopyAndMove) {
  Operands gen;
  const Mpz a = gen.runs(64 * 300), b = -gen.runs(64 * 7);
  Integer x = make(a);
  Integer copy(x);
  ASSERT_TRUE(matches(copy, a));
  copy += copy;  // the copy owns its storage
  ASSERT_TRUE(matches(x, a));
  Integer moved(std::move(copy));
  Mpz twice;
  mpz_add(twice, a, a);
  ASSERT_TRUE(matches(moved, twice));
  Integer y = make(b);
  y = x;
  ASSERT_TRUE(matches(y, a));
  y = make(b);
  ASSERT_TRUE(matches(y, b));
  x = std::move(y);
  ASSERT_TRUE(matches(x, b));
  const Integer& alias = x;
  x = alias;  // self-assignment
  ASSERT_TRUE(matches(x, b));
  EXPECT_TRUE(x.context() == ctx());
}

TEST_P(Api, ToContext) {
  Operands gen;
  const mpgpu::Context cpu = mpgpu::Context::cpu();
  for (const Mpz& a : {Mpz(), Mpz::from_si(-1), gen.runs(64 * 1000), -gen.uniform(64 * 2049 + 1)}) {
    const Integer x = make(a);
    const Integer on_cpu = x.to_context(cpu);
    ASSERT_TRUE(on_cpu.context() == cpu);
    ASSERT_TRUE(matches(on_cpu, a));
    const Integer back = on_cpu.to_context(ctx());
    ASSERT_TRUE(back.context() == ctx());
    ASSERT_TRUE(matches(back, a));
    const Integer same = x.to_context(ctx());
    ASSERT_TRUE(matches(same, a));
    ASSERT_TRUE(matches(x, a));
  }
}

// Between two contexts of one device (each with its own stream): values on
// the device (one device-to-device copy), in host memory, just computed
// (size still on the device), zero, negative; the copy outlives its source
// and works in its new context.
TEST_P(Api, ToAnotherContextOfTheSameDevice) {
  if (!ctx().is_cuda()) GTEST_SKIP() << "needs a CUDA context";
  const mpgpu::Context other = mpgpu::Context::cuda(ctx().device());
  Operands gen;
  const Mpz a = gen.runs(64 * 20000), b = -gen.uniform(64 * 17000 + 3);
  for (const Mpz& v : {Mpz(), Mpz::from_si(-5), a, b, gen.random_bits(64 * 300)}) {
    std::optional<Integer> x(make(v));
    const Integer y = x->to_context(other);
    x.reset();
    ASSERT_TRUE(y.context() == other);
    ASSERT_TRUE(matches(y, v));
    Integer z(other);
    add(z, y, y);
    const Integer back = z.to_context(ctx());
    ASSERT_TRUE(back.context() == ctx());
    Mpz twice;
    mpz_add(twice, v, v);
    ASSERT_TRUE(matches(back, twice));
  }
  // A result whose size is still on the device when it moves.
  Integer sum(ctx());
  const Integer x = make(a), y = make(b);
  add(sum, x, y);
  const Integer moved = sum.to_context(other);
  Mpz want;
  mpz_add(want, a, b);
  ASSERT_TRUE(matches(moved, want));
}

// to_context_each: many values at once into another context of the device
// (on a CPU backend, another CPU context), values on the device, just
// computed (sizes still on the device), zero, negative, one kept in host
// memory among them (then each goes as to_context would); the copies outlive
// their sources and work in their new context.
TEST_P(Api, ManyToAnotherContextAtOnce) {
  const mpgpu::Context other = ctx().with_tuning(ctx().tuning());
  Operands gen;
  std::vector<Mpz> want;
  for (std::size_t i = 0; i < 40; ++i)
    want.push_back(i % 7 == 0 ? Mpz() : i % 2 ? -gen.runs(64 * (1 + 37 * i)) : gen.uniform(64 * (300 + i)));
  for (bool with_host_value : {false, true}) {
    std::vector<Integer> values;
    for (std::size_t i = 0; i < want.size(); ++i) {
      Integer x = make(want[i]);
      if (i % 5 == 1) {  // just computed: x = (x + x) - x on the device
        Integer twice(ctx());
        add(twice, x, x);
        sub(x, twice, x);
      }
      values.push_back(std::move(x));
    }
    if (with_host_value) values[3] = Integer::from_mpz(want[3], ctx());  // kept in host memory while small
    std::vector<Integer> moved = mpgpu::to_context_each(values, other);
    values.clear();
    ASSERT_EQ(moved.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      ASSERT_TRUE(moved[i].context() == other) << i;
      ASSERT_TRUE(matches(moved[i], want[i])) << "value " << i << (with_host_value ? ", with a host value" : "");
      Integer twice(other);
      add(twice, moved[i], moved[i]);
      Mpz w;
      mpz_add(w, want[i], want[i]);
      ASSERT_TRUE(matches(twice, w)) << i;
    }
  }
  EXPECT_TRUE(mpgpu::to_context_each({}, other).empty());
}

// A destination living in another context takes the operands' context.
TEST_P(Api, DestinationTakesTheOperandsContext) {
  Operands gen;
  const Mpz a = gen.random_bits(64 * 3000), b = gen.random_bits(64 * 2000);
  const Integer x = make(a), y = make(b);
  Mpz want;
  for (int op = 0; op < 4; ++op) {
    Integer r(mpgpu::Context::cpu());  // a context of its own, never the test's
    switch (op) {
      case 0: mpgpu::add(r, x, y); mpz_add(want, a, b); break;
      case 1: mpgpu::xor_(r, x, y); mpz_xor(want, a, b); break;
      case 2: mpgpu::mul_2exp(r, x, 77); mpz_mul_2exp(want, a, 77); break;
      default: mpgpu::mul(r, x, y); mpz_mul(want, a, b); break;
    }
    EXPECT_TRUE(r.context() == ctx()) << "op " << op;
    EXPECT_TRUE(matches(r, want)) << "op " << op;
  }
}

TEST_P(Api, MixingContextsThrows) {
  // Each Context::cpu() call makes a new context; copies of one share it.
  const mpgpu::Context other = mpgpu::Context::cpu();
  ASSERT_FALSE(other == ctx());
  const Integer x = make(Mpz::from_ui(5)), y = Integer::from_mpz(Mpz::from_ui(7), other);
  Integer r(ctx());
  EXPECT_THROW(mpgpu::add(r, x, y), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::sub(r, y, x), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::and_(r, x, y), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::ior(r, x, y), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::xor_(r, x, y), mpgpu::InvalidArgument);
  EXPECT_THROW((void)mpgpu::cmp(x, y), mpgpu::InvalidArgument);
  EXPECT_THROW((void)mpgpu::cmpabs(x, y), mpgpu::InvalidArgument);
  EXPECT_THROW((void)(x + y), mpgpu::InvalidArgument);
  EXPECT_THROW((void)(x == y), mpgpu::InvalidArgument);
  std::vector<Integer> terms = {x, x, y};
  EXPECT_THROW(mpgpu::sum(r, std::span<const Integer>(terms)), mpgpu::InvalidArgument);
  // A copy of the context is the same context.
  const mpgpu::Context same = ctx();
  EXPECT_TRUE(matches(x + Integer::from_mpz(Mpz::from_ui(7), same), Mpz::from_ui(12)));
}

TEST_P(Api, FailedOperationsLeaveOperandsUntouched) {
  Operands gen;
  const Mpz a = gen.runs(64 * 100), b = -gen.runs(64 * 50), r0 = gen.uniform(64 * 3);
  const Integer y = make(b);
  const Integer foreign = Integer::from_mpz(a, mpgpu::Context::cpu());
  Integer x = make(a), r = make(r0);

  EXPECT_THROW(mpgpu::add(r, x, foreign), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::xor_(x, x, foreign), mpgpu::InvalidArgument);  // result aliases an operand
  EXPECT_THROW(mpgpu::sub(x, foreign, x), mpgpu::InvalidArgument);
  EXPECT_TRUE(matches(x, a));
  EXPECT_TRUE(matches(r, r0));
  EXPECT_TRUE(matches(foreign, a));

  // Shift counts that cannot be represented.
  const std::uint64_t too_big = std::uint64_t{1} << 63;
  EXPECT_THROW(mpgpu::mul_2exp(r, x, too_big), mpgpu::Overflow);
  EXPECT_THROW(mpgpu::mul_2exp(x, x, too_big), mpgpu::Overflow);
  EXPECT_THROW(x <<= too_big, mpgpu::Overflow);
  EXPECT_THROW(mpgpu::setbit(x, too_big), mpgpu::Overflow);
  EXPECT_TRUE(matches(x, a));
  EXPECT_TRUE(matches(r, r0));

  // Conversions that do not fit.
  EXPECT_THROW((void)x.to_int64(), mpgpu::Overflow);
  EXPECT_THROW((void)y.to_uint64(), mpgpu::Overflow);
  EXPECT_TRUE(matches(x, a));
  EXPECT_TRUE(matches(y, b));

  if (on_gpu()) {
    // A result far larger than device memory: OutOfMemory, nothing changed.
    // (Not on the CPU: GMP aborts the process instead of reporting it.)
    const std::uint64_t huge = std::uint64_t{1} << 50;  // 2^44 limbs, 128 TiB
    EXPECT_THROW(mpgpu::mul_2exp(r, x, huge), mpgpu::OutOfMemory);
    EXPECT_THROW(mpgpu::mul_2exp(x, x, huge), mpgpu::OutOfMemory);
    EXPECT_TRUE(matches(x, a));
    EXPECT_TRUE(matches(r, r0));
  }
}

// GMP's mpz cannot hold more than INT_MAX limbs and aborts the process
// ("gmp: overflow in mpz type") when asked to; the CPU backend must throw
// Overflow before calling GMP. On the device, 2^42 bits (512 GiB) exceeds
// every card: OutOfMemory.
TEST_P(Api, HugeShiftThrowsInsteadOfAborting) {
  Integer x = make(Mpz::from_ui(1));
  EXPECT_THROW(mpgpu::mul_2exp(x, x, std::uint64_t{1} << 42), mpgpu::Error);
  EXPECT_THROW(mpgpu::setbit(x, std::uint64_t{1} << 42), mpgpu::Error);
  EXPECT_TRUE(matches(x, Mpz::from_ui(1)));
}

}  // namespace
