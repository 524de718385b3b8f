// Divsteps (batch/divsteps.cuh) on the host.
//
// 1. The batch of 30 divsteps on the low words, which removes runs of zeros
//    and cancels up to 8 bits at once, against 30 single divsteps done on
//    whole GMP values by their definition: the matrix must map the whole
//    values (2^30 f' = u f + v g, 2^30 g' = q f + r g) and eta must agree.
// 2. gcd and invert of the device API where divsteps take longest or end in
//    an odd way, against GMP: consecutive Fibonacci numbers (the slowest
//    pairs for Euclid's algorithm), all-ones and 2^k +- 1 moduli, x = m - 1,
//    0 and 1, shared factors and powers of two, equal values, a value and
//    its double. G == 1 directly, G = 4, 8 and 32 on the warp emulation
//    (lanes as fibers, every group operation checked to be reached by all
//    lanes), several instances to a warp with different trip counts.
#include "group_emulation.hpp"  // first: it specializes Group<G> before any use

#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "mpgpu/batch/gcd.cuh"
#include "instance_words.hpp"
#include "support/mpz.hpp"
#include "support/operands.hpp"

namespace {

namespace mb = mpgpu::batch;
using mb::word_t;
using mpgpu_test::Mpz;
using mpgpu_test::Operands;

using instance_words::mpz_of;
using instance_words::words_of;

/// One divstep on whole values, by its definition (delta = -eta).
void divstep(int& eta, Mpz& f, Mpz& g) {
  const bool g_odd = mpz_odd_p(g.get()) != 0;
  if (-eta > 0 && g_odd) {
    Mpz t;
    mpz_sub(t, g, f);
    f = g;
    mpz_fdiv_q_2exp(g, t, 1);  // exact
    eta = -(1 + eta);          // delta' = 1 - delta
  } else if (g_odd) {
    mpz_add(g, g, f);
    mpz_fdiv_q_2exp(g, g, 1);
    eta -= 1;
  } else {
    mpz_fdiv_q_2exp(g, g, 1);
    eta -= 1;
  }
}

Mpz low_word_combination(const Mpz& f, const Mpz& g, std::int32_t a, std::int32_t b) {
  Mpz x, y;
  mpz_mul_si(x, f, a);
  mpz_mul_si(y, g, b);
  mpz_add(x, x, y);
  return x;
}

TEST(Divsteps, ThirtyAtOnceMatchThirtySingleSteps) {
  Operands gen(911);
  for (int trial = 0; trial < 20000; ++trial) {
    const int bits = 1 + static_cast<int>(gen.below(200));
    Mpz f = gen.random_bits(bits), g = gen.random_bits(1 + gen.below(200));
    mpz_setbit(f, 0);
    if (trial % 3 == 0) mpz_neg(f, f);
    if (trial % 5 == 0) mpz_neg(g, g);
    if (trial % 7 == 0) mpz_mul_2exp(g, g, gen.below(40));  // long runs of zeros
    if (trial % 11 == 0) g = Mpz();
    const int eta0 = static_cast<int>(gen.below(81)) - 40;
    // The low word (of the two's complement, for a negative value).
    auto low = [](const Mpz& x) {
      Mpz r;
      mpz_fdiv_r_2exp(r, x, 32);
      return static_cast<word_t>(mpz_get_ui(r));
    };
    mb::divsteps_detail::Matrix m{};
    const int eta = mb::divsteps_detail::divsteps30(eta0, low(f), low(g), m);
    int want_eta = eta0;
    Mpz f30 = f, g30 = g;
    for (int s = 0; s < 30; ++s) divstep(want_eta, f30, g30);
    const std::string where = "f = " + f.describe() + ", g = " + g.describe() + ", eta = " + std::to_string(eta0);
    ASSERT_EQ(eta, want_eta) << where;
    mpz_mul_2exp(f30, f30, 30);
    mpz_mul_2exp(g30, g30, 30);
    ASSERT_TRUE(low_word_combination(f, g, m.u, m.v) == f30) << "f row, " << where;
    ASSERT_TRUE(low_word_combination(f, g, m.q, m.r) == g30) << "g row, " << where;
    const long sum_f = std::labs(m.u) + std::labs(m.v), sum_g = std::labs(m.q) + std::labs(m.r);
    ASSERT_LE(sum_f, 1L << 30) << where;
    ASSERT_LE(sum_g, 1L << 30) << where;
  }
}

Mpz fibonacci(unsigned long k) {
  Mpz r;
  mpz_fib_ui(r, k);
  return r;
}

/// Pairs (a, b) of every hard kind at `bits`, a run for gcd(a, b) and for
/// invert(a, b) (b the modulus).
std::vector<std::pair<Mpz, Mpz>> hard_pairs(Operands& gen, int bits) {
  std::vector<std::pair<Mpz, Mpz>> p;
  unsigned long k = 1;
  while (fibonacci(k + 1).bits() <= static_cast<std::uint64_t>(bits)) ++k;
  p.push_back({fibonacci(k - 1), fibonacci(k)});
  p.push_back({fibonacci(k), fibonacci(k - 1)});
  p.push_back({fibonacci(k - 2), fibonacci(k)});
  const Mpz ones = Mpz::all_ones(bits);
  Mpz top1 = Mpz::pow2(bits - 1), m;
  mpz_add_ui(m, top1, 1);
  p.push_back({gen.random_bits(bits), ones});
  p.push_back({Mpz::from_ui(7), ones});
  Mpz ones_less1;
  mpz_sub_ui(ones_less1, ones, 1);
  p.push_back({ones_less1, ones});  // m - 1
  p.push_back({ones, ones});        // equal
  p.push_back({gen.random_bits(bits - 1), m});  // 2^(bits-1) + 1
  Mpz below;
  mpz_sub_ui(below, top1, 1);
  p.push_back({gen.random_bits(bits), below});  // 2^(bits-1) - 1
  p.push_back({Mpz(), ones});
  p.push_back({Mpz::from_ui(1), ones});
  p.push_back({ones, Mpz::from_ui(1)});
  p.push_back({Mpz(), Mpz()});
  p.push_back({top1, Mpz()});
  p.push_back({Mpz(), top1});
  p.push_back({top1, Mpz::pow2(bits / 2)});  // powers of two only
  // A shared factor of about half the width, times powers of two.
  Mpz c = gen.random_bits(bits / 2), x = gen.random_bits(bits / 2 - 8), y = gen.random_bits(bits / 2 - 8);
  mpz_setbit(c, 0);
  mpz_mul(x, x, c);
  mpz_mul(y, y, c);
  mpz_mul_2exp(x, x, 3);
  mpz_mul_2exp(y, y, 5);
  p.push_back({x, y});
  Mpz twice;
  mpz_mul_2exp(twice, c, 1);
  p.push_back({twice, c});
  // Random full-width odd moduli with full-width values above them.
  for (int i = 0; i < 6; ++i) {
    Mpz n = gen.random_bits(bits);
    mpz_setbit(n, 0);
    mpz_setbit(n, bits - 1);
    p.push_back({gen.random_bits(bits), n});
  }
  return p;
}

/// gcd and invert of pairs on warps of 32 / G instances; r for gcd, s/ri for invert.
template <int W, int G>
void check_hard(unsigned long salt) {
  using E = mb::Env<W, G>;
  constexpr int bits = 32 * W, per_warp = 32 / G, L = E::per_thread;
  Operands gen(salt);
  const auto pairs = hard_pairs(gen, bits);
  for (std::size_t first = 0; first < pairs.size(); first += per_warp) {
    std::vector<std::vector<word_t>> A(per_warp), B(per_warp), R(per_warp, std::vector<word_t>(W)),
        I(per_warp, std::vector<word_t>(W));
    std::vector<std::vector<word_t>> scratch(per_warp, std::vector<word_t>(E::scratch_words, 0xdeadbeefu));
    std::vector<word_t> st(per_warp, 0xdeadbeefu);
    for (int i = 0; i < per_warp; ++i) {
      const auto& pr = pairs[(first + i) % pairs.size()];
      A[i] = words_of<W>(pr.first), B[i] = words_of<W>(pr.second);
    }
    auto body = [&](int lane) {
      const int inst = lane / G, rank = lane % G;
      E env(rank, scratch[inst].data());
      typename E::Num a, b, g, inv;
      for (int k = 0; k < L; ++k) a.w[k] = A[inst][rank * L + k], b.w[k] = B[inst][rank * L + k];
      mb::gcd(env, g, a, b);
      const word_t s = mb::invert(env, inv, a, b);
      for (int k = 0; k < L; ++k) R[inst][rank * L + k] = g.w[k], I[inst][rank * L + k] = inv.w[k];
      if (rank == 0) st[inst] = s;
    };
    if constexpr (G == 1) {
      for (int lane = 0; lane < per_warp; ++lane) body(lane);
    } else {
      ASSERT_TRUE(group_emulation::run_warp(body)) << "Env<" << W << ", " << G << ">: the lanes diverged";
    }
    for (int i = 0; i < per_warp; ++i) {
      const Mpz a = mpz_of<W>(A[i]), b = mpz_of<W>(B[i]);
      const std::string where =
          "Env<" + std::to_string(W) + ", " + std::to_string(G) + ">: a = " + a.describe() + ", b = " + b.describe();
      Mpz want;
      mpz_gcd(want, a, b);
      ASSERT_TRUE(mpz_of<W>(R[i]) == want) << "gcd: got " << mpz_of<W>(R[i]) << ", want " << want << "; " << where;
      word_t want_st = mb::status_ok;
      if (b.sgn() == 0) {
        want_st = mb::status_zero_divisor;
        want = Mpz();
      } else if (mpz_cmp_ui(b.get(), 1) == 0) {
        want = Mpz();
      } else if (mpz_invert(want, a, b) == 0) {
        want_st = mb::status_no_inverse;
        want = Mpz();
      }
      ASSERT_EQ(st[i], want_st) << "invert's status; " << where;
      ASSERT_TRUE(mpz_of<W>(I[i]) == want) << "invert: got " << mpz_of<W>(I[i]) << ", want " << want << "; " << where;
    }
  }
}

TEST(Divsteps, HardPairs256BitsG1) { check_hard<8, 1>(921); }
TEST(Divsteps, HardPairs512BitsG1) { check_hard<16, 1>(922); }
TEST(Divsteps, HardPairs1024BitsG4) { check_hard<32, 4>(923); }
TEST(Divsteps, HardPairs2048BitsG8) { check_hard<64, 8>(924); }
TEST(Divsteps, HardPairs4096BitsG32) { check_hard<128, 32>(925); }

}  // namespace
