// Batch bitwise operations, shifts and rotates (counts 0, 1, 31, 32, 63, 64,
// bits - 1, bits and beyond), and the per-instance answers compare, popcount,
// count_leading_zeros and count_trailing_zeros against GMP at every width.
#include <algorithm>

#include "batch_test.hpp"

namespace {

using namespace mpgpu_test;

class BatchBits : public BatchTest {};

TEST_P(BatchBits, AndIorXorCom) {
  Operands gen(21);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = instances_for(bits);
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0), b = make_operands(gen, bits, n, 1);
    std::vector<Mpz> and_v(n), ior_v(n), xor_v(n), com_v(n);
    for (std::size_t i = 0; i < n; ++i) {
      mpz_and(and_v[i], a[i], b[i]);
      mpz_ior(ior_v[i], a[i], b[i]);
      mpz_xor(xor_v[i], a[i], b[i]);
      mpz_xor(com_v[i], a[i], Mpz::all_ones(bits));
    }
    const Batch x = to_batch(a, bits, ctx()), y = to_batch(b, bits, ctx());
    const Describe ops = operands_of({{"a", &a}, {"b", &b}});
    Batch r;
    mpgpu::and_(r, x, y);
    ASSERT_TRUE(equals(r, bits, and_v, "and_", ops));
    mpgpu::ior(r, x, y);
    ASSERT_TRUE(equals(r, bits, ior_v, "ior", ops));
    mpgpu::xor_(r, x, y);
    ASSERT_TRUE(equals(r, bits, xor_v, "xor_", ops));
    mpgpu::com(r, x);
    ASSERT_TRUE(equals(r, bits, com_v, "com", ops));
  }
}

/// The shift counts to try at a width: small ones around word boundaries,
/// the width's edges, and beyond it.
/// Sanitizer-sized: 0, 1, 32, 64, 65, bits / 2, bits - 1, bits, beyond.
std::vector<std::size_t> shift_counts(std::size_t bits) {
  std::vector<std::size_t> c =
      sized<std::vector<std::size_t>>({0, 1, 31, 32, 63, 64, 65, bits / 2, bits - 1, bits, bits + 1, 3 * bits + 5},
                                      {0, 1, 32, 64, 65, bits / 2, bits - 1, bits, 3 * bits + 5});
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  return c;
}

TEST_P(BatchBits, ShiftsAndRotates) {
  Operands gen(22);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = std::min<std::size_t>(instances_for(bits), 32);
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0);
    const Batch x = to_batch(a, bits, ctx());
    const Describe ops = operands_of({{"a", &a}});
    for (std::size_t k : shift_counts(bits)) {
      std::vector<Mpz> left(n), right(n), rotl(n), rotr(n);
      const std::size_t kr = k % bits;
      for (std::size_t i = 0; i < n; ++i) {
        Mpz t, u;
        mpz_mul_2exp(t, a[i], k);
        left[i] = mod2exp(t, bits);
        mpz_fdiv_q_2exp(right[i], a[i], k);
        // rotl by kr: (a << kr) | (a >> (bits - kr)), within the width.
        mpz_mul_2exp(t, a[i], kr);
        mpz_fdiv_q_2exp(u, a[i], bits - kr);
        mpz_ior(t, t, u);
        rotl[i] = mod2exp(t, bits);
        mpz_mul_2exp(t, a[i], bits - kr);
        mpz_fdiv_q_2exp(u, a[i], kr);
        mpz_ior(t, t, u);
        rotr[i] = mod2exp(t, bits);
      }
      const std::string tag = " by " + std::to_string(k);
      Batch r;
      mpgpu::shift_left(r, x, k);
      ASSERT_TRUE(equals(r, bits, left, "shift_left" + tag, ops));
      mpgpu::shift_right(r, x, k);
      ASSERT_TRUE(equals(r, bits, right, "shift_right" + tag, ops));
      mpgpu::rotate_left(r, x, k);
      ASSERT_TRUE(equals(r, bits, rotl, "rotate_left" + tag, ops));
      mpgpu::rotate_right(r, x, k);
      ASSERT_TRUE(equals(r, bits, rotr, "rotate_right" + tag, ops));
      // In place, including the copy (k == 0) and zero (k >= bits) paths.
      Batch y = x.clone();
      mpgpu::shift_left(y, y, k);
      ASSERT_TRUE(equals(y, bits, left, "shift_left in place" + tag, ops));
      y = x.clone();
      mpgpu::rotate_right(y, y, k);
      ASSERT_TRUE(equals(y, bits, rotr, "rotate_right in place" + tag, ops));
    }
  }
}

TEST_P(BatchBits, CompareAndBitCounts) {
  Operands gen(23);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = instances_for(bits);
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0), b = make_operands(gen, bits, n, 1);
    std::vector<int> cmp(n), same(n, 0);
    std::vector<std::uint32_t> pop(n), clz(n), ctz(n);
    for (std::size_t i = 0; i < n; ++i) {
      const int c = mpz_cmp(a[i], b[i]);
      cmp[i] = (c > 0) - (c < 0);
      pop[i] = static_cast<std::uint32_t>(mpz_popcount(a[i]));
      clz[i] = static_cast<std::uint32_t>(bits - a[i].bits());
      ctz[i] = static_cast<std::uint32_t>(a[i].sgn() ? mpz_scan1(a[i], 0) : bits);
    }
    const Batch x = to_batch(a, bits, ctx()), y = to_batch(b, bits, ctx());
    const Describe ops = operands_of({{"a", &a}, {"b", &b}});
    ASSERT_TRUE(equals(mpgpu::compare(x, y), cmp, "compare", bits, ops));
    ASSERT_TRUE(equals(mpgpu::compare(x, x), same, "compare(a, a)", bits, ops));
    // equals: every third instance of b replaced by a's, the others equal only by chance.
    std::vector<Mpz> c = b;
    std::vector<bool> eq(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (i % 3 == 0) c[i] = a[i];
      eq[i] = mpz_cmp(a[i], c[i]) == 0;
    }
    const std::vector<bool> got = mpgpu::equals(x, to_batch(c, bits, ctx()));
    ASSERT_EQ(got, eq) << "equals at " << bits << " bits";
    ASSERT_EQ(mpgpu::equals(x, x), std::vector<bool>(n, true)) << "equals(a, a) at " << bits << " bits";
    // swap exchanges the handles: p takes y's values, q x's.
    Batch p = x.clone(), q = y.clone();
    swap(p, q);
    ASSERT_EQ(mpgpu::equals(p, y), std::vector<bool>(n, true)) << "swap at " << bits << " bits";
    ASSERT_EQ(mpgpu::equals(q, x), std::vector<bool>(n, true)) << "swap at " << bits << " bits";
    ASSERT_TRUE(equals(mpgpu::popcount(x), pop, "popcount", bits, ops));
    ASSERT_TRUE(equals(mpgpu::count_leading_zeros(x), clz, "count_leading_zeros", bits, ops));
    ASSERT_TRUE(equals(mpgpu::count_trailing_zeros(x), ctz, "count_trailing_zeros", bits, ops));
  }
}

MPGPU_INSTANTIATE_ON_BACKEND(BatchBits);

}  // namespace
