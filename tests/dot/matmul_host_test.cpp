// mpgpu::dot::matmul / matvec on the host against a reference (unsigned
// __int128, % p after every term): both methods at both ends of their p
// range, all-(p-1) matrices (the worst case for every bound) with k at
// block - 1, block, block + 1 around each reduction bound, shapes across the
// kernel's tiles (16 rows, 64 columns, 4-row steps), leading dimensions
// larger than the widths (padding holds non-residues and guard words that
// must stay untouched), m/n/k = 1 and 0, random data, and bad parameters
// rejected with messages naming the function and the bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "mpgpu/dot/matmul_host.hpp"
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

constexpr std::uint64_t two53 = std::uint64_t{1} << 53;
const std::uint64_t p_max_fp64 = prev_prime(94906266);   // (p-1)^2 < 2^53
const std::uint64_t p_min_int = next_prime(94906267);    // smallest p past fp64
const std::uint64_t p_max52 = prev_prime((std::uint64_t{1} << 52) + 1);  // doubles: p - 1 < 2^52
const std::uint64_t p_62 = prev_prime(std::uint64_t{1} << 62);
const std::uint64_t p_max63 = prev_prime((std::uint64_t{1} << 63) - 1);
const std::uint64_t p_max64 = prev_prime(~std::uint64_t{0});  // 2^64 - 59

/// Largest prime p with k (p-1)^2 < 2^53: fp_naive sums k terms in one block.
std::uint64_t largest_fp64_prime_for(std::uint64_t k) {
  std::uint64_t s = std::uint64_t(std::sqrt(double((two53 - 1) / k)));
  while (k * (s + 1) * (s + 1) <= two53 - 1) ++s;  // s = max{x : k x^2 < 2^53}
  while (k * s * s > two53 - 1) --s;
  return prev_prime(s + 1);
}

struct Mat {
  std::size_t rows, cols, ld;
  std::vector<std::uint64_t> v;  // padding (columns >= cols) holds `pad`
};

template <class T>
std::vector<T> to(const std::vector<std::uint64_t>& v) {
  std::vector<T> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = T(v[i]);
  return out;
}

/// A rows x cols matrix, row-major with leading dimension ld; random residues
/// (a third at the top of the range) or all p - 1; padding = p (not a
/// residue: must never be read as one).
Mat make(std::size_t rows, std::size_t cols, std::size_t ld, std::uint64_t p, bool all_max,
         std::mt19937_64& rng) {
  Mat a{rows, cols, ld, std::vector<std::uint64_t>(rows == 0 ? 0 : (rows - 1) * ld + cols + 3, p)};
  std::uniform_int_distribution<std::uint64_t> d(0, p - 1);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      const std::uint64_t r = d(rng);
      a.v[i * ld + j] = all_max ? p - 1 : rng() % 3 == 0 ? p - 1 - r % std::min<std::uint64_t>(p, 16) : r;
    }
  return a;
}

std::vector<std::uint64_t> reference(const Mat& A, const Mat& B, std::uint64_t p) {
  std::vector<std::uint64_t> c(A.rows * B.cols);
  for (std::size_t i = 0; i < A.rows; ++i)
    for (std::size_t j = 0; j < B.cols; ++j) {
      u128 acc = 0;
      for (std::size_t l = 0; l < A.cols; ++l)
        acc = (acc + u128(A.v[i * A.ld + l]) * B.v[l * B.ld + j]) % p;
      c[i * B.cols + j] = std::uint64_t(acc);
    }
  return c;
}

constexpr std::uint64_t guard = 0x5eed5eed;

/// C = A B with residues of type T and ldc = n + cpad; checks every entry
/// and that the padding of C (guard words) is untouched.
template <class T>
void expect_product(Method meth, std::uint64_t p, const Mat& A, const Mat& B, std::size_t cpad,
                    const std::string& what) {
  const std::size_t m = A.rows, k = A.cols, n = B.cols, ldc = n + cpad;
  const auto a = to<T>(A.v), b = to<T>(B.v);
  std::vector<T> c(m * ldc + 2, T(guard));
  dot::matmul(c.data(), ldc, a.data(), A.ld, b.data(), B.ld, m, n, k, p, meth);
  const auto want = reference(A, B, p);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < ldc; ++j) {
      const std::uint64_t got = std::uint64_t(c[i * ldc + j]);
      const std::uint64_t exp = j < n ? want[i * n + j] : guard;
      if (got != exp && bad++ < 3)
        ADD_FAILURE() << what << " " << dot::method_name(meth) << " p=" << p << " m=" << m << " n=" << n
                      << " k=" << k << ": C[" << i << "][" << j << "] = " << got << ", want " << exp;
    }
  EXPECT_EQ(std::uint64_t(c[m * ldc]), guard);
  EXPECT_EQ(bad, 0u);
}

