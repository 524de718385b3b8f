// mpgpu::dot host methods against a reference (unsigned __int128, % p after
// every term): each method at both ends of its admissible p range, all-(p-1)
// vectors (the worst case for every bound) at lengths block - 1, block,
// block + 1 around each reduction bound, random data, batched and strided
// calls, the caller's rounding mode preserved, and bad parameters rejected
// with messages that state the bound or name the index.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "mpgpu/dot/dot_host.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/field/roots.hpp"
#include "support/operands.hpp"
#include "support/primes.hpp"

namespace {

namespace dot = mpgpu::dot;
using dot::Method;
using dot::Residue;
using u128 = unsigned __int128;

using mpgpu_test::next_prime;
using mpgpu_test::prev_prime;

// Ends of each admissible range.
const std::uint64_t p_max32 = prev_prime((std::uint64_t{1} << 32) - 1);   // 2^32 - 5
const std::uint64_t p_max63 = prev_prime((std::uint64_t{1} << 63) - 1);   // 2^63 - 25
const std::uint64_t p_above63 = next_prime((std::uint64_t{1} << 63) + 1);  // block 3
const std::uint64_t p_max64 = prev_prime(~std::uint64_t{0});                // 2^64 - 59, block 1
const std::uint64_t p_max52 = prev_prime((std::uint64_t{1} << 52) + 1);   // p - 1 < 2^52
const std::uint64_t p_max_naive = prev_prime(94906266);                   // (p-1)^2 < 2^53

template <class T>
std::uint64_t reference(const T* a, std::size_t sa, const T* b, std::size_t sb, std::size_t n,
                        std::uint64_t p) {
  u128 acc = 0;
  for (std::size_t i = 0; i < n; ++i)
    acc = (acc + u128(std::uint64_t(a[i * sa])) * std::uint64_t(b[i * sb])) % p;
  return std::uint64_t(acc);
}

/// n (p-1)^2 mod p = n mod p: the dot of two all-(p-1) vectors.
std::uint64_t all_max_reference(std::size_t n, std::uint64_t p) { return n % p; }

template <class T>
std::vector<T> random_residues(std::size_t n, std::uint64_t p, std::mt19937_64& rng) {
  std::vector<T> v(n);
  std::uniform_int_distribution<std::uint64_t> d(0, p - 1);
  for (auto& x : v) {
    // A third of the values at the top of the range (the largest products).
    const std::uint64_t r = d(rng);
    x = T(rng() % 3 == 0 ? p - 1 - r % 16 : r);
  }
  return v;
}

template <class T>
void expect_all_max(Method m, std::uint64_t p, std::size_t n) {
  const std::vector<T> v(n, T(p - 1));
  EXPECT_EQ(dot::dot(v.data(), v.data(), n, p, m), all_max_reference(n, p))
      << dot::method_name(m) << " p=" << p << " n=" << n;
}

/// All-(p-1) vectors at block - 1, block, block + 1 (the block is the number
/// of terms between two reductions), when the block is short enough to test.
template <class T>
void expect_at_block_bounds(Method m, Residue r, std::uint64_t p) {
  const std::uint64_t block = dot::reduction_block(m, r, p);
  ASSERT_GE(block, 1u);
  ASSERT_LE(block, std::uint64_t{1} << 21) << "pick a larger p for a testable block";
  for (std::uint64_t n : {block - 1, block, block + 1, 2 * block + 1})
    expect_all_max<T>(m, p, n);
}

template <class T>
void expect_random(Method m, std::uint64_t p, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(mpgpu_test::test_seed() ^ seed ^ p);
  const auto a = random_residues<T>(n, p, rng), b = random_residues<T>(n, p, rng);
  EXPECT_EQ(dot::dot(a.data(), b.data(), n, p, m), reference(a.data(), 1, b.data(), 1, n, p))
      << dot::method_name(m) << " p=" << p << " n=" << n;
}

// ---- integer_delayed ------------------------------------------------------------

TEST(DotInteger, U32BlockBoundsAndRangeEnds) {
  // 64-bit accumulators: block = floor((2^64-1)/(p-1)^2) while that is
  // >= 16 (p <= 2^30 + 1); larger p switch to 128-bit accumulators.
  const std::uint64_t p16 = prev_prime((1u << 30) + 1);  // block 16: the last 64-bit one
  EXPECT_EQ(dot::reduction_block(Method::integer_delayed, Residue::u32, p16), 16u);
  const std::uint64_t p15 = next_prime((1u << 30) + 2);  // block 15: 128-bit
  EXPECT_EQ(dot::reduction_block(Method::integer_delayed, Residue::u32, p15),
            std::uint64_t{1} << 63);
  for (std::uint64_t p : {p16, prev_prime(1u << 22), prev_prime(1u << 23), prev_prime(1u << 28)})
    expect_at_block_bounds<std::uint32_t>(Method::integer_delayed, Residue::u32, p);
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{5}})
    for (std::size_t n : {0u, 1u, 2u, 1000u}) expect_all_max<std::uint32_t>(Method::integer_delayed, p, n);
  for (std::uint64_t p : {p15, std::uint64_t{2147483647}, p_max32})
    for (std::size_t n : {0u, 1u, 2u, 3u, 4u, 5u, 17u, 100000u}) expect_all_max<std::uint32_t>(Method::integer_delayed, p, n);
}

