// The whole-number algorithms of src/integer/integer_whole.hpp (pow_ui_split,
// root_newton, fib_lucas_doubling, range_product, binomial_by_products,
// digits_by_comparison) run on the CPU context, where GMP performs each of
// their Integer operations, with crossovers of 0 .. 64 limbs instead of the
// device's (integer_crossovers.hpp), so that every step a CUDA context runs
// above its crossover runs here on small numbers: the host head and the
// squarings of a power, several Newton levels of a root, many doubling
// steps, product trees of many leaves. Every result is compared in full with
// GMP (mpz_pow_ui, mpz_rootrem, mpz_fib_ui / mpz_lucnum_ui, a loop of
// mpz_mul_ui, mpz_bin_uiui, the length of mpz_get_str). CPU only: the GPU
// runs the same code through integer_whole_gpu_test's public calls.
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "integer_test.hpp"
#include "support/mpz_arith.hpp"
#include "integer/integer_whole.hpp"  // private to the library (src/)
#include "context/host_parallel.hpp"  // private to the library (src/)
#include "integer/prime_sieve.hpp"    // private to the library (src/)

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();

/// The crossovers (host_max_limbs / leaf_limbs) every algorithm runs with.
/// 0 and 1 put nearly every step in the context, 64 only the large ones.
const std::vector<std::size_t>& crossovers() {
  static const std::vector<std::size_t> c = {0, 1, 2, 3, 5, 8, 13, 64};
  return c;
}

/// Digits of |a| in `base` as mpz_get_str writes them (the reference of
/// digits_by_comparison; exact, unlike mpz_sizeinbase).
std::uint64_t digits_of(const Mpz& a, int base) {
  const Mpz m = a.abs();
  std::string s(mpz_sizeinbase(m, base) + 2, '\0');
  mpz_get_str(s.data(), base, m);
  return std::strlen(s.c_str());
}

class WholeAlgorithms : public IntegerTest {};
MPGPU_INSTANTIATE_ON_BACKEND(WholeAlgorithms);

// ---- pow_ui_split ---------------------------------------------------------------

TEST_P(WholeAlgorithms, PowUiSplitMatchesGmp) {
  Operands gen(3001);
  std::vector<Mpz> magnitudes = {Mpz(),
                                 Mpz::from_ui(1),
                                 Mpz::from_ui(2),
                                 Mpz::from_ui(3),
                                 Mpz::from_ui(10),
                                 Mpz::from_ui(0xffffffffull),
                                 plus(Mpz::pow2(32), 1),
                                 Mpz::all_ones(64),
                                 Mpz::pow2(63),
                                 Mpz::pow2(64),
                                 Mpz::pow2(65),
                                 Mpz::pow2(200),
                                 Mpz::all_ones(128),
                                 Mpz::all_ones(64 * 5),
                                 repeated_limb(0xAAAAAAAAAAAAAAAAull, 3),
                                 gen.runs(64 * 3),
                                 gen.uniform(64 * 7 + 5),
                                 gen.runs(64 * 12),
                                 gen.uniform(64 * 20)};
  for (std::uint64_t k : {0, 1, 63, 64, 100}) magnitudes.push_back(times_ui(Mpz::pow2(k), 6));  // 3 * 2^(k+1)
  Mpz odd_times_pow2 = gen.runs(64 * 4);  // an odd multi-limb part times 2^130
  mpz_setbit(odd_times_pow2, 0);
  mpz_mul_2exp(odd_times_pow2, odd_times_pow2, 130);
  magnitudes.push_back(odd_times_pow2);
  const std::vector<Mpz> bases = with_both_signs(magnitudes);
  // Exponents: small, around powers of two, and long runs of 1 bits.
  const std::vector<std::uint64_t> exps = {0,   1,   2,   3,    4,    5,    7,    8,     15,    16,  17,
                                           31,  32,  33,  63,   64,   65,   100,  127,   128,   255, 256,
                                           257, 767, 1000, 1023, 1024, 2047, 4095, 0x5555, 0xfff0, 65535};
  for (const Mpz& b : bases)
    for (std::uint64_t e : exps) {
      // Results up to 2^18 bits (the 0/±1 bases for every exponent).
      if (b.bits() > 1 && static_cast<double>(b.bits()) * static_cast<double>(e) > (1 << 18)) continue;
      const Mpz want = pow_of(b, e);
      for (std::size_t c : crossovers()) {
        Integer r(ctx());
        mpgpu::detail::pow_ui_split(r, make(b), e, c, nullptr);
        ASSERT_TRUE(matches(r, want)) << b << " ^ " << e << ", crossover " << c;
      }
    }
}

