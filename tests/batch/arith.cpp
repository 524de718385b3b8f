// Batch add/sub with carry and borrow, the 32-bit scalar forms, and the
// products (low, high, wide, square) against GMP, at every width, on special
// and random operands; aliasing of the destination with an operand.
#include "batch_test.hpp"

namespace {

using namespace mpgpu_test;

class BatchArith : public BatchTest {};

/// GMP's a + b and a - b mod 2^bits per instance, the carry out of bit bits
/// and the borrow (a < b).
struct SumsAndDifferences {
  std::vector<Mpz> sum, carry, diff, borrow;
  SumsAndDifferences(const std::vector<Mpz>& a, const std::vector<Mpz>& b, std::size_t bits)
      : sum(a.size()), carry(a.size()), diff(a.size()), borrow(a.size()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      Mpz s;
      mpz_add(s, a[i], b[i]);
      sum[i] = mod2exp(s, bits);
      mpz_fdiv_q_2exp(carry[i], s, bits);
      mpz_sub(s, a[i], b[i]);
      diff[i] = mod2exp(s, bits);
      mpz_set_ui(borrow[i], mpz_cmp(a[i], b[i]) < 0);
    }
  }
};

TEST_P(BatchArith, AddAndSubWithCarryAndBorrow) {
  Operands gen(11);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = instances_for(bits);
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0), b = make_operands(gen, bits, n, 1);
    const auto [sum, carry, diff, borrow] = SumsAndDifferences(a, b, bits);
    const Batch x = to_batch(a, bits, ctx()), y = to_batch(b, bits, ctx());
    const Describe ops = operands_of({{"a", &a}, {"b", &b}});
    Batch r, flag;
    mpgpu::add(r, x, y, &flag);
    ASSERT_TRUE(equals(r, bits, sum, "add", ops));
    ASSERT_TRUE(equals(flag, 1, carry, "add's carry", ops));
    mpgpu::sub(r, x, y, &flag);  // both reused in place now
    ASSERT_TRUE(equals(r, bits, diff, "sub", ops));
    ASSERT_TRUE(equals(flag, 1, borrow, "sub's borrow", ops));
    Batch plain;
    mpgpu::add(plain, x, y);
    ASSERT_TRUE(equals(plain, bits, sum, "add without carry", ops));
    mpgpu::sub(plain, x, y);
    ASSERT_TRUE(equals(plain, bits, diff, "sub without borrow", ops));
    // A wider flag batch keeps its width and gets 0 or 1.
    Batch wide_flag(n, 64, ctx());
    mpgpu::add(r, x, y, &wide_flag);
    ASSERT_TRUE(equals(wide_flag, 64, carry, "add's carry into a 64-bit batch", ops));
  }
}

/// GMP's a + v, a - v and a v mod 2^bits per instance.
struct ScalarResults {
  std::vector<Mpz> plus, minus, times;
  ScalarResults(const std::vector<Mpz>& a, std::uint64_t v, std::size_t bits)
      : plus(a.size()), minus(a.size()), times(a.size()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      Mpz t;
      mpz_add_ui(t, a[i], v);
      plus[i] = mod2exp(t, bits);
      mpz_sub_ui(t, a[i], v);
      minus[i] = mod2exp(t, bits);
      mpz_mul_ui(t, a[i], v);
      times[i] = mod2exp(t, bits);
    }
  }
};

TEST_P(BatchArith, ScalarForms) {
  Operands gen(12);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = instances_for(bits);
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0);
    const Batch x = to_batch(a, bits, ctx());
    const Describe ops = operands_of({{"a", &a}});
    // 32-bit scalars, and 64-bit ones (mul_ui then takes two 32-bit products on the GPU).
    std::vector<std::uint64_t> scalars = {0, 1, 2, 0xffffffffu, gen.limb() & 0xffffffffu, std::uint64_t{1} << 32,
                                          0xffffffff00000001u, ~std::uint64_t{0}, gen.limb()};
    // Sanitizer-sized: 0, 1, 2^32 - 1 (32-bit), 2^32, 2^64 - 1, a random 64-bit one.
    if (sanitizer_sized()) scalars = {scalars[0], scalars[1], scalars[3], scalars[5], scalars[7], scalars[8]};
    for (std::uint64_t v : scalars) {
      const auto [plus, minus, times] = ScalarResults(a, v, bits);
      std::string tag = " ";  // (not " " + to_string: g++ 12 warns falsely, -Wrestrict)
      tag += std::to_string(v);
      Batch r;
      mpgpu::add_ui(r, x, v);
      ASSERT_TRUE(equals(r, bits, plus, "add_ui" + tag, ops));
      mpgpu::sub_ui(r, x, v);
      ASSERT_TRUE(equals(r, bits, minus, "sub_ui" + tag, ops));
      mpgpu::mul_ui(r, x, v);
      ASSERT_TRUE(equals(r, bits, times, "mul_ui" + tag, ops));
    }
  }
}