TEST(DotInteger, U64BlockBoundsAndRangeEnds) {
  // 128-bit accumulators: block = floor((2^128-1)/(p-1)^2) >= 4 for p < 2^63,
  // 3 just above 2^63 and 1 at the top of the range.
  EXPECT_EQ(dot::reduction_block(Method::integer_delayed, Residue::u64, p_max63), 4u);
  EXPECT_EQ(dot::reduction_block(Method::integer_delayed, Residue::u64, p_above63), 3u);
  EXPECT_EQ(dot::reduction_block(Method::integer_delayed, Residue::u64, p_max64), 1u);
  for (std::uint64_t p : {p_max63, prev_prime(std::uint64_t{1} << 62), prev_prime(std::uint64_t{1} << 54),
                          prev_prime(std::uint64_t{1} << 55), p_above63, p_max64})
    expect_at_block_bounds<std::uint64_t>(Method::integer_delayed, Residue::u64, p);
  expect_all_max<std::uint64_t>(Method::integer_delayed, 3, 1001);
  expect_all_max<std::uint64_t>(Method::integer_delayed, p_max64, 100003);
}

TEST(DotInteger, Random) {
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{65537}, std::uint64_t{2013265921}, p_max32})
    for (std::size_t n : {1u, 7u, 1000u, 100003u}) expect_random<std::uint32_t>(Method::integer_delayed, p, n, 1);
  // Above 2^63 the running residue plus a block's exceeds 2^64 about half the
  // time with random data: the sum mod p must not overflow.
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{4179340454199820289ull}, p_max63, p_max52, p_above63,
                          p_max64})
    for (std::size_t n : {1u, 7u, 1000u, 100003u}) expect_random<std::uint64_t>(Method::integer_delayed, p, n, 2);
  for (std::uint64_t p : {std::uint64_t{3}, p_max52})  // doubles through 128-bit integers
    for (std::size_t n : {1u, 1000u, 100003u}) expect_random<double>(Method::integer_delayed, p, n, 3);
}

// ---- fp_naive (FFLAS bound (p-1)^2 < 2^53) -----------------------------------------

TEST(DotFpNaive, BlockBoundsAndRangeEnds) {
  EXPECT_EQ(p_max_naive, 94906249u);
  EXPECT_EQ(dot::reduction_block(Method::fp_naive, Residue::f64, p_max_naive), 1u);
  for (std::uint64_t p : {p_max_naive, prev_prime(1u << 20), prev_prime(1u << 18)})
    expect_at_block_bounds<double>(Method::fp_naive, Residue::f64, p);
  for (std::size_t n : {0u, 1u, 100000u}) expect_all_max<double>(Method::fp_naive, 3, n);
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{32771}, p_max_naive})
    for (std::size_t n : {1u, 999u, 100003u}) expect_random<double>(Method::fp_naive, p, n, 4);
}

// ---- fp_lambda (lambda (p-1) < 2^52) ----------------------------------------------

