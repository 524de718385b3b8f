// Bad input to the batch API: every case throws InvalidArgument (Overflow
// where a value does not fit) naming the function and the reason, and leaves
// the destination and the operands as they were: same shape, same storage,
// same values.
#include <functional>

#include "batch_test.hpp"

namespace {

using namespace mpgpu_test;

class BatchErrors : public BatchTest {};

TEST_P(BatchErrors, MismatchedOperands) {
  const mpgpu::Context other = mpgpu::Context::cpu();  // a context of its own, whatever ctx() is
  const Batch a = Batch::random(8, 64, 1, ctx()), b = Batch::random(8, 64, 2, ctx());
  const Batch b9 = Batch::random(9, 64, 3, ctx()), b65 = Batch::random(8, 65, 4, ctx());
  const Batch elsewhere = Batch::random(8, 64, 5, other);
  const Batch none;
  Batch r = Batch::random(8, 64, 6, ctx());
  Batch odd_r = Batch::random(3, 7, 7, ctx());  // would be reshaped by a valid call
  const std::vector<const Batch*> all = {&a, &b, &b9, &b65, &elsewhere, &r, &odd_r};

  EXPECT_TRUE(rejects([&] { mpgpu::add(r, a, b9); }, "add", "instances", all));
  EXPECT_TRUE(rejects([&] { mpgpu::add(odd_r, a, b9); }, "add", "instances", all));
  EXPECT_TRUE(rejects([&] { mpgpu::sub(r, a, b65); }, "sub", "bits wide", all));
  EXPECT_TRUE(rejects([&] { mpgpu::mul(r, a, elsewhere); }, "mul", "different contexts", all));
  EXPECT_TRUE(rejects([&] { mpgpu::mul_high(odd_r, b65, a); }, "mul_high", "bits wide", all));
  EXPECT_TRUE(rejects([&] { mpgpu::mul_wide(odd_r, a, b9); }, "mul_wide", "instances", all));
  EXPECT_TRUE(rejects([&] { mpgpu::xor_(r, a, none); }, "xor_", "no width", all));
  EXPECT_TRUE(rejects([&] { mpgpu::com(r, none); }, "com", "no width", all));
  EXPECT_TRUE(rejects([&] { mpgpu::shift_left(r, none, 3); }, "shift_left", "no width", all));
  EXPECT_TRUE(rejects([&] { mpgpu::compare(a, b9); }, "compare", "instances", all));
  EXPECT_TRUE(rejects([&] { mpgpu::compare(a, elsewhere); }, "compare", "different contexts", all));
  EXPECT_TRUE(rejects([&] { mpgpu::popcount(none); }, "popcount", "no width", all));
}

TEST_P(BatchErrors, CarryAndBorrowBatches) {
  const Batch a = Batch::random(8, 64, 1, ctx()), b = Batch::random(8, 64, 2, ctx());
  Batch r = Batch::random(8, 64, 3, ctx());
  Batch short_flag(3, 1, ctx());
  Batch foreign_flag(8, 1, mpgpu::Context::cpu());
  Batch shares_r = r;  // the same storage as r
  const std::vector<const Batch*> all = {&a, &b, &r, &short_flag, &foreign_flag};
  EXPECT_TRUE(rejects([&] { mpgpu::add(r, a, b, &short_flag); }, "add", "instances", all));
  EXPECT_TRUE(rejects([&] { mpgpu::sub(r, a, b, &foreign_flag); }, "sub", "different contexts", all));
  EXPECT_TRUE(rejects([&] { mpgpu::add(r, a, b, &r); }, "add", "batch of its own", all));
  EXPECT_TRUE(rejects([&] { mpgpu::sub(r, a, b, &shares_r); }, "sub", "shares its storage with r", all));
}

TEST_P(BatchErrors, BadModuli) {
  std::vector<Mpz> m(6, Mpz::from_ui(1000003));
  const Batch a = Batch::random(6, 64, 1, ctx()), b = Batch::random(6, 64, 2, ctx());
  Batch r = Batch::random(6, 64, 3, ctx());
  const Batch good = to_batch(m, 64, ctx());
  m[4] = Mpz::from_ui(1000004);
  const Batch even = to_batch(m, 64, ctx());
  m[4] = Mpz::from_ui(1);
  const Batch one = to_batch(m, 64, ctx());
  m[4] = Mpz();
  const Batch zero = to_batch(m, 64, ctx());
  const Batch wide_exp = Batch::random(6, 256, 4, ctx());  // class 4 limbs > m's 2
  const Batch wide_a = Batch::random(6, 128, 7, ctx());    // montgomery_reduce's double width
  const std::vector<const Batch*> all = {&a, &b, &r, &good, &even, &one, &zero, &wide_exp, &wide_a};
  for (const Batch* bad : {&even, &one, &zero}) {
    EXPECT_TRUE(rejects([&] { mpgpu::to_montgomery(r, a, *bad); }, "to_montgomery", "odd and > 1", all));
    EXPECT_TRUE(rejects([&] { mpgpu::from_montgomery(r, a, *bad); }, "from_montgomery", "odd and > 1", all));
    EXPECT_TRUE(rejects([&] { mpgpu::montgomery_mul(r, a, b, *bad); }, "montgomery_mul", "odd and > 1", all));
    EXPECT_TRUE(rejects([&] { mpgpu::montgomery_sqr(r, a, *bad); }, "montgomery_sqr", "odd and > 1", all));
    EXPECT_TRUE(rejects([&] { mpgpu::montgomery_reduce(r, wide_a, *bad); }, "montgomery_reduce", "odd and > 1", all));
    EXPECT_TRUE(rejects([&] { mpgpu::powm(r, a, b, *bad); }, "powm", "odd and > 1", all));
  }
  EXPECT_TRUE(rejects([&] { mpgpu::powm(r, a, wide_exp, good); }, "powm", "stride_limbs", all));
  const Batch b9 = Batch::random(9, 64, 5, ctx());
  EXPECT_TRUE(rejects([&] { mpgpu::powm(r, a, b9, good); }, "powm", "instances", all));
  EXPECT_TRUE(rejects([&] { mpgpu::montgomery_mul(r, a, b9, good); }, "montgomery_mul", "instances", all));
  EXPECT_TRUE(rejects([&] { mpgpu::montgomery_reduce(r, a, good); }, "montgomery_reduce", "twice as wide", all));
  EXPECT_TRUE(rejects([&] { mpgpu::montgomery_reduce(r, wide_exp, good); }, "montgomery_reduce", "twice as wide", all));
  const Batch wide9 = Batch::random(9, 128, 8, ctx());
  EXPECT_TRUE(rejects([&] { mpgpu::montgomery_reduce(r, wide9, good); }, "montgomery_reduce", "instances", all));
  // Every instance of an odd batch is fine, also with a narrower exponent.
  mpgpu::powm(r, a, Batch::random(6, 3, 6, ctx()), good);
  EXPECT_EQ(r.count(), 6u);
}

TEST_P(BatchErrors, WidthsAndConversions) {
  EXPECT_THROW(Batch(3, 0, ctx()), mpgpu::InvalidArgument);
  EXPECT_THROW(Batch(3, Batch::max_bits + 1, ctx()), mpgpu::InvalidArgument);
  EXPECT_THROW(Batch::random(3, 0, 1, ctx()), mpgpu::InvalidArgument);
  EXPECT_THROW(Batch::from_limbs(nullptr, 2, 1, 64, ctx()), mpgpu::InvalidArgument);
  EXPECT_THROW(Batch::from_bytes(nullptr, 2, 8, mpgpu::Endian::big, 64, ctx()), mpgpu::InvalidArgument);
  const mpz_srcptr null_value = nullptr;
  EXPECT_THROW(Batch::from_mpz(std::span<const mpz_srcptr>(&null_value, 1), 64, ctx()), mpgpu::InvalidArgument);
  const Batch a = Batch::random(4, 64, 1, ctx());
  Mpz z;
  EXPECT_THROW(a.to_mpz(4, z), mpgpu::InvalidArgument);
  std::vector<mpz_ptr> three = {z.get(), z.get(), z.get()};
  EXPECT_THROW(a.to_mpz(three), mpgpu::InvalidArgument);
  // The widest batch has no wide product.
  const Batch widest = Batch::random(1, Batch::max_bits, 1, ctx());
  Batch r;
  EXPECT_TRUE(rejects([&] { mpgpu::mul_wide(r, widest, widest); }, "mul_wide", "max_bits", {&widest, &r}));
}

MPGPU_INSTANTIATE_ON_BACKEND(BatchErrors);

}  // namespace
