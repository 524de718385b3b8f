// Batch division (div_ui, rem_ui, div_qr, div, rem and the wide forms), gcd, invert and the
// signed operations (compare_signed, shift_right_arithmetic,
// mul_high_signed) against GMP at every width: special and random operands,
// divisors 1, > dividend, all ones, single bits, equal operands, gcd with
// zero, even and odd moduli, modulus - 1, modulus 1; and bad input (a zero
// divisor, no inverse) leaving every batch as it was.
#include <algorithm>

#include "batch_test.hpp"

namespace {

using namespace mpgpu_test;

class BatchDivide : public BatchTest {};

/// Divisors: the operands with zeros replaced by one.
std::vector<Mpz> nonzero(std::vector<Mpz> v) {
  for (Mpz& x : v)
    if (x.sgn() == 0) mpz_set_ui(x, 1);
  return v;
}

/// Widths for the bit-serial device algorithms (divide: 32W steps, gcd and
/// invert 64W): every width for division, up to 8192 bits for the others.
std::vector<std::size_t> widths_up_to(std::size_t max_bits) {
  std::vector<std::size_t> w;
  for (std::size_t bits : batch_widths())
    if (bits <= max_bits) w.push_back(bits);
  return w;
}

std::size_t divide_instances(std::size_t bits) { return bits >= 65536 ? 2 : instances_for(bits); }

TEST_P(BatchDivide, ByScalar) {
  Operands gen(41);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = instances_for(bits);
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0);
    const Batch x = to_batch(a, bits, ctx());
    const Describe ops = operands_of({{"a", &a}});
    // 32-bit divisors, and 64-bit ones (a whole divide per instance on the GPU).
    std::vector<std::uint64_t> divisors = {1, 2, 3, 10, 0x80000000u, 0xffffffffu, (gen.limb() | 1) & 0xffffffffu,
                                           std::uint64_t{1} << 32, 0xffffffff00000001u, ~std::uint64_t{0},
                                           gen.limb() | (std::uint64_t{1} << 40)};
    // Sanitizer-sized: 1, 3, 2^32 - 1 (32-bit), 2^32, 2^64 - 1 and a random 64-bit one.
    if (sanitizer_sized()) divisors = {divisors[0], divisors[2], divisors[5], divisors[7], divisors[9], divisors[10]};
    for (std::uint64_t d : divisors) {
      std::vector<Mpz> q(n), r(n);
      for (std::size_t i = 0; i < n; ++i) mpz_fdiv_qr_ui(q[i], r[i], a[i], d);
      const std::string tag = " by " + std::to_string(d);
      Batch out;
      mpgpu::div_ui(out, x, d);
      ASSERT_TRUE(equals(out, bits, q, "div_ui" + tag, ops));
      mpgpu::rem_ui(out, x, d);
      ASSERT_TRUE(equals(out, bits, r, "rem_ui" + tag, ops));
    }
  }
}

TEST_P(BatchDivide, QuotientAndRemainder) {
  Operands gen(42);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = divide_instances(bits);
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0);
    std::vector<Mpz> b = nonzero(make_operands(gen, bits, n, 1));
    if (n > 4) {
      b[n - 1] = a[n - 1];  // equal operands
      mpz_add_ui(b[n - 2], a[n - 2], 1);  // a divisor just above the dividend
      b[n - 2] = nonzero({mod2exp(b[n - 2], bits)})[0];
    }
    std::vector<Mpz> q(n), r(n);
    for (std::size_t i = 0; i < n; ++i) mpz_fdiv_qr(q[i], r[i], a[i], b[i]);
    const Batch x = to_batch(a, bits, ctx()), y = to_batch(b, bits, ctx());
    const Describe ops = operands_of({{"a", &a}, {"b", &b}});
    Batch bq, br;
    mpgpu::div_qr(bq, br, x, y);
    ASSERT_TRUE(equals(bq, bits, q, "div_qr's quotient", ops));
    ASSERT_TRUE(equals(br, bits, r, "div_qr's remainder", ops));
    Batch only;
    mpgpu::div(only, x, y);
    ASSERT_TRUE(equals(only, bits, q, "div", ops));
    mpgpu::rem(only, x, y);
    ASSERT_TRUE(equals(only, bits, r, "rem", ops));
  }
}

