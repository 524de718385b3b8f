// Pointwise and polynomial products mod p (mpgpu/ntt.hpp) against a
// schoolbook product in unsigned __int128, on the CPU context, or on CUDA
// device 0 when built as ntt_poly_mul_gpu_test (MPGPU_NTT_TEST_CUDA=1; skips
// without a device). Lengths: 1, non-powers of two, both sides of the
// schoolbook/NTT switch, exactly at a small user prime's 2-adic limit and one
// past it; values: random and all p - 1; every table prime; bad primes, bad
// lengths and unreduced inputs, which must leave the output untouched; and
// ntt_first_unreduced, the residue check the transforms leave to callers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <random>
#include <string>
#include <vector>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt.hpp"
#include "ntt_test_context.hpp"
#include "support/test_size.hpp"

#if MPGPU_NTT_TEST_CUDA
#include <cuda_runtime.h>
#endif

namespace {

using mpgpu::Context;
using Vec = std::vector<std::uint64_t>;

// (2^29 + 29) * 2^16 + 1: prime, 2-adicity 16, not in the table.
constexpr std::uint64_t kUserPrime16 = 35184373989377ull;
// 7 * 2^4 + 1: prime, 2-adicity 4 (products of at most 16 coefficients).
constexpr std::uint64_t kUserPrime4 = 113;

std::uint64_t mulmod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % p);
}

Vec schoolbook(const Vec& a, const Vec& b, std::uint64_t p) {
  if (a.empty() || b.empty()) return {};
  Vec c(a.size() + b.size() - 1, 0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) {
      const unsigned __int128 s = static_cast<unsigned __int128>(c[i + j]) + mulmod(a[i], b[j], p);
      c[i + j] = static_cast<std::uint64_t>(s % p);
    }
  return c;
}

Vec random_residues(std::size_t n, std::uint64_t p, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  Vec v(n);
  for (auto& x : v) x = gen() % p;
  return v;
}

/// Buffers in the test's context: host vectors on the CPU, cudaMalloc'ed
/// copies on the device (freed by the fixture).
class PolyMul : public mpgpu_test::NttContextTest {
 protected:
  void TearDown() override {
#if MPGPU_NTT_TEST_CUDA
    for (void* d : device_) cudaFree(d);
#endif
  }

  /// A buffer in the context's memory holding v (at least one word).
  std::uint64_t* put(const Vec& v) {
#if MPGPU_NTT_TEST_CUDA
    void* d = nullptr;
    EXPECT_EQ(cudaMalloc(&d, std::max<std::size_t>(v.size(), 1) * 8), cudaSuccess);
    if (!v.empty()) {
      EXPECT_EQ(cudaMemcpy(d, v.data(), v.size() * 8, cudaMemcpyHostToDevice), cudaSuccess);
    }
    // The context's stream does not wait for the legacy stream.
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    device_.push_back(d);
    return static_cast<std::uint64_t*>(d);
#else
    host_.push_back(v);
    if (host_.back().empty()) host_.back().push_back(0);
    return host_.back().data();
#endif
  }
  Vec get(const std::uint64_t* x, std::size_t n) {
    Vec v(n);
#if MPGPU_NTT_TEST_CUDA
    ctx_.synchronize();
    if (n) {
      EXPECT_EQ(cudaMemcpy(v.data(), x, n * 8, cudaMemcpyDeviceToHost), cudaSuccess);
    }
#else
    std::copy(x, x + n, v.begin());
#endif
    return v;
  }

  /// poly_mul through the API, with a guard word after c.
  Vec product(const Vec& a, const Vec& b, std::uint64_t p) {
    const std::size_t lc = a.empty() || b.empty() ? 0 : a.size() + b.size() - 1;
    std::uint64_t* c = put(Vec(lc + 1, 0xdeadbeef));
    mpgpu::poly_mul(ctx_, c, put(a), a.size(), put(b), b.size(), p);
    Vec out = get(c, lc + 1);
    EXPECT_EQ(out.back(), 0xdeadbeefu) << "guard word after c overwritten";
    out.pop_back();
    return out;
  }

