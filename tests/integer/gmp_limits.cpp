// GMP's size limit: an mpz keeps its allocation in an int (_mp_alloc), and
// GMP aborts the process ("gmp: overflow in mpz type", mpz/realloc.c) when
// asked for more than INT_MAX = 2^31 - 1 limbs (about 2^37 bits). Every
// operation that hands GMP such a result, or the room GMP reserves for it
// (often a limb more than the result), must throw Overflow first, naming the
// operation and the limbs, and leave its operands untouched.
//
// On the CPU context: operands of 2^30 + 1 to 2^31 - 1 limbs whose limbs are
// unbacked address space (support/virtual_operands.hpp), and huge counts,
// exponents and texts. A regression aborts through GmpAllocationCap instead
// of allocating gigabytes. On a CUDA context: a device value of 2^31 limbs
// (16 GiB of device memory) cannot become a host mpz.
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "integer_test.hpp"
#include "support/virtual_operands.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

constexpr std::uint64_t kGmpMaxLimbs = INT_MAX;
constexpr std::uint64_t kHalf = (kGmpMaxLimbs + 1) / 2 + 1;  // two of these: 2^31 + 2 limbs

/// f() throws Overflow whose message names mpgpu::<op> and the limbs `room`
/// (not checked when 0).
template <class F>
::testing::AssertionResult refuses(F&& f, const std::string& op, std::uint64_t room) {
  try {
    f();
  } catch (const mpgpu::Overflow& e) {
    const std::string m = e.what();
    if (m.find("mpgpu::" + op + ":") == std::string::npos ||
        (room && m.find(std::to_string(room)) == std::string::npos))
      return ::testing::AssertionFailure() << "Overflow without mpgpu::" << op << " and " << room << ": " << m;
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw something else: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

/// The CPU-context tests: no GMP allocation above 1 GiB while they run.
class GmpLimits : public IntegerTest {
 protected:
  void SetUp() override {
    IntegerTest::SetUp();
    if (IsSkipped()) return;
    if (on_gpu()) GTEST_SKIP() << "operands borrowed by a CPU-context mpz";
    cap_.emplace(std::size_t{1} << 30);
  }
  void TearDown() override { cap_.reset(); }

 private:
  std::optional<GmpAllocationCap> cap_;
};
MPGPU_INSTANTIATE_ON_BACKEND(GmpLimits);

#define REQUIRE_VIRTUAL(v) \
  if (!(v)) GTEST_SKIP() << "could not reserve address space (overcommit or RLIMIT_AS)"

TEST_P(GmpLimits, PowerOfTwoAndAllOnes) {
  // mpz_setbit reserves bit / 64 + 1 limbs; all_ones(bits) needs ceil(bits / 64).
  EXPECT_TRUE(refuses([&] { (void)Integer::power_of_two(std::size_t{1} << 42, ctx()); }, "Integer::power_of_two",
                      (std::uint64_t{1} << 36) + 1));
  EXPECT_TRUE(refuses([&] { (void)Integer::power_of_two(64 * kGmpMaxLimbs, ctx()); }, "Integer::power_of_two",
                      kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { (void)Integer::all_ones(std::size_t{1} << 42, ctx()); }, "Integer::all_ones",
                      std::uint64_t{1} << 36));
  EXPECT_TRUE(refuses([&] { (void)Integer::all_ones(64 * kGmpMaxLimbs + 1, ctx()); }, "Integer::all_ones",
                      kGmpMaxLimbs + 1));
  EXPECT_TRUE(matches(Integer::all_ones(130, ctx()), Mpz::all_ones(130)));
  EXPECT_TRUE(matches(Integer::all_ones(128, ctx()), Mpz::all_ones(128)));
  EXPECT_TRUE(matches(Integer::all_ones(0, ctx()), Mpz()));
}

// Shifts and bit indices: checked before this file existed; here for the whole picture.
TEST_P(GmpLimits, ShiftsAndBits) {
  VirtualLimbs limbs(kGmpMaxLimbs - 1);
  REQUIRE_VIRTUAL(limbs);
  Integer a(ctx()), r(7, ctx());
  BorrowLimbs borrow(a, limbs);
  EXPECT_THROW(mpgpu::mul_2exp(r, a, 64), mpgpu::Overflow);  // mpz_mul_2exp reserves size + 1 + 1 limbs
  EXPECT_THROW(r = a << 64, mpgpu::Overflow);
  Integer one(1, ctx());
  EXPECT_THROW(mpgpu::setbit(one, 64 * kGmpMaxLimbs), mpgpu::Overflow);
  EXPECT_TRUE(borrow.unchanged(limbs));
  EXPECT_TRUE(matches(r, Mpz::from_ui(7)));
  EXPECT_TRUE(matches(one, Mpz::from_ui(1)));
}

TEST_P(GmpLimits, Products) {
  VirtualLimbs big(kGmpMaxLimbs - 1), half(kHalf);
  REQUIRE_VIRTUAL(big);
  REQUIRE_VIRTUAL(half);
  Integer a(ctx()), h(ctx()), r(7, ctx());
  const Integer two_limbs = Integer::power_of_two(64, ctx());
  BorrowLimbs borrow_a(a, big), borrow_h(h, half, -1);
  // mpz_mul reserves the sum of the sizes: 2^31 - 2 + 2, and 2 (2^30 + 2).
  EXPECT_TRUE(refuses([&] { mpgpu::mul(r, a, two_limbs); }, "mul", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::mul(a, two_limbs, a); }, "mul", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { r = a * two_limbs; }, "mul", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::mul(r, h, h); }, "mul", 2 * kHalf));
  EXPECT_TRUE(refuses([&] { h *= h; }, "mul", 2 * kHalf));
  EXPECT_TRUE(refuses([&] { mpgpu::sqr(r, h); }, "sqr", 2 * kHalf));
  EXPECT_TRUE(refuses([&] { mpgpu::sqr(a, a); }, "sqr", 2 * (kGmpMaxLimbs - 1)));
  EXPECT_TRUE(borrow_a.unchanged(big));
  EXPECT_TRUE(borrow_h.unchanged(half, -1));
  EXPECT_TRUE(matches(r, Mpz::from_ui(7)));
}

