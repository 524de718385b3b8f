// The device API with groups of several threads (Env<W, G>, 1 < G <= 32) on
// the host: group_emulation.hpp runs the 32 lanes of a warp as fibers and
// checks at every group operation that all lanes reached the same one. So
// this CPU test finds what device_api_host_test (G == 1) cannot: group
// operations skipped by one instance's data (the lanes diverge) and the
// mixing of several instances in a warp (uniform trip counts, padding
// instances with zero operands). Checked against GMP: invert (even, odd,
// zero and unit moduli in one warp), divide, gcd, powm_sliding, the staged
// products and squares, the 64-bit scalar forms and the NTT product.
#include "group_emulation.hpp"  // first: it specializes Group<G> before any use

#include <gmp.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpgpu/batch/batch.cuh"
#include "instance_words.hpp"
#include "support/mpz.hpp"
#include "support/operands.hpp"

namespace {

namespace mb = mpgpu::batch;
using mb::word_t;
using mpgpu_test::Mpz;
using mpgpu_test::Operands;

Mpz mod2exp(const Mpz& x, int bits) {
  Mpz r;
  mpz_fdiv_r_2exp(r, x, bits);
  return r;
}

using instance_words::mpz_of;
using instance_words::words_of;

enum class Op { invert, divide, gcd };

/// Runs `op` on one warp of 32 / G instances (x[i], y[i]); r gets the
/// result (the quotient for divide, rem the remainder), st the status.
template <int W, int G>
bool run_warp(Op op, const std::vector<Mpz>& x, const std::vector<Mpz>& y, std::vector<Mpz>& r,
              std::vector<Mpz>& rem, std::vector<word_t>& st) {
  using E = mb::Env<W, G>;
  constexpr int per_warp = 32 / G, L = E::per_thread;
  std::vector<std::vector<word_t>> X(per_warp), Y(per_warp), R(per_warp, std::vector<word_t>(W)),
      Q(per_warp, std::vector<word_t>(W));
  std::vector<std::vector<word_t>> scratch(per_warp, std::vector<word_t>(E::scratch_words, 0xdeadbeefu));
  st.assign(per_warp, 0xdeadbeefu);
  for (int i = 0; i < per_warp; ++i) X[i] = words_of<W>(x[i]), Y[i] = words_of<W>(y[i]);
  const bool ok = group_emulation::run_warp([&](int lane) {
    const int inst = lane / G, rank = lane % G;
    E env(rank, scratch[inst].data());
    typename E::Num a, b, c, d;
    for (int k = 0; k < L; ++k) a.w[k] = X[inst][rank * L + k], b.w[k] = Y[inst][rank * L + k];
    word_t s = 0;
    if (op == Op::invert) s = mb::invert(env, c, a, b);
    if (op == Op::divide) s = mb::divide(env, c, d, a, b);
    if (op == Op::gcd) mb::gcd(env, c, a, b);
    for (int k = 0; k < L; ++k) R[inst][rank * L + k] = c.w[k];
    if (op == Op::divide)
      for (int k = 0; k < L; ++k) Q[inst][rank * L + k] = d.w[k];
    if (rank == 0) st[inst] = s;
  });
  r.resize(per_warp);
  rem.resize(per_warp);
  for (int i = 0; i < per_warp; ++i) r[i] = mpz_of<W>(R[i]), rem[i] = mpz_of<W>(Q[i]);
  return ok;
}

/// Moduli of every kind, cycled: even random, 2^k, 2, 2 * odd, 1, odd, 0
/// (as a padding instance has), one-word even, all ones; with operands a of
/// every kind: random (>= m), 1, m - 1, a multiple of m plus one, even, 0.
void make_pair(Operands& gen, int bits, std::size_t k, Mpz& a, Mpz& m) {
  switch (k % 9) {
    case 0: m = gen.random_bits(1 + gen.below(bits)); mpz_clrbit(m, 0); break;
    case 1: m = Mpz::pow2(1 + gen.below(bits - 1)); break;
    case 2: m = Mpz::from_ui(2); break;
    case 3: m = gen.random_bits(1 + gen.below(bits - 1)); mpz_setbit(m, 0); mpz_mul_2exp(m, m, 1); break;
    case 4: m = Mpz::from_ui(1); break;
    case 5: m = gen.random_bits(1 + gen.below(bits)); mpz_setbit(m, 0); break;
    case 6: m = Mpz(); break;
    case 7: m = Mpz::from_ui((gen.limb() & 0xfffffffeull) | 2u); break;
    default: m = Mpz::all_ones(bits); break;
  }
  if (m.sgn() == 0 && k % 9 != 6) m = Mpz::from_ui(2);
  switch ((k / 9 + k) % 6) {
    case 0: a = gen.random_bits(bits); break;
    case 1: a = Mpz::from_ui(1); break;
    case 2: a = m; if (a.sgn() > 0) mpz_sub_ui(a, a, 1); break;
    case 3: mpz_mul_ui(a, m, 1 + gen.below(1000)); mpz_add_ui(a, a, 1); break;
    case 4: a = gen.random_bits(1 + gen.below(bits - 1)); mpz_mul_2exp(a, a, 1); break;
    default: a = Mpz(); break;
  }
  a = mod2exp(a, bits);
}

template <int W, int G>
void check(Op op, int warps, unsigned long salt) {
  constexpr int bits = 32 * W, per_warp = 32 / G;
  Operands gen(salt);
  std::size_t k = 0;
  for (int wi = 0; wi < warps; ++wi) {
    std::vector<Mpz> x(per_warp), y(per_warp), r, rem;
    for (int i = 0; i < per_warp; ++i, ++k) make_pair(gen, bits, k, x[i], y[i]);
    if (op == Op::gcd)
      for (int i = 0; i < per_warp; ++i) x[i] = mod2exp(gen.random_bits(1 + gen.below(bits)), bits);
    std::vector<word_t> st;
    ASSERT_TRUE((run_warp<W, G>(op, x, y, r, rem, st)))
        << "Env<" << W << ", " << G << ">: the lanes diverged (a group operation behind a per-instance branch)";
    for (int i = 0; i < per_warp; ++i) {
      const std::string where = "Env<" + std::to_string(W) + ", " + std::to_string(G) + ">, instance " +
                                std::to_string(i) + ": x = " + x[i].describe() + ", y = " + y[i].describe();
      Mpz want, want_rem;
      word_t want_st = mb::status_ok;
      if (op == Op::invert) {
        if (y[i].sgn() == 0) want_st = mb::status_zero_divisor;
        else if (mpz_cmp_ui(y[i].get(), 1) == 0) want = Mpz();
        else if (mpz_invert(want, x[i], y[i]) == 0) want_st = mb::status_no_inverse, want = Mpz();
        ASSERT_EQ(st[i], want_st) << "invert's status, " << where;
        ASSERT_TRUE(r[i] == want) << "invert: got " << r[i] << ", want " << want << "; " << where;
      } else if (op == Op::divide) {
        if (y[i].sgn() == 0) {
          want_st = mb::status_zero_divisor;
          want = Mpz::all_ones(bits);
          want_rem = x[i];
        } else {
          mpz_fdiv_qr(want, want_rem, x[i], y[i]);
        }
        ASSERT_EQ(st[i], want_st) << "divide's status, " << where;
        ASSERT_TRUE(r[i] == want) << "divide's quotient: got " << r[i] << ", want " << want << "; " << where;
        ASSERT_TRUE(rem[i] == want_rem) << "divide's remainder: got " << rem[i] << "; " << where;
      } else {
        mpz_gcd(want, x[i], y[i]);
        ASSERT_TRUE(r[i] == want) << "gcd: got " << r[i] << ", want " << want << "; " << where;
      }
    }
  }
}

// 2048 bits with G = 8 (the tuning table's choice) is where the device path
// failed: an m == 0 instance skipped a group operation in invert.
TEST(DeviceApiGroups, Invert2048BitsG8) { check<64, 8>(Op::invert, 2, 601); }
TEST(DeviceApiGroups, Invert2048BitsG16) { check<64, 16>(Op::invert, 2, 602); }
TEST(DeviceApiGroups, Invert1024BitsG4) { check<32, 4>(Op::invert, 2, 603); }
TEST(DeviceApiGroups, Invert512BitsG2) { check<16, 2>(Op::invert, 1, 604); }
TEST(DeviceApiGroups, Divide2048BitsG8) { check<64, 8>(Op::divide, 2, 605); }
TEST(DeviceApiGroups, Divide512BitsG4) { check<16, 4>(Op::divide, 2, 606); }
TEST(DeviceApiGroups, Gcd2048BitsG8) { check<64, 8>(Op::gcd, 2, 607); }

/// powm_sliding with 32 / G instances in a warp, each with its own odd
/// modulus, base and exponent: their windows fall at different steps, and
/// exponents of different lengths (0 and 1 among them) finish at different
/// steps, while the lanes must stay together (checked by the emulation) and
/// every result must equal GMP's.
template <int W, int G>
void check_powm_sliding(int warps, unsigned long salt) {
  using E = mb::Env<W, G>;
  constexpr int bits = 32 * W, per_warp = 32 / G, L = E::per_thread;
  Operands gen(salt);
  for (int wi = 0; wi < warps; ++wi) {
    std::vector<Mpz> base(per_warp), exp(per_warp), mod(per_warp);
    for (int i = 0; i < per_warp; ++i) {
      const int k = wi * per_warp + i;  // the kinds cycle over the warps too
      mod[i] = k % 4 == 3 ? Mpz::all_ones(bits) : gen.random_bits(2 + gen.below(bits - 1));
      mpz_setbit(mod[i], 0);
      if (mpz_cmp_ui(mod[i].get(), 1) == 0) mod[i] = Mpz::from_ui(3);
      base[i] = k % 5 == 4 ? Mpz::all_ones(bits) : gen.random_bits(1 + gen.below(bits));  // also >= m
      switch (k % 6) {
        case 0: exp[i] = Mpz(); break;
        case 1: exp[i] = Mpz::from_ui(1); break;
        case 2: exp[i] = Mpz::all_ones(bits); break;
        case 3: exp[i] = Mpz::pow2(gen.below(bits)); mpz_setbit(exp[i], 0); break;
        default: exp[i] = gen.random_bits(1 + gen.below(bits)); break;
      }
    }
    std::vector<std::vector<word_t>> B(per_warp), X(per_warp), M(per_warp), R(per_warp, std::vector<word_t>(W));
    std::vector<std::vector<word_t>> scratch(per_warp, std::vector<word_t>(E::scratch_words, 0xdeadbeefu));
    for (int i = 0; i < per_warp; ++i) B[i] = words_of<W>(base[i]), X[i] = words_of<W>(exp[i]), M[i] = words_of<W>(mod[i]);
    const bool ok = group_emulation::run_warp([&](int lane) {
      const int inst = lane / G, rank = lane % G;
      E env(rank, scratch[inst].data());
      typename E::Num b, x, n, r;
      for (int k = 0; k < L; ++k)
        b.w[k] = B[inst][rank * L + k], x.w[k] = X[inst][rank * L + k], n.w[k] = M[inst][rank * L + k];
      mb::Modulus<E> m;
      mb::setup_modulus(env, m, n);
      mb::powm_sliding(env, r, b, x, m);
      for (int k = 0; k < L; ++k) R[inst][rank * L + k] = r.w[k];
    });
    ASSERT_TRUE(ok) << "Env<" << W << ", " << G << ">: the lanes diverged in powm_sliding";
    for (int i = 0; i < per_warp; ++i) {
      Mpz want;
      mpz_powm(want, base[i], exp[i], mod[i]);
      const Mpz got = mpz_of<W>(R[i]);
      ASSERT_TRUE(got == want) << "powm_sliding, Env<" << W << ", " << G << ">, instance " << i << ": got " << got
                               << ", want " << want << "; base " << base[i].describe() << ", exp "
                               << exp[i].describe() << ", m " << mod[i].describe();
    }
  }
}

/// The NTT product (ntt_mul.cuh) with 32 / G instances in a warp, each with
/// its own work area: wide and low products and squares of all ones, single
/// high bits and random operands against GMP. Through the Env's mul,
/// mul_wide and sqr when the class dispatches to the NTT, directly
/// otherwise.
template <int W, int G>
void check_ntt_products(unsigned long salt) {
  using E = mb::Env<W, G>;
  constexpr int bits = 32 * W, per_warp = 32 / G, L = E::per_thread;
  Operands gen(salt);
  std::vector<Mpz> x(per_warp), y(per_warp);
  for (int i = 0; i < per_warp; ++i) {
    x[i] = i % 3 == 0 ? Mpz::all_ones(bits) : i % 3 == 1 ? Mpz::pow2(bits - 1) : gen.random_bits(1 + gen.below(bits));
    y[i] = i % 2 == 0 ? Mpz::all_ones(bits) : gen.random_bits(bits);
  }
  std::vector<std::vector<word_t>> X(per_warp), Y(per_warp), LO(per_warp, std::vector<word_t>(W)),
      HI(per_warp, std::vector<word_t>(W)), LOW(per_warp, std::vector<word_t>(W)), SQ(per_warp, std::vector<word_t>(W));
  const int work_words = E::ntt_products ? E::scratch_words : mb::ntt_work_words(W);
  std::vector<std::vector<word_t>> scratch(per_warp, std::vector<word_t>(work_words, 0xdeadbeefu));
  for (int i = 0; i < per_warp; ++i) X[i] = words_of<W>(x[i]), Y[i] = words_of<W>(y[i]);
  const bool ok = group_emulation::run_warp([&](int lane) {
    const int inst = lane / G, rank = lane % G;
    E env(rank, scratch[inst].data());
    typename E::Num a, b, lo, hi, low, sq;
    for (int k = 0; k < L; ++k) a.w[k] = X[inst][rank * L + k], b.w[k] = Y[inst][rank * L + k];
    if constexpr (E::ntt_products) {
      mb::mul_wide(env, lo, hi, a, b);
      mb::mul(env, low, a, b);
      mb::sqr(env, sq, a);
    } else {
      word_t* work = scratch[inst].data();
      mb::ntt_mul_runs<E, true, false>(env, lo, &hi, a, b, work);
      mb::ntt_mul_runs<E, false, false>(env, low, nullptr, a, b, work);
      mb::ntt_mul_runs<E, false, true>(env, sq, nullptr, a, a, work);
    }
    for (int k = 0; k < L; ++k) {
      LO[inst][rank * L + k] = lo.w[k], HI[inst][rank * L + k] = hi.w[k];
      LOW[inst][rank * L + k] = low.w[k], SQ[inst][rank * L + k] = sq.w[k];
    }
  });
  ASSERT_TRUE(ok) << "Env<" << W << ", " << G << ">: the lanes diverged in the NTT product";
  for (int i = 0; i < per_warp; ++i) {
    Mpz wide, square;
    mpz_mul(wide, x[i], y[i]);
    mpz_mul(square, x[i], x[i]);
    const std::string where = "Env<" + std::to_string(W) + ", " + std::to_string(G) + ">, instance " +
                              std::to_string(i) + ": x = " + x[i].describe() + ", y = " + y[i].describe();
    Mpz high;
    mpz_fdiv_q_2exp(high, wide, bits);
    ASSERT_TRUE(mpz_of<W>(LO[i]) == mod2exp(wide, bits)) << "NTT mul_wide low, " << where;
    ASSERT_TRUE(mpz_of<W>(HI[i]) == high) << "NTT mul_wide high, " << where;
    ASSERT_TRUE(mpz_of<W>(LOW[i]) == mod2exp(wide, bits)) << "NTT mul, " << where;
    ASSERT_TRUE(mpz_of<W>(SQ[i]) == mod2exp(square, bits)) << "NTT sqr, " << where;
  }
}

/// The staged products and squares (mul.cuh: product runs, and square runs
/// of the pairs i < j doubled plus the diagonal) of classes between the
/// register and the NTT products, with 32 / G instances in a warp: mul,
/// mul_wide, mul_high, sqr, sqr_wide and mul_add (a b + a) against GMP. Operands cycle over
/// all ones, the single high bit, zero, one, alternating bits, the low
/// half all ones, a high word next to a low one, and random values.
template <int W, int G>
void check_staged_products(int warps, unsigned long salt) {
  using E = mb::Env<W, G>;
  static_assert(!E::register_products && !E::ntt_products, "a class of the staged products");
  constexpr int bits = 32 * W, per_warp = 32 / G, L = E::per_thread;
  Operands gen(salt);
  const auto value = [&](int k) {
    switch (k % 8) {
      case 0: return Mpz::all_ones(bits);
      case 1: return Mpz::pow2(bits - 1);
      case 2: return Mpz();
      case 3: return Mpz::from_ui(1);
      case 4: return mod2exp(mpgpu_test::repeated_limb(0xAAAAAAAAAAAAAAAAull, W / 2), bits);
      case 5: return Mpz::all_ones(bits / 2);
      case 6: {
        Mpz x = Mpz::pow2(bits - 1 - gen.below(32));
        mpz_add_ui(x, x, gen.limb() & 0xffffffffu);
        return x;
      }
      default: return gen.random_bits(1 + gen.below(bits));
    }
  };
  for (int wi = 0; wi < warps; ++wi) {
    std::vector<Mpz> x(per_warp), y(per_warp);
    for (int i = 0; i < per_warp; ++i) {
      const int k = wi * per_warp + i;
      x[i] = value(k);
      y[i] = value(k / 8 + 3 * k);
    }
    std::vector<std::vector<word_t>> X(per_warp), Y(per_warp);
    std::vector<std::vector<std::vector<word_t>>> out(6, std::vector<std::vector<word_t>>(per_warp, std::vector<word_t>(W)));
    std::vector<std::vector<word_t>> out_hi(2 * per_warp, std::vector<word_t>(W));
    std::vector<std::vector<word_t>> scratch(per_warp, std::vector<word_t>(E::scratch_words, 0xdeadbeefu));
    for (int i = 0; i < per_warp; ++i) X[i] = words_of<W>(x[i]), Y[i] = words_of<W>(y[i]);
    const bool ok = group_emulation::run_warp([&](int lane) {
      const int inst = lane / G, rank = lane % G;
      E env(rank, scratch[inst].data());
      typename E::Num a, b, r[6], h[2];
      for (int k = 0; k < L; ++k) a.w[k] = X[inst][rank * L + k], b.w[k] = Y[inst][rank * L + k];
      mb::mul(env, r[0], a, b);
      mb::mul_wide(env, r[1], h[0], a, b);
      mb::mul_high(env, r[2], a, b);
      mb::sqr(env, r[3], a);
      mb::sqr_wide(env, r[4], h[1], a);
      mb::mul_add(env, r[5], a, b, a);
      for (int k = 0; k < L; ++k) {
        for (int o = 0; o < 6; ++o) out[o][inst][rank * L + k] = r[o].w[k];
        for (int o = 0; o < 2; ++o) out_hi[2 * inst + o][rank * L + k] = h[o].w[k];
      }
    });
    ASSERT_TRUE(ok) << "Env<" << W << ", " << G << ">: the lanes diverged in the staged products";
    for (int i = 0; i < per_warp; ++i) {
      Mpz wide, square, wide_high, square_high;
      mpz_mul(wide, x[i], y[i]);
      mpz_mul(square, x[i], x[i]);
      mpz_fdiv_q_2exp(wide_high, wide, bits);
      mpz_fdiv_q_2exp(square_high, square, bits);
      const std::string where = "Env<" + std::to_string(W) + ", " + std::to_string(G) + ">, instance " +
                                std::to_string(i) + ": x = " + x[i].describe() + ", y = " + y[i].describe();
      ASSERT_TRUE(mpz_of<W>(out[0][i]) == mod2exp(wide, bits)) << "mul, " << where;
      ASSERT_TRUE(mpz_of<W>(out[1][i]) == mod2exp(wide, bits)) << "mul_wide low, " << where;
      ASSERT_TRUE(mpz_of<W>(out_hi[2 * i]) == wide_high) << "mul_wide high, " << where;
      ASSERT_TRUE(mpz_of<W>(out[2][i]) == wide_high) << "mul_high, " << where;
      ASSERT_TRUE(mpz_of<W>(out[3][i]) == mod2exp(square, bits)) << "sqr, " << where;
      ASSERT_TRUE(mpz_of<W>(out[4][i]) == mod2exp(square, bits)) << "sqr_wide low, " << where;
      ASSERT_TRUE(mpz_of<W>(out_hi[2 * i + 1]) == square_high) << "sqr_wide high, " << where;
      mpz_add(wide, wide, x[i]);
      ASSERT_TRUE(mpz_of<W>(out[5][i]) == mod2exp(wide, bits)) << "mul_add, " << where;
    }
  }
}

// Run lengths Q = L/2 of 4 (the tuning table's 2048 bits), 2, 8, 6 (an odd
// Q/2), 3 (odd: squares fall back to product runs), and 16 at G = 2.
TEST(DeviceApiGroups, StagedProducts2048BitsG8) { check_staged_products<64, 8>(4, 614); }
TEST(DeviceApiGroups, StagedProducts2048BitsG16) { check_staged_products<64, 16>(8, 615); }
TEST(DeviceApiGroups, StagedProducts2048BitsG4) { check_staged_products<64, 4>(3, 616); }
TEST(DeviceApiGroups, StagedProducts3072BitsG8) { check_staged_products<96, 8>(4, 617); }
TEST(DeviceApiGroups, StagedProducts3072BitsG16) { check_staged_products<96, 16>(8, 618); }
TEST(DeviceApiGroups, StagedProducts2048BitsG2) { check_staged_products<64, 2>(2, 619); }
TEST(DeviceApiGroups, StagedProducts16384BitsG32) { check_staged_products<512, 32>(8, 620); }

/// The 64-bit scalar forms with 32 / G instances in a warp, each with its
/// own scalar (mul_ui64 broadcasts the top word, div_ui64 runs divide):
/// against GMP.
template <int W, int G>
void check_scalars64(int warps, unsigned long salt) {
  using E = mb::Env<W, G>;
  constexpr int bits = 32 * W, per_warp = 32 / G, L = E::per_thread;
  Operands gen(salt);
  const std::uint64_t kinds[] = {0, 1, 0xffffffffull, 1ull << 32, ~0ull, 0xffffffff00000001ull};
  for (int wi = 0; wi < warps; ++wi) {
    std::vector<Mpz> x(per_warp);
    std::vector<std::uint64_t> v(per_warp), carry(per_warp), rem(per_warp);
    std::vector<std::vector<word_t>> X(per_warp), P(per_warp, std::vector<word_t>(W)), Q(per_warp, std::vector<word_t>(W));
    std::vector<std::vector<word_t>> scratch(per_warp, std::vector<word_t>(E::scratch_words, 0xdeadbeefu));
    for (int i = 0; i < per_warp; ++i) {
      const int k = wi * per_warp + i;
      x[i] = k % 3 == 0 ? Mpz::all_ones(bits) : gen.random_bits(1 + gen.below(bits));
      v[i] = k % 2 ? kinds[(k / 2) % 6] : gen.limb() >> gen.below(48);
      X[i] = words_of<W>(x[i]);
    }
    const bool ok = group_emulation::run_warp([&](int lane) {
      const int inst = lane / G, rank = lane % G;
      E env(rank, scratch[inst].data());
      typename E::Num a, p, q;
      for (int k = 0; k < L; ++k) a.w[k] = X[inst][rank * L + k];
      const std::uint64_t c = mb::mul_ui64(env, p, a, v[inst]);
      const std::uint64_t r = mb::div_ui64(env, q, a, v[inst]);
      for (int k = 0; k < L; ++k) P[inst][rank * L + k] = p.w[k], Q[inst][rank * L + k] = q.w[k];
      if (rank == 0) carry[inst] = c, rem[inst] = r;
    });
    ASSERT_TRUE(ok) << "Env<" << W << ", " << G << ">: the lanes diverged in the 64-bit scalar forms";
    for (int i = 0; i < per_warp; ++i) {
      const std::string where = "Env<" + std::to_string(W) + ", " + std::to_string(G) + ">, instance " +
                                std::to_string(i) + ": x = " + x[i].describe() + ", v = " + std::to_string(v[i]);
      Mpz product, high, q, r;
      mpz_mul(product, x[i], Mpz::from_ui(v[i]));
      mpz_fdiv_q_2exp(high, product, bits);
      ASSERT_TRUE(mpz_of<W>(P[i]) == mod2exp(product, bits)) << "mul_ui64, " << where;
      ASSERT_TRUE(Mpz::from_ui(carry[i]) == high) << "mul_ui64's carry out, " << where;
      if (v[i] == 0) {
        ASSERT_TRUE(mpz_of<W>(Q[i]) == Mpz::all_ones(bits)) << "div_ui64 by 0, " << where;
        ASSERT_EQ(rem[i], 0u) << where;
        continue;
      }
      mpz_fdiv_qr(q, r, x[i], Mpz::from_ui(v[i]));
      ASSERT_TRUE(mpz_of<W>(Q[i]) == q) << "div_ui64, " << where;
      ASSERT_TRUE(Mpz::from_ui(rem[i]) == r) << "div_ui64's remainder, " << where;
    }
  }
}

TEST(DeviceApiGroups, Scalars64Bits2048G8) { check_scalars64<64, 8>(3, 622); }
TEST(DeviceApiGroups, Scalars64Bits512G4) { check_scalars64<16, 4>(3, 623); }

/// Delayed carries (LazySum, add_lazy, normalize) with 32 / G instances in
/// a warp: seed 000's 6-Add chain of x and y and a long chain of additions of
/// all-ones numbers (the largest delayed carries), against GMP mod 2^bits.
template <int W, int G>
void check_lazy_sums(int warps, unsigned long salt) {
  using E = mb::Env<W, G>;
  constexpr int bits = 32 * W, per_warp = 32 / G, L = E::per_thread;
  constexpr int kLongChain = 1000;
  Operands gen(salt);
  for (int wi = 0; wi < warps; ++wi) {
    std::vector<Mpz> x(per_warp), y(per_warp);
    std::vector<std::vector<word_t>> X(per_warp), Y(per_warp), S(per_warp, std::vector<word_t>(W)),
        T(per_warp, std::vector<word_t>(W));
    std::vector<std::vector<word_t>> scratch(per_warp, std::vector<word_t>(E::scratch_words, 0xdeadbeefu));
    for (int i = 0; i < per_warp; ++i) {
      const int k = wi * per_warp + i;
      x[i] = k % 3 == 0 ? Mpz::all_ones(bits) : gen.random_bits(1 + gen.below(bits));
      y[i] = k % 4 == 1 ? Mpz::all_ones(bits) : k % 4 == 2 ? Mpz() : gen.random_bits(1 + gen.below(bits));
      X[i] = words_of<W>(x[i]);
      Y[i] = words_of<W>(y[i]);
    }
    const bool ok = group_emulation::run_warp([&](int lane) {
      const int inst = lane / G, rank = lane % G;
      E env(rank, scratch[inst].data());
      typename E::Num a, b, r;
      for (int k = 0; k < L; ++k) a.w[k] = X[inst][rank * L + k], b.w[k] = Y[inst][rank * L + k];
      mb::LazySum<E> t1, t2, t3;
      to_lazy(env, t1, a);
      add_lazy(env, t1, t1, b);   // x + y
      add_lazy(env, t2, t1, a);   // t1 + x
      add_lazy(env, t3, t2, b);   // t2 + y
      add_lazy(env, t1, t3, t1);  // t3 + t1
      add_lazy(env, t2, t1, t2);  // t1 + t2
      add_lazy(env, t1, t2, t3);  // t2 + t3
      mb::normalize(env, r, t1);
      for (int k = 0; k < L; ++k) S[inst][rank * L + k] = r.w[k];
      to_lazy(env, t1, a);
      for (int j = 1; j < kLongChain; ++j) add_lazy(env, t1, t1, a);
      mb::normalize(env, r, t1);
      for (int k = 0; k < L; ++k) T[inst][rank * L + k] = r.w[k];
    });
    ASSERT_TRUE(ok) << "Env<" << W << ", " << G << ">: the lanes diverged in the lazy sums";
    for (int i = 0; i < per_warp; ++i) {
      const std::string where = "Env<" + std::to_string(W) + ", " + std::to_string(G) + ">, instance " +
                                std::to_string(i) + ": x = " + x[i].describe() + ", y = " + y[i].describe();
      Mpz t1, t2, t3, want;
      mpz_add(t1, x[i], y[i]);
      mpz_add(t2, t1, x[i]);
      mpz_add(t3, t2, y[i]);
      mpz_add(t1, t3, t1);
      mpz_add(t2, t1, t2);
      mpz_add(want, t2, t3);
      ASSERT_TRUE(mpz_of<W>(S[i]) == mod2exp(want, bits)) << "6-Add with delayed carries, " << where;
      mpz_mul_ui(want, x[i], kLongChain);
      ASSERT_TRUE(mpz_of<W>(T[i]) == mod2exp(want, bits)) << kLongChain << " lazy additions, " << where;
    }
  }
}

TEST(DeviceApiGroups, LazySums512BitsG4) { check_lazy_sums<16, 4>(3, 624); }
TEST(DeviceApiGroups, LazySums2048BitsG8) { check_lazy_sums<64, 8>(3, 625); }
TEST(DeviceApiGroups, LazySums16384BitsG32) { check_lazy_sums<512, 32>(2, 626); }

TEST(DeviceApiGroups, NttProduct256BitsG2) { check_ntt_products<8, 2>(611); }
TEST(DeviceApiGroups, NttProduct2048BitsG8) { check_ntt_products<64, 8>(612); }
TEST(DeviceApiGroups, NttProductFirstClassG32) { check_ntt_products<mb::kNttProductMinWords, 32>(613); }

TEST(DeviceApiGroups, PowmSliding256BitsG2) { check_powm_sliding<8, 2>(2, 608); }
TEST(DeviceApiGroups, PowmSliding1024BitsG4) { check_powm_sliding<32, 4>(1, 609); }
TEST(DeviceApiGroups, PowmSliding2048BitsG16) { check_powm_sliding<64, 16>(3, 610); }
TEST(DeviceApiGroups, PowmSliding2048BitsG8) { check_powm_sliding<64, 8>(2, 621); }

}  // namespace