/// Fewer instances for products at the largest widths.
std::size_t product_instances(std::size_t bits) { return bits >= 262144 ? 2 : instances_for(bits); }

TEST_P(BatchArith, Products) {
  Operands gen(13);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = product_instances(bits);
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0), b = make_operands(gen, bits, n, 1);
    std::vector<Mpz> low(n), high(n), wide(n), square(n);
    for (std::size_t i = 0; i < n; ++i) {
      mpz_mul(wide[i], a[i], b[i]);
      low[i] = mod2exp(wide[i], bits);
      mpz_fdiv_q_2exp(high[i], wide[i], bits);
      Mpz s;
      mpz_mul(s, a[i], a[i]);
      square[i] = mod2exp(s, bits);
    }
    const Batch x = to_batch(a, bits, ctx()), y = to_batch(b, bits, ctx());
    const Describe ops = operands_of({{"a", &a}, {"b", &b}});
    Batch r;
    mpgpu::mul(r, x, y);
    ASSERT_TRUE(equals(r, bits, low, "mul", ops));
    mpgpu::mul_high(r, x, y);
    ASSERT_TRUE(equals(r, bits, high, "mul_high", ops));
    mpgpu::sqr(r, x);
    ASSERT_TRUE(equals(r, bits, square, "sqr", operands_of({{"a", &a}})));
    mpgpu::mul(r, x, x);
    ASSERT_TRUE(equals(r, bits, square, "mul(r, a, a)", operands_of({{"a", &a}})));
    if (2 * bits <= Batch::max_bits) {
      Batch w;
      mpgpu::mul_wide(w, x, y);
      ASSERT_TRUE(equals(w, 2 * bits, wide, "mul_wide", ops));
    }
  }
}

TEST_P(BatchArith, DestinationMayBeAnOperand) {
  Operands gen(14);
  for (std::size_t bits : {std::size_t{64}, std::size_t{65}, std::size_t{1000}, std::size_t{3072},
                           std::size_t{4096}, std::size_t{65536}}) {
    const std::size_t n = bits > 16384 ? 4 : 24;
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0), b = make_operands(gen, bits, n, 1);
    const Describe ops = operands_of({{"a", &a}, {"b", &b}});
    std::vector<Mpz> sum(n), prod(n), wide(n), square(n), shifted(n);
    for (std::size_t i = 0; i < n; ++i) {
      Mpz t;
      mpz_add(t, a[i], b[i]);
      sum[i] = mod2exp(t, bits);
      mpz_mul(wide[i], a[i], b[i]);
      prod[i] = mod2exp(wide[i], bits);
      mpz_mul(t, a[i], a[i]);
      square[i] = mod2exp(t, bits);
      mpz_mul_2exp(t, a[i], 3);
      shifted[i] = mod2exp(t, bits);
    }
    {
      Batch x = to_batch(a, bits, ctx());
      const Batch y = to_batch(b, bits, ctx());
      mpgpu::add(x, x, y);  // r == a
      ASSERT_TRUE(equals(x, bits, sum, "add(a, a, b)", ops));
    }
    {
      const Batch x = to_batch(a, bits, ctx());
      Batch y = to_batch(b, bits, ctx());
      mpgpu::mul(y, x, y);  // r == b
      ASSERT_TRUE(equals(y, bits, prod, "mul(b, a, b)", ops));
    }
    {
      Batch x = to_batch(a, bits, ctx());
      mpgpu::mul(x, x, x);  // r == a == b
      ASSERT_TRUE(equals(x, bits, square, "mul(a, a, a)", ops));
    }
    {
      Batch x = to_batch(a, bits, ctx());
      const Batch y = to_batch(b, bits, ctx());
      mpgpu::mul_wide(x, x, y);  // r == a, and r changes width
      ASSERT_TRUE(equals(x, 2 * bits, wide, "mul_wide(a, a, b)", ops));
    }
    {
      Batch x = to_batch(a, bits, ctx());
      Batch copy = x;  // a handle to the same storage: sees the in-place result
      mpgpu::shift_left(x, x, 3);
      ASSERT_TRUE(equals(x, bits, shifted, "shift_left(a, a, 3)", ops));
      ASSERT_TRUE(equals(copy, bits, shifted, "a copy of the handle after shift_left(a, a, 3)", ops));
    }
  }
}