TEST_P(WholeAlgorithms, PowUiSplitSpecialExponents) {
  // |base| <= 1 with the largest exponents; a long run of 1 bits with a
  // result of ~2^21 bits; 2^k bases (one shift) with large exponents.
  for (long b : {0L, 1L, -1L})
    for (std::uint64_t e : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, kMaxU64, kMaxU64 - 1,
                            std::uint64_t{1} << 63}) {
      Mpz want;
      if (e == 0) want = Mpz::from_ui(1);
      else if (b == -1) want = Mpz::from_si((e & 1) ? -1 : 1);
      else want = Mpz::from_si(b);
      for (std::size_t c : crossovers()) {
        Integer r(ctx());
        mpgpu::detail::pow_ui_split(r, make(Mpz::from_si(b)), e, c, nullptr);
        ASSERT_TRUE(matches(r, want)) << b << " ^ " << e << ", crossover " << c;
      }
    }
  const std::vector<std::pair<long, std::uint64_t>> cases = {
      {3, (1u << 20) - 1}, {-3, (1u << 20) - 1}, {2, 1000000}, {-2, 999999}, {-64, 77777}, {-6, 200001},
      {10, 300000}};
  for (const auto& [b, e] : cases) {
    const Mpz want = pow_of(Mpz::from_si(b), e);
    for (std::size_t c : {std::size_t{1}, std::size_t{5}, std::size_t{64}}) {
      Integer r(ctx());
      mpgpu::detail::pow_ui_split(r, make(Mpz::from_si(b)), e, c, nullptr);
      ASSERT_TRUE(matches(r, want)) << b << " ^ " << e << ", crossover " << c;
    }
  }
}

TEST_P(WholeAlgorithms, PowUiSplitResultAliasingTheBase) {
  Operands gen(3002);
  for (const Mpz& b : {Mpz::from_si(-7), gen.runs(64 * 3), -gen.uniform(64 * 9), times_ui(Mpz::pow2(70), 12)})
    for (std::uint64_t e : {0, 1, 5, 31}) {
      for (std::size_t c : {std::size_t{1}, std::size_t{3}}) {
        Integer x = make(b);
        mpgpu::detail::pow_ui_split(x, x, e, c, nullptr);
        ASSERT_TRUE(matches(x, pow_of(b, e))) << b << " ^ " << e << ", crossover " << c;
      }
    }
}

// ---- root_newton ----------------------------------------------------------------

/// root_newton's root, remainder and exactness flag for a >= 0, with and
/// without the remainder, at every crossover, against mpz_rootrem.
::testing::AssertionResult root_matches(const Integer& a_int, const Mpz& a, std::uint64_t k,
                                        const mpgpu::Context& ctx) {
  Mpz want_root, want_rem;
  mpz_rootrem(want_root, want_rem, a, k);
  const bool want_exact = want_rem.sgn() == 0;
  for (std::size_t c : crossovers()) {
    Integer r(ctx), rem(ctx);
    const bool exact = mpgpu::detail::root_newton(r, &rem, a_int, k, c, nullptr);
    if (!matches(r, want_root) || !matches(rem, want_rem) || exact != want_exact)
      return ::testing::AssertionFailure() << "root " << k << " of " << a << " (with remainder), crossover " << c
                                           << ": root " << value_of(r) << " rem " << value_of(rem) << " exact "
                                           << exact << "; GMP " << want_root << " rem " << want_rem;
    Integer r2(ctx);
    const bool exact2 = mpgpu::detail::root_newton(r2, nullptr, a_int, k, c, nullptr);
    if (!matches(r2, want_root) || exact2 != want_exact)
      return ::testing::AssertionFailure() << "root " << k << " of " << a << " (no remainder), crossover " << c
                                           << ": root " << value_of(r2) << " exact " << exact2;
  }
  if (!matches(a_int, a)) return ::testing::AssertionFailure() << "the radicand changed";
  return ::testing::AssertionSuccess();
}