TEST_P(GmpLimits, SumsAndDifferences) {
  VirtualLimbs limbs(kGmpMaxLimbs);  // the largest mpz there is
  REQUIRE_VIRTUAL(limbs);
  Integer a(ctx()), r(7, ctx());
  const Integer one(1, ctx());
  BorrowLimbs borrow(a, limbs);
  // mpz_add and mpz_sub reserve the larger size + 1 before they add.
  EXPECT_TRUE(refuses([&] { mpgpu::add(r, a, one); }, "add", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::add(r, a, a); }, "add", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::sub(r, one, a); }, "sub", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::sub(a, a, one); }, "sub", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { r = a + one; }, "add", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { a -= one; }, "sub", kGmpMaxLimbs + 1));
  std::vector<Integer> terms{Integer(ctx()), Integer(1, ctx()), Integer(2, ctx())};
  {
    BorrowLimbs term(terms[0], limbs);
    // Each mpz_add of the loop: the partial sum (up to a limb longer) + 1.
    EXPECT_TRUE(refuses([&] { mpgpu::sum(r, terms); }, "sum", kGmpMaxLimbs + 2));
    EXPECT_TRUE(refuses([&] { mpgpu::sum(r, std::span<const Integer>(terms.data(), 2)); }, "sum",
                        kGmpMaxLimbs + 1));
    EXPECT_TRUE(term.unchanged(limbs));
  }
  EXPECT_TRUE(borrow.unchanged(limbs));
  EXPECT_TRUE(matches(r, Mpz::from_ui(7)));
}

