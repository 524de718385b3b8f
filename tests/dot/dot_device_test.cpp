// The Context dot API (mpgpu/dot.hpp) against an unsigned
// __int128 reference reduced after every term: on the CPU context
// (dot_device_test: the routing to the host code) and on CUDA device 0
// (dot_device_gpu_test, MPGPU_DOT_TEST_CUDA=1; skips without a device).
// Every method at both ends of its admissible p range, all-(p-1) vectors
// (the worst case of every bound) long enough that each GPU thread crosses
// its reduction block, random data, batched (many dots, so one block a dot)
// and strided calls, the per-term baseline, and rejections: parameters
// before any element is read (lengths past the bounds with short buffers),
// bad elements named by their first index, outputs untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "mpgpu/dot.hpp"
#include "mpgpu/error.hpp"
#include "support/operands.hpp"
#include "support/primes.hpp"
#include "support/test_size.hpp"

namespace {

namespace dot = mpgpu::dot;
using dot::Method;
using dot::Residue;
using mpgpu_test::next_prime;
using mpgpu_test::prev_prime;
using mpgpu_test::TestBuffer;
using u128 = unsigned __int128;

const std::uint64_t p_max32 = prev_prime((std::uint64_t{1} << 32) - 1);  // 2^32 - 5
const std::uint64_t p_max63 = prev_prime((std::uint64_t{1} << 63) - 1);  // 2^63 - 25
const std::uint64_t p_above63 = next_prime((std::uint64_t{1} << 63) + 1);
const std::uint64_t p_max64 = prev_prime(~std::uint64_t{0});              // 2^64 - 59
const std::uint64_t p_max52 = prev_prime((std::uint64_t{1} << 52) + 1);  // p - 1 < 2^52
const std::uint64_t p_max_naive = prev_prime(94906266);                  // (p-1)^2 < 2^53

template <class T>
std::uint64_t reference(const std::vector<T>& a, std::size_t sa, const std::vector<T>& b, std::size_t sb,
                        std::size_t n, std::uint64_t p, std::size_t offset = 0) {
  u128 acc = 0;
  for (std::size_t i = 0; i < n; ++i)
    acc = (acc + u128(std::uint64_t(a[offset + i * sa])) * std::uint64_t(b[offset + i * sb])) % p;
  return std::uint64_t(acc);
}

template <class T>
std::vector<T> random_residues(std::size_t n, std::uint64_t p, std::mt19937_64& rng) {
  std::vector<T> v(n);
  std::uniform_int_distribution<std::uint64_t> d(0, p - 1);
  for (auto& x : v) {
    const std::uint64_t r = d(rng);
    x = T(rng() % 3 == 0 ? p - 1 - r % 16 : r);  // a third at the top of the range
  }
  return v;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const mpgpu::InvalidArgument& e) {
    return e.what();
  }
  return "(no exception)";
}

class DotDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (mpgpu_test::test_device_missing()) GTEST_SKIP() << "no CUDA device";
    ctx_ = mpgpu_test::test_context();
  }

  /// dot of two all-(p-1) vectors of length n: n (p-1)^2 = n mod p.
  template <class T>
  void expect_all_max(Method m, std::uint64_t p, std::size_t n) {
    TestBuffer<T> v(std::vector<T>(n, T(p - 1)));
    EXPECT_EQ(dot::dot(ctx_, v.get(), v.get(), n, p, m), n % p) << dot::method_name(m) << " p=" << p << " n=" << n;
  }

  template <class T>
  void expect_random(Method m, std::uint64_t p, std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(mpgpu_test::test_seed() ^ seed ^ p);
    const auto a = random_residues<T>(n, p, rng), b = random_residues<T>(n, p, rng);
    TestBuffer<T> da(a), db(b);
    EXPECT_EQ(dot::dot(ctx_, da.get(), db.get(), n, p, m), reference(a, 1, b, 1, n, p))
        << dot::method_name(m) << " p=" << p << " n=" << n;
  }

  mpgpu::Context ctx_ = mpgpu::Context::cpu();
};