TEST(DotFpLambda, BlockBoundsAndRangeEnds) {
  EXPECT_EQ(p_max52, (std::uint64_t{1} << 52) - 47);
  EXPECT_EQ(dot::reduction_block(Method::fp_lambda, Residue::f64, p_max52), 1u);
  EXPECT_EQ(dot::reduction_block(Method::fp_lambda, Residue::f64, 3), (std::uint64_t{1} << 51) - 1);
  // lambda = 1, ~8, ~4096, ~2^20.
  for (std::uint64_t p : {p_max52, prev_prime(std::uint64_t{1} << 49), prev_prime(std::uint64_t{1} << 40),
                          prev_prime(std::uint64_t{1} << 32), next_prime((std::uint64_t{1} << 32) + 1)})
    expect_at_block_bounds<double>(Method::fp_lambda, Residue::f64, p);
  for (std::size_t n : {0u, 1u, 2u, 100000u}) expect_all_max<double>(Method::fp_lambda, 3, n);
}

TEST(DotFpLambda, Random) {
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{32771}, std::uint64_t{2147483647},
                          prev_prime(std::uint64_t{1} << 45), p_max52})
    for (std::size_t n : {1u, 2u, 999u, 100003u}) expect_random<double>(Method::fp_lambda, p, n, 5);
}

// ---- fp_abcd (p - 1 < 2^52, n <= 2^25) ----------------------------------------------

TEST(DotFpAbcd, RangeEndsAndRandom) {
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{32771}, std::uint64_t{2147483647},
                          prev_prime(std::uint64_t{1} << 40), prev_prime(std::uint64_t{1} << 45), p_max52}) {
    for (std::size_t n : {0u, 1u, 2u, 1000u, 100003u}) expect_all_max<double>(Method::fp_abcd, p, n);
    for (std::size_t n : {1u, 2u, 999u, 100003u}) expect_random<double>(Method::fp_abcd, p, n, 6);
  }
}

TEST(DotFpAbcd, LongestAdmissibleLength) {
  // n = 2^25 (the bound) of all p - 1 with the largest p: every quarter sum
  // at its largest. One shared vector keeps this at 256 MiB.
  const std::size_t n = dot::abcd_max_length;
  const std::vector<double> v(n, double(p_max52 - 1));
  EXPECT_EQ(dot::dot(v.data(), v.data(), n, p_max52, Method::fp_abcd), all_max_reference(n, p_max52));
  EXPECT_EQ(dot::dot(v.data(), v.data(), n - 1, p_max52, Method::fp_abcd), all_max_reference(n - 1, p_max52));
}

// ---- automatic, batched, strided ----------------------------------------------------

TEST(DotAutomatic, ChoosesAdmissibleAndAgrees) {
  EXPECT_EQ(dot::choose_method(Residue::u32, 65537, 10), Method::integer_delayed);
  EXPECT_EQ(dot::choose_method(Residue::u64, p_max63, 10), Method::integer_delayed);
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{32771}, p_max_naive, p_max52}) {
    const Method m = dot::choose_method(Residue::f64, p, 1000);
    EXPECT_TRUE(dot::is_admissible(m, Residue::f64, p, 1000)) << dot::method_name(m);
    expect_random<double>(Method::automatic, p, 10007, 7);
  }
  expect_random<std::uint32_t>(Method::automatic, p_max32, 10007, 8);
  expect_random<std::uint64_t>(Method::automatic, p_max63, 10007, 9);
}

template <class T>
void expect_batched_and_strided(Method m, std::uint64_t p) {
  std::mt19937_64 rng(mpgpu_test::test_seed() ^ p ^ 77);
  const std::size_t count = 5, n = 1003;
  const auto a = random_residues<T>(count * n, p, rng), b = random_residues<T>(count * n, p, rng);
  std::vector<std::uint64_t> out(count + 1, 0xdeadbeef);  // guard word at the end
  dot::dot_batched(out.data(), a.data(), b.data(), count, n, p, m);
  for (std::size_t k = 0; k < count; ++k)
    EXPECT_EQ(out[k], reference(a.data() + k * n, 1, b.data() + k * n, 1, n, p))
        << dot::method_name(m) << " batch " << k;
  EXPECT_EQ(out[count], 0xdeadbeefu);
  dot::dot_batched(out.data(), a.data(), b.data(), 0, n, p, m);  // count 0: nothing written
  EXPECT_EQ(out[0], reference(a.data(), 1, b.data(), 1, n, p));
  // Strided: a with stride 3, b with stride 5 (and 1).
  for (std::size_t sb : {std::size_t{1}, std::size_t{5}}) {
    const std::size_t len = (count * n - 1) / 5 + 1;
    EXPECT_EQ(dot::dot_strided(a.data(), 3, b.data(), sb, len, p, m),
              reference(a.data(), 3, b.data(), sb, len, p))
        << dot::method_name(m) << " strides 3, " << sb;
  }
}