TEST_P(GmpLimits, Bitwise) {
  VirtualLimbs limbs(kGmpMaxLimbs);
  REQUIRE_VIRTUAL(limbs);
  Integer a(ctx()), n(ctx()), r(7, ctx());
  const Integer minus_one(-1, ctx());
  BorrowLimbs borrow_a(a, limbs), borrow_n(n, limbs, -1);
  // GMP's room: the larger size + 1 (and of two negatives, ior of two
  // negatives of one size, xor of signs that differ; com of a non-negative).
  EXPECT_TRUE(refuses([&] { mpgpu::and_(r, n, minus_one); }, "and_", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::ior(r, n, n); }, "ior", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::xor_(r, a, minus_one); }, "xor_", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { r = a ^ minus_one; }, "xor_", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::com(r, a); }, "com", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { r = ~a; }, "com", kGmpMaxLimbs + 1));
  // floor(n / 2) of a negative n: mpz_fdiv_q_2exp reserves size + 1.
  EXPECT_TRUE(refuses([&] { mpgpu::fdiv_q_2exp(r, n, 1); }, "fdiv_q_2exp", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { r = n >> 1; }, "fdiv_q_2exp", kGmpMaxLimbs + 1));
  EXPECT_TRUE(borrow_a.unchanged(limbs));
  EXPECT_TRUE(borrow_n.unchanged(limbs, -1));
  EXPECT_TRUE(matches(r, Mpz::from_ui(7)));
}

TEST_P(GmpLimits, Divisions) {
  VirtualLimbs limbs(kGmpMaxLimbs);
  REQUIRE_VIRTUAL(limbs);
  Integer a(ctx()), n(ctx()), q(7, ctx()), r(8, ctx());
  const Integer three(3, ctx()), minus_one(-1, ctx());
  BorrowLimbs borrow_a(a, limbs), borrow_n(n, limbs, -1);
  // Rounding a quotient away from zero adds a limb to GMP's room for it
  // (size(n) - size(d) + 1), and a floor or ceil remainder adds |d| to a
  // remainder (size(d) + 1).
  EXPECT_TRUE(refuses([&] { mpgpu::fdiv_q(q, n, three); }, "fdiv_q", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::cdiv_q(q, a, three); }, "cdiv_q", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::fdiv_qr(q, r, n, three); }, "fdiv_qr", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::cdiv_qr(q, r, a, three); }, "cdiv_qr", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::fdiv_r(r, minus_one, a); }, "fdiv_r", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::cdiv_r(r, three, a); }, "cdiv_r", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::mod(r, minus_one, a); }, "mod", kGmpMaxLimbs + 1));
  EXPECT_TRUE(borrow_a.unchanged(limbs));
  EXPECT_TRUE(borrow_n.unchanged(limbs, -1));
  EXPECT_TRUE(matches(q, Mpz::from_ui(7)));
  EXPECT_TRUE(matches(r, Mpz::from_ui(8)));
}

