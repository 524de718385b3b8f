// The Montgomery product by rows (batch/montgomery/rows.cuh) against GMP, on
// the host: G == 1 directly, 1 < G <= 32 on the warp emulation (lanes as
// fibers, every shuffle checked to be reached by all lanes). Both forms:
// the "almost" product (any a, b < R; y < R and y = a b / R mod n) and the
// exact one (a, b < n; y = a b / R mod n). The moduli are the ones where
// the delayed carries and the final subtraction matter: all ones (every
// q n is largest), 2^(bits-1) + 1 and R - 2^k + 1 (just above and below a
// power of two), 3 (tiny: y stays far above n), random ones of full and
// short length, and, for every other instance, one in [R/2, 3R/4), where
// the result lands in [n, R) often and only the exact form's comparison
// with n reduces it; the operands 0, 1, n - 1, R - 1 (all ones: every row's
// carries run the whole width), single high bits and random ones. Several
// instances share each warp with different moduli.
#include "group_emulation.hpp"  // first: it specializes Group<G> before any use

#include <gmp.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpgpu/batch/montgomery.cuh"
#include "mpgpu/batch/montgomery/rows_sqr.cuh"
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

Mpz modulus_of_kind(Operands& gen, int kind, int bits) {
  Mpz n;
  switch (kind % 7) {
    case 6: {  // in [R/2, 3R/4): V = (a b + q n) / R < 1.75 n < R, so only the exact form's own subtraction reduces
      n = gen.uniform(bits - 2);
      mpz_setbit(n, bits - 1);
      break;
    }
    case 0: n = Mpz::all_ones(bits); break;
    case 1: n = Mpz::pow2(bits - 1); mpz_add_ui(n, n, 1); break;
    case 2: n = Mpz::pow2(bits); mpz_sub(n, n, Mpz::pow2(gen.below(bits - 1) + 1)); mpz_add_ui(n, n, 1); break;
    case 3: n = Mpz::from_ui(3); break;
    case 4: n = gen.runs(bits); break;
    default: n = gen.random_bits(2 + gen.below(bits - 1)); break;
  }
  mpz_setbit(n, 0);
  if (mpz_cmp_ui(n.get(), 1) == 0) n = Mpz::from_ui(3);
  return n;
}

/// An operand below `bound` (n for the exact product, R for the almost one).
Mpz operand_of_kind(Operands& gen, int kind, const Mpz& bound, int bits) {
  Mpz x;
  switch (kind % 6) {
    case 0: return Mpz();
    case 1: x = Mpz::from_ui(1); break;
    case 2: x = bound; mpz_sub_ui(x, x, 1); return x;  // n - 1 or R - 1
    case 3: x = Mpz::pow2(gen.below(bits)); break;
    case 4: x = gen.runs(1 + gen.below(bits)); break;
    default: x = gen.uniform(bits); break;
  }
  mpz_mod(x, x, bound);
  return x;
}

/// Runs `rounds` warps of 32 / G instances through montgomery_mul_rows<E,
/// Exact> (or montgomery_sqr_rows<E, Exact>, b = a) and checks each result.
template <int W, int G, bool Exact, bool Square = false>
void check(int rounds, unsigned long salt) {
  using E = mb::Env<W, G>;
  constexpr int bits = 32 * W, per_warp = G == 1 ? 4 : 32 / G, L = E::per_thread;
  Operands gen(salt);
  const Mpz R = Mpz::pow2(bits);
  for (int round = 0; round < rounds; ++round) {
    std::vector<Mpz> a(per_warp), b(per_warp), n(per_warp);
    for (int i = 0; i < per_warp; ++i) {
      const int k = round * per_warp + i;
      n[i] = modulus_of_kind(gen, k % 2 == 0 ? 6 : k / 2, bits);
      const Mpz& bound = Exact ? n[i] : R;
      // Kinds drawn, with large operands (n - 1 or R - 1, random) most
      // often: they are what takes V = (a b + q n) / R past n.
      a[i] = operand_of_kind(gen, gen.below(3) == 0 ? gen.below(6) : 2 + 3 * gen.below(2), bound, bits);
      b[i] = operand_of_kind(gen, gen.below(3) == 0 ? gen.below(6) : 2 + 3 * gen.below(2), bound, bits);
      if (Square) b[i] = a[i];
    }
    std::vector<std::vector<word_t>> A(per_warp), B(per_warp), N(per_warp), Y(per_warp, std::vector<word_t>(W));
    std::vector<std::vector<word_t>> scratch(per_warp, std::vector<word_t>(E::scratch_words, 0xdeadbeefu));
    for (int i = 0; i < per_warp; ++i) A[i] = words_of<W>(a[i]), B[i] = words_of<W>(b[i]), N[i] = words_of<W>(n[i]);
    auto lane_body = [&](int inst, int rank) {
      E env(rank, scratch[inst].data());
      typename E::Num x, y, m, r;
      for (int k = 0; k < L; ++k)
        x.w[k] = A[inst][rank * L + k], y.w[k] = B[inst][rank * L + k], m.w[k] = N[inst][rank * L + k];
      const word_t np0 = mb::negated_inverse_word(N[inst][0]);
      auto product = [&](typename E::Num& out, const typename E::Num& p, const typename E::Num& q) {
        if constexpr (Square)
          mb::montgomery_sqr_rows<E, Exact>(env, out, p, m, np0);  // q == p
        else
          mb::montgomery_mul_rows<E, Exact>(env, out, p, q, m, np0);
      };
      if ((inst + round) % 3 == 0) {
        product(x, x, y);  // the result aliases a
        r = x;
      } else {
        product(r, x, y);
      }
      for (int k = 0; k < L; ++k) Y[inst][rank * L + k] = r.w[k];
    };
    if constexpr (G == 1) {
      for (int i = 0; i < per_warp; ++i) lane_body(i, 0);
    } else {
      const bool ok = group_emulation::run_warp([&](int lane) { lane_body(lane / G, lane % G); });
      ASSERT_TRUE(ok) << "Env<" << W << ", " << G << ">: the lanes diverged in montgomery_mul_rows";
    }
    for (int i = 0; i < per_warp; ++i) {
      Mpz r_inv, want, got_mod;
      ASSERT_NE(mpz_invert(r_inv, R, n[i]), 0);
      mpz_mul(want, a[i], b[i]);
      mpz_mul(want, want, r_inv);
      mpz_mod(want, want, n[i]);
      const Mpz got = mpz_of<W>(Y[i]);
      mpz_mod(got_mod, got, n[i]);
      const std::string where = std::string(Exact ? "exact" : "almost") + (Square ? " square" : " product") + ", Env<" + std::to_string(W) +
                                ", " + std::to_string(G) + ">, round " + std::to_string(round) + ", instance " +
                                std::to_string(i) + ": a " + a[i].describe() + ", b " + b[i].describe() + ", n " +
                                n[i].describe();
      if (Exact) {
        ASSERT_TRUE(got == want) << where << ": got " << got << ", want " << want;
      } else {
        // y < R holds by its width; the class is what must be right.
        ASSERT_TRUE(got_mod == want) << where << ": got " << got << ", which is not " << want << " mod n";
      }
    }
  }
}

