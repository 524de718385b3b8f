// The Context matrix products (mpgpu/dot.hpp) against an
// unsigned __int128 reference reduced after every term: on the CPU context
// (matmul_device_test) and on CUDA device 0 (matmul_device_gpu_test,
// MPGPU_DOT_TEST_CUDA=1; skips without a device). The DGEMM path at k
// exactly at and just above its block bound (all-(p-1) operands, the worst
// case), p at both ends of its range and uint64 operands (converted copies);
// the integer kernel for p near 2^63 and 2^64 on shapes that are not
// multiples of its 64 x 64 tile; matvec; padding beyond the widths never
// written; bad parameters and bad elements rejected with C untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
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
using mpgpu_test::prev_prime;
using mpgpu_test::TestBuffer;
using u128 = unsigned __int128;

const std::uint64_t p_max64 = prev_prime(~std::uint64_t{0});                 // 2^64 - 59
const std::uint64_t p_max63 = prev_prime((std::uint64_t{1} << 63) - 1);      // 2^63 - 25
const std::uint64_t p_max52 = prev_prime((std::uint64_t{1} << 52) + 1);      // p - 1 < 2^52
const std::uint64_t p_max_naive = prev_prime(94906266);                      // (p-1)^2 < 2^53
const std::uint64_t sentinel = 0x5a5a5a5a5a5a5a5aull;

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const mpgpu::InvalidArgument& e) {
    return e.what();
  }
  return "(no exception)";
}

template <class T>
std::vector<T> random_matrix(std::size_t rows, std::size_t ld, std::uint64_t p, std::mt19937_64& rng,
                             bool all_max = false) {
  std::vector<T> v(rows * ld);
  for (auto& x : v) x = T(all_max ? p - 1 : (rng() % 4 == 0 ? p - 1 - rng() % std::min<std::uint64_t>(8, p) : rng() % p));
  return v;
}

/// C[i][j] = sum_l A[i][l] B[l][j] mod p, reduced after every term.
template <class T>
std::vector<std::uint64_t> reference(const std::vector<T>& A, std::size_t lda, const std::vector<T>& B,
                                     std::size_t ldb, std::size_t m, std::size_t n, std::size_t k, std::uint64_t p) {
  std::vector<std::uint64_t> C(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      u128 acc = 0;
      for (std::size_t l = 0; l < k; ++l)
        acc = (acc + u128(std::uint64_t(A[i * lda + l])) * std::uint64_t(B[l * ldb + j])) % p;
      C[i * n + j] = std::uint64_t(acc);
    }
  return C;
}

struct Shape {
  std::size_t m, n, k;
};
// 1, the tile (64 x 64, slices of 16), one more and one less, two tiles and a bit.
const Shape kOddShapes[] = {{1, 1, 1}, {65, 63, 17}, {130, 67, 129}};
const Shape kTileShapes[] = {{1, 1, 1}, {1, 2, 3}, {64, 64, 16}, {65, 63, 17}, {130, 67, 129}};

class MatmulDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (mpgpu_test::test_device_missing()) GTEST_SKIP() << "no CUDA device";
    ctx_ = mpgpu_test::test_context();
  }

  /// C = A B with padded leading dimensions (lda = k + 3, ldb = n + 1,
  /// ldc = n + 2); checks every entry and that the padding is untouched.
  template <class T>
  void expect_product(Method method, std::uint64_t p, std::size_t m, std::size_t n, std::size_t k,
                      bool all_max = false) {
    std::mt19937_64 rng(mpgpu_test::test_seed() ^ p ^ (m * 131 + n * 7 + k));
    const std::size_t lda = k + 3, ldb = n + 1, ldc = n + 2;
    const auto A = random_matrix<T>(m, lda, p, rng, all_max), B = random_matrix<T>(k, ldb, p, rng, all_max);
    TestBuffer<T> dA(A), dB(B);
    TestBuffer<T> dC(std::vector<T>(m * ldc, T(sentinel)));
    dot::matmul(ctx_, dC.get(), ldc, dA.get(), lda, dB.get(), ldb, m, n, k, p, method);
    const std::vector<T> C = dC.read();
    const auto want = reference(A, lda, B, ldb, m, n, k, p);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < ldc; ++j) {
        const bool ok = j < n ? std::uint64_t(C[i * ldc + j]) == want[i * n + j] : C[i * ldc + j] == T(sentinel);
        if (!ok && bad++ < 5)
          ADD_FAILURE() << dot::method_name(method) << " p=" << p << " " << m << "x" << n << "x" << k << " C[" << i
                        << "][" << j << "]";
      }
    EXPECT_EQ(bad, 0u);
  }

  template <class T>
  void expect_matvec(Method method, std::uint64_t p, std::size_t m, std::size_t k) {
    std::mt19937_64 rng(mpgpu_test::test_seed() ^ p ^ (m * 31 + k));
    const std::size_t lda = k + 5;
    const auto A = random_matrix<T>(m, lda, p, rng), x = random_matrix<T>(k, 1, p, rng);
    TestBuffer<T> dA(A), dx(x);
    TestBuffer<T> dy(std::vector<T>(m + 1, T(sentinel)));
    dot::matvec(ctx_, dy.get(), dA.get(), lda, dx.get(), m, k, p, method);
    const std::vector<T> y = dy.read();
    const auto want = reference(A, lda, x, 1, m, 1, k, p);
    for (std::size_t i = 0; i < m; ++i) ASSERT_EQ(std::uint64_t(y[i]), want[i]) << dot::method_name(method) << " y[" << i << "]";
    EXPECT_EQ(y[m], T(sentinel));
  }

  mpgpu::Context ctx_ = mpgpu::Context::cpu();
};