TEST_P(GmpLimits, NumberTheory) {
  // lcm(h, h + 1) = h (h + 1): mpz_lcm's product reserves 2^31 + 2 limbs;
  // mpz_gcdext's t comes from a product of 2^31 + 3 limbs.
  VirtualLimbs h_limbs(kHalf), h1_limbs(kHalf, 1, 1), big(kGmpMaxLimbs);
  REQUIRE_VIRTUAL(h_limbs);
  REQUIRE_VIRTUAL(h1_limbs);
  REQUIRE_VIRTUAL(big);
  Integer h(ctx()), h1(ctx()), a(ctx()), r(7, ctx()), s(8, ctx()), t(9, ctx());
  const Integer three(3, ctx()), minus_one(-1, ctx());
  BorrowLimbs borrow_h(h, h_limbs), borrow_h1(h1, h1_limbs), borrow_a(a, big);
  EXPECT_TRUE(refuses([&] { mpgpu::lcm(r, h, h1); }, "lcm", 2 * kHalf));
  EXPECT_TRUE(refuses([&] { mpgpu::gcdext(r, s, t, h, h1); }, "gcdext", 2 * kHalf + 1));
  // mpz_invert keeps a gcd of the larger size + 1 limbs.
  EXPECT_TRUE(refuses([&] { (void)mpgpu::invert(r, a, three); }, "invert", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { mpgpu::powm(r, a, minus_one, three); }, "powm", kGmpMaxLimbs + 1));
  EXPECT_TRUE(borrow_h.unchanged(h_limbs));
  EXPECT_TRUE(borrow_h1.unchanged(h1_limbs));
  EXPECT_TRUE(borrow_a.unchanged(big));
  EXPECT_TRUE(matches(r, Mpz::from_ui(7)));
  EXPECT_TRUE(matches(s, Mpz::from_ui(8)));
  EXPECT_TRUE(matches(t, Mpz::from_ui(9)));
}