TEST(MontgomeryRows, Exact256BitsG1) { check<8, 1, true>(50, 921); }
TEST(MontgomeryRows, Almost256BitsG1) { check<8, 1, false>(50, 922); }
TEST(MontgomeryRows, Exact1024BitsG1) { check<32, 1, true>(20, 923); }
TEST(MontgomeryRows, Almost512BitsG2) { check<16, 2, false>(4, 924); }
TEST(MontgomeryRows, Exact1024BitsG2) { check<32, 2, true>(4, 933); }  // the tuned class: 16 words a thread
TEST(MontgomeryRows, Exact512BitsG4) { check<16, 4, true>(6, 925); }
TEST(MontgomeryRows, Almost1024BitsG8) { check<32, 8, false>(10, 926); }
TEST(MontgomeryRows, Exact1024BitsG8) { check<32, 8, true>(10, 927); }
TEST(MontgomeryRows, Almost2048BitsG16) { check<64, 16, false>(12, 928); }
TEST(MontgomeryRows, Exact3072BitsG8) { check<96, 8, true>(6, 929); }
TEST(MontgomeryRows, Almost4096BitsG32) { check<128, 32, false>(24, 930); }
TEST(MontgomeryRows, Exact4096BitsG32) { check<128, 32, true>(24, 931); }
TEST(MontgomeryRows, Almost8192BitsG32) { check<256, 32, false>(8, 932); }

// Squares (montgomery_sqr_rows): every pair {i, j} once, by a rule that
// depends on the words a thread holds (L) and M, the largest power of two
// dividing L: L = 4, 8, 16 and 32 (M = L: one word a step by the
// runtime rule), L = 12 (M 4: three words a step by it), and G = 1.
TEST(MontgomeryRowsSquare, Exact256BitsG1) { check<8, 1, true, true>(50, 941); }
TEST(MontgomeryRowsSquare, Almost256BitsG1) { check<8, 1, false, true>(50, 942); }
TEST(MontgomeryRowsSquare, Exact256BitsG2) { check<8, 2, true, true>(20, 943); }
TEST(MontgomeryRowsSquare, Almost512BitsG2) { check<16, 2, false, true>(10, 944); }
TEST(MontgomeryRowsSquare, Exact1024BitsG2) { check<32, 2, true, true>(8, 945); }
TEST(MontgomeryRowsSquare, Exact512BitsG4) { check<16, 4, true, true>(10, 946); }
TEST(MontgomeryRowsSquare, Almost1024BitsG8) { check<32, 8, false, true>(10, 947); }
TEST(MontgomeryRowsSquare, Exact1024BitsG1) { check<32, 1, true, true>(20, 948); }
TEST(MontgomeryRowsSquare, Almost2048BitsG4) { check<64, 4, false, true>(8, 949); }
TEST(MontgomeryRowsSquare, Exact2048BitsG16) { check<64, 16, true, true>(12, 950); }
TEST(MontgomeryRowsSquare, Exact3072BitsG8) { check<96, 8, true, true>(6, 951); }
TEST(MontgomeryRowsSquare, Almost4096BitsG8) { check<128, 8, false, true>(8, 952); }
TEST(MontgomeryRowsSquare, Exact4096BitsG32) { check<128, 32, true, true>(12, 953); }
TEST(MontgomeryRowsSquare, Almost8192BitsG32) { check<256, 32, false, true>(6, 954); }

}  // namespace