/// The wide forms: a of 2 * bits bits over b of bits bits, at every width
/// whose double is a class (up to 2^17 bits). Dividends: the special values
/// at the double width, random ones, products b * c + d with d < b (mul_wide
/// products, the use case; the quotient then needs the double width when c
/// is wide), a < b, all ones over 1 (the largest quotient).
TEST_P(BatchDivide, WideDividend) {
  Operands gen(47);
  for (std::size_t bits : batch_widths()) {
    if (2 * bits > mpgpu::Batch::max_bits) continue;
    const std::size_t n = divide_instances(2 * bits);
    std::vector<Mpz> a = make_operands(gen, 2 * bits, n, 0);
    std::vector<Mpz> b = nonzero(make_operands(gen, bits, n, 1));
    for (std::size_t i = n / 2; i < n; i += 2) {  // b * c + d, d < b
      const Mpz c = random_below_pow2(gen, bits);
      Mpz d = random_below_pow2(gen, bits);
      mpz_fdiv_r(d, d, b[i]);
      mpz_mul(a[i], b[i], c);
      mpz_add(a[i], a[i], d);
    }
    if (n > 2) {
      a[n - 1] = Mpz::all_ones(2 * bits), b[n - 1] = Mpz::from_ui(1);
      b[n - 2] = Mpz::all_ones(bits), a[n - 2] = Mpz::all_ones(bits - 1 ? bits - 1 : 1);  // a < b
    }
    std::vector<Mpz> q(n), r(n);
    for (std::size_t i = 0; i < n; ++i) mpz_fdiv_qr(q[i], r[i], a[i], b[i]);
    const Batch x = to_batch(a, 2 * bits, ctx()), y = to_batch(b, bits, ctx());
    const Describe ops = operands_of({{"a", &a}, {"b", &b}});
    const std::string tag = " at " + std::to_string(2 * bits) + " / " + std::to_string(bits) + " bits";
    Batch bq, br;
    mpgpu::div_qr_wide(bq, br, x, y);
    ASSERT_EQ(bq.bits(), 2 * bits);
    ASSERT_EQ(br.bits(), bits);
    ASSERT_TRUE(equals(bq, 2 * bits, q, "div_qr_wide's quotient" + tag, ops));
    ASSERT_TRUE(equals(br, bits, r, "div_qr_wide's remainder" + tag, ops));
    Batch only;
    mpgpu::div_wide(only, x, y);
    ASSERT_TRUE(equals(only, 2 * bits, q, "div_wide" + tag, ops));
    mpgpu::rem_wide(only, x, y);
    ASSERT_TRUE(equals(only, bits, r, "rem_wide" + tag, ops));
  }
}

TEST_P(BatchDivide, DestinationsMayBeOperands) {
  Operands gen(43);
  const std::size_t bits = 1000, n = 24;
  const std::vector<Mpz> a = make_operands(gen, bits, n, 0), b = nonzero(make_operands(gen, bits, n, 1));
  std::vector<Mpz> q(n), r(n);
  for (std::size_t i = 0; i < n; ++i) mpz_fdiv_qr(q[i], r[i], a[i], b[i]);
  const Describe ops = operands_of({{"a", &a}, {"b", &b}});
  Batch x = to_batch(a, bits, ctx()), y = to_batch(b, bits, ctx());
  mpgpu::div_qr(x, y, x, y);  // q is a, r is b
  ASSERT_TRUE(equals(x, bits, q, "div_qr(a, b, a, b)'s quotient", ops));
  ASSERT_TRUE(equals(y, bits, r, "div_qr(a, b, a, b)'s remainder", ops));
  Batch z = to_batch(b, bits, ctx());
  mpgpu::rem(z, to_batch(a, bits, ctx()), z);
  ASSERT_TRUE(equals(z, bits, r, "rem(b, a, b)", ops));
  // The wide forms: q may be a (same shape), r may be b.
  std::vector<Mpz> wide(n), wq(n), wr(n);
  for (std::size_t i = 0; i < n; ++i) {
    mpz_mul(wide[i], a[i], b[i]);
    mpz_add(wide[i], wide[i], r[i]);  // r < b
    mpz_fdiv_qr(wq[i], wr[i], wide[i], b[i]);
  }
  const Describe wide_ops = operands_of({{"a", &wide}, {"b", &b}});
  Batch wx = to_batch(wide, 2 * bits, ctx()), wy = to_batch(b, bits, ctx());
  mpgpu::div_qr_wide(wx, wy, wx, wy);
  ASSERT_TRUE(equals(wx, 2 * bits, wq, "div_qr_wide(a, b, a, b)'s quotient", wide_ops));
  ASSERT_TRUE(equals(wy, bits, wr, "div_qr_wide(a, b, a, b)'s remainder", wide_ops));
}