// ---- fp_naive: cuBLAS DGEMM on k-blocks --------------------------------------------------

TEST_F(MatmulDevice, DgemmAtAndAboveTheBlockBound) {
  // Blocks of 1, 2, 32 and 8192 terms (p near 2^26.5, 2^26, 2^24, 2^20).
  for (std::uint64_t p : {p_max_naive, prev_prime(std::uint64_t{1} << 26), prev_prime(std::uint64_t{1} << 24),
                          prev_prime(std::uint64_t{1} << 20)}) {
    const std::uint64_t kb = dot::matmul_reduction_block(Method::fp_naive, Residue::f64, p);
    for (std::uint64_t k : {kb, kb + 1, 2 * kb + 1}) {
      expect_product<double>(Method::fp_naive, p, 5, 7, k, true);
      expect_product<std::uint64_t>(Method::fp_naive, p, 3, 4, k, true);
    }
  }
}

// Sanitizer-sized (support/test_size.hpp), here and in the tiled kernel's
// test: each shape with every other prime, in rotation over the shapes
// (every prime and every shape still come round).
TEST_F(MatmulDevice, DgemmRangeEndsAndOddShapes) {
  std::size_t index = 0;
  for (std::uint64_t p : {std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{65537}, p_max_naive})
    for (const Shape& sh : kOddShapes) {
      if (!mpgpu_test::sanitizer_keeps(index++, 2)) continue;  // 3 shapes a prime: the rotation shifts
      expect_product<double>(Method::fp_naive, p, sh.m, sh.n, sh.k);
      expect_product<std::uint64_t>(Method::fp_naive, p, sh.m, sh.n, sh.k);
    }
  expect_product<double>(Method::fp_naive, p_max_naive, 33, 40, 300, true);
}

// ---- integer_delayed: the tiled kernel --------------------------------------------------

TEST_F(MatmulDevice, IntegerKernelLargePrimes) {
  std::size_t index = 0;
  for (std::uint64_t p : {std::uint64_t{3}, prev_prime(std::uint64_t{1} << 32), p_max63, p_max64})
    for (const Shape& sh : kTileShapes)
      if (mpgpu_test::sanitizer_keeps(index++, 2))  // 5 shapes a prime: the rotation shifts
        expect_product<std::uint64_t>(Method::integer_delayed, p, sh.m, sh.n, sh.k);
  expect_product<std::uint64_t>(Method::integer_delayed, p_max64, 70, 129, 300, true);
  expect_product<std::uint64_t>(Method::integer_delayed, p_max63, 70, 129, 300, true);
  for (std::uint64_t p : {std::uint64_t{3}, p_max52}) {
    expect_product<double>(Method::integer_delayed, p, 65, 63, 17);
    expect_product<double>(Method::integer_delayed, p, 70, 129, 300, true);
  }
}

TEST_F(MatmulDevice, MatvecBothMethods) {
  for (std::size_t m : {1u, 9u, 1000u})
    for (std::size_t k : {1u, 33u, 1037u}) {
      expect_matvec<std::uint64_t>(Method::integer_delayed, p_max64, m, k);
      expect_matvec<std::uint64_t>(Method::automatic, p_max63, m, k);
      expect_matvec<double>(Method::integer_delayed, p_max52, m, k);
      expect_matvec<double>(Method::fp_naive, p_max_naive, m, k);
      expect_matvec<double>(Method::automatic, 65537, m, k);
    }
}