TEST(DotBatchedStrided, EveryMethod) {
  for (std::uint64_t p : {std::uint64_t{3}, p_max32}) {
    expect_batched_and_strided<std::uint32_t>(Method::integer_delayed, p);
    expect_batched_and_strided<std::uint32_t>(Method::automatic, p);
  }
  for (std::uint64_t p : {std::uint64_t{3}, p_max63}) expect_batched_and_strided<std::uint64_t>(Method::integer_delayed, p);
  for (Method m : {Method::integer_delayed, Method::fp_lambda, Method::fp_abcd, Method::automatic})
    for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{2147483647}, p_max52}) expect_batched_and_strided<double>(m, p);
  for (std::uint64_t p : {std::uint64_t{3}, p_max_naive}) expect_batched_and_strided<double>(Method::fp_naive, p);
}

TEST(DotRounding, CallerModeIsRestoredAndIrrelevant) {
  std::mt19937_64 rng(mpgpu_test::test_seed());
  const std::uint64_t p = prev_prime(std::uint64_t{1} << 50);
  const auto a = random_residues<double>(5000, p, rng), b = random_residues<double>(5000, p, rng);
  const std::uint64_t want = reference(a.data(), 1, b.data(), 1, a.size(), p);
  for (int mode : {FE_UPWARD, FE_DOWNWARD, FE_TONEAREST, FE_TOWARDZERO}) {
    ASSERT_EQ(std::fesetround(mode), 0);
    for (Method m : {Method::integer_delayed, Method::fp_lambda, Method::fp_abcd}) {
      EXPECT_EQ(dot::dot(a.data(), b.data(), a.size(), p, m), want) << dot::method_name(m);
      EXPECT_EQ(std::fegetround(), mode) << dot::method_name(m);
    }
    // A rejected call restores the mode too (the check precedes the switch).
    const std::vector<double> bad{double(p)};
    EXPECT_THROW(dot::dot(bad.data(), bad.data(), 1, p, Method::fp_abcd), mpgpu::InvalidArgument);
    EXPECT_EQ(std::fegetround(), mode);
  }
  std::fesetround(FE_TONEAREST);
}

// ---- bad parameters --------------------------------------------------------------

template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const mpgpu::InvalidArgument& e) {
    return e.what();
  }
  return "(no InvalidArgument thrown)";
}

TEST(DotRejects, BadModuli) {
  const std::uint32_t a32[2] = {1, 1};
  const std::uint64_t a64[2] = {1, 1};
  const double af[2] = {1, 1};
  for (std::uint64_t p : std::initializer_list<std::uint64_t>{0, 1, 2, 4, 9, 65536, 4294967297 /* 641 * 6700417 */}) {
    EXPECT_NE(message_of([&] { dot::dot(a32, a32, 2, p); }).find("not an odd prime"), std::string::npos) << p;
    EXPECT_THROW(dot::dot(a64, a64, 2, p), mpgpu::InvalidArgument) << p;
    for (Method m : {Method::integer_delayed, Method::fp_naive, Method::fp_lambda, Method::fp_abcd, Method::automatic})
      EXPECT_THROW(dot::dot(af, af, 2, p, m), mpgpu::InvalidArgument) << p;
  }
  // Beyond each method's range.
  const std::uint64_t above32 = next_prime((std::uint64_t{1} << 32) + 1);
  EXPECT_NE(message_of([&] { dot::dot(a32, a32, 2, above32); }).find("p < 2^32"), std::string::npos);
  // uint64 residues have no bound below 2^64 (p_above63, p_max64 are tested above).
  EXPECT_EQ(dot::dot(a64, a64, 2, p_above63), 2u);
  const std::uint64_t above_naive = next_prime(94906267);
  EXPECT_NE(message_of([&] { dot::dot(af, af, 2, above_naive, Method::fp_naive); }).find("(p-1)^2 < 2^53"),
            std::string::npos);
  const std::uint64_t above52 = next_prime((std::uint64_t{1} << 52) + 2);
  for (Method m : {Method::fp_lambda, Method::fp_abcd, Method::integer_delayed, Method::automatic})
    EXPECT_NE(message_of([&] { dot::dot(af, af, 2, above52, m); }).find("p - 1 < 2^52"), std::string::npos)
        << dot::method_name(m);
  // fp methods take doubles only.
  EXPECT_THROW(dot::dot(a32, a32, 2, 65537, Method::fp_abcd), mpgpu::InvalidArgument);
  EXPECT_THROW(dot::dot(a64, a64, 2, 65537, Method::fp_lambda), mpgpu::InvalidArgument);
}