TEST_P(WholeAlgorithms, RootNewtonMatchesGmp) {
  Operands gen(3003);
  for (std::uint64_t k : {1, 2, 3, 4, 5, 7}) {
    std::vector<Mpz> radicands = {Mpz(), Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_ui(3), Mpz::all_ones(64)};
    // Perfect powers and their neighbours, roots of 1 .. 100 limbs.
    std::vector<Mpz> roots = {Mpz::from_ui(2), Mpz::from_ui(3), Mpz::all_ones(64), Mpz::pow2(64),
                              Mpz::all_ones(64 * 3), plus(Mpz::pow2(200), 1)};
    for (std::size_t limbs : {1, 2, 3, 5, 8, 13, 40, 100}) {
      roots.push_back(gen.runs(64 * limbs - gen.below(64)));
      roots.push_back(gen.uniform(64 * limbs));
    }
    for (const Mpz& x : roots) {
      const Mpz p = pow_of(x, k);
      if (p.limbs() > 220) continue;
      radicands.push_back(p);
      radicands.push_back(plus(p, -1));
      radicands.push_back(plus(p, 1));
      Mpz below_next = pow_of(plus(x, 1), k);  // (x+1)^k - 1: the largest with root x
      radicands.push_back(plus(below_next, -1));
    }
    // (2^m)^k and its neighbours.
    for (std::uint64_t m : {1, 31, 63, 64, 65, 500, 1000, 2000}) {
      const Mpz p = Mpz::pow2(m * k);
      radicands.push_back(p);
      radicands.push_back(plus(p, -1));
      radicands.push_back(plus(p, 1));
    }
    // All ones of many sizes.
    for (std::uint64_t bits : {63, 64, 65, 127, 128, 129, 200, 255, 256, 257, 640, 1000, 1023, 1024, 1025, 4096,
                               6400, 12800})
      radicands.push_back(Mpz::all_ones(bits));
    // Random sizes of 1 .. 200 limbs.
    for (int i = 0; i < 30; ++i) radicands.push_back(gen.random_bits(64 * (1 + gen.below(200)) - gen.below(64)));
    for (const Mpz& a : radicands) ASSERT_TRUE(root_matches(make(a), a, k, ctx()));
  }
}

TEST_P(WholeAlgorithms, RootNewtonResultAliasingTheRadicand) {
  Operands gen(3004);
  for (std::uint64_t k : {2, 3, 5})
    for (const Mpz& a : {gen.runs(64 * 50), pow_of(gen.uniform(64 * 20), k), Mpz::all_ones(64 * 77)}) {
      Mpz want_root, want_rem;
      mpz_rootrem(want_root, want_rem, a, k);
      for (std::size_t c : {std::size_t{1}, std::size_t{3}, std::size_t{8}}) {
        Integer x = make(a);
        const bool exact = mpgpu::detail::root_newton(x, nullptr, x, k, c, nullptr);
        ASSERT_TRUE(matches(x, want_root)) << "root " << k << " of " << a << ", crossover " << c;
        ASSERT_EQ(exact, want_rem.sgn() == 0);
      }
    }
}

// ---- fib_lucas_doubling ---------------------------------------------------------

::testing::AssertionResult fib_lucas_match(std::uint64_t n, std::size_t c, const mpgpu::Context& ctx) {
  Mpz wf, wl;
  mpz_fib_ui(wf, n);
  mpz_lucnum_ui(wl, n);
  Integer f(ctx), l(ctx);
  mpgpu::detail::fib_lucas_doubling(&f, &l, n, c, ctx, nullptr);
  if (!matches(f, wf)) return ::testing::AssertionFailure() << "F(" << n << ") with L, crossover " << c;
  if (!matches(l, wl)) return ::testing::AssertionFailure() << "L(" << n << ") with F, crossover " << c;
  Integer f1(ctx), l1(ctx);
  mpgpu::detail::fib_lucas_doubling(&f1, nullptr, n, c, ctx, nullptr);
  if (!matches(f1, wf)) return ::testing::AssertionFailure() << "F(" << n << ") alone, crossover " << c;
  mpgpu::detail::fib_lucas_doubling(nullptr, &l1, n, c, ctx, nullptr);
  if (!matches(l1, wl)) return ::testing::AssertionFailure() << "L(" << n << ") alone, crossover " << c;
  if (f.context() != ctx || l.context() != ctx) return ::testing::AssertionFailure() << "context of F/L(" << n << ")";
  return ::testing::AssertionSuccess();
}