TEST_F(MatmulDevice, AutomaticChoiceAndEmptyShapes) {
  EXPECT_EQ(dot::choose_device_matmul_method(Residue::f64, 65537, 100, 100, 100), Method::fp_naive);
  EXPECT_EQ(dot::choose_device_matmul_method(Residue::u64, p_max_naive, 100, 100, 100), Method::fp_naive);
  EXPECT_EQ(dot::choose_device_matmul_method(Residue::u64, prev_prime(4 * p_max_naive), 100, 100, 100),
            Method::integer_delayed);
  EXPECT_EQ(dot::choose_device_matmul_method(Residue::u64, 65537, 100, 1, 100), Method::integer_delayed);
  expect_product<std::uint64_t>(Method::automatic, 65537, 65, 63, 17);
  expect_product<std::uint64_t>(Method::automatic, p_max64, 65, 63, 17);
  expect_product<double>(Method::automatic, p_max52, 65, 63, 17);
  // k = 0 gives C = 0.
  expect_product<std::uint64_t>(Method::automatic, 65537, 3, 4, 0);
  expect_product<double>(Method::fp_naive, 65537, 3, 4, 0);
}

// ---- rejections -----------------------------------------------------------------------

TEST_F(MatmulDevice, RejectsBadParametersAndElements) {
  const std::uint64_t p = 65537;
  std::vector<std::uint64_t> a(12, 1);
  TestBuffer<std::uint64_t> A(a), B(a);
  TestBuffer<std::uint64_t> C(std::vector<std::uint64_t>(12, sentinel));
  const auto untouched = [&] { EXPECT_EQ(C.read(), std::vector<std::uint64_t>(12, sentinel)); };
  EXPECT_NE(message_of([&] { dot::matmul(ctx_, C.get(), 3, A.get(), 2, B.get(), 3, 3, 3, 3, p); }).find("lda = 2 < k = 3"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::matmul(ctx_, C.get(), 3, A.get(), 3, B.get(), 2, 3, 3, 3, p); }).find("ldb = 2 < n = 3"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::matmul(ctx_, C.get(), 2, A.get(), 3, B.get(), 3, 3, 3, 3, p); }).find("ldc = 2 < n = 3"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::matmul(ctx_, C.get(), 3, A.get(), 3, B.get(), 3, 3, 3, 3, 65536); })
                .find("is not a prime"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::matmul(ctx_, C.get(), 3, A.get(), 3, B.get(), 3, 3, 3, 3, p_max_naive + 100,
                                         Method::fp_naive); })
                .find("mpgpu::dot::matmul"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::matmul(ctx_, C.get(), 3, A.get(), 3, B.get(), 3, 3, 3, 3, p, Method::fp_lambda); })
                .find("a dot-product method"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::matvec(ctx_, C.get(), A.get(), 3, B.get(), 3, 3, 65536); }).find("mpgpu::dot::matvec"),
            std::string::npos);
  EXPECT_NE(message_of([&] { dot::matmul(ctx_, A.get(), 3, A.get(), 3, B.get(), 3, 3, 3, 3, p); }).find("C overlaps A"),
            std::string::npos);
  untouched();
  // Bad elements: the first one named, C untouched, for both methods.
  for (Method m : {Method::integer_delayed, Method::fp_naive}) {
    std::vector<std::uint64_t> bad = a;
    bad[7] = p;
    bad[10] = p + 5;
    TestBuffer<std::uint64_t> Bad(bad);
    EXPECT_NE(message_of([&] { dot::matmul(ctx_, C.get(), 3, Bad.get(), 3, B.get(), 3, 3, 3, 3, p, m); }).find("A[2][1]"),
              std::string::npos);
    EXPECT_NE(message_of([&] { dot::matmul(ctx_, C.get(), 3, A.get(), 3, Bad.get(), 3, 3, 3, 3, p, m); }).find("B[2][1]"),
              std::string::npos);
    EXPECT_NE(message_of([&] { dot::matvec(ctx_, C.get(), A.get(), 9, Bad.get(), 1, 9, p, m); }).find("x[7]"),
              std::string::npos);
    untouched();
  }
  std::vector<double> fd(12, 1.0);
  fd[5] = 0.5;
  TestBuffer<double> F(fd), G(std::vector<double>(12, 1.0)), H(std::vector<double>(12, 7.0));
  EXPECT_NE(message_of([&] { dot::matmul(ctx_, H.get(), 3, F.get(), 3, G.get(), 3, 3, 3, 3, p); }).find("A[1][2]"),
            std::string::npos);
  EXPECT_EQ(H.read(), std::vector<double>(12, 7.0));
}

}  // namespace
