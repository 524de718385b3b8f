// gfp::DeviceFft (the staged, digit-major big prime FFT) against the host
// reference FFT (fft_host.hpp) for N = K, K^2, K^3, the inverse round trip,
// a cyclic convolution through it against GMP, and gfp::pointwise_mul
// against the field's product and GMP. Built twice from this
// source: gfp_fft_device_test runs the stages on the CPU context (the host
// twin of the kernels), gfp_fft_device_gpu_test (MPGPU_GFP_TEST_CUDA=1) on
// CUDA device 0 (skips without a device).
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gfp_oracle.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/gfp.hpp"
#include "mpgpu/gfp/fft_host.hpp"

#if MPGPU_GFP_TEST_CUDA
#include <cuda_runtime.h>
#endif

namespace {

using namespace gfp_test;
using mpgpu::Context;

Context test_context() {
#if MPGPU_GFP_TEST_CUDA
  return Context::cuda(0);
#else
  return Context::cpu();
#endif
}

template <class P>
class GfpDeviceFft : public ::testing::Test {
 protected:
  void SetUp() override {
#if MPGPU_GFP_TEST_CUDA
    if (Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
#endif
  }
};
using Primes = ::testing::Types<P3, P4, P5>;
TYPED_TEST_SUITE(GfpDeviceFft, Primes);

/// Runs fft.forward or fft.inverse on x (element vectors), through the
/// digit-major layout and, on CUDA, device memory.
template <int D>
void run(const mpgpu::gfp::DeviceFft& fft, std::vector<gfp::Element<D>>& x, bool forward) {
  const std::size_t n = x.size(), words = n * D;
  std::vector<std::uint64_t> dm(words);
  gfp::to_digit_major(dm.data(), &x[0].digit[0], n, D);
#if MPGPU_GFP_TEST_CUDA
  std::uint64_t* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, words * 8), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(d, dm.data(), words * 8, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // the context's stream does not wait for it
  if (forward) fft.forward(d);
  else fft.inverse(d);
  fft.context().synchronize();
  ASSERT_EQ(cudaMemcpy(dm.data(), d, words * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaFree(d), cudaSuccess);
#else
  if (forward) fft.forward(dm.data());
  else fft.inverse(dm.data());
#endif
  gfp::from_digit_major(&x[0].digit[0], dm.data(), n, D);
}

template <class C>
std::vector<typename C::Elt> random_vector(const C& c, Operands& ops, std::size_t n) {
  std::vector<typename C::Elt> v(n);
  for (auto& e : v) e = ops.below(4) == 0 ? c.edgy(ops) : c.random(ops);
  if (n > 2) v[1] = c.f.minus_one();  // the special case goes through too
  return v;
}

TYPED_TEST(GfpDeviceFft, MatchesTheHostFftAndInverts) {
  Ctx<TypeParam> c;
  constexpr int D = Ctx<TypeParam>::k;
  Operands ops(21);
  const int max_e = D == 32 ? 2 : 3;  // K^3 = 262144 elements of 2 KiB bits for k = 32: too slow on a CPU
  for (int e = 1; e <= max_e; ++e) {
    const auto plan = gfp::FftPlan<D>::make(TypeParam::prime, e);
    const mpgpu::gfp::DeviceFft fft(test_context(), TypeParam::prime, e);
    ASSERT_EQ(fft.size(), plan.n);
    ASSERT_EQ(fft.digits(), D);
    auto x = random_vector(c, ops, plan.n);
    const auto in = x;
    auto want = x;
    gfp::fft_forward(plan, want);
    run<D>(fft, x, true);
    for (std::size_t i = 0; i < plan.n; ++i) {
      ASSERT_TRUE(c.f.is_canonical(x[i])) << "N=" << plan.n << " output " << i;
      ASSERT_TRUE(x[i] == want[i]) << "N=" << plan.n << " output " << i;
    }
    run<D>(fft, x, false);
    for (std::size_t i = 0; i < plan.n; ++i) ASSERT_TRUE(x[i] == in[i]) << "round trip, N=" << plan.n << " index " << i;
  }
}

/// GMP's cyclic convolution of a and b (length n), mod p.
std::vector<Mpz> naive_cyclic(const std::vector<Mpz>& a, const std::vector<Mpz>& b, const Mpz& p) {
  const std::size_t n = a.size();
  std::vector<Mpz> c(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i].sgn() == 0) continue;
    for (std::size_t j = 0; j < n; ++j) mpz_addmul(c[(i + j) % n], a[i], b[j]);
  }
  for (auto& v : c) mpz_mod(v, v, p);
  return c;
}

TYPED_TEST(GfpDeviceFft, ConvolutionMatchesGmp) {
  Ctx<TypeParam> c;
  constexpr int D = Ctx<TypeParam>::k;
  Operands ops(22);
  for (int e : {1, 2}) {
    const mpgpu::gfp::DeviceFft fft(test_context(), TypeParam::prime, e);
    const std::size_t n = fft.size();
    auto a = random_vector(c, ops, n);
    auto b = random_vector(c, ops, n);
    if (n > 256)  // sparse a keeps GMP's side cheap
      for (std::size_t i = 0; i < n; ++i)
        if (ops.below(64) != 0) a[i] = c.f.zero();
    std::vector<Mpz> va, vb;
    for (std::size_t i = 0; i < n; ++i) {
      va.push_back(c.value(a[i]));
      vb.push_back(c.value(b[i]));
    }
    run<D>(fft, a, true);
    run<D>(fft, b, true);
    for (std::size_t i = 0; i < n; ++i) a[i] = c.f.mul(a[i], b[i]);
    run<D>(fft, a, false);
    const auto want = naive_cyclic(va, vb, c.p);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(c.value(a[i]), want[i]) << "N=" << n << " index " << i;
  }
}

/// gfp::pointwise_mul on digit-major copies of a and b (device memory on
/// CUDA): into a separate buffer, or into a's own words when `in_place`.
template <int D>
std::vector<gfp::Element<D>> pointwise(const mpgpu::gfp::GfpPrime& prime, const std::vector<gfp::Element<D>>& a,
                                       const std::vector<gfp::Element<D>>& b, bool in_place) {
  const std::size_t n = a.size(), words = n * D;
  std::vector<std::uint64_t> da(words), db(words), dc(words, 0);
  gfp::to_digit_major(da.data(), &a[0].digit[0], n, D);
  gfp::to_digit_major(db.data(), &b[0].digit[0], n, D);
  const Context ctx = test_context();
#if MPGPU_GFP_TEST_CUDA
  std::uint64_t* d = nullptr;  // a, b, c
  EXPECT_EQ(cudaMalloc(&d, 3 * words * 8), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d, da.data(), words * 8, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d + words, db.data(), words * 8, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // the context's stream does not wait for it
  std::uint64_t* out = in_place ? d : d + 2 * words;
  mpgpu::gfp::pointwise_mul(ctx, prime, out, d, d + words, n);
  ctx.synchronize();
  EXPECT_EQ(cudaMemcpy(dc.data(), out, words * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
#else
  if (in_place) {
    mpgpu::gfp::pointwise_mul(ctx, prime, da.data(), da.data(), db.data(), n);
    dc = da;
  } else {
    mpgpu::gfp::pointwise_mul(ctx, prime, dc.data(), da.data(), db.data(), n);
  }
#endif
  std::vector<gfp::Element<D>> c(n);
  gfp::from_digit_major(&c[0].digit[0], dc.data(), n, D);
  return c;
}

TYPED_TEST(GfpDeviceFft, PointwiseProductMatchesTheField) {
  Ctx<TypeParam> c;
  constexpr int D = Ctx<TypeParam>::k;
  Operands ops(23);
  // 1 element, a partial block, more than one grid-stride block of threads.
  for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
    auto a = random_vector(c, ops, n);
    auto b = random_vector(c, ops, n);
    if (n > 2) b[2] = c.f.minus_one();  // (p - 1)^2 = 1, both special
    for (bool in_place : {false, true}) {
      const auto got = pointwise<D>(TypeParam::prime, a, b, in_place);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(c.f.is_canonical(got[i])) << "n=" << n << " index " << i;
        Mpz want;
        mpz_mul(want, c.value(a[i]), c.value(b[i]));
        mpz_mod(want, want, c.p);
        ASSERT_EQ(c.value(got[i]), want) << "n=" << n << " index " << i;
      }
    }
  }
}

TEST(GfpPointwise, Rejects) {
#if MPGPU_GFP_TEST_CUDA
  if (Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
#endif
  std::uint64_t w[32] = {};
  EXPECT_THROW(mpgpu::gfp::pointwise_mul(test_context(), mpgpu::gfp::GfpPrime{62, 36, +1, 4}, w, w, w, 1),
               mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::gfp::pointwise_mul(test_context(), mpgpu::gfp::p3, nullptr, w, w, 1), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::gfp::pointwise_mul(test_context(), mpgpu::gfp::p3, w + 1, w, w, 2), mpgpu::InvalidArgument);
  mpgpu::gfp::pointwise_mul(test_context(), mpgpu::gfp::p3, nullptr, nullptr, nullptr, 0);  // nothing to do
}

TEST(GfpDeviceFftPlan, RejectsBadSizes) {
#if MPGPU_GFP_TEST_CUDA
  if (Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
#endif
  EXPECT_THROW(mpgpu::gfp::DeviceFft(test_context(), mpgpu::gfp::p3, 0), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::gfp::DeviceFft(test_context(), mpgpu::gfp::GfpPrime{62, 36, +1, 4}, 1), mpgpu::InvalidArgument);
  const mpgpu::gfp::DeviceFft fft(test_context(), mpgpu::gfp::p3, 1);
  EXPECT_THROW(fft.forward(nullptr), mpgpu::InvalidArgument);
}

}  // namespace