TEST_P(WholeAlgorithms, FibLucasDoublingEveryNUpTo300) {
  for (std::uint64_t n = 0; n <= 300; ++n)
    for (std::size_t c : crossovers()) ASSERT_TRUE(fib_lucas_match(n, c, ctx()));
}

TEST_P(WholeAlgorithms, FibLucasDoublingLargeN) {
  Operands gen(3005);
  std::vector<std::uint64_t> ns = {511, 512, 513, 1023, 1024, 1025, 4095, 4096, 4097, 65535, 65536, 65537,
                                   99999, 100000};
  for (int i = 0; i < 12; ++i) ns.push_back(1 + gen.below(100000));
  for (std::uint64_t n : ns)
    for (std::size_t c : crossovers()) ASSERT_TRUE(fib_lucas_match(n, c, ctx()));
  // A crossover the result only just passes: a single doubling step.
  for (std::uint64_t n : {1000, 1001, 1002, 1003}) {
    const auto c = static_cast<std::size_t>(static_cast<double>(n) * 0.6943 / 64.0);  // 10 limbs
    for (std::size_t cc : {c - 1, c, c + 1}) ASSERT_TRUE(fib_lucas_match(n, cc, ctx()));
  }
}

// ---- range_product and binomial_by_products -------------------------------------

/// lo (lo + 1) ... (hi - 1) by a GMP loop (1 for lo >= hi).
Mpz product_loop(std::uint64_t lo, std::uint64_t hi) {
  Mpz r = Mpz::from_ui(1);
  for (std::uint64_t i = lo; i < hi; ++i) mpz_mul_ui(r, r, i);
  return r;
}

TEST_P(WholeAlgorithms, RangeProductMatchesAGmpLoop) {
  Operands gen(3006);
  const std::uint64_t p32 = std::uint64_t{1} << 32, p40 = std::uint64_t{1} << 40, p63 = std::uint64_t{1} << 63;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {
      {0, 0},           {3, 3},           {10, 2},          {kMaxU64, 0},     {0, 1},
      {0, 5},           {0, kMaxU64},     {1, 1},           {1, 2},           {2, 3},
      {1, 21},          {1, 22},          {1, 101},         {1, 1001},        {1, 5001},
      {100, 1000},      {7, 4000},        {p32 - 50, p32 + 50}, {p32 - 1, p32 + 1}, {p40 - 100, p40 + 100},
      {p63 - 30, p63 + 30}, {kMaxU64 - 60, kMaxU64}, {kMaxU64 - 1, kMaxU64}, {(1ull << 21) - 5, (1ull << 21) + 3000}};
  for (int i = 0; i < 10; ++i) {
    const std::uint64_t lo = 1 + gen.below(1ul << (1 + gen.below(62)));
    ranges.emplace_back(lo, lo + gen.below(700));
  }
  for (const auto& [lo, hi] : ranges) {
    Mpz want;
    if (lo >= hi) want = Mpz::from_ui(1);
    else if (lo == 0) want = Mpz();
    else want = product_loop(lo, hi);
    for (std::size_t c : crossovers()) {
      Integer r(ctx());
      mpgpu::detail::range_product(r, lo, hi, c, ctx(), nullptr);
      ASSERT_TRUE(matches(r, want)) << "product of [" << lo << ", " << hi << "), leaves of " << c << " limbs";
      ASSERT_EQ(r.context(), ctx());
    }
  }
}

TEST_P(WholeAlgorithms, RangeProductFactorials) {
  // 1 * ... * n = n!, and [a, b) = (b-1)! / (a-1)!.
  for (std::uint64_t n : {20, 21, 1000, 20000}) {
    Mpz want;
    mpz_fac_ui(want, n);
    for (std::size_t c : crossovers()) {
      Integer r(ctx());
      mpgpu::detail::range_product(r, 1, n + 1, c, ctx(), nullptr);
      ASSERT_TRUE(matches(r, want)) << n << "!, leaves of " << c << " limbs";
    }
  }
  Mpz top, bottom, want;
  mpz_fac_ui(top, 9999);
  mpz_fac_ui(bottom, 2999);
  mpz_divexact(want, top, bottom);
  for (std::size_t c : crossovers()) {
    Integer r(ctx());
    mpgpu::detail::range_product(r, 3000, 10000, c, ctx(), nullptr);
    ASSERT_TRUE(matches(r, want)) << "9999! / 2999!, leaves of " << c << " limbs";
  }
}