// Lengths: 0, 1, one block of 256 threads x 16 terms and one more, and long
// enough (2^22 + 5) that every GPU thread sums > 16 terms.
const std::size_t kLengths[] = {0, 1, 2, 4096, 4097, (std::size_t{1} << 22) + 5};

/// kLengths; sanitizer-sized (support/test_size.hpp), the long one only at
/// the ends of a test's range of p (`range_end`): 3, where the delayed
/// reductions are rarest, and the largest p, where their bounds bind.
std::vector<std::size_t> lengths(bool range_end) {
  std::vector<std::size_t> v(std::begin(kLengths), std::end(kLengths));
  if (mpgpu_test::sanitizer_sized() && !range_end) v.pop_back();
  return v;
}

// ---- integer_delayed ------------------------------------------------------------------

TEST_F(DotDevice, IntegerU32RangeEnds) {
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{65537}, prev_prime((1u << 30) + 1), p_max32})
    for (std::size_t n : lengths(p == 3 || p == p_max32)) expect_all_max<std::uint32_t>(Method::integer_delayed, p, n);
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{2013265921}, p_max32})
    for (std::size_t n : {7u, 100003u}) expect_random<std::uint32_t>(Method::integer_delayed, p, n, 1);
}

TEST_F(DotDevice, IntegerU64RangeEnds) {
  // uint64 residues take any p < 2^64: above 2^63 the sum of two residues
  // passes 2^64 (random data reaches it about half the time).
  for (std::uint64_t p : {std::uint64_t{3}, prev_prime(std::uint64_t{1} << 62), p_max63, p_max64})
    for (std::size_t n : lengths(p == 3 || p == p_max64)) expect_all_max<std::uint64_t>(Method::integer_delayed, p, n);
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{4179340454199820289ull}, p_max63, p_above63, p_max64})
    for (std::size_t n : {7u, 100003u}) expect_random<std::uint64_t>(Method::integer_delayed, p, n, 2);
}

TEST_F(DotDevice, IntegerDoubleRangeEnds) {
  for (std::uint64_t p : {std::uint64_t{3}, p_max52})
    for (std::size_t n : lengths(true)) expect_all_max<double>(Method::integer_delayed, p, n);
  expect_random<double>(Method::integer_delayed, p_max52, 100003, 3);
}

// ---- fp_naive: FFLAS blocks of 1 (largest p), 4, 16, and huge (small p) -------------------

TEST_F(DotDevice, FpNaiveBlocksAndRangeEnds) {
  const std::uint64_t p_block16 = prev_prime(std::uint64_t(std::sqrt(double(std::uint64_t{1} << 53) / 16)));
  const std::uint64_t p_block4 = prev_prime(std::uint64_t(std::sqrt(double(std::uint64_t{1} << 53) / 4)));
  EXPECT_EQ(dot::reduction_block(Method::fp_naive, Residue::f64, p_max_naive), 1u);
  EXPECT_GE(dot::reduction_block(Method::fp_naive, Residue::f64, p_block16), 16u);
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{65537}, p_block16, p_block4, p_max_naive}) {
    for (std::size_t n : lengths(p == 3 || p == p_max_naive)) expect_all_max<double>(Method::fp_naive, p, n);
    const std::uint64_t block = dot::reduction_block(Method::fp_naive, Residue::f64, p);
    if (block < 100000)
      for (std::uint64_t n : {block - 1, block, block + 1, 2 * block + 1}) expect_all_max<double>(Method::fp_naive, p, n);
    expect_random<double>(Method::fp_naive, p, 100003, 4);
  }
}

// ---- fp_lambda: lambda huge (p = 3) down to 1 (p - 1 close to 2^52) --------------------------

TEST_F(DotDevice, FpLambdaRangeEnds) {
  EXPECT_EQ(dot::reduction_block(Method::fp_lambda, Residue::f64, p_max52), 1u);
  const std::uint64_t p_lambda7 = prev_prime((std::uint64_t{1} << 52) / 7);
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{65537}, std::uint64_t{2147483647}, p_lambda7, p_max52}) {
    for (std::size_t n : lengths(p == 3 || p == p_max52)) expect_all_max<double>(Method::fp_lambda, p, n);
    expect_random<double>(Method::fp_lambda, p, 100003, 5);
  }
}