  std::list<Vec> host_;  // stable addresses
  std::vector<void*> device_;
};

TEST_F(PolyMul, PointwiseMatchesInt128AndMayAliasAnInput) {
  mpgpu::field::for_each_ntt_prime([&](const mpgpu::field::NttPrime& q) {
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{70001}}) {
      Vec a = random_residues(n, q.p, n), b = random_residues(n, q.p, n + 1);
      a[0] = q.p - 1;
      b[0] = q.p - 1;
      Vec want(n);
      for (std::size_t i = 0; i < n; ++i) want[i] = mulmod(a[i], b[i], q.p);
      std::uint64_t* da = put(a);
      std::uint64_t* db = put(b);
      std::uint64_t* out = put(Vec(n));
      mpgpu::ntt_pointwise_mul(ctx_, out, da, db, n, q.p);
      ASSERT_EQ(get(out, n), want) << "p " << q.p << " n " << n;
      mpgpu::ntt_pointwise_mul(ctx_, da, da, db, n, q.p);  // out == a
      ASSERT_EQ(get(da, n), want) << "aliased, p " << q.p << " n " << n;
    }
  });
  mpgpu::ntt_pointwise_mul(ctx_, nullptr, nullptr, nullptr, 0, mpgpu::field::ntt_primes62[0].p);  // count 0
}

TEST_F(PolyMul, RandomLengthsOnEveryTablePrime) {
  const std::pair<std::size_t, std::size_t> lengths[] = {
      {1, 1}, {1, 2}, {2, 1}, {1, 300}, {3, 5}, {17, 100}, {100, 17}, {33, 33}, {64, 65},
      {257, 300}, {1000, 1500}, {1024, 1025}, {4095, 1}, {3000, 2}};
  // Sanitizer-sized (support/test_size.hpp): every prime, with one pair of
  // lengths in three in rotation (each pair still meets a third of the
  // primes, of every table).
  int seed = 0;
  std::size_t index = 0;
  mpgpu::field::for_each_ntt_prime([&](const mpgpu::field::NttPrime& q) {
    for (auto [la, lb] : lengths) {
      const Vec a = random_residues(la, q.p, ++seed), b = random_residues(lb, q.p, ++seed);
      if (!mpgpu_test::sanitizer_keeps(index++, 3)) continue;
      ASSERT_EQ(product(a, b, q.p), schoolbook(a, b, q.p)) << "p " << q.p << " lengths " << la << ", " << lb;
    }
  });
}

TEST_F(PolyMul, RandomLengthsDrawn) {
  std::mt19937_64 gen(99);
  const std::uint64_t p = mpgpu::field::goldilocks.p;  // p > 2^63: sums pass 2^64
  for (int t = 0; t < mpgpu_test::sized(20, 6); ++t) {  // sanitizer-sized: 6 draws
    const std::size_t la = 1 + gen() % 700, lb = 1 + gen() % 700;
    const Vec a = random_residues(la, p, gen()), b = random_residues(lb, p, gen());
    ASSERT_EQ(product(a, b, p), schoolbook(a, b, p)) << "lengths " << la << ", " << lb;
  }
}

TEST_F(PolyMul, AllPMinusOneAndSquares) {
  for (const auto& q : mpgpu::field::ntt_primes62) {
    for (std::size_t n : {std::size_t{1}, std::size_t{40}, std::size_t{513}, std::size_t{2048}}) {
      const Vec a(n, q.p - 1), b(n + 3, q.p - 1);
      ASSERT_EQ(product(a, b, q.p), schoolbook(a, b, q.p)) << "p " << q.p << " n " << n;
      // a == b: the squaring path (one forward transform).
      const Vec x = random_residues(n, q.p, n);
      std::uint64_t* dx = put(x);
      std::uint64_t* c = put(Vec(2 * n - 1));
      mpgpu::poly_mul(ctx_, c, dx, n, dx, n, q.p);
      ASSERT_EQ(get(c, 2 * n - 1), schoolbook(x, x, q.p)) << "square, n " << n;
    }
  }
}