TEST_P(WholeAlgorithms, BinomialByProductsMatchesGmp) {
  Operands gen(3007);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cases = {
      {0, 0},     {1, 0},    {1, 1},         {2, 1},          {5, 2},          {10, 5},   {64, 32},
      {100, 50},  {1000, 3}, {1000, 500},    {1000, 999},     {1000, 1000},    {5000, 2500},
      {5000, 17}, {(1ull << 32) + 5, 7}, {1ull << 40, 100}, {1ull << 40, 1}, {1ull << 63, 40},
      {kMaxU64 - 1, 10}, {kMaxU64 - 1, 0}};
  for (int i = 0; i < 8; ++i) {
    const std::uint64_t n = gen.below(1ul << (1 + gen.below(40)));
    cases.emplace_back(n, gen.below(std::min<std::uint64_t>(n, 400) + 1));
  }
  for (const auto& [n, k] : cases) {
    Mpz want;
    mpz_bin_uiui(want, n, k);
    for (std::size_t c : crossovers()) {
      Integer r(ctx());
      mpgpu::detail::binomial_by_products(r, n, k, c, ctx(), nullptr);
      ASSERT_TRUE(matches(r, want)) << "binomial(" << n << ", " << k << "), leaves of " << c << " limbs";
    }
  }
}

// n = 2^64 - 1: the numerator's range [n - k + 1, n + 1) ends at n + 1,
// which wraps to 0 in 64 bits. Any k <= n is valid input, and bin_uiui
// (public) passes n = 2^64 - 1 here on a CUDA context when its size
// estimate says the result is large (e.g. k = 3000: ~161000 bits).
// It failed once (the range ended at n + 1 = 0): the numerator's last
// factor n is now multiplied apart.
TEST_P(WholeAlgorithms, BinomialByPrimesMatchesGmp) {
  // Every n up to 200 with every k (k > n too), then larger ones whose
  // primes carry many borrows (n = 2^m - 1, 2^m, 3^m, 10^m).
  for (std::uint64_t n = 0; n <= 200; ++n)
    for (std::uint64_t k = 0; k <= n + 1; ++k) {
      Mpz want;
      mpz_bin_uiui(want, n, k);
      Integer r(ctx());
      mpgpu::detail::binomial_by_primes(r, n, k, 1, ctx(), nullptr);
      ASSERT_TRUE(matches(r, want)) << "binomial(" << n << ", " << k << ")";
    }
  for (std::uint64_t n : std::vector<std::uint64_t>{1023, 1024, 2187, 10000, 65537, 300000})
    for (std::uint64_t k : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{97}, n / 3, n / 2, n - 1})
      for (std::size_t c : crossovers()) {
        Mpz want;
        mpz_bin_uiui(want, n, k);
        Integer r(ctx());
        mpgpu::detail::binomial_by_primes(r, n, k, c, ctx(), nullptr);
        ASSERT_TRUE(matches(r, want)) << "binomial(" << n << ", " << k << "), leaves of " << c << " limbs";
      }
}

// The schedule of product_of_leaves (range_product, binomial_by_primes):
// every item produced once, consumed once, in order, after its production,
// on the calling thread; an exception from either side is rethrown, and
// nothing is consumed after it.
TEST(HostParallel, ForInOrderConsumesEachItemAfterItsProductionInOrder) {
  for (std::size_t count : {0, 1, 2, 3, 17, 1000}) {
    std::vector<int> produced(count, 0);
    std::vector<std::size_t> consumed;
    const auto caller = std::this_thread::get_id();
    bool on_caller = true, after = true;
    mpgpu::detail::parallel_for_in_order(
        count, [&](std::size_t i) { produced[i] += 1; },
        [&](std::size_t i) {
          on_caller = on_caller && std::this_thread::get_id() == caller;
          after = after && produced[i] == 1;
          consumed.push_back(i);
        });
    EXPECT_TRUE(on_caller && after) << count << " items";
    std::vector<std::size_t> want(count);
    for (std::size_t i = 0; i < count; ++i) want[i] = i;
    EXPECT_EQ(consumed, want) << count << " items";
    for (int p : produced) ASSERT_EQ(p, 1) << count << " items";
  }
}