// ---- fp_abcd: no reduction; the longest admissible vector at the largest p -----------------

TEST_F(DotDevice, FpAbcdRangeEnds) {
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{2147483647}, prev_prime(std::uint64_t{1} << 40), p_max52}) {
    for (std::size_t n : lengths(p == 3 || p == p_max52)) expect_all_max<double>(Method::fp_abcd, p, n);
    expect_random<double>(Method::fp_abcd, p, 100003, 6);
  }
}

TEST_F(DotDevice, FpAbcdLongestAdmissibleLength) {
  expect_all_max<double>(Method::fp_abcd, p_max52, dot::abcd_max_length);
}

// ---- automatic, batched, strided, baseline --------------------------------------------

TEST_F(DotDevice, AutomaticIsAdmissibleAndAgrees) {
  for (std::uint64_t p : {std::uint64_t{3}, std::uint64_t{65537}, p_max_naive, std::uint64_t{2147483647}, p_max52}) {
    const Method m = dot::choose_device_method(Residue::f64, p, 1000);
    EXPECT_TRUE(dot::is_admissible(m, Residue::f64, p, 1000)) << p;
    expect_random<double>(Method::automatic, p, 100003, 7);
  }
  EXPECT_EQ(dot::choose_device_method(Residue::f64, 65537, 1000), Method::fp_naive);
  EXPECT_EQ(dot::choose_device_method(Residue::f64, p_max_naive, 1000), Method::integer_delayed);
  EXPECT_EQ(dot::choose_device_method(Residue::u32, 65537, 1000), Method::integer_delayed);
  expect_random<std::uint32_t>(Method::automatic, p_max32, 100003, 8);
  expect_random<std::uint64_t>(Method::automatic, p_max63, 100003, 9);
}

template <class T>
void check_batched_and_strided(const mpgpu::Context& ctx, Method m, std::uint64_t p, std::size_t count,
                               std::size_t n) {
  std::mt19937_64 rng(mpgpu_test::test_seed() ^ p ^ count);
  const auto a = random_residues<T>(count * n, p, rng), b = random_residues<T>(count * n, p, rng);
  TestBuffer<T> da(a), db(b);
  std::vector<std::uint64_t> guard(count + 2, 0xdeadbeef);
  TestBuffer<std::uint64_t> out(guard);
  dot::dot_batched(ctx, out.get() + 1, da.get(), db.get(), count, n, p, m);
  const std::vector<std::uint64_t> got = out.read();
  EXPECT_EQ(got.front(), 0xdeadbeefu);
  EXPECT_EQ(got.back(), 0xdeadbeefu);
  for (std::size_t k = 0; k < count; ++k)
    ASSERT_EQ(got[k + 1], reference(a, 1, b, 1, n, p, k * n)) << dot::method_name(m) << " dot " << k;
  // Strided: every 3rd element of a against every 2nd of b.
  const std::size_t ns = count * n / 3;
  EXPECT_EQ(dot::dot_strided(ctx, da.get(), 3, db.get(), 2, ns, p, m), reference(a, 3, b, 2, ns, p))
      << dot::method_name(m);
}

TEST_F(DotDevice, BatchedAndStridedEveryMethod) {
  // 2000 dots: one block a dot on the GPU, each thread > 16 terms at n = 5000.
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1}, {3, 10}, {70000, 3}, {2000, 5000}};
  for (auto [count, n] : shapes) {
    check_batched_and_strided<std::uint32_t>(ctx_, Method::integer_delayed, p_max32, count, n);
    check_batched_and_strided<std::uint64_t>(ctx_, Method::integer_delayed, p_max63, count, n);
    check_batched_and_strided<std::uint64_t>(ctx_, Method::automatic, p_max64, count, n);
    for (Method m : {Method::integer_delayed, Method::fp_lambda, Method::fp_abcd, Method::automatic})
      check_batched_and_strided<double>(ctx_, m, p_max52, count, n);
    check_batched_and_strided<double>(ctx_, Method::fp_naive, p_max_naive, count, n);
    check_batched_and_strided<double>(ctx_, Method::fp_naive, 65537, count, n);
  }
}