TEST_F(PolyMul, LengthsAtAUserPrimesTwoAdicLimit) {
  // 2^4 | 113 - 1: 8 + 9 - 1 = 16 coefficients fit, 9 + 9 - 1 = 17 do not.
  const Vec a8 = random_residues(8, kUserPrime4, 1), a9 = random_residues(9, kUserPrime4, 2);
  ASSERT_EQ(product(a8, a9, kUserPrime4), schoolbook(a8, a9, kUserPrime4));
  ASSERT_EQ(product(Vec(8, 112), Vec(9, 112), kUserPrime4), schoolbook(Vec(8, 112), Vec(9, 112), kUserPrime4));
  std::uint64_t* c = put(Vec(17, 5));
  try {
    mpgpu::poly_mul(ctx_, c, put(a9), 9, put(a9), 9, kUserPrime4);
    ADD_FAILURE() << "17 coefficients mod 113 accepted";
  } catch (const mpgpu::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("lengths 9 and 9"), std::string::npos) << what;
    EXPECT_NE(what.find("at most 2^4"), std::string::npos) << what;
  }
  EXPECT_EQ(get(c, 17), Vec(17, 5));
  // 2^16 | p - 1: 65437 + 100 - 1 = 2^16 coefficients (the NTT route).
  const Vec big = random_residues(65437, kUserPrime16, 3), small = random_residues(100, kUserPrime16, 4);
  ASSERT_EQ(product(big, small, kUserPrime16), schoolbook(big, small, kUserPrime16));
  const Vec small1 = random_residues(101, kUserPrime16, 5);
  EXPECT_THROW(mpgpu::poly_mul(ctx_, put(Vec(65537)), put(big), big.size(), put(small1), small1.size(),
                               kUserPrime16),
               mpgpu::InvalidArgument);
}

TEST_F(PolyMul, OutputMayAliasAnInput) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[1].p;
  for (std::size_t n : {std::size_t{5}, std::size_t{300}}) {
    const Vec a = random_residues(n, p, 11), b = random_residues(n, p, 12);
    const Vec want = schoolbook(a, b, p);
    Vec buf = a;
    buf.resize(2 * n - 1, 0);
    std::uint64_t* c = put(buf);  // a in the first n words of c
    mpgpu::poly_mul(ctx_, c, c, n, put(b), n, p);
    ASSERT_EQ(get(c, 2 * n - 1), want) << "c == a, n " << n;
  }
}

TEST_F(PolyMul, BatchMatchesSingleProducts) {
  const std::uint64_t p = mpgpu::field::ntt_primes31[0].p;
  for (auto [la, lb] : {std::pair<std::size_t, std::size_t>{3, 4}, {200, 130}}) {
    const std::size_t batch = 5, lc = la + lb - 1;
    const Vec a = random_residues(batch * la, p, la), b = random_residues(batch * lb, p, lb);
    std::uint64_t* c = put(Vec(batch * lc));
    mpgpu::poly_mul_batch(ctx_, c, put(a), la, put(b), lb, batch, p);
    const Vec got = get(c, batch * lc);
    for (std::size_t i = 0; i < batch; ++i) {
      const Vec ai(a.begin() + i * la, a.begin() + (i + 1) * la), bi(b.begin() + i * lb, b.begin() + (i + 1) * lb);
      ASSERT_EQ(Vec(got.begin() + i * lc, got.begin() + (i + 1) * lc), schoolbook(ai, bi, p)) << "instance " << i;
    }
  }
}

TEST_F(PolyMul, ZeroLengthsWriteNothing) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[0].p;
  std::uint64_t* c = put(Vec(4, 7));
  std::uint64_t* a = put(Vec(3, 1));
  mpgpu::poly_mul(ctx_, c, a, 0, a, 3, p);
  mpgpu::poly_mul(ctx_, c, a, 3, a, 0, p);
  mpgpu::poly_mul(ctx_, nullptr, nullptr, 0, nullptr, 0, p);
  mpgpu::poly_mul_batch(ctx_, c, a, 3, a, 3, 0, p);
  EXPECT_EQ(get(c, 4), Vec(4, 7));
}