TEST_P(BatchDivide, Gcd) {
  Operands gen(44);
  for (std::size_t bits : widths_up_to(8192)) {
    const std::size_t n = instances_for(bits);
    std::vector<Mpz> a = make_operands(gen, bits, n, 0), b = make_operands(gen, bits, n, 1);
    // Common factors: a and b multiples of one random value (and of 2^k).
    for (std::size_t i = n / 2; i < n; i += 3) {
      const Mpz f = gen.random_bits(1 + gen.below(std::max<std::size_t>(bits / 3, 1)));
      mpz_mul(a[i], a[i], f);
      mpz_mul(b[i], b[i], f);
      a[i] = mod2exp(a[i], bits);
      b[i] = mod2exp(b[i], bits);
    }
    std::vector<Mpz> g(n);
    for (std::size_t i = 0; i < n; ++i) mpz_gcd(g[i], a[i], b[i]);
    Batch r;
    mpgpu::gcd(r, to_batch(a, bits, ctx()), to_batch(b, bits, ctx()));
    ASSERT_TRUE(equals(r, bits, g, "gcd", operands_of({{"a", &a}, {"b", &b}})));
  }
}

/// Moduli of every kind: all ones, the high bit alone (even), 3, 1, 2,
/// then random ones, odd and even.
std::vector<Mpz> any_moduli(Operands& gen, std::size_t bits, std::size_t count) {
  std::vector<Mpz> m;
  const std::vector<Mpz> special = {Mpz::all_ones(bits), Mpz::pow2(bits - 1), Mpz::from_ui(3), Mpz::from_ui(1),
                                    Mpz::from_ui(2)};
  for (std::size_t k = 0; k < count; ++k) {
    Mpz v = k < special.size() ? mod2exp(special[k], bits) : random_below_pow2(gen, bits);
    if (v.sgn() == 0) mpz_set_ui(v, 1);
    m.push_back(v);
  }
  return m;
}

TEST_P(BatchDivide, Invert) {
  Operands gen(45);
  for (std::size_t bits : widths_up_to(8192)) {
    const std::size_t n = bits <= 1024 ? 24 : 6;
    const std::vector<Mpz> m = any_moduli(gen, bits, n);
    std::vector<Mpz> a = make_operands(gen, bits, n, 0), want(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (i % 5 == 2) mpz_sub_ui(a[i], m[i], 1);  // m - 1, its own inverse
      if (mpz_invert(want[i], a[i], m[i]) == 0) {  // no inverse: m - 1 (> 0) or 1 has one
        if (mpz_cmp_ui(m[i].get(), 1) > 0) mpz_sub_ui(a[i], m[i], 1);
        else mpz_set_ui(a[i], 1);
        ASSERT_NE(mpz_invert(want[i], a[i], m[i]), 0);
      }
    }
    Batch r;
    mpgpu::invert(r, to_batch(a, bits, ctx()), to_batch(m, bits, ctx()));
    ASSERT_TRUE(equals(r, bits, want, "invert", operands_of({{"a", &a}, {"m", &m}})));
  }
}

/// x as a signed number of `bits` bits.
Mpz signed_value(const Mpz& x, std::size_t bits) {
  Mpz r = x;
  if (mpz_tstbit(x, bits - 1)) mpz_sub(r, r, Mpz::pow2(bits));
  return r;
}

TEST_P(BatchDivide, Signed) {
  Operands gen(46);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = bits >= 262144 ? 2 : instances_for(bits);
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0), b = make_operands(gen, bits, n, 1);
    const Describe ops = operands_of({{"a", &a}, {"b", &b}});
    std::vector<int> order(n);
    std::vector<Mpz> high(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Mpz sa = signed_value(a[i], bits), sb = signed_value(b[i], bits);
      const int c = mpz_cmp(sa, sb);
      order[i] = (c > 0) - (c < 0);
      mpz_mul(high[i], sa, sb);
      mpz_fdiv_q_2exp(high[i], high[i], bits);
      high[i] = mod2exp(high[i], bits);
    }
    const Batch x = to_batch(a, bits, ctx()), y = to_batch(b, bits, ctx());
    ASSERT_TRUE(equals(mpgpu::compare_signed(x, y), order, "compare_signed", bits, ops));
    Batch r;
    mpgpu::mul_high_signed(r, x, y);
    ASSERT_TRUE(equals(r, bits, high, "mul_high_signed", ops));
    // Sanitizer-sized: no 31 or bits + 1.
    for (std::size_t k : sized<std::vector<std::size_t>>({0, 1, 31, 64, bits / 2, bits - 1, bits, bits + 1, 3 * bits},
                                                         {0, 1, 64, bits / 2, bits - 1, bits, 3 * bits})) {
      std::vector<Mpz> shifted(n);
      for (std::size_t i = 0; i < n; ++i) {
        mpz_fdiv_q_2exp(shifted[i], signed_value(a[i], bits), k);
        shifted[i] = mod2exp(shifted[i], bits);
      }
      mpgpu::shift_right_arithmetic(r, x, k);
      ASSERT_TRUE(equals(r, bits, shifted, "shift_right_arithmetic by " + std::to_string(k), ops));
    }
  }
}

