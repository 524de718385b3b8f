// pi and e as `mpgpu pi` and `mpgpu e` compute them (tools/mpgpu/constants.hpp)
// and the Lucas-Lehmer test of `mpgpu bench --workloads`, on each backend:
// known digits, an independent computation with GMP (Machin's formula for pi,
// the plain sum of 1/k! for e), the guard-digit retry at pi's run of six 9s,
// and Mersenne numbers against the known Mersenne prime exponents.
#include <gmp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "chudnovsky_batch.hpp"
#include "chudnovsky_leaf.hpp"
#include "constants.hpp"
#include "integer/integer_test.hpp"
#include "lucas_lehmer.hpp"

namespace {

using mpgpu::Integer;
using mpgpu::cli::Constant;
using namespace mpgpu_test;

// The first 200 digits after the point, as published.
const std::string kPi200 =
    "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706"
    "798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196";
const std::string kE200 =
    "2.71828182845904523536028747135266249775724709369995957496696762772407663035354759457138217852516642"
    "742746639193200305992181741359662904357290033429526059563073813232862794349076323382988075319525101901";

/// "3.1415..." with `digits` digits after the point, from an integer floor(c 10^digits).
std::string with_point(const std::string& scaled) { return scaled.substr(0, 1) + "." + scaled.substr(1); }

/// arctan(1/x) 10^n, truncated term by term (one unit of error a term).
void arctan_inverse(mpz_t r, unsigned long x, const mpz_t unity) {
  mpz_t term, q;
  mpz_inits(term, q, nullptr);
  mpz_tdiv_q_ui(term, unity, x);
  mpz_set(r, term);
  const unsigned long x2 = x * x;
  for (unsigned long n = 3, i = 1; mpz_sgn(term) != 0; n += 2, ++i) {
    mpz_tdiv_q_ui(term, term, x2);
    mpz_tdiv_q_ui(q, term, n);
    if (i % 2) mpz_sub(r, r, q);
    else mpz_add(r, r, q);
  }
  mpz_clears(term, q, nullptr);
}

/// The text of floor(c 10^digits) from an approximation x of c 10^(digits + 30)
/// within far less than 10^29 units (checked not to straddle a digit boundary).
std::string settle(mpz_t x, unsigned long digits) {
  mpz_t unit, r;
  mpz_inits(unit, r, nullptr);
  mpz_ui_pow_ui(unit, 10, 30);
  mpz_fdiv_qr(x, r, x, unit);
  mpz_sub_ui(unit, unit, 1000000);
  EXPECT_TRUE(mpz_cmp_ui(r, 1000000) > 0 && mpz_cmp(r, unit) < 0) << "the oracle's guard digits are ambiguous";
  std::vector<char> buf(mpz_sizeinbase(x, 10) + 2);
  std::string s = mpz_get_str(buf.data(), 10, x);
  mpz_clears(unit, r, nullptr);
  EXPECT_EQ(s.size(), digits + 1);
  return with_point(s);
}

/// pi by Machin's formula: 16 arctan(1/5) - 4 arctan(1/239).
std::string machin_pi(unsigned long digits) {
  mpz_t unity, a, b;
  mpz_inits(unity, a, b, nullptr);
  mpz_ui_pow_ui(unity, 10, digits + 30);
  arctan_inverse(a, 5, unity);
  arctan_inverse(b, 239, unity);
  mpz_mul_ui(a, a, 16);
  mpz_submul_ui(a, b, 4);
  std::string s = settle(a, digits);
  mpz_clears(unity, a, b, nullptr);
  return s;
}

/// e as sum 1/k!, one term after another.
std::string series_e(unsigned long digits) {
  mpz_t term, sum;
  mpz_inits(term, sum, nullptr);
  mpz_ui_pow_ui(term, 10, digits + 30);
  for (unsigned long k = 1; mpz_sgn(term) != 0; ++k) {
    mpz_add(sum, sum, term);
    mpz_tdiv_q_ui(term, term, k);
  }
  std::string s = settle(sum, digits);
  mpz_clears(term, sum, nullptr);
  return s;
}

class Constants : public IntegerTest {
 protected:
  std::string text(Constant c, std::uint64_t digits, std::uint64_t first_guard = 20) const {
    const auto r = mpgpu::cli::compute_constant(c, ctx(), digits, {}, first_guard);
    return mpgpu::cli::constant_text(r.scaled, digits);
  }
};

TEST_P(Constants, KnownDigits) {
  EXPECT_EQ(text(Constant::pi, 200), kPi200);
  EXPECT_EQ(text(Constant::e, 200), kE200);
  // Every length up to 60: the truncation, never a rounding, at each digit.
  for (std::uint64_t d = 1; d <= 60; ++d) {
    EXPECT_EQ(text(Constant::pi, d), kPi200.substr(0, d + 2)) << d;
    EXPECT_EQ(text(Constant::e, d), kE200.substr(0, d + 2)) << d;
  }
  EXPECT_EQ(text(Constant::pi, 0), "3");
  EXPECT_EQ(text(Constant::e, 0), "2");
}

TEST_P(Constants, SmallGuardsGiveTheSameDigits) {
  for (std::uint64_t d : {5, 31, 99, 150})
    for (std::uint64_t guard : {2, 3, 7}) {
      EXPECT_EQ(text(Constant::pi, d, guard), kPi200.substr(0, d + 2)) << d << " " << guard;
      EXPECT_EQ(text(Constant::e, d, guard), kE200.substr(0, d + 2)) << d << " " << guard;
    }
}

// pi's decimals 762 to 767 are 999999: cut after 761 with two guard digits,
// the guard digits read 99, and one unit of error could carry into the last
// digit, so the computation must retry with more guard digits.
TEST_P(Constants, AmbiguousGuardDigitsRetry) {
  const auto r = mpgpu::cli::compute_constant(Constant::pi, ctx(), 761, {}, 2);
  EXPECT_GT(r.attempts, 1u);
  EXPECT_GE(r.guard_digits, 8u);  // 99999983...: eight guard digits are the first that decide
  EXPECT_EQ(mpgpu::cli::constant_text(r.scaled, 761), machin_pi(761));
  const std::string pi = machin_pi(780);
  EXPECT_EQ(pi.substr(761 + 2, 8), "99999983");
}

TEST_P(Constants, AgreeWithOtherMethods) {
  const std::uint64_t digits = on_gpu() ? 20000 : 10000;
  const std::string pi = machin_pi(digits), e = series_e(digits);
  ASSERT_EQ(pi.substr(0, kPi200.size()), kPi200);
  ASSERT_EQ(e.substr(0, kE200.size()), kE200);
  EXPECT_EQ(text(Constant::pi, digits), pi);
  EXPECT_EQ(text(Constant::e, digits), e);
  // A few lengths around it, so the last digit is checked in more than one place.
  for (std::uint64_t d : {digits - 1, digits - 7, digits / 2 + 3}) {
    EXPECT_EQ(text(Constant::pi, d), pi.substr(0, d + 2)) << d;
    EXPECT_EQ(text(Constant::e, d), e.substr(0, d + 2)) << d;
  }
}

// The series spread over host threads (tools/mpgpu/binary_splitting.hpp):
// the same digits for any thread count, with the whole tree as host work
// and with the upper tree above a cut in ctx() (as on a CUDA context), with
// the default device threads (none on the CPU context, kSeriesDeviceThreads
// on a CUDA one, each in a context of its own) or 3, merging the subtrees of
// up to 20000 bits.
TEST_P(Constants, SameDigitsOnAnyNumberOfThreads) {
  const std::uint64_t digits = 5000;
  const std::string pi = machin_pi(digits), e = series_e(digits);
  for (unsigned threads : {1u, 2u, 3u, 7u})
    for (double cut : {0.0, 3000.0, 40000.0})
      for (unsigned device_threads : {0u, 3u}) {
        mpgpu::cli::SeriesOptions series;
        series.threads = threads;
        series.host_max_bits = cut;
        series.device_threads = device_threads;
        series.device_subtree_max_bits = 20000;
        for (Constant c : {Constant::pi, Constant::e}) {
          const auto r = mpgpu::cli::compute_constant(c, ctx(), digits, {}, mpgpu::cli::kDefaultGuardDigits, series);
          EXPECT_EQ(mpgpu::cli::constant_text(r.scaled, digits), c == Constant::pi ? pi : e)
              << mpgpu::cli::constant_name(c) << ", " << threads << " threads, cut " << cut << ", " << device_threads
              << " device threads";
        }
      }
}

TEST_P(Constants, LucasLehmerAgainstKnownMersennePrimes) {
  const std::vector<std::uint64_t> known = {2, 3, 5, 7, 13, 17, 19, 31, 61, 89, 107, 127, 521, 607, 1279};
  std::vector<std::uint64_t> exponents;
  for (std::uint64_t p = 2; p <= 130; ++p) exponents.push_back(p);
  for (std::uint64_t p : {521, 523, 607, 613, 1277, 1279}) exponents.push_back(p);
  for (std::uint64_t p : exponents) {
    const bool expect = std::find(known.begin(), known.end(), p) != known.end();
    EXPECT_EQ(mpgpu::cli::lucas_lehmer(p, ctx()), expect) << "2^" << p << " - 1";
  }
  EXPECT_THROW(mpgpu::cli::lucas_lehmer(1, ctx()), mpgpu::InvalidArgument);
}

/// P, Q, T of pi's series over [a, b) by the plain recursion on mpz (the
/// oracle of the batched nodes).
void chudnovsky_mpz(std::uint64_t a, std::uint64_t b, mpz_t p, mpz_t q, mpz_t t) {
  using namespace mpgpu::cli;
  if (b - a == 1) {
    if (a == 0) {
      mpz_set_ui(p, 1);
      mpz_set_ui(q, 1);
      mpz_set_ui(t, kChudnovskyA);
      return;
    }
    mpz_set_ui(p, 6 * a - 5);
    mpz_mul_ui(p, p, 2 * a - 1);
    mpz_mul_ui(p, p, 6 * a - 1);
    mpz_set_ui(q, a);
    mpz_pow_ui(q, q, 3);
    mpz_mul_ui(q, q, kChudnovskyC3Over24);
    mpz_set_ui(t, kChudnovskyB);
    mpz_mul_ui(t, t, a);
    mpz_add_ui(t, t, kChudnovskyA);
    mpz_mul(t, t, p);
    if (a % 2) mpz_neg(t, t);
    return;
  }
  const std::uint64_t m = a + (b - a) / 2;
  mpz_t p2, q2, t2;
  mpz_inits(p2, q2, t2, nullptr);
  chudnovsky_mpz(a, m, p, q, t);
  chudnovsky_mpz(m, b, p2, q2, t2);
  mpz_mul(t, t, q2);
  mpz_addmul(t, p, t2);
  mpz_mul(q, q, q2);
  mpz_mul(p, p, p2);
  mpz_clears(p2, q2, t2, nullptr);
}

// The batched nodes (the device's share of pi's subtrees) against the mpz
// recursion: ranges of every depth from 0 to 11 in one call (so one batch
// per depth, its leaves made by series_leaves),
// term 0, both sides of 2^k term counts, large terms up to the last one the
// word leaves take, and ranges too wide for one batch (their pieces batched,
// then merged a height at a time).
TEST_P(Constants, BatchedNodesMatchTheRecursion) {
  using mpgpu::cli::TermRange;
  const std::vector<TermRange> ranges = {
      {0, 1}, {1, 2}, {0, 2}, {2, 5}, {5, 12}, {12, 28}, {28, 60}, {100, 229}, {1000, 1077}, {1077, 1333},
      {7999990, 8000010}, {70513233, 70514309}, {705132331, 705132842}, {(1ull << 32) - 9, 1ull << 32},
      {20, 2068}, {1, 3001}, {3001, 6007}, {6007, 18000}};
  // The last three are wider than Batch::max_bits at their tops: split in
  // the call into halves (the last one into eighths and sixteenths: merges
  // of three heights, those of a height over all three ranges at once).
  ASSERT_GT(mpgpu::cli::chudnovsky_node_width(1, 3001), mpgpu::Batch::max_bits);
  ASSERT_GT(mpgpu::cli::chudnovsky_node_width(6007, 18000), 4 * mpgpu::Batch::max_bits);
  // The work in a context of its own, the values in ctx() (as the batching
  // thread makes them): on a CUDA context another stream of the device.
  const mpgpu::Context work = ctx().with_tuning(ctx().tuning());
  const std::vector<mpgpu::cli::ChudnovskyNode> nodes = mpgpu::cli::chudnovsky_nodes_batched(ranges, work, ctx());
  ASSERT_EQ(nodes.size(), ranges.size());
  mpz_t p, q, t, got;
  mpz_inits(p, q, t, got, nullptr);
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    chudnovsky_mpz(ranges[i].a, ranges[i].b, p, q, t);
    const std::string where = "[" + std::to_string(ranges[i].a) + ", " + std::to_string(ranges[i].b) + ")";
    EXPECT_EQ(nodes[i].P.context(), ctx()) << where;
    EXPECT_EQ(nodes[i].T.context(), ctx()) << where;
    nodes[i].P.to_mpz(got);
    EXPECT_EQ(mpz_cmp(got, p), 0) << "P of " << where;
    nodes[i].Q.to_mpz(got);
    EXPECT_EQ(mpz_cmp(got, q), 0) << "Q of " << where;
    nodes[i].T.to_mpz(got);
    EXPECT_EQ(mpz_cmp(got, t), 0) << "T of " << where;
    // The width bound holds (with the sign bit) for every value.
    const std::size_t w = mpgpu::cli::chudnovsky_node_width(ranges[i].a, ranges[i].b);
    EXPECT_LT(mpz_sizeinbase(t, 2), w) << where;
    EXPECT_LT(mpz_sizeinbase(q, 2), w) << where;
  }
  mpz_clears(p, q, t, got, nullptr);
}