/// y = A x, checked against the reference, guard after y.
template <class T>
void expect_matvec(Method meth, std::uint64_t p, const Mat& A, const Mat& x) {
  const auto a = to<T>(A.v), xv = to<T>(x.v);
  std::vector<T> y(A.rows + 1, T(guard));
  dot::matvec(y.data(), a.data(), A.ld, xv.data(), A.rows, A.cols, p, meth);
  const auto want = reference(A, x, p);
  for (std::size_t i = 0; i < A.rows; ++i)
    ASSERT_EQ(std::uint64_t(y[i]), want[i]) << dot::method_name(meth) << " p=" << p << " row " << i;
  EXPECT_EQ(std::uint64_t(y[A.rows]), guard);
}

/// Random and all-(p-1) products over shapes crossing the tile edges.
template <class T>
void expect_shapes(Method meth, std::uint64_t p, unsigned salt) {
  std::mt19937_64 rng(mpgpu_test::test_seed() ^ p ^ salt);
  struct Shape { std::size_t m, n, k; };
  for (Shape s : {Shape{1, 1, 1}, Shape{1, 1, 9}, Shape{1, 70, 3}, Shape{19, 1, 2}, Shape{4, 64, 1},
                  Shape{5, 65, 17}, Shape{16, 63, 40}, Shape{17, 130, 33}, Shape{33, 7, 129}})
    for (bool all_max : {false, true}) {
      const Mat A = make(s.m, s.k, s.k + 3, p, all_max, rng);
      const Mat B = make(s.k, s.n, s.n + 1, p, all_max, rng);
      expect_product<T>(meth, p, A, B, 2, all_max ? "all p-1" : "random");
      const Mat Ad = make(s.m, s.k, s.k, p, all_max, rng);  // dense leading dimensions
      const Mat Bd = make(s.k, s.n, s.n, p, all_max, rng);
      expect_product<T>(meth, p, Ad, Bd, 0, "dense");
      const Mat x = make(s.k, 1, 1, p, all_max, rng);
      expect_matvec<T>(meth, p, A, x);
    }
}

/// All-(p-1) products with k = block - 1, block, block + 1, 2 block + 1
/// (block = terms between reductions), when the block is short enough.
template <class T>
void expect_at_block_bounds(Method meth, std::uint64_t p) {
  const std::uint64_t block = dot::matmul_reduction_block(meth, std::is_same_v<T, double> ? Residue::f64 : Residue::u64, p);
  ASSERT_GE(block, 1u);
  ASSERT_LE(block, 5000u) << "p=" << p;
  std::mt19937_64 rng(p);
  for (std::uint64_t k : {block - 1, block, block + 1, 2 * block + 1}) {
    if (k == 0) continue;
    const Mat A = make(5, std::size_t(k), std::size_t(k) + 1, p, true, rng);
    const Mat B = make(std::size_t(k), 3, 4, p, true, rng);
    expect_product<T>(meth, p, A, B, 1, "block bound");
    expect_matvec<T>(meth, p, A, make(std::size_t(k), 1, 1, p, true, rng));
  }
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const mpgpu::InvalidArgument& e) {
    return e.what();
  }
  return "(no exception)";
}

// ---- fp_naive (FFLAS: k-blocks with kb (p-1)^2 < 2^53) ------------------------------

TEST(MatmulFp64, BlockIsTheFflasBound) {
  EXPECT_EQ(p_max_fp64, 94906249u);
  for (std::uint64_t p : {std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{65537}, p_max_fp64}) {
    const std::uint64_t kb = dot::matmul_reduction_block(Method::fp_naive, Residue::f64, p);
    EXPECT_LT(u128(kb) * (p - 1) * (p - 1), u128(two53)) << p;
    EXPECT_GE(u128(kb + 1) * (p - 1) * (p - 1), u128(two53)) << p;
  }
  EXPECT_EQ(dot::matmul_reduction_block(Method::fp_naive, Residue::u64, p_max_fp64), 1u);
  EXPECT_FALSE(dot::is_matmul_admissible(Method::fp_naive, Residue::u64, p_min_int));
}