TEST(HostParallel, ForInOrderRethrowsTheFirstError) {
  for (std::size_t bad : {0, 1, 5, 99}) {
    std::size_t last = 0;
    bool any = false;
    EXPECT_THROW(mpgpu::detail::parallel_for_in_order(
                     100,
                     [&](std::size_t i) {
                       if (i == bad) throw std::runtime_error("produce");
                     },
                     [&](std::size_t i) {
                       last = i;
                       any = true;
                     }),
                 std::runtime_error);
    EXPECT_TRUE(!any || last < bad) << "item " << bad << " failed, yet " << last << " was consumed";
    std::size_t consumed = 0;
    EXPECT_THROW(mpgpu::detail::parallel_for_in_order(
                     100, [](std::size_t) {},
                     [&](std::size_t i) {
                       if (i == bad) throw std::logic_error("consume");
                       ++consumed;
                     }),
                 std::logic_error);
    EXPECT_EQ(consumed, bad);
  }
}

// The sieve behind binomial_by_primes, segment by segment, against trial
// division: segments that start at 0 (1 and the pattern's primes 3 .. 13),
// at and around multiples of the pattern's period (15015 odd numbers), with
// 0, 1, 7, 8 and 9 odd numbers (the scan takes eight at a time), and near
// 2^32 (sieving primes up to 2^16).
bool is_prime_by_trial(std::uint64_t m) {
  if (m < 2) return false;
  for (std::uint64_t d = 2; d * d <= m; ++d)
    if (m % d == 0) return false;
  return true;
}

TEST(PrimeSieve, SegmentsMatchTrialDivision) {
  EXPECT_EQ(mpgpu::detail::isqrt_u64(0), 0u);
  EXPECT_EQ(mpgpu::detail::isqrt_u64(15), 3u);
  EXPECT_EQ(mpgpu::detail::isqrt_u64(16), 4u);
  EXPECT_EQ(mpgpu::detail::isqrt_u64(kMaxU64), 0xffffffffu);
  EXPECT_EQ(mpgpu::detail::isqrt_u64((std::uint64_t{1} << 52) + 2 * (std::uint64_t{1} << 26)), std::uint64_t{1} << 26);
  const std::vector<std::uint32_t> sieving = mpgpu::detail::odd_primes_up_to(1 << 17);
  const std::uint64_t period = 2 * 15015, p32 = std::uint64_t{1} << 32;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {
      {0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 17}, {0, 18}, {0, 19}, {0, 200}, {0, 40000}, {2, 20},
      {period - 20, period + 20}, {period, period + 1000}, {2 * period + 2, 3 * period + 100},
      {100000, 100014}, {100000, 100016}, {100000, 100018}, {1000000, 1000001}, {p32 - 3000, p32 + 3000}};
  for (const auto& [lo, hi] : ranges) {
    std::vector<std::uint64_t> got, want;
    std::vector<unsigned char> scratch;
    mpgpu::detail::for_each_odd_prime_in(lo, hi, sieving, scratch, [&](std::uint64_t p) { got.push_back(p); });
    for (std::uint64_t m = lo | 1; m < hi; m += 2)
      if (is_prime_by_trial(m)) want.push_back(m);
    ASSERT_EQ(got, want) << "odd primes of [" << lo << ", " << hi << ")";
  }
}

TEST_P(WholeAlgorithms, BinomialByPrimesAtSegmentAndWordBoundaries) {
  // n at the sieve's segment boundaries (one segment, two, three), and n
  // around 2^21 and 2^32 / 2^11 (three 21-bit primes fill a word, a fourth
  // starts the next), with k at both ends, in the middle and next to them.
  const std::uint64_t span = mpgpu::kPrimeSieveSegmentNumbers;
  std::vector<std::uint64_t> ns = {span - 1, span, span + 1, span + 2, 2 * span - 1, 2 * span, 2 * span + 1};
  for (std::uint64_t n : {(std::uint64_t{1} << 21) - 1, (std::uint64_t{1} << 21) + 1}) ns.push_back(n);
  for (std::uint64_t n : ns)
    for (std::uint64_t k : {std::uint64_t{0}, std::uint64_t{1}, n / 2, n / 2 + 1, n - 1, n, n + 1}) {
      Mpz want;
      mpz_bin_uiui(want, n, k);
      for (std::size_t c : {std::size_t{1}, std::size_t{64}, std::size_t{2048}}) {
        Integer r(ctx());
        mpgpu::detail::binomial_by_primes(r, n, k, c, ctx(), nullptr);
        ASSERT_TRUE(matches(r, want)) << "binomial(" << n << ", " << k << "), leaves of " << c << " limbs";
      }
    }
}