// pi through the series with half its subtrees batched, on every context
// (the cut low, so that there are merges above it even on the CPU one): the
// digits as published.
TEST_P(Constants, PiWithBatchedSubtrees) {
  mpgpu::cli::SeriesOptions options;
  options.threads = 3;
  options.host_max_bits = 4096;
  options.batched_share = 0.5;
  options.batched_chunk = 5;
  mpgpu::cli::StageHooks hooks;
  std::string notes;
  hooks.note = [&](std::string_view, const std::string& text) { notes += text; };
  const mpgpu::Integer x = mpgpu::cli::pi_fixed_point(ctx(), 3000, hooks, options);  // 213 terms
  EXPECT_NE(notes.find("subtrees batched"), std::string::npos) << notes;
  mpgpu::Integer unit(ctx()), q(ctx());
  mpgpu::ui_pow_ui(unit, 10, 2800);
  mpgpu::fdiv_q(q, x, unit);
  EXPECT_EQ(with_point(q.to_string()), kPi200);
}

// pi with every subtree batched at a cut of 2^19 bits (each subtree wider
// than a batch, so made as two pieces and merged in one mul_each a chunk;
// MPGPU_SERIES_HOST_BITS=524288 on a CUDA context), against the same digits
// by the plain recursion: every digit, not a prefix.
TEST_P(Constants, PiWithBatchedSubtreesWiderThanABatch) {
  const std::uint64_t digits = 240000;  // ~16,900 terms: subtrees of 2^19 bits at ~5,500 terms
  mpgpu::cli::SeriesOptions batched;
  batched.threads = 2;
  batched.host_max_bits = 1 << 19;
  batched.batched_share = 1;
  batched.batched_chunk = 2;
  mpgpu::cli::StageHooks hooks;
  std::string notes;
  hooks.note = [&](std::string_view, const std::string& text) { notes += text; };
  const mpgpu::Integer x = mpgpu::cli::pi_fixed_point(ctx(), digits, hooks, batched);
  EXPECT_NE(notes.find("subtrees batched (100% share)"), std::string::npos) << notes;
  mpgpu::cli::SeriesOptions plain;
  plain.threads = 1;
  plain.batched_share = 0;
  const mpgpu::Integer want = mpgpu::cli::pi_fixed_point(ctx(), digits, {}, plain);
  EXPECT_TRUE(x == want);
}

