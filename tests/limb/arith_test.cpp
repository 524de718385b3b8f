// Host branches of limb/arith.cuh against unsigned __int128 and bit-by-bit
// references, on edge limbs (all pairs) and random limbs with long runs of
// 0s and 1s; mul_add is also checked as the inner step of mpn_mul_1 and
// mpn_addmul_1 over long vectors.
#include <gmp.h>
#include <gtest/gtest.h>

#include <vector>

#include "mpgpu/limb/arith.cuh"
#include "support/operands.hpp"

namespace {

using mpgpu::limb_t;
using u128 = unsigned __int128;
namespace limb = mpgpu::limb;
using mpgpu_test::edge_limbs;
using mpgpu_test::Operands;

constexpr int random_rounds = 200000;

/// Edge limbs paired with each other, then random pairs; stops at the first
/// failed assertion.
template <class F>
void for_limb_pairs(F&& check) {
  for (limb_t a : edge_limbs())
    for (limb_t b : edge_limbs()) {
      check(a, b);
      if (::testing::Test::HasFatalFailure()) return;
    }
  Operands gen;
  for (int i = 0; i < random_rounds && !::testing::Test::HasFatalFailure(); ++i) {
    limb_t a = gen.limb();
    check(a, gen.coin() ? gen.limb() : ~a);  // ~a: a + b == all ones, propagates
  }
}

TEST(LimbArith, AddWithCarry) {
  for_limb_pairs([](limb_t a, limb_t b) {
    for (unsigned cin : {0u, 1u}) {
      const u128 want = u128{a} + b + cin;
      limb_t r = 0;
      const limb_t cout = limb::add_with_carry(a, b, cin, r);
      ASSERT_EQ(r, static_cast<limb_t>(want)) << std::hex << a << " + " << b << " + " << cin;
      ASSERT_EQ(cout, static_cast<limb_t>(want >> 64)) << std::hex << a << " + " << b << " + " << cin;
    }
  });
}

TEST(LimbArith, SubWithBorrow) {
  for_limb_pairs([](limb_t a, limb_t b) {
    for (unsigned bin : {0u, 1u}) {
      const u128 want = u128{a} - b - bin;  // mod 2^128: the high half is all ones on borrow
      limb_t r = 0;
      const limb_t bout = limb::sub_with_borrow(a, b, bin, r);
      ASSERT_EQ(r, static_cast<limb_t>(want)) << std::hex << a << " - " << b << " - " << bin;
      ASSERT_EQ(bout, u128{a} < u128{b} + bin ? 1u : 0u) << std::hex << a << " - " << b << " - " << bin;
    }
  });
}

TEST(LimbArith, MulWide) {
  for_limb_pairs([](limb_t a, limb_t b) {
    const u128 want = u128{a} * b;
    limb_t hi = 0;
    const limb_t lo = limb::mul_wide(a, b, hi);
    ASSERT_EQ(lo, static_cast<limb_t>(want)) << std::hex << a << " * " << b;
    ASSERT_EQ(hi, static_cast<limb_t>(want >> 64)) << std::hex << a << " * " << b;
    const auto a32 = static_cast<std::uint32_t>(a >> 32), b32 = static_cast<std::uint32_t>(b);
    ASSERT_EQ(limb::mul_wide_32(a32, b32), static_cast<std::uint64_t>(a32) * b32);
  });
}

// mul_hi is mul_wide's high half; inverse_odd inverts mod 2^64; the
// Montgomery product is a * b / 2^64 mod m, checked as (result * 2^64) mod m
// == a * b mod m, with m odd (the edge limbs with their low bit set).
TEST(LimbArith, MulHiInverseAndMontgomery) {
  for_limb_pairs([](limb_t a, limb_t b) {
    ASSERT_EQ(limb::mul_hi(a, b), static_cast<limb_t>((u128{a} * b) >> 64)) << std::hex << a << " * " << b;
    const limb_t m = b | 1;
    ASSERT_EQ(limb::inverse_odd(m) * m, 1u) << std::hex << m;
    const limb_t x = a % m, r = limb::montgomery_mul(a, x, m, limb::inverse_odd(m));
    ASSERT_LT(r, m);
    ASSERT_EQ(static_cast<limb_t>((u128{r} << 64) % m), static_cast<limb_t>(u128{a} * x % m))
        << std::hex << a << " * " << x << " mod " << m;
  });
}

TEST(LimbArith, MulAddIntoAccumulator) {
  Operands gen(7);
  for_limb_pairs([&](limb_t a, limb_t b) {
    // Accumulator and addend: extremes first (all ones overflows the 128-bit
    // accumulator), then random.
    const limb_t c = gen.coin() ? ~limb_t{0} : gen.limb();
    const limb_t lo0 = gen.coin() ? ~limb_t{0} : gen.limb();
    const limb_t hi0 = gen.coin() ? ~limb_t{0} : gen.limb();
    const u128 product_plus_c = u128{a} * b + c;  // < 2^128
    const u128 acc = (u128{hi0} << 64) | lo0;
    const u128 want = acc + product_plus_c;
    const limb_t want_carry = want < acc;
    limb_t lo = lo0, hi = hi0;
    const limb_t carry = limb::mul_add(a, b, c, lo, hi);
    ASSERT_EQ(lo, static_cast<limb_t>(want)) << std::hex << a << " * " << b << " + " << c;
    ASSERT_EQ(hi, static_cast<limb_t>(want >> 64)) << std::hex << a << " * " << b << " + " << c;
    ASSERT_EQ(carry, want_carry) << std::hex << a << " * " << b << " + " << c;
  });
}

TEST(LimbArith, MulAccumulateIntoThreeWords) {
  Operands gen(8);
  for_limb_pairs([&](limb_t a, limb_t b) {
    // The 128-bit part at its extremes (all ones carries into c2), then random.
    const limb_t c0 = gen.coin() ? ~limb_t{0} : gen.limb();
    const limb_t c1 = gen.coin() ? ~limb_t{0} : gen.limb();
    const limb_t c2 = gen.limb() >> 1;  // room for the carry
    const u128 low = (u128{c1} << 64) | c0, p = u128{a} * b;
    const u128 want = low + p;
    const limb_t want_c2 = c2 + (want < p);
    limb_t r0 = c0, r1 = c1, r2 = c2;
    limb::mul_accumulate(a, b, r0, r1, r2);
    ASSERT_EQ(r0, static_cast<limb_t>(want)) << std::hex << a << " * " << b;
    ASSERT_EQ(r1, static_cast<limb_t>(want >> 64)) << std::hex << a << " * " << b;
    ASSERT_EQ(r2, want_c2) << std::hex << a << " * " << b;
  });
}

// mul_add as the step of a schoolbook row: r = a * b (mpn_mul_1) and
// r += a * b (mpn_addmul_1), on vectors with long runs of ones.
TEST(LimbArith, MulAddRowsMatchMpn) {
  Operands gen(8);
  for (mp_size_t n : {1, 2, 7, 64, 1000}) {
    for (int round = 0; round < 20; ++round) {
      std::vector<limb_t> a(n), r(n), want(n);
      for (auto& x : a) x = gen.coin() ? ~limb_t{0} : gen.limb();
      for (auto& x : r) x = gen.coin() ? ~limb_t{0} : gen.limb();
      const limb_t b = round == 0 ? ~limb_t{0} : gen.limb();
      const auto* ap = reinterpret_cast<const mp_limb_t*>(a.data());

      // mul_1: lo starts at 0 each step, hi becomes the next carry.
      limb_t carry = 0;
      std::vector<limb_t> got(n);
      for (mp_size_t i = 0; i < n; ++i) {
        limb_t lo = 0, hi = 0;
        ASSERT_EQ(limb::mul_add(a[i], b, carry, lo, hi), 0u);  // cannot overflow from 0
        got[i] = lo;
        carry = hi;
      }
      const mp_limb_t want_carry = mpn_mul_1(reinterpret_cast<mp_limb_t*>(want.data()), ap, n, b);
      ASSERT_EQ(got, want) << "mul_1, n=" << n;
      ASSERT_EQ(carry, want_carry) << "mul_1, n=" << n;

      // addmul_1: the accumulator starts at r[i].
      want = r;
      carry = 0;
      for (mp_size_t i = 0; i < n; ++i) {
        limb_t lo = r[i], hi = 0;
        ASSERT_EQ(limb::mul_add(a[i], b, carry, lo, hi), 0u);  // r + a*b + c < 2^128
        r[i] = lo;
        carry = hi;
      }
      const mp_limb_t want_add_carry =
          mpn_addmul_1(reinterpret_cast<mp_limb_t*>(want.data()), ap, n, b);
      ASSERT_EQ(r, want) << "addmul_1, n=" << n;
      ASSERT_EQ(carry, want_add_carry) << "addmul_1, n=" << n;
    }
  }
}

int reference_clz(limb_t x) {
  int n = 0;
  for (int bit = 63; bit >= 0 && !((x >> bit) & 1); --bit) ++n;
  return n;
}
int reference_ctz(limb_t x) {
  int n = 0;
  for (int bit = 0; bit < 64 && !((x >> bit) & 1); ++bit) ++n;
  return n;
}
int reference_popcount(limb_t x) {
  int n = 0;
  for (int bit = 0; bit < 64; ++bit) n += (x >> bit) & 1;
  return n;
}

TEST(LimbArith, BitCounts) {
  std::vector<limb_t> inputs = edge_limbs();
  for (int bit = 0; bit < 64; ++bit) {
    inputs.push_back(limb_t{1} << bit);            // single bit
    inputs.push_back((limb_t{1} << bit) - 1);      // low mask
    inputs.push_back(~((limb_t{1} << bit) - 1));   // high mask
  }
  Operands gen(9);
  for (int i = 0; i < random_rounds; ++i) inputs.push_back(gen.limb());
  for (limb_t x : inputs) {
    ASSERT_EQ(limb::count_leading_zeros(x), reference_clz(x)) << std::hex << x;
    ASSERT_EQ(limb::count_trailing_zeros(x), reference_ctz(x)) << std::hex << x;
    ASSERT_EQ(limb::popcount(x), reference_popcount(x)) << std::hex << x;
  }
  EXPECT_EQ(limb::count_leading_zeros(0), 64);
  EXPECT_EQ(limb::count_trailing_zeros(0), 64);
}

}  // namespace