TEST(MatmulFp64, RangeEndsAndShapes) {
  for (std::uint64_t p : {std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{65537}, p_max_fp64}) {
    expect_shapes<double>(Method::fp_naive, p, 1);
    expect_shapes<std::uint64_t>(Method::fp_naive, p, 2);
  }
}

TEST(MatmulFp64, KAtTheBlockBound) {
  // The largest p for a given k: k terms fit one block, k + 1 need two.
  for (std::uint64_t k : {std::uint64_t{2}, std::uint64_t{7}, std::uint64_t{64}, std::uint64_t{1000}}) {
    const std::uint64_t p = largest_fp64_prime_for(k);
    EXPECT_GE(dot::matmul_reduction_block(Method::fp_naive, Residue::f64, p), k) << p;
    EXPECT_LT(dot::matmul_reduction_block(Method::fp_naive, Residue::f64, next_prime(p + 1)), k) << p;
    expect_at_block_bounds<double>(Method::fp_naive, p);
    expect_at_block_bounds<std::uint64_t>(Method::fp_naive, p);
  }
  expect_at_block_bounds<double>(Method::fp_naive, p_max_fp64);  // block 1
}

TEST(MatmulFp64, LongKSmallP) {
  // p = 3: one block holds 2^51 terms; k = 3001 sums in one block.
  std::mt19937_64 rng(3);
  for (bool all_max : {true, false}) {
    const Mat A = make(3, 3001, 3001, 3, all_max, rng), B = make(3001, 5, 5, 3, all_max, rng);
    expect_product<double>(Method::fp_naive, 3, A, B, 0, "long k");
  }
}

TEST(MatmulFp64, CallerRoundingModeIrrelevant) {
  std::mt19937_64 rng(9);
  const std::uint64_t p = largest_fp64_prime_for(3);
  const Mat A = make(9, 20, 20, p, false, rng), B = make(20, 11, 11, p, false, rng);
  for (int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO, FE_TONEAREST}) {
    ASSERT_EQ(std::fesetround(mode), 0);
    expect_product<double>(Method::fp_naive, p, A, B, 0, "rounding mode");
    expect_product<double>(Method::fp_naive, 3, make(4, 50, 50, 3, true, rng), make(50, 4, 4, 3, true, rng), 0,
                           "rounding mode");
    EXPECT_EQ(std::fegetround(), mode);
  }
  std::fesetround(FE_TONEAREST);
}

// ---- integer_delayed (64-bit or 128-bit accumulators) ------------------------------

TEST(MatmulInteger, RangeEndsAndShapes) {
  for (std::uint64_t p : {std::uint64_t{2}, std::uint64_t{3}, p_min_int, prev_prime(std::uint64_t{1} << 32),
                          p_62, p_max63, p_max64})
    expect_shapes<std::uint64_t>(Method::integer_delayed, p, 3);
  for (std::uint64_t p : {std::uint64_t{2}, p_max_fp64, p_min_int, p_max52})
    expect_shapes<double>(Method::integer_delayed, p, 4);
}

TEST(MatmulInteger, KAtTheBlockBound) {
  // 64-bit accumulators while the block is >= 16 (p - 1 <= 2^30), 128-bit above.
  const std::uint64_t p64 = prev_prime((std::uint64_t{1} << 30) + 1);
  const std::uint64_t p128 = next_prime((std::uint64_t{1} << 30) + 2);
  EXPECT_GE(dot::matmul_reduction_block(Method::integer_delayed, Residue::u64, p64), 16u);
  EXPECT_GT(dot::matmul_reduction_block(Method::integer_delayed, Residue::u64, p128), 1000000u);
  expect_at_block_bounds<std::uint64_t>(Method::integer_delayed, p64);
  // 64-bit accumulators with a block of ~100 terms.
  expect_at_block_bounds<std::uint64_t>(Method::integer_delayed, prev_prime(429496729));
  // 128-bit: ~2^62 (block 16), 2^63 - 25 (block 4), 2^64 - 59 (block 1).
  for (std::uint64_t p : {prev_prime(std::uint64_t{1} << 60), p_62, p_max63, p_max64}) {
    const std::uint64_t kb = dot::matmul_reduction_block(Method::integer_delayed, Residue::u64, p);
    EXPECT_EQ(kb, std::uint64_t(~u128(0) / (u128(p - 1) * (p - 1)))) << p;
    expect_at_block_bounds<std::uint64_t>(Method::integer_delayed, p);
  }
  EXPECT_EQ(dot::matmul_reduction_block(Method::integer_delayed, Residue::u64, p_max64), 1u);
  EXPECT_EQ(dot::matmul_reduction_block(Method::integer_delayed, Residue::u64, p_max63), 4u);
}

