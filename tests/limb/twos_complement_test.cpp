// limb/twos_complement.cuh: building two's-complement limbs of sign-magnitude
// values one limb at a time, and bitwise operations through them, against
// GMP's definitions (x mod 2^(64k) for the limbs; mpz_and/ior/xor/com and
// mpz_tstbit for the operations).
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "mpgpu/limb/twos_complement.cuh"
#include "support/operands.hpp"

namespace {

using mpgpu::limb_t;
namespace limb = mpgpu::limb;
using mpgpu_test::Mpz;
using mpgpu_test::Operands;

/// Index of the lowest nonzero limb of |x| (its size if zero).
std::size_t lowest_nonzero(const Mpz& x) {
  std::size_t z = 0;
  while (z < x.limbs() && mpz_getlimbn(x, z) == 0) ++z;
  return z;
}

/// The low k limbs of x's two's complement, one twos_complement_limb call each.
std::vector<limb_t> tc_limbs(const Mpz& x, std::size_t k) {
  const std::size_t n = x.limbs(), z = lowest_nonzero(x);
  std::vector<limb_t> out(k);
  for (std::size_t i = 0; i < k; ++i)
    out[i] = limb::twos_complement_limb(i < n ? mpz_getlimbn(x, i) : 0, i, n, z, x.sgn() < 0);
  return out;
}

/// Limbs of the non-negative y, padded to k.
std::vector<limb_t> plain_limbs(const Mpz& y, std::size_t k) {
  std::vector<limb_t> out(k, 0);
  for (std::size_t i = 0; i < y.limbs() && i < k; ++i) out[i] = mpz_getlimbn(y, i);
  return out;
}

/// The signed value of k two's-complement limbs (top bit = sign), mapped back
/// through the same per-limb function: negation is an involution.
Mpz from_tc_limbs(const std::vector<limb_t>& t, bool negative) {
  std::vector<limb_t> magnitude = t;
  if (negative) {
    std::size_t z = 0;
    while (z < t.size() && t[z] == 0) ++z;
    for (std::size_t i = 0; i < t.size(); ++i)
      magnitude[i] = limb::twos_complement_limb(t[i], i, t.size(), z, true);
  }
  Mpz r;
  mpz_import(r, magnitude.size(), -1, sizeof(limb_t), 0, 0, magnitude.data());
  return negative ? -r : r;
}

std::vector<Mpz> test_values() {
  std::vector<Mpz> v = mpgpu_test::edge_pair_values();
  Operands gen(3);
  for (int i = 0; i < 40; ++i) v.push_back(gen.random_signed(40));
  // Low zero limbs: the borrow of |x| - 1 runs through them.
  for (std::size_t shift : {64u, 128u, 64u * 7, 64u * 7 + 3}) {
    Mpz x = gen.runs(200);
    mpz_mul_2exp(x, x, shift);
    v.push_back(x);
    v.push_back(-x);
  }
  return v;
}

TEST(TwosComplement, LimbsAreValueModPowerOfTwo) {
  for (const Mpz& x : test_values()) {
    for (std::size_t extra : {0u, 1u, 3u}) {
      const std::size_t k = x.limbs() + extra;
      if (k == 0) continue;
      // GMP's x mod 2^(64k), two ways: floor remainder and and-with-mask.
      Mpz mod, masked;
      mpz_fdiv_r_2exp(mod, x, 64 * k);
      mpz_and(masked, x, Mpz::all_ones(64 * k));
      ASSERT_TRUE(mod == masked);
      EXPECT_EQ(tc_limbs(x, k), plain_limbs(mod, k)) << x << ", k=" << k;
    }
  }
}

TEST(TwosComplement, BitsMatchTstbit) {
  Operands gen;
  for (const Mpz& x : test_values()) {
    const std::size_t k = x.limbs() + 2;
    const std::vector<limb_t> t = tc_limbs(x, k);
    for (int round = 0; round < 64; ++round) {
      const std::uint64_t bit = round < 2 ? (round ? 64 * k - 1 : 0) : gen.below(64 * k);
      ASSERT_EQ((t[bit / 64] >> (bit % 64)) & 1, static_cast<limb_t>(mpz_tstbit(x, bit)))
          << x << ", bit " << bit;
    }
  }
}

TEST(TwosComplement, BitwiseThroughLimbsMatchesGmp) {
  const std::vector<Mpz> values = test_values();
  for (const Mpz& a : values)
    for (const Mpz& b : values) {
      // One limb more than either operand holds the result's sign extension.
      const std::size_t k = std::max(a.limbs(), b.limbs()) + 1;
      const std::vector<limb_t> ta = tc_limbs(a, k), tb = tc_limbs(b, k);
      for (auto op : {limb::BitwiseOp::and_, limb::BitwiseOp::ior, limb::BitwiseOp::xor_}) {
        std::vector<limb_t> tr(k);
        for (std::size_t i = 0; i < k; ++i) tr[i] = limb::apply_bitwise(op, ta[i], tb[i]);
        const bool negative = limb::bitwise_result_negative(op, a.sgn() < 0, b.sgn() < 0);
        ASSERT_EQ(tr[k - 1] >> 63, negative ? 1u : 0u) << "sign extension of op " << int(op);
        Mpz want;
        if (op == limb::BitwiseOp::and_) mpz_and(want, a, b);
        else if (op == limb::BitwiseOp::ior) mpz_ior(want, a, b);
        else mpz_xor(want, a, b);
        ASSERT_EQ(from_tc_limbs(tr, negative), want) << a << " op" << int(op) << " " << b;
      }
    }
}

TEST(TwosComplement, ComplementIsLimbwiseNot) {
  for (const Mpz& a : test_values()) {
    const std::size_t k = a.limbs() + 1;
    std::vector<limb_t> t = tc_limbs(a, k);
    for (auto& x : t) x = ~x;
    Mpz want;
    mpz_com(want, a);
    ASSERT_EQ(from_tc_limbs(t, a.sgn() >= 0), want) << a;
  }
}

}  // namespace