MPGPU_INSTANTIATE_ON_BACKEND(Constants);

/// mpz from little-endian words.
void set_words(mpz_t z, const std::uint64_t* w, std::size_t n) { mpz_import(z, n, -1, sizeof(std::uint64_t), 0, 0, w); }

// The machine-word leaves against GMP: the first terms, both sides of the
// old 128-bit bound (8 * 10^6), the terms of 10^9 and 10^10 digits, words
// that fill up (Q and T reach their third word), and the last term allowed.
TEST(ChudnovskyLeaf, MatchesGmp) {
  using namespace mpgpu::cli;
  std::vector<std::uint64_t> ks = {1, 2, 3, 4, 5, 1000, 7999999, 8000000, 8000001, 70513233, 705132331,
                                   (1ull << 31) - 1, 1ull << 31, (1ull << 32) - 2, kChudnovskyLeafMaxTerm};
  for (std::uint64_t k = 1; k < (1ull << 32); k = k * 3 + 7) ks.push_back(k);
  mpz_t want, got, f;
  mpz_inits(want, got, f, nullptr);
  for (std::uint64_t k : ks) {
    const ChudnovskyLeafWords w = chudnovsky_leaf_words(k);
    mpz_set_ui(want, 6 * k - 5);
    mpz_mul_ui(want, want, 2 * k - 1);
    mpz_mul_ui(want, want, 6 * k - 1);
    set_words(got, w.p, 2);
    EXPECT_EQ(mpz_cmp(got, want), 0) << "P of term " << k;
    mpz_set_ui(f, kChudnovskyB);
    mpz_mul_ui(f, f, k);
    mpz_add_ui(f, f, kChudnovskyA);
    mpz_mul(want, want, f);
    set_words(got, w.t, 3);
    EXPECT_EQ(mpz_cmp(got, want), 0) << "|T| of term " << k;
    EXPECT_EQ(w.t_sign, k % 2 ? -1 : 1) << "sign of T of term " << k;
    mpz_set_ui(want, k);
    mpz_pow_ui(want, want, 3);
    mpz_mul_ui(want, want, kChudnovskyC3Over24);
    set_words(got, w.q, 3);
    EXPECT_EQ(mpz_cmp(got, want), 0) << "Q of term " << k;
  }
  // 640320^3 / 24 as the formula states it.
  mpz_set_ui(want, 640320);
  mpz_pow_ui(want, want, 3);
  mpz_divexact_ui(want, want, 24);
  EXPECT_EQ(mpz_cmp_ui(want, kChudnovskyC3Over24), 0);
  mpz_clears(want, got, f, nullptr);
}

}  // namespace