TEST_P(WholeAlgorithms, BinomialByProductsOfTheLargestN) {
  for (std::uint64_t k : {0, 1, 2, 3, 100}) {
    Mpz want;
    mpz_bin_uiui(want, kMaxU64, k);
    for (std::size_t c : {std::size_t{1}, std::size_t{64}}) {
      Integer r(ctx());
      mpgpu::detail::binomial_by_products(r, kMaxU64, k, c, ctx(), nullptr);
      EXPECT_TRUE(matches(r, want)) << "binomial(2^64 - 1, " << k << "), leaves of " << c << " limbs";
    }
  }
}

// ---- digits_by_comparison -------------------------------------------------------

TEST_P(WholeAlgorithms, DigitsByComparisonMatchesGetStr) {
  Operands gen(3008);
  for (int base : {3, 5, 6, 7, 10, 12, 36, 60, 61, 62}) {
    std::vector<Mpz> values = {Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_ui(base - 1), Mpz::from_ui(base),
                               Mpz::from_ui(base + 1), Mpz::all_ones(64), Mpz::pow2(64)};
    std::vector<std::uint64_t> ks;
    for (std::uint64_t k = 1; k <= 45; ++k) ks.push_back(k);
    for (std::uint64_t k : {63, 64, 65, 100, 128, 500, 1000, 3000}) ks.push_back(k);
    for (std::uint64_t k : ks) {
      const Mpz p = pow_of(Mpz::from_ui(base), k);
      values.push_back(plus(p, -1));
      values.push_back(p);
      values.push_back(plus(p, 1));
      values.push_back(times_ui(p, 2));
      if (k > 12) {  // within the logarithm's window of b^k: decided by the comparison
        const Mpz q = pow_of(Mpz::from_ui(base), k - 12);
        Mpz below, above;
        mpz_sub(below, p, q);
        mpz_add(above, p, q);
        values.push_back(below);
        values.push_back(above);
      }
    }
    for (int i = 0; i < 20; ++i) values.push_back(gen.random_bits(1 + gen.below(64 * 80)));
    for (const Mpz& v : with_both_signs(values)) {
      if (v.sgn() == 0) continue;
      const std::uint64_t want = digits_of(v, base);
      for (std::size_t c : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{8},
                            std::size_t{1024}}) {
        const std::uint64_t got = mpgpu::detail::digits_by_comparison(make(v), base, c, nullptr);
        ASSERT_EQ(got, want) << v << " in base " << base << ", crossover " << c;
      }
    }
  }
}

TEST_P(WholeAlgorithms, DigitsByComparisonOfLargePowers) {
  // 10^k - 1, 10^k, 10^k + 1 with k of 10^4 .. 2 * 10^5 digits (up to ~10^4
  // limbs): the known answers k, k + 1, k + 1; and the same for base 3.
  for (int base : {10, 3})
    for (std::uint64_t k : {9999, 19729, 20000, 200000}) {
      const Mpz p = pow_of(Mpz::from_ui(base), k);
      for (std::size_t c : {std::size_t{1}, std::size_t{8}, std::size_t{1024}}) {
        EXPECT_EQ(mpgpu::detail::digits_by_comparison(make(plus(p, -1)), base, c, nullptr), k)
            << base << "^" << k << " - 1, crossover " << c;
        EXPECT_EQ(mpgpu::detail::digits_by_comparison(make(p), base, c, nullptr), k + 1)
            << base << "^" << k << ", crossover " << c;
        EXPECT_EQ(mpgpu::detail::digits_by_comparison(make(-plus(p, 1)), base, c, nullptr), k + 1)
            << "-(" << base << "^" << k << " + 1), crossover " << c;
      }
    }
}

}  // namespace