// ---- automatic, degenerate sizes ---------------------------------------------------

TEST(MatmulAutomatic, Fp64WhenAdmissibleElseInteger) {
  const std::uint64_t p_b64 = largest_fp64_prime_for(64), p_b63 = next_prime(p_b64 + 1);
  for (Residue r : {Residue::u64, Residue::f64}) {
    EXPECT_EQ(dot::choose_matmul_method(r, 2, 1000000), Method::fp_naive);
    EXPECT_EQ(dot::choose_matmul_method(r, p_b64, 1000000), Method::fp_naive);   // block 64
    EXPECT_EQ(dot::choose_matmul_method(r, p_b63, 1000000), Method::integer_delayed);
    EXPECT_EQ(dot::choose_matmul_method(r, p_b63, dot::matmul_reduction_block(Method::fp_naive, r, p_b63)),
              Method::fp_naive);  // all of k in one block
    EXPECT_EQ(dot::choose_matmul_method(r, p_max_fp64, 1), Method::fp_naive);
    EXPECT_EQ(dot::choose_matmul_method(r, p_max_fp64, 2), Method::integer_delayed);
    EXPECT_EQ(dot::choose_matmul_method(r, p_min_int, 1), Method::integer_delayed);
  }
  EXPECT_EQ(dot::choose_matmul_method(Residue::u64, 65537, 100, 1), Method::integer_delayed);
  EXPECT_EQ(dot::choose_matmul_method(Residue::f64, 65537, 100, 1), Method::fp_naive);
  EXPECT_EQ(dot::choose_matmul_method(Residue::u64, p_max64, 1), Method::integer_delayed);
  EXPECT_THROW(dot::choose_matmul_method(Residue::f64, p_max63, 1), mpgpu::InvalidArgument);
  for (std::uint64_t p : {std::uint64_t{5}, p_b64, p_b63, p_max_fp64, p_min_int}) {
    expect_shapes<std::uint64_t>(Method::automatic, p, 5);
    expect_shapes<double>(Method::automatic, p, 6);
  }
}

TEST(MatmulDegenerate, EmptyDimensions) {
  const std::uint64_t p = 65537;
  std::vector<std::uint64_t> c(12, guard), a(12, 1), b(12, 1);
  // k = 0: C = 0 (A and B are never read; null is fine).
  dot::matmul(c.data(), 4, nullptr, 0, nullptr, 3, 2, 3, 0, p);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(c[i * 4 + j], j < 3 ? 0u : guard);
  std::vector<std::uint64_t> c2(4, guard);
  dot::matmul(c2.data(), 1, a.data(), 2, b.data(), 0, 3, 0, 2, p);  // n = 0
  dot::matmul(nullptr, 4, nullptr, 2, b.data(), 4, 0, 4, 2, p);   // m = 0
  for (auto x : c2) EXPECT_EQ(x, guard);
  std::vector<double> y(3, double(guard));
  dot::matvec(y.data(), nullptr, 0, nullptr, 2, 0, 7);  // k = 0: y = 0
  EXPECT_EQ(y[0], 0.0);
  EXPECT_EQ(y[1], 0.0);
  EXPECT_EQ(y[2], double(guard));
}

// ---- bad parameters --------------------------------------------------------------------