TEST_P(GmpLimits, Powers) {
  // mpz_pow_ui squares a one-limb base up to a limb or two (3^64 has 101.4
  // bits) and reserves the bits that power has, rounded up to a whole bit,
  // times what is left of the exponent, plus 5 limbs (mpz/n_pow_ui.c): for
  // 3^(8.65 * 10^10), 102 e / 64 bits (2.15 * 10^9 limbs), past INT_MAX,
  // while the power itself (2.142 * 10^9 limbs) would fit. Likewise 5^e
  // (5^32: 74.3 bits, 75 reserved).
  Integer r(7, ctx());
  const Integer three(3, ctx());
  EXPECT_TRUE(refuses([&] { mpgpu::ui_pow_ui(r, 3, 86'500'000'000); }, "pow_ui", 0));
  EXPECT_TRUE(refuses([&] { mpgpu::pow_ui(r, three, 86'500'000'000); }, "pow_ui", 0));
  EXPECT_TRUE(refuses([&] { mpgpu::ui_pow_ui(r, 5, 59'000'000'000); }, "pow_ui", 0));
  EXPECT_TRUE(refuses([&] { mpgpu::ui_pow_ui(r, 6, 59'000'000'000); }, "pow_ui", 0));  // 3^e 2^e
  EXPECT_TRUE(matches(r, Mpz::from_ui(7)));
  EXPECT_TRUE(matches(three, Mpz::from_ui(3)));
  mpgpu::ui_pow_ui(r, 3, 1000);  // ordinary powers still work
  Mpz want;
  mpz_ui_pow_ui(want, 3, 1000);
  EXPECT_TRUE(matches(r, want));
}

TEST_P(GmpLimits, FibonacciAndLucas) {
  // mpz_fib_ui and mpz_lucnum_ui reserve MPN_FIB2_SIZE(n) = n/32 * 23/64 + 4
  // limbs, about 3.5% more than F(n) (0.6943 n bits): F(1.95 * 10^11) has
  // 2.115 * 10^9 limbs, which fit, but its reservation (2.19 * 10^9) does not.
  // On a CUDA context such a result is device work (not through GMP).
  if (ctx().is_cuda()) GTEST_SKIP() << "fib_ui of this size runs on the device there";
  Integer r(7, ctx());
  EXPECT_TRUE(refuses([&] { mpgpu::fib_ui(r, 195'000'000'000); }, "fib_ui", 0));
  EXPECT_TRUE(refuses([&] { mpgpu::lucnum_ui(r, 195'000'000'000); }, "lucnum_ui", 0));
  EXPECT_TRUE(matches(r, Mpz::from_ui(7)));
  mpgpu::fib_ui(r, 1000);  // ordinary ones still work
  Mpz want;
  mpz_fib_ui(want, 1000);
  EXPECT_TRUE(matches(r, want));
}

TEST_P(GmpLimits, Strings) {
  // 16 (2^31 - 1) hex digits: 2^31 - 1 limbs, and the parse reserves 2 more.
  const std::uint64_t hex_digits = 16 * kGmpMaxLimbs;
  VirtualText hex(hex_digits, 'f');
  REQUIRE_VIRTUAL(hex);
  EXPECT_TRUE(refuses([&] { (void)Integer::from_string(hex.view(), 16, ctx()); }, "Integer::from_string",
                      kGmpMaxLimbs + 2));
  // 4.2 * 10^10 decimal digits: about 2.18 * 10^9 limbs.
  VirtualText decimal(42'000'000'000, '9');
  REQUIRE_VIRTUAL(decimal);
  EXPECT_THROW((void)Integer::from_string(decimal.view(), 10, ctx()), mpgpu::Overflow);
}

TEST_P(GmpLimits, LimbsAndBytes) {
  VirtualLimbs limbs(kGmpMaxLimbs + 1);
  REQUIRE_VIRTUAL(limbs);
  EXPECT_TRUE(refuses([&] { (void)Integer::from_limbs(limbs.data(), limbs.count(), 1, ctx()); },
                      "Integer::from_limbs", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { (void)Integer::from_limbs(limbs.data(), limbs.count(), -1, ctx()); },
                      "Integer::from_limbs", kGmpMaxLimbs + 1));
  // 2^32 + 1 limbs: an int size would wrap to 1.
  VirtualLimbs wrapping((std::uint64_t{1} << 32) + 1);
  REQUIRE_VIRTUAL(wrapping);
  EXPECT_TRUE(refuses([&] { (void)Integer::from_limbs(wrapping.data(), wrapping.count(), 1, ctx()); },
                      "Integer::from_limbs", wrapping.count()));
  // 8 (2^31 - 1) + 1 bytes: 2^31 limbs.
  const std::size_t bytes = 8 * kGmpMaxLimbs + 1;
  EXPECT_TRUE(refuses([&] { (void)Integer::from_bytes(limbs.data(), bytes, mpgpu::Endian::little, ctx()); },
                      "Integer::from_bytes", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { (void)Integer::from_bytes(limbs.data(), bytes, mpgpu::Endian::big, ctx()); },
                      "Integer::from_bytes", kGmpMaxLimbs + 1));
}

// A CUDA context keeps huge values on the device, where they may pass GMP's
// limit; turning one into a host mpz (to_mpz, to_bytes, to_context, an
// operation that runs through host GMP) throws Overflow.
class DeviceValuesBeyondGmp : public IntegerTest {};
MPGPU_INSTANTIATE_ON_BACKEND(DeviceValuesBeyondGmp);

TEST_P(DeviceValuesBeyondGmp, DoNotBecomeHostMpz) {
  if (!on_gpu()) GTEST_SKIP() << "device values";
  Integer x(ctx());
  try {
    x = Integer::power_of_two(64 * kGmpMaxLimbs, ctx());  // 2^31 limbs
  } catch (const mpgpu::OutOfMemory&) {
    GTEST_SKIP() << "needs 16 GiB of device memory";
  }
  ASSERT_EQ(x.size(), kGmpMaxLimbs + 1);
  Mpz z;
  EXPECT_TRUE(refuses([&] { x.to_mpz(z); }, "Integer::to_mpz", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { (void)x.to_bytes(mpgpu::Endian::little); }, "Integer::to_mpz", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { (void)x.to_context(mpgpu::Context::cpu()); }, "Integer::to_mpz", kGmpMaxLimbs + 1));
  EXPECT_TRUE(refuses([&] { (void)mpgpu::congruent_p(x, Integer(1, ctx()), Integer(3, ctx())); },
                      "Integer::to_mpz", kGmpMaxLimbs + 1));
  EXPECT_EQ(x.size(), kGmpMaxLimbs + 1);
  EXPECT_EQ(x.sign(), 1);
}

}  // namespace