TEST_P(BatchArith, ElementwiseOpsInPlace) {
  // Every one-pass operation written over one of its own operands (the CPU
  // backend writes these straight into r, with no copy through scratch), at
  // widths with and without a partial top limb, so the mask of the result
  // matters: sums and products carry past bit bits - 1.
  Operands gen(16);
  const std::uint64_t v = ~std::uint64_t{0};
  for (std::size_t bits : {std::size_t{64}, std::size_t{65}, std::size_t{1000}, std::size_t{4096}}) {
    const std::size_t n = 24;
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0), b = make_operands(gen, bits, n, 1);
    const Describe ops = operands_of({{"a", &a}, {"b", &b}});
    const auto [sum, carry, diff, borrow] = SumsAndDifferences(a, b, bits);
    const auto [plus, minus, times] = ScalarResults(a, v, bits);
    std::vector<Mpz> both(n), either(n), one(n), flipped(n);
    for (std::size_t i = 0; i < n; ++i) {
      Mpz t;
      mpz_and(both[i], a[i], b[i]);
      mpz_ior(either[i], a[i], b[i]);
      mpz_xor(one[i], a[i], b[i]);
      mpz_com(t, a[i]);
      flipped[i] = mod2exp(t, bits);
    }
    const Batch x = to_batch(a, bits, ctx()), y = to_batch(b, bits, ctx());
    // r == b for the binary operations (DestinationMayBeAnOperand has add with r == a).
    const auto on_b = [&](auto op, const std::vector<Mpz>& want, const char* what) {
      Batch r = y.clone();
      op(r, x, r);
      return equals(r, bits, want, what, ops);
    };
    Batch flag;
    ASSERT_TRUE(on_b([&](Batch& r, const Batch& p, const Batch& q) { mpgpu::add(r, p, q, &flag); }, sum,
                     "add(b, a, b, carry)"));
    ASSERT_TRUE(equals(flag, 1, carry, "add(b, a, b, carry)'s carry", ops));
    ASSERT_TRUE(on_b([&](Batch& r, const Batch& p, const Batch& q) { mpgpu::sub(r, p, q, &flag); }, diff,
                     "sub(b, a, b, borrow)"));
    ASSERT_TRUE(equals(flag, 1, borrow, "sub(b, a, b, borrow)'s borrow", ops));
    ASSERT_TRUE(on_b([](Batch& r, const Batch& p, const Batch& q) { mpgpu::and_(r, p, q); }, both, "and_(b, a, b)"));
    ASSERT_TRUE(on_b([](Batch& r, const Batch& p, const Batch& q) { mpgpu::ior(r, p, q); }, either, "ior(b, a, b)"));
    ASSERT_TRUE(on_b([](Batch& r, const Batch& p, const Batch& q) { mpgpu::xor_(r, p, q); }, one, "xor_(b, a, b)"));
    // r == a for sub and the unary ones.
    const auto on_a = [&](auto op, const std::vector<Mpz>& want, const char* what) {
      Batch r = x.clone();
      op(r);
      return equals(r, bits, want, what, ops);
    };
    ASSERT_TRUE(on_a([&](Batch& r) { mpgpu::sub(r, r, y); }, diff, "sub(a, a, b)"));
    ASSERT_TRUE(on_a([](Batch& r) { mpgpu::com(r, r); }, flipped, "com(a, a)"));
    ASSERT_TRUE(on_a([&](Batch& r) { mpgpu::add_ui(r, r, v); }, plus, "add_ui(a, a, 2^64 - 1)"));
    ASSERT_TRUE(on_a([&](Batch& r) { mpgpu::sub_ui(r, r, v); }, minus, "sub_ui(a, a, 2^64 - 1)"));
    ASSERT_TRUE(on_a([&](Batch& r) { mpgpu::mul_ui(r, r, v); }, times, "mul_ui(a, a, 2^64 - 1)"));
  }
}

TEST_P(BatchArith, ManyInstances) {
  // Enough work for the CPU backend to split the instances over threads, in
  // a count that does not divide evenly.
  Operands gen(15);
  for (std::size_t bits : {std::size_t{1024}, std::size_t{4000}}) {
    const std::size_t n = bits == 1024 ? 32771 : 2053;
    std::vector<Mpz> a, b;
    for (std::size_t i = 0; i < n; ++i) {
      a.push_back(random_below_pow2(gen, bits));
      b.push_back(i % 3 ? random_below_pow2(gen, bits) : Mpz::all_ones(bits));
    }
    std::vector<Mpz> sum(n), carry(n), prod(n);
    for (std::size_t i = 0; i < n; ++i) {
      Mpz t;
      mpz_add(t, a[i], b[i]);
      sum[i] = mod2exp(t, bits);
      mpz_fdiv_q_2exp(carry[i], t, bits);
      mpz_mul(t, a[i], b[i]);
      prod[i] = mod2exp(t, bits);
    }
    const Batch x = to_batch(a, bits, ctx()), y = to_batch(b, bits, ctx());
    const Describe ops = operands_of({{"a", &a}, {"b", &b}});
    Batch r, c;
    mpgpu::add(r, x, y, &c);
    ASSERT_TRUE(equals(r, bits, sum, "add", ops));
    ASSERT_TRUE(equals(c, 1, carry, "add's carry", ops));
    mpgpu::mul(r, x, y);
    ASSERT_TRUE(equals(r, bits, prod, "mul", ops));
  }
}

MPGPU_INSTANTIATE_ON_BACKEND(BatchArith);

}  // namespace