TEST_F(PolyMul, BadArgumentsThrowAndLeaveTheOutput) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[0].p;
  Vec a = random_residues(50, p, 1);
  const Vec b = random_residues(60, p, 2);
  std::uint64_t* c = put(Vec(109, 9));
  std::uint64_t* db = put(b);
  for (std::uint64_t bad : {0ull, 1ull, 2ull, 15ull, 21ull, 1ull << 40, 561ull})
    EXPECT_THROW(mpgpu::poly_mul(ctx_, c, put(a), 50, db, 60, bad), mpgpu::InvalidArgument) << "p = " << bad;
  EXPECT_THROW(mpgpu::poly_mul(ctx_, nullptr, put(a), 50, db, 60, p), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::poly_mul(ctx_, c, put(a), std::size_t{1} << 28, db, 60, p), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::poly_mul(ctx_, c, put(a), std::size_t{1} << 40, db, 60, p), mpgpu::InvalidArgument);
  a[37] = p;  // not a residue
  try {
    mpgpu::poly_mul(ctx_, c, put(a), 50, db, 60, p);
    ADD_FAILURE() << "unreduced input accepted";
  } catch (const mpgpu::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("a[37]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(get(c, 109), Vec(109, 9));
  // Pointwise: unreduced input, partial overlap.
  std::uint64_t* da = put(a);
  EXPECT_THROW(mpgpu::ntt_pointwise_mul(ctx_, c, da, db, 50, p), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::ntt_pointwise_mul(ctx_, c, c + 1, c + 2, 10, p), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::ntt_pointwise_mul(ctx_, c, db, db, 10, 21), mpgpu::InvalidArgument);
  EXPECT_EQ(get(c, 109), Vec(109, 9));
}

// ntt_first_unreduced: the first word >= p wherever it is (first, middle,
// last, several bad words, only the last of a grid's worth), none, and an
// empty range; 64-bit and 32-bit words.
TEST_F(PolyMul, FirstUnreducedFindsTheFirstBadWord) {
  const std::uint64_t p = mpgpu::field::goldilocks.p;
  const std::size_t n = 100003;
  const Vec good = random_residues(n, p, 21);
  EXPECT_EQ(mpgpu::ntt_first_unreduced(ctx_, put(good), n, p), n);
  EXPECT_EQ(mpgpu::ntt_first_unreduced(ctx_, put(good), 0, p), 0u);
  for (std::size_t at : {std::size_t{0}, std::size_t{1}, std::size_t{4097}, n - 1}) {
    Vec x = good;
    x[at] = at % 2 ? p : ~std::uint64_t{0};
    if (at + 10 < n) x[n - 1] = p + 1;  // a later bad word is not the answer
    std::uint64_t value = 0;
    EXPECT_EQ(mpgpu::ntt_first_unreduced(ctx_, put(x), n, p, &value), at) << "at " << at;
    EXPECT_EQ(value, x[at]) << "at " << at;
  }
  // 32-bit words, two to a 64-bit word of the buffer (little-endian).
  const auto q = static_cast<std::uint32_t>(mpgpu::field::ntt_primes31[0].p);
  const std::size_t m = 2 * 5001;
  std::vector<std::uint32_t> w(m);
  std::mt19937 gen(5);
  for (auto& v : w) v = gen() % q;
  auto put32 = [&](const std::vector<std::uint32_t>& v) {
    Vec packed(v.size() / 2);
    for (std::size_t i = 0; i < packed.size(); ++i) packed[i] = v[2 * i] | std::uint64_t{v[2 * i + 1]} << 32;
    return reinterpret_cast<const std::uint32_t*>(put(packed));
  };
  EXPECT_EQ(mpgpu::ntt_first_unreduced(ctx_, put32(w), m, q), m);
  for (std::size_t at : {std::size_t{0}, std::size_t{777}, m - 1}) {
    std::vector<std::uint32_t> x = w;
    x[at] = q;
    x[m - 1] = 0xffffffffu;
    std::uint32_t value = 0;
    EXPECT_EQ(mpgpu::ntt_first_unreduced(ctx_, put32(x), m, q, &value), at) << "at " << at;
    EXPECT_EQ(value, x[at]) << "at " << at;
  }
}

}  // namespace