TEST(DotRejects, LengthsBeyondBounds) {
  // Parameters are checked before any element is read, so a short buffer
  // with a long stated length is safe here.
  const double af[2] = {1, 1};
  const std::uint32_t a32[2] = {1, 1};
  EXPECT_NE(message_of([&] { dot::dot(af, af, dot::abcd_max_length + 1, p_max52, Method::fp_abcd); })
                .find("n <= 2^25"),
            std::string::npos);
  EXPECT_FALSE(dot::is_admissible(Method::fp_abcd, Residue::f64, 3, dot::abcd_max_length + 1));
  EXPECT_TRUE(dot::is_admissible(Method::fp_abcd, Residue::f64, 3, dot::abcd_max_length));
  EXPECT_NE(message_of([&] { dot::dot(a32, a32, dot::max_length + 1, 65537); }).find("2^31"), std::string::npos);
  EXPECT_NE(message_of([&] { dot::dot(af, af, dot::max_length + 1, 65537, Method::fp_lambda); }).find("2^31"),
            std::string::npos);
  // automatic past fp_abcd's bound still picks an admissible method.
  EXPECT_NE(dot::choose_method(Residue::f64, p_max52, dot::abcd_max_length + 1), Method::fp_abcd);
  EXPECT_THROW(dot::dot_strided(af, 0, af, 1, 2, 65537), mpgpu::InvalidArgument);
}

TEST(DotRejects, NonResiduesNameTheIndex) {
  const std::uint64_t p = 65537;
  std::vector<std::uint32_t> a32(10, 1), b32(10, 1);
  b32[7] = std::uint32_t(p);
  EXPECT_NE(message_of([&] { dot::dot(a32.data(), b32.data(), 10, p); }).find("b[7]"), std::string::npos);
  std::vector<std::uint64_t> a64(10, 1);
  a64[3] = ~std::uint64_t{0};
  EXPECT_NE(message_of([&] { dot::dot(a64.data(), a64.data(), 10, p); }).find("a[3]"), std::string::npos);
  for (double badv : {double(p), 1.5, -1.0, std::numeric_limits<double>::quiet_NaN(),
                      std::numeric_limits<double>::infinity()})
    for (Method m : {Method::integer_delayed, Method::fp_naive, Method::fp_lambda, Method::fp_abcd}) {
      std::vector<double> a(10, 2.0);
      a[9] = badv;
      EXPECT_NE(message_of([&] { dot::dot(a.data(), a.data(), 10, p, m); }).find("a[9]"), std::string::npos)
          << badv << " " << dot::method_name(m);
    }
  // Batched: the message names the dot and the index; out stays untouched.
  std::vector<double> a(30, 1.0);
  a[24] = double(p);
  std::vector<std::uint64_t> out(3, 42);
  EXPECT_NE(message_of([&] { dot::dot_batched(out.data(), a.data(), a.data(), 3, 10, p); }).find("dot 2, a[4]"),
            std::string::npos);
  EXPECT_EQ(out, std::vector<std::uint64_t>(3, 42));
  // Strided: the index is the logical one.
  EXPECT_NE(message_of([&] { dot::dot_strided(a.data(), 3, a.data(), 1, 10, p); }).find("a[8]"), std::string::npos);
}

}  // namespace
