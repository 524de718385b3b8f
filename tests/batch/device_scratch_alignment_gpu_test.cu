// Staged products and squares (mul.cuh) over a scratch area that is not
// 16-byte aligned. The paired runs read their chunks with 16-byte loads when
// the staged operands are aligned (every launch skeleton's scratch is) and
// with word loads otherwise; a user's kernel may hand Env any word-aligned
// scratch pointer, and only the GPU runs the 16-byte path, so both are
// checked here against GMP: mul, sqr, mul_wide and sqr_wide, for classes of
// 4, 8 and 16 words a thread (Q = 2, 4 and 8 columns a run), at an offset
// of one word and with none.
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

constexpr int kThreads = 128;
constexpr int kResults = 6;  // mul, sqr, mul_wide low / high, sqr_wide low / high

/// Instance i's Env over its scratch slot plus `offset` words; results k at
/// r + (k count + i) W.
template <class E>
__global__ void products_kernel(const word_t* a, const word_t* b, word_t* r, std::size_t count, int offset) {
  extern __shared__ __align__(16) word_t smem[];
  constexpr int per_block = kThreads / E::threads;
  constexpr int slot = E::product_scratch_words + 4;  // room for the offset
  const int local = static_cast<int>(threadIdx.x) / E::threads;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * per_block + local;
  const bool live = i < count;
  E env(static_cast<int>(threadIdx.x) % E::threads, smem + local * slot + offset);
  typename E::Num x, y, lo, hi;
  if (live) mb::load(env, x, a + i * E::words), mb::load(env, y, b + i * E::words);
  else mb::set_zero(env, x), mb::set_zero(env, y);
  auto out = [&](int k, const typename E::Num& v) {
    if (live) mb::store(env, r + (k * count + i) * E::words, v);
  };
  mb::mul(env, lo, x, y);
  out(0, lo);
  mb::sqr(env, lo, x);
  out(1, lo);
  mb::mul_wide(env, lo, hi, x, y);
  out(2, lo);
  out(3, hi);
  mb::sqr_wide(env, lo, hi, y);
  out(4, lo);
  out(5, hi);
}

template <int W, int G>
void check_products(int offset, unsigned long salt) {
  if (mpgpu::Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  using E = mb::Env<W, G>;
  static_assert(G <= 32 && kThreads % G == 0, "groups of a warp or less, several a block");
  constexpr int bits = 32 * W;
  Operands gen(salt);
  // Adversarial and random operands; more than a block's instances, the last block partly
  // filled.
  std::vector<Mpz> xs = {Mpz::all_ones(bits), Mpz(), Mpz::pow2(bits - 1), Mpz::all_ones(bits)};
  std::vector<Mpz> ys = {Mpz::all_ones(bits), gen.uniform(bits), Mpz::pow2(bits - 1), Mpz()};
  const std::size_t n = kThreads / G + 5;
  while (xs.size() < n) {
    xs.push_back(xs.size() % 2 ? gen.runs(bits) : gen.uniform(bits));
    ys.push_back(ys.size() % 3 ? gen.uniform(bits) : gen.runs(bits));
  }
  std::vector<word_t> ha(n * W, 0), hb(n * W, 0), hr(kResults * n * W);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t written = 0;
    mpz_export(ha.data() + i * W, &written, -1, sizeof(word_t), 0, 0, xs[i]);
    mpz_export(hb.data() + i * W, &written, -1, sizeof(word_t), 0, 0, ys[i]);
  }
  word_t *da = nullptr, *db = nullptr, *dr = nullptr;
  const std::size_t bytes = n * W * sizeof(word_t);
  CUDA_ASSERT(cudaMalloc(&da, bytes));
  CUDA_ASSERT(cudaMalloc(&db, bytes));
  CUDA_ASSERT(cudaMalloc(&dr, kResults * bytes));
  CUDA_ASSERT(cudaMemcpy(da, ha.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemcpy(db, hb.data(), bytes, cudaMemcpyHostToDevice));
  constexpr int per_block = kThreads / G;
  const std::size_t smem = per_block * (E::product_scratch_words + 4) * sizeof(word_t);
  const unsigned blocks = static_cast<unsigned>((n + per_block - 1) / per_block);
  CUDA_ASSERT(cudaFuncSetAttribute(products_kernel<E>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(smem)));
  products_kernel<E><<<blocks, kThreads, smem>>>(da, db, dr, n, offset);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  CUDA_ASSERT(cudaMemcpy(hr.data(), dr, kResults * bytes, cudaMemcpyDeviceToHost));
  cudaFree(da);
  cudaFree(db);
  cudaFree(dr);
  const char* names[kResults] = {"mul", "sqr", "mul_wide low", "mul_wide high", "sqr_wide low", "sqr_wide high"};
  for (std::size_t i = 0; i < n; ++i) {
    Mpz product, square;
    mpz_mul(product, xs[i], ys[i]);
    mpz_mul(square, ys[i], ys[i]);
    Mpz want[kResults];
    mpz_fdiv_r_2exp(want[2], product, bits);
    mpz_fdiv_q_2exp(want[3], product, bits);
    mpz_fdiv_r_2exp(want[4], square, bits);
    mpz_fdiv_q_2exp(want[5], square, bits);
    mpz_set(want[0], want[2]);
    mpz_mul(square, xs[i], xs[i]);
    mpz_fdiv_r_2exp(want[1], square, bits);
    for (int k = 0; k < kResults; ++k) {
      Mpz got;
      mpz_import(got, W, -1, sizeof(word_t), 0, 0, hr.data() + (k * n + i) * W);
      EXPECT_TRUE(got == want[k]) << names[k] << ", Env<" << W << ", " << G << ">, scratch offset " << offset
                                  << " words, instance " << i;
    }
  }
}

TEST(DeviceScratchAlignment, FourWordsAThreadOffsetByOneWord) { check_products<64, 16>(1, 801); }
TEST(DeviceScratchAlignment, EightWordsAThreadOffsetByOneWord) { check_products<64, 8>(1, 802); }
TEST(DeviceScratchAlignment, EightWordsAThreadAligned) { check_products<64, 8>(0, 803); }
TEST(DeviceScratchAlignment, SixteenWordsAThreadOffsetByOneWord) { check_products<256, 16>(1, 804); }
TEST(DeviceScratchAlignment, SixteenWordsAThreadAligned) { check_products<256, 16>(0, 805); }

}  // namespace