TEST_P(BatchDivide, BadInput) {
  std::vector<Mpz> v(6, Mpz::from_ui(1000003));
  const Batch a = Batch::random(6, 64, 1, ctx()), good = to_batch(v, 64, ctx());
  v[4] = Mpz();
  const Batch zero = to_batch(v, 64, ctx());
  v[4] = Mpz::from_ui(2000006);  // shares the factor 2 with an even a
  const Batch even = to_batch(v, 64, ctx());
  std::vector<Mpz> av(6, Mpz::from_ui(4));
  const Batch a_even = to_batch(av, 64, ctx());
  Batch q = Batch::random(6, 64, 2, ctx()), r = Batch::random(6, 64, 3, ctx());
  Batch odd_shape = Batch::random(3, 7, 4, ctx());  // a valid call would reshape it
  const std::vector<const Batch*> all = {&a, &good, &zero, &even, &a_even, &q, &r, &odd_shape};
  EXPECT_TRUE(rejects([&] { mpgpu::div_qr(q, r, a, zero); }, "div_qr", "division by zero: instance 4 of b", all));
  EXPECT_TRUE(rejects([&] { mpgpu::div_qr(odd_shape, r, a, zero); }, "div_qr", "division by zero", all));
  EXPECT_TRUE(rejects([&] { mpgpu::div(q, a, zero); }, "div", "division by zero", all));
  EXPECT_TRUE(rejects([&] { mpgpu::rem(odd_shape, a, zero); }, "rem", "division by zero", all));
  EXPECT_TRUE(rejects([&] { mpgpu::div_ui(q, a, 0); }, "div_ui", "division by zero", all));
  EXPECT_TRUE(rejects([&] { mpgpu::rem_ui(r, a, 0); }, "rem_ui", "division by zero", all));
  EXPECT_TRUE(rejects([&] { mpgpu::div_qr(q, q, a, good); }, "div_qr", "distinct", all));
  Batch q_handle = q;
  EXPECT_TRUE(rejects([&] { mpgpu::div_qr(q, q_handle, a, good); }, "div_qr", "distinct", all));
  const Batch a_wide = Batch::random(6, 128, 6, ctx());
  EXPECT_TRUE(rejects([&] { mpgpu::div_qr_wide(q, r, a_wide, zero); }, "div_qr_wide", "division by zero: instance 4 of b", all));
  EXPECT_TRUE(rejects([&] { mpgpu::rem_wide(r, a_wide, zero); }, "rem_wide", "division by zero", all));
  EXPECT_TRUE(rejects([&] { mpgpu::div_wide(q, a, good); }, "div_wide", "a must be twice as wide as b", all));
  EXPECT_TRUE(rejects([&] { mpgpu::div_qr_wide(q, q, a_wide, good); }, "div_qr_wide", "distinct", all));
  EXPECT_TRUE(rejects([&] { mpgpu::div_wide(q, Batch::random(9, 128, 7, ctx()), good); }, "div_wide", "instances", all));
  EXPECT_TRUE(rejects([&] { mpgpu::invert(r, a, zero); }, "invert", "division by zero", all));
  EXPECT_TRUE(rejects([&] { mpgpu::invert(r, a_even, even); }, "invert", "instance 4 of a has no inverse", all));
  EXPECT_TRUE(rejects([&] { mpgpu::invert(odd_shape, a_even, even); }, "invert", "no inverse", all));
  const Batch b9 = Batch::random(9, 64, 5, ctx());
  EXPECT_TRUE(rejects([&] { mpgpu::gcd(r, a, b9); }, "gcd", "instances", all));
  EXPECT_TRUE(rejects([&] { mpgpu::compare_signed(a, b9); }, "compare_signed", "instances", all));
}

MPGPU_INSTANTIATE_ON_BACKEND(BatchDivide);

}  // namespace
