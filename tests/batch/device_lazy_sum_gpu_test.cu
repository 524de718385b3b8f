// Delayed carries (mb::LazySum, add_lazy, normalize in mpgpu/batch/env.cuh)
// in a kernel, for groups larger than a warp (G = 64 .. 1024, one instance
// a block), which the CPU emulation (device_api_group_test) does not cover:
// normalize's exchange of delayed carries between warps goes through shared
// memory there. Seed 000's 6-Add chain and a long chain of all-ones sums
// (the largest delayed carries) against GMP mod 2^bits.
//
// Part of batch_ops_gpu_test (label gpu); skips itself without a device.
#include <cuda_runtime.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpgpu/batch/batch.cuh"
#include "mpgpu/context.hpp"
#include "support/cuda_assert.hpp"
#include "support/mpz.hpp"
#include "support/operands.hpp"

namespace {

namespace mb = mpgpu::batch;
using mb::word_t;
using mpgpu_test::Mpz;
using mpgpu_test::Operands;

constexpr int kLongChain = 300;

/// r6[i] = seed 000's 6-Add chain of a[i], b[i]; rl[i] = kLongChain a[i].
struct LazyBody {
  const word_t *a, *b;
  word_t *r6, *rl;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, y, r;
    if (live) {
      mb::load(env, x, a + i * E::words);
      mb::load(env, y, b + i * E::words);
    } else {
      mb::set_zero(env, x);
      mb::set_zero(env, y);
    }
    mb::LazySum<E> t1, t2, t3;
    mb::to_lazy(env, t1, x);
    mb::add_lazy(env, t1, t1, y);
    mb::add_lazy(env, t2, t1, x);
    mb::add_lazy(env, t3, t2, y);
    mb::add_lazy(env, t1, t3, t1);
    mb::add_lazy(env, t2, t1, t2);
    mb::add_lazy(env, t1, t2, t3);
    mb::normalize(env, r, t1);
    if (live) mb::store(env, r6 + i * E::words, r);
    mb::to_lazy(env, t1, x);
    for (int j = 1; j < kLongChain; ++j) mb::add_lazy(env, t1, t1, x);
    mb::normalize(env, r, t1);
    if (live) mb::store(env, rl + i * E::words, r);
  }
};

Mpz mod2exp(const Mpz& x, int bits) {
  Mpz r;
  mpz_fdiv_r_2exp(r, x, bits);
  return r;
}

template <int W, int G>
void check_lazy(unsigned long salt) {
  if (mpgpu::Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  using E = mb::Env<W, G>;
  constexpr int bits = 32 * W;
  constexpr std::size_t n = 5;
  Operands gen(salt);
  std::vector<Mpz> xs = {Mpz::all_ones(bits), gen.uniform(bits), Mpz::all_ones(bits), Mpz(), gen.runs(bits)};
  std::vector<Mpz> ys = {Mpz::all_ones(bits), gen.uniform(bits), Mpz(), gen.uniform(bits), gen.runs(bits)};
  std::vector<word_t> ha(n * W, 0), hb(n * W, 0), h6(n * W), hl(n * W);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t count = 0;
    mpz_export(ha.data() + i * W, &count, -1, sizeof(word_t), 0, 0, xs[i]);
    mpz_export(hb.data() + i * W, &count, -1, sizeof(word_t), 0, 0, ys[i]);
  }
  word_t *da = nullptr, *db = nullptr, *d6 = nullptr, *dl = nullptr;
  const std::size_t bytes = n * W * sizeof(word_t);
  CUDA_ASSERT(cudaMalloc(&da, bytes));
  CUDA_ASSERT(cudaMalloc(&db, bytes));
  CUDA_ASSERT(cudaMalloc(&d6, bytes));
  CUDA_ASSERT(cudaMalloc(&dl, bytes));
  CUDA_ASSERT(cudaMemcpy(da, ha.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemcpy(db, hb.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_ASSERT((mb::launch<E, E::comm_words>(LazyBody{da, db, d6, dl}, n, nullptr)));
  CUDA_ASSERT(cudaDeviceSynchronize());
  CUDA_ASSERT(cudaMemcpy(h6.data(), d6, bytes, cudaMemcpyDeviceToHost));
  CUDA_ASSERT(cudaMemcpy(hl.data(), dl, bytes, cudaMemcpyDeviceToHost));
  cudaFree(da);
  cudaFree(db);
  cudaFree(d6);
  cudaFree(dl);
  for (std::size_t i = 0; i < n; ++i) {
    Mpz got6, gotl, t1, t2, t3, want;
    mpz_import(got6, W, -1, sizeof(word_t), 0, 0, h6.data() + i * W);
    mpz_import(gotl, W, -1, sizeof(word_t), 0, 0, hl.data() + i * W);
    mpz_add(t1, xs[i], ys[i]);
    mpz_add(t2, t1, xs[i]);
    mpz_add(t3, t2, ys[i]);
    mpz_add(t1, t3, t1);
    mpz_add(t2, t1, t2);
    mpz_add(want, t2, t3);
    const std::string where = "Env<" + std::to_string(W) + ", " + std::to_string(G) + ">, instance " + std::to_string(i);
    EXPECT_TRUE(got6 == mod2exp(want, bits)) << "6-Add with delayed carries, " << where;
    mpz_mul_ui(want, xs[i], kLongChain);
    EXPECT_TRUE(gotl == mod2exp(want, bits)) << kLongChain << " lazy additions, " << where;
  }
}

TEST(DeviceLazySums, TwoWarps) { check_lazy<256, 64>(701); }
TEST(DeviceLazySums, EightWarps) { check_lazy<2048, 256>(702); }
TEST(DeviceLazySums, TwoToThe18BitsBlockOf1024) { check_lazy<8192, 1024>(703); }
TEST(DeviceLazySums, OneWarp) { check_lazy<512, 32>(704); }

}  // namespace
