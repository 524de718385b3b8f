// Operands of more than 2^31 bits (2^25 limbs, 256 MiB each) on the device:
// sizes whose bit counts no longer fit in 32 bits, and carry chains across
// 16384 tiles. Checked against GMP on the host (an add of this size takes
// GMP about 0.1 s). The size is the point of every test here, so a
// sanitizer-sized run (MPGPU_TEST_SANITIZER, support/test_size.hpp) keeps
// each at its size and only drops repeats: one shift count of three, and
// the 2^32-bit product's second form.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "mpgpu/mpgpu.hpp"
#include "support/integer_check.hpp"
#include "support/operands.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

constexpr std::uint64_t huge_bits = std::uint64_t{1} << 31;

class Huge : public ::testing::Test {
 protected:
  void SetUp() override {
    if (mpgpu::Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
    ctx_.emplace(mpgpu::Context::cuda(0));
    // Inputs, results and temporaries: a few GiB at most.
    if (ctx_->info().free_memory < (std::size_t{8} << 30)) GTEST_SKIP() << "less than 8 GiB of device memory free";
  }
  const mpgpu::Context& ctx() const { return *ctx_; }
  Integer make(const Mpz& v) const { return Integer::from_mpz(v, ctx()); }

 private:
  std::optional<mpgpu::Context> ctx_;
};

TEST_F(Huge, FullCarryAndBorrowChains) {
  const Integer ones = Integer::all_ones(huge_bits, ctx());
  ASSERT_EQ(ones.size(), huge_bits / 64);
  const Integer one(1, ctx());
  Integer r(ctx());
  mpgpu::add(r, ones, one);  // carry through 2^25 limbs
  ASSERT_TRUE(matches(r, Mpz::pow2(huge_bits), false));
  mpgpu::sub(r, r, one);     // and the borrow back down
  ASSERT_TRUE(matches(r, Mpz::all_ones(huge_bits), false));
  mpgpu::sub(r, Integer(-1, ctx()), ones);
  ASSERT_TRUE(matches(r, -Mpz::pow2(huge_bits), false));
}

TEST_F(Huge, RandomAddSubXorShifts) {
  Operands gen;
  const Mpz a = gen.uniform(huge_bits + 13), b = gen.runs(huge_bits - 1000);
  const Integer x = make(a), y = make(b);
  Integer r(ctx());
  Mpz want;

  mpgpu::add(r, x, y);
  mpz_add(want, a, b);
  ASSERT_TRUE(matches(r, want, false)) << "add";
  mpgpu::sub(r, y, x);
  mpz_sub(want, b, a);
  ASSERT_TRUE(matches(r, want, false)) << "sub";
  mpgpu::add(r, x, -x);
  ASSERT_TRUE(matches(r, Mpz(), false)) << "a + (-a)";

  mpgpu::xor_(r, x, y);
  mpz_xor(want, a, b);
  ASSERT_TRUE(matches(r, want, false)) << "xor";
  mpgpu::xor_(r, -x, y);
  mpz_xor(want, (-a).get(), b);
  ASSERT_TRUE(matches(r, want, false)) << "xor, negative operand";

  for (std::uint64_t k : sized<std::vector<std::uint64_t>>({1, 64, 1000003}, {1000003})) {
    mpgpu::mul_2exp(r, x, k);
    mpz_mul_2exp(want, a, k);
    ASSERT_TRUE(matches(r, want, false)) << "<< " << k;
    mpgpu::tdiv_q_2exp(r, y, k);
    mpz_tdiv_q_2exp(want, b, k);
    ASSERT_TRUE(matches(r, want, false)) << "tdiv_q_2exp " << k;
    mpgpu::fdiv_q_2exp(r, -y, k);
    mpz_fdiv_q_2exp(want, (-b).get(), k);
    ASSERT_TRUE(matches(r, want, false)) << "fdiv_q_2exp of a negative, " << k;
  }
}

// A 2^32-bit product: (2^n - 1)^2 = 2^(2n) - 2^(n+1) + 1 with n = 2^31, all
// coefficients at their maximum (the CRT bound), checked exactly against the
// closed form built with GMP (GMP's own product of this size takes minutes).
TEST_F(Huge, ProductOfTwo2To31BitNumbers) {
  const Integer ones = Integer::all_ones(huge_bits, ctx());
  Integer r(ctx());
  mpgpu::sqr(r, ones);
  Mpz want = Mpz::pow2(2 * huge_bits);
  Mpz twice = Mpz::pow2(huge_bits + 1);
  mpz_sub(want, want, twice);
  mpz_add_ui(want, want, 1);
  EXPECT_TRUE(matches(r, want, false));
  // Sanitizer-sized: the square only; the two-operand path with wide
  // digits runs in integer_mul_memory_gpu_test (2^28-bit operands).
  if (sanitizer_sized()) return;
  const Integer copy = ones;  // other limbs: the two-operand path (two forward transforms)
  mpgpu::mul(r, ones, copy);
  EXPECT_TRUE(matches(r, want, false));
}

// Random 2^26-bit operands: differential against mpz_mul (about a second).
TEST_F(Huge, RandomProductAgainstGmp) {
  Operands gen;
  const Mpz a = gen.uniform(std::uint64_t{1} << 26), b = gen.uniform((std::uint64_t{1} << 26) - 12345);
  Mpz want;
  mpz_mul(want, a, b);
  Integer r(ctx());
  mpgpu::mul(r, make(a), make(b));
  EXPECT_TRUE(matches(r, want, false));
}

}  // namespace