TEST_F(DotDevice, PerTermBaselineAgrees) {
  std::mt19937_64 rng(mpgpu_test::test_seed() ^ 11);
  for (std::uint64_t p : {std::uint64_t{65537}, p_max32}) {
    const auto a = random_residues<std::uint32_t>(100003, p, rng), b = random_residues<std::uint32_t>(100003, p, rng);
    TestBuffer<std::uint32_t> da(a), db(b);
    EXPECT_EQ(dot::dot_reduce_every_term(ctx_, da.get(), db.get(), a.size(), p), reference(a, 1, b, 1, a.size(), p));
  }
  for (std::uint64_t p : {p_max63, p_max64}) {
    const auto a = random_residues<std::uint64_t>(100003, p, rng), b = random_residues<std::uint64_t>(100003, p, rng);
    TestBuffer<std::uint64_t> da(a), db(b);
    EXPECT_EQ(dot::dot_reduce_every_term(ctx_, da.get(), db.get(), a.size(), p), reference(a, 1, b, 1, a.size(), p))
        << p;
  }
  const auto f = random_residues<double>(100003, p_max52, rng);
  TestBuffer<double> df(f);
  EXPECT_EQ(dot::dot_reduce_every_term(ctx_, df.get(), df.get(), f.size(), p_max52),
            reference(f, 1, f, 1, f.size(), p_max52));
}

// ---- rejections -----------------------------------------------------------------------

TEST_F(DotDevice, RejectsBadParametersBeforeReading) {
  // Short buffers with long stated lengths: parameters are checked before
  // any element is read.
  TestBuffer<double> af(std::vector<double>(2, 1.0));
  TestBuffer<std::uint32_t> a32(std::vector<std::uint32_t>(2, 1));
  TestBuffer<std::uint64_t> a64(std::vector<std::uint64_t>(2, 1));
  EXPECT_NE(message_of([&] { dot::dot(ctx_, af.get(), af.get(), dot::abcd_max_length + 1, p_max52, Method::fp_abcd); })
                .find("n <= 2^25"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::dot(ctx_, a32.get(), a32.get(), dot::max_length + 1, 65537); }).find("2^31"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::dot(ctx_, af.get(), af.get(), dot::max_length + 1, 65537, Method::fp_lambda); })
                .find("2^31"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::dot(ctx_, af.get(), af.get(), 2, next_prime(94906267), Method::fp_naive); })
                .find("(p-1)^2 < 2^53"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::dot(ctx_, af.get(), af.get(), 2, next_prime((std::uint64_t{1} << 52) + 2),
                                      Method::fp_lambda); })
                .find("p - 1 < 2^52"),
            std::string::npos);
  for (std::uint64_t p : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{9}, std::uint64_t{65536}}) {
    EXPECT_NE(message_of([&] { dot::dot(ctx_, a64.get(), a64.get(), 2, p); }).find("not an odd prime"),
              std::string::npos)
        << p;
    EXPECT_NE(message_of([&] { dot::dot(ctx_, af.get(), af.get(), 2, p, Method::fp_abcd); }).find("not an odd prime"),
              std::string::npos)
        << p;
  }
  EXPECT_NE(message_of([&] { dot::dot(ctx_, a32.get(), a32.get(), 2, next_prime(std::uint64_t{1} << 32)); })
                .find("p < 2^32"),
            std::string::npos);
  EXPECT_EQ(dot::dot(ctx_, a64.get(), a64.get(), 2, p_above63), 2u);  // uint64: any p < 2^64
  EXPECT_THROW(dot::dot(ctx_, a32.get(), a32.get(), 2, 65537, Method::fp_abcd), mpgpu::InvalidArgument);
  EXPECT_THROW(dot::dot_strided(ctx_, af.get(), 0, af.get(), 1, 2, 65537), mpgpu::InvalidArgument);
  EXPECT_THROW(dot::dot(ctx_, static_cast<const double*>(nullptr), af.get(), 2, 65537), mpgpu::InvalidArgument);
  EXPECT_THROW(dot::dot_batched(ctx_, nullptr, af.get(), af.get(), 1, 2, 65537), mpgpu::InvalidArgument);
  EXPECT_THROW(dot::dot_reduce_every_term(ctx_, a32.get(), a32.get(), dot::max_length + 1, 65537),
               mpgpu::InvalidArgument);
}