TEST(MatmulErrors, RejectedWithClearMessages) {
  const std::uint64_t p = 65537;
  std::vector<std::uint64_t> a(64, 1), b(64, 2), c(64, guard);
  std::vector<double> ad(64, 1.0), bd(64, 2.0), cd(64, double(guard));
  auto mm = [&](std::uint64_t q, Method m, std::size_t lda, std::size_t ldb, std::size_t ldc) {
    return message_of([&] { dot::matmul(c.data(), ldc, a.data(), lda, b.data(), ldb, 3, 4, 5, q, m); });
  };
  auto has = [](const std::string& msg, const char* part) {
    EXPECT_NE(msg.find(part), std::string::npos) << "message: " << msg << "\nexpected: " << part;
  };
  for (std::uint64_t q : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{4}, std::uint64_t{65535}})
    has(mm(q, Method::automatic, 5, 4, 4), "is not a prime");
  has(mm(p, Method::automatic, 5, 4, 4), "(no exception)");
  std::fill(c.begin(), c.end(), guard);
  has(mm(p_min_int, Method::fp_naive, 5, 4, 4), "FFLAS bound");
  has(mm(p, Method::fp_lambda, 5, 4, 4), "a dot-product method; matrix products take");
  has(mm(p, Method::fp_abcd, 5, 4, 4), "a dot-product method; matrix products take");
  has(mm(p, Method::automatic, 4, 4, 4), "mpgpu::dot::matmul: fp_naive on uint64 residues: lda = 4 < k = 5");
  has(mm(p, Method::integer_delayed, 5, 3, 4), "ldb = 3 < n = 4");
  has(mm(p, Method::integer_delayed, 5, 4, 3), "ldc = 3 < n = 4");
  has(message_of([&] { dot::matmul(c.data(), 4, nullptr, 5, b.data(), 4, 3, 4, 5, p); }), "null input pointer A");
  has(message_of([&] { dot::matmul(nullptr, 4, a.data(), 5, b.data(), 4, 3, 4, 5, p); }), "null output pointer C");
  has(message_of([&] { dot::matmul(a.data() + 2, 4, a.data(), 5, b.data(), 4, 3, 4, 5, p); }), "C overlaps A");
  has(message_of([&] { dot::matmul(b.data() + 10, 4, a.data(), 5, b.data(), 4, 3, 4, 5, p); }), "C overlaps B");
  has(message_of([&] { dot::matmul(c.data(), 4, a.data(), ~std::size_t{0} / 2, b.data(), 4, 3, 4, 5, p); }),
      "overflows");
  // Residues: the first bad element is named; padding is never checked.
  a[1 * 6 + 2] = p;
  has(message_of([&] { dot::matmul(c.data(), 4, a.data(), 6, b.data(), 4, 3, 4, 5, p); }),
      "mpgpu::dot::matmul: A[1][2] is not a residue in [0, p) for p = 65537");
  a[1 * 6 + 2] = 1;
  a[5] = p;  // padding of row 0 when lda = 6
  has(message_of([&] { dot::matmul(c.data(), 4, a.data(), 6, b.data(), 4, 3, 4, 5, p); }), "(no exception)");
  std::fill(c.begin(), c.end(), guard);
  a[5] = 1;
  b[2 * 4 + 3] = ~std::uint64_t{0};
  has(message_of([&] { dot::matmul(c.data(), 4, a.data(), 6, b.data(), 4, 3, 4, 5, p); }), "B[2][3]");
  has(message_of([&] { dot::matvec(c.data(), a.data(), 12, b.data(), 3, 12, p); }), "mpgpu::dot::matvec: x[11]");
  // Doubles: integers in [0, p), p - 1 < 2^52.
  ad[7] = 0.5;
  has(message_of([&] { dot::matmul(cd.data(), 4, ad.data(), 5, bd.data(), 4, 3, 4, 5, p); }), "A[1][2]");
  ad[7] = -1.0;
  has(message_of([&] { dot::matmul(cd.data(), 4, ad.data(), 5, bd.data(), 4, 3, 4, 5, p); }), "A[1][2]");
  ad[7] = std::nan("");
  has(message_of([&] { dot::matvec(cd.data(), ad.data(), 5, bd.data(), 3, 5, p); }),
      "mpgpu::dot::matvec: A[1][2]");
  ad[7] = 1.0;
  has(message_of([&] { dot::matmul(cd.data(), 4, ad.data(), 5, bd.data(), 4, 3, 4, 5, p_max63); }),
      "p - 1 < 2^52");
  has(message_of([&] { dot::matvec(c.data(), a.data(), 4, b.data(), 3, 5, p); }), "matvec: integer_delayed on uint64 residues: lda = 4 < k = 5");
  has(message_of([&] { dot::matvec(c.data(), a.data(), 6, b.data(), 3, 5, 1); }), "mpgpu::dot::matvec: integer_delayed");
  EXPECT_THROW(dot::check_matmul_admissible(Method::automatic, Residue::u64, p), mpgpu::InvalidArgument);
  EXPECT_THROW(dot::check_matmul_admissible(Method::integer_delayed, Residue::u32, p), mpgpu::InvalidArgument);
  // Nothing was written by any rejected call.
  for (auto x : c) EXPECT_EQ(x, guard);
  for (auto x : cd) EXPECT_EQ(x, double(guard));
}

}  // namespace
