// launch_staged (mpgpu/batch/launch_staged.cuh): persistent blocks with the
// operands of the next instances queued into shared memory. Seed 000's 6-Add
// chain and a subtraction of the third input, through two and three stages,
// against GMP mod 2^bits; instance counts below, at and above the number of
// resident blocks (every stage refilled many times, the last ones partly
// empty), all-ones, zero and sparse operands; a misaligned input is refused.
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

/// r[i] = 6-Add(a[i], b[i]) (kSub: - c[i]) mod 2^bits, operands from the stages.
template <bool kSub>
struct ChainBody {
  word_t* r;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, const word_t* const* staged) const {
    typename E::Num x, y, t1, t2, t3;
    mb::load(env, x, staged[0]);
    mb::load(env, y, staged[1]);
    mb::add(env, t1, x, y);
    mb::add(env, t2, t1, x);
    mb::add(env, t3, t2, y);
    mb::add(env, t1, t3, t1);
    mb::add(env, t2, t1, t2);
    mb::add(env, t1, t2, t3);
    if constexpr (kSub) {
      mb::load(env, x, staged[2]);
      mb::sub(env, t1, t1, x);
    }
    mb::store(env, r + i * E::words, t1);
  }
};

Mpz mod2exp(const Mpz& x, int bits) {
  Mpz r;
  mpz_fdiv_r_2exp(r, x, bits);
  return r;
}

template <int W, int G, int kStages, int kInputs = 3>
void check_staged(std::size_t n, unsigned long salt) {
  if (mpgpu::Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  using E = mb::Env<W, G>;
  constexpr int bits = 32 * W;
  Operands gen(salt);
  std::vector<Mpz> xs(n), ys(n), zs(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (i % 5) {
      case 0: xs[i] = Mpz::all_ones(bits), ys[i] = Mpz::all_ones(bits), zs[i] = Mpz(); break;
      case 1: xs[i] = Mpz(), ys[i] = gen.runs(bits), zs[i] = Mpz::all_ones(bits); break;
      default: xs[i] = gen.uniform(bits), ys[i] = gen.uniform(bits), zs[i] = gen.uniform(bits); break;
    }
  }
  std::vector<word_t> host[3];
  for (auto& h : host) h.assign(n * W, 0);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t count = 0;
    mpz_export(host[0].data() + i * W, &count, -1, sizeof(word_t), 0, 0, xs[i]);
    mpz_export(host[1].data() + i * W, &count, -1, sizeof(word_t), 0, 0, ys[i]);
    mpz_export(host[2].data() + i * W, &count, -1, sizeof(word_t), 0, 0, zs[i]);
  }
  const std::size_t bytes = n * W * sizeof(word_t);
  word_t* dev[3] = {};
  word_t* dr = nullptr;
  for (int k = 0; k < 3; ++k) {
    CUDA_ASSERT(cudaMalloc(&dev[k], bytes + 16));  // + 16: room for the misaligned view below
    CUDA_ASSERT(cudaMemcpy(dev[k], host[k].data(), bytes, cudaMemcpyHostToDevice));
  }
  CUDA_ASSERT(cudaMalloc(&dr, bytes));
  CUDA_ASSERT(cudaMemset(dr, 0, bytes));
  constexpr bool kSub = kInputs == 3;
  const word_t* inputs[kInputs];
  for (int k = 0; k < kInputs; ++k) inputs[k] = dev[k];
  CUDA_ASSERT((mb::launch_staged<E, kInputs, kStages>(ChainBody<kSub>{dr}, inputs, n, nullptr)));
  CUDA_ASSERT(cudaDeviceSynchronize());
  std::vector<word_t> hr(n * W);
  CUDA_ASSERT(cudaMemcpy(hr.data(), dr, bytes, cudaMemcpyDeviceToHost));
  // A misaligned input: refused before any launch, the result untouched.
  const word_t* shifted[kInputs];
  for (int k = 0; k < kInputs; ++k) shifted[k] = dev[k] + (k == kInputs - 1 ? 1 : 0);
  EXPECT_EQ((mb::launch_staged<E, kInputs, kStages>(ChainBody<kSub>{dr}, shifted, n, nullptr)), cudaErrorInvalidValue);
  EXPECT_EQ((mb::launch_staged<E, kInputs, kStages>(ChainBody<kSub>{dr}, inputs, 0, nullptr)), cudaSuccess);
  CUDA_ASSERT(cudaDeviceSynchronize());
  std::vector<word_t> again(n * W);
  CUDA_ASSERT(cudaMemcpy(again.data(), dr, bytes, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(again == hr) << "a refused or empty launch wrote the result";
  for (auto* p : dev) cudaFree(p);
  cudaFree(dr);
  for (std::size_t i = 0; i < n; ++i) {
    Mpz got, t1, t2, t3, want;
    mpz_import(got, W, -1, sizeof(word_t), 0, 0, hr.data() + i * W);
    mpz_add(t1, xs[i], ys[i]);
    mpz_add(t2, t1, xs[i]);
    mpz_add(t3, t2, ys[i]);
    mpz_add(t1, t3, t1);
    mpz_add(t2, t1, t2);
    mpz_add(want, t2, t3);
    if (kSub) mpz_sub(want, want, zs[i]);
    ASSERT_TRUE(got == mod2exp(want, bits))
        << "Env<" << W << ", " << G << ">, " << kStages << " stages, " << n << " instances: instance " << i;
  }
}

// 132 SMs hold 132-1056 blocks of these classes: counts on both sides.
TEST(DeviceLaunchStaged, TwoWarpsFewInstances) { check_staged<256, 64, 3>(7, 801); }
TEST(DeviceLaunchStaged, TwoWarpsManyInstances) { check_staged<256, 64, 3>(5000, 802); }
TEST(DeviceLaunchStaged, TwoStages) { check_staged<256, 64, 2>(3001, 803); }
TEST(DeviceLaunchStaged, TwoToThe17Bits) { check_staged<4096, 512, 3, 2>(400, 804); }
// seed 000's 6-Add at 2^18 bits as batch_seed000 runs it (two inputs, three stages: 192 KiB).
TEST(DeviceLaunchStaged, TwoToThe18Bits) { check_staged<8192, 1024, 3, 2>(300, 805); }
TEST(DeviceLaunchStaged, TwoToThe18BitsThreeInputs) { check_staged<8192, 1024, 2, 3>(200, 806); }

// Three stages of three 2^18-bit inputs (288 KiB) exceed an SM's shared
// memory: an error from the launcher, the error state cleared, nothing written.
TEST(DeviceLaunchStaged, StagesLargerThanSharedMemory) {
  if (mpgpu::Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  using E = mb::Env<8192, 1024>;
  word_t* d = nullptr;
  CUDA_ASSERT(cudaMalloc(&d, 3 * E::words * sizeof(word_t)));
  const word_t* inputs[3] = {d, d + E::words, d + 2 * E::words};
  EXPECT_NE((mb::launch_staged<E, 3, 3>(ChainBody<true>{d}, inputs, 1, nullptr)), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  cudaFree(d);
}

}  // namespace