TEST_F(DotDevice, NonResiduesNameTheFirstIndex) {
  const std::uint64_t p = 65537;
  {
    std::vector<std::uint32_t> a(5000, 1), b(5000, 1);
    b[4000] = std::uint32_t(p);
    b[4001] = 0xffffffffu;
    TestBuffer<std::uint32_t> da(a), db(b);
    EXPECT_NE(message_of([&] { dot::dot(ctx_, da.get(), db.get(), a.size(), p); }).find("b[4000]"), std::string::npos);
    // As on the host, a is checked before b: a bad a[4999] is named first.
    a[4999] = std::uint32_t(p + 1);
    TestBuffer<std::uint32_t> da2(a);
    EXPECT_NE(message_of([&] { dot::dot(ctx_, da2.get(), db.get(), a.size(), p); }).find("a[4999]"), std::string::npos);
  }
  {
    std::vector<std::uint64_t> a(10, 1);
    a[3] = ~std::uint64_t{0};
    TestBuffer<std::uint64_t> da(a);
    EXPECT_NE(message_of([&] { dot::dot(ctx_, da.get(), da.get(), 10, p); }).find("a[3]"), std::string::npos);
    EXPECT_NE(message_of([&] { dot::dot_reduce_every_term(ctx_, da.get(), da.get(), 10, p); }).find("a[3]"),
              std::string::npos);
  }
  for (double badv : {double(p), 1.5, -1.0, std::numeric_limits<double>::quiet_NaN(),
                      std::numeric_limits<double>::infinity()})
    for (Method m : {Method::integer_delayed, Method::fp_naive, Method::fp_lambda, Method::fp_abcd}) {
      std::vector<double> a(100000, 2.0);
      a[99999] = badv;
      a[70001] = badv;
      TestBuffer<double> da(a);
      EXPECT_NE(message_of([&] { dot::dot(ctx_, da.get(), da.get(), a.size(), p, m); }).find("a[70001]"),
                std::string::npos)
          << badv << " " << dot::method_name(m);
    }
  // Batched: the message names the dot and the index; out stays untouched.
  std::vector<double> a(30, 1.0);
  a[24] = double(p);
  a[27] = -3;
  TestBuffer<double> da(a);
  TestBuffer<std::uint64_t> out(std::vector<std::uint64_t>(3, 42));
  EXPECT_NE(message_of([&] { dot::dot_batched(ctx_, out.get(), da.get(), da.get(), 3, 10, p); }).find("dot 2, a[4]"),
            std::string::npos);
  EXPECT_EQ(out.read(), std::vector<std::uint64_t>(3, 42));
  std::vector<double> b(30, 1.0);
  b[15] = 0.5;
  TestBuffer<double> db(b);
  EXPECT_NE(message_of([&] { dot::dot_batched(ctx_, out.get(), db.get(), da.get(), 3, 10, p); }).find("dot 1, a[5]"),
            std::string::npos);
  // Per dot, a before b (as the host): dot 1 has only b[5] bad, dot 2 a[4].
  EXPECT_NE(message_of([&] { dot::dot_batched(ctx_, out.get(), da.get(), db.get(), 3, 10, p); }).find("dot 1, b[5]"),
            std::string::npos);
  EXPECT_EQ(out.read(), std::vector<std::uint64_t>(3, 42));
  // Strided: the index is the logical one.
  EXPECT_NE(message_of([&] { dot::dot_strided(ctx_, da.get(), 3, da.get(), 1, 10, p); }).find("a[8]"),
            std::string::npos);
}

}  // namespace
