// The public NTT (mpgpu/ntt.hpp) against the host plan and a naive DFT, on
// the CPU context, or on CUDA device 0 when built as ntt_api_gpu_test
// (MPGPU_NTT_TEST_CUDA=1; skips without a device).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt.hpp"
#include "ntt_test_context.hpp"
#include "mpgpu/ntt/ntt_host.hpp"

#if MPGPU_NTT_TEST_CUDA
#include <cuda_runtime.h>
#endif

namespace {

using mpgpu::Context;
using mpgpu::NttOrder;

class NttApi : public mpgpu_test::NttContextTest {
 protected:

  /// Runs forward or inverse on `data` in the test's context (copying to and
  /// from the device when on CUDA).
  void run(std::vector<std::uint64_t>& data, std::size_t batch, int log_n, std::uint64_t p, bool forward,
           NttOrder order = NttOrder::natural) {
#if MPGPU_NTT_TEST_CUDA
    std::uint64_t* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, data.size() * 8), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(d, data.data(), data.size() * 8, cudaMemcpyHostToDevice), cudaSuccess);
    // The context's stream does not wait for the legacy stream: finish the copy first.
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    if (forward) mpgpu::ntt_forward(ctx_, d, batch, log_n, p, order);
    else mpgpu::ntt_inverse(ctx_, d, batch, log_n, p, order);
    ctx_.synchronize();
    ASSERT_EQ(cudaMemcpy(data.data(), d, data.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaFree(d), cudaSuccess);
#else
    if (forward) mpgpu::ntt_forward(ctx_, data.data(), batch, log_n, p, order);
    else mpgpu::ntt_inverse(ctx_, data.data(), batch, log_n, p, order);
#endif
  }

};

std::vector<std::uint64_t> random_residues(std::size_t n, std::uint64_t p, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = gen() % p;
  return v;
}

std::uint64_t mulmod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % p);
}

TEST_F(NttApi, SmallLengthsMatchTheNaiveDft) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[0].p;
  for (int log_n = 0; log_n <= 6; ++log_n) {
    const std::size_t n = std::size_t{1} << log_n;
    std::vector<std::uint64_t> x = random_residues(n, p, 10 + log_n), y = x;
    run(y, 1, log_n, p, true);
    const auto plan = mpgpu::ntt::host_plan<mpgpu::field::PrimeField64>(p, log_n);
    const std::uint64_t w = plan->root();
    for (std::size_t k = 0; k < n; ++k) {
      std::uint64_t want = 0, wk = 1, wjk = 1;
      for (std::size_t i = 0; i < k; ++i) wk = mulmod(wk, w, p);
      for (std::size_t j = 0; j < n; ++j) {
        want = (want + mulmod(x[j], wjk, p)) % p;
        wjk = mulmod(wjk, wk, p);
      }
      ASSERT_EQ(y[k], want) << "log_n " << log_n << " index " << k;
    }
  }
}

TEST_F(NttApi, BatchesMatchTheHostPlanAndRoundTrip) {
  for (int prime = 0; prime < 3; ++prime) {
    const std::uint64_t p = mpgpu::field::ntt_primes62[prime].p;
    for (int log_n : {1, 2, 5, 10, 11, 12, 17, 19, 20}) {
      const std::size_t n = std::size_t{1} << log_n, batch = log_n <= 12 ? 3 : 1;
      std::vector<std::uint64_t> x = random_residues(n * batch, p, 100 * prime + log_n), y = x, want = x;
      mpgpu::ntt::host_plan<mpgpu::field::PrimeField64>(p, log_n)->forward(want.data(), batch);
      run(y, batch, log_n, p, true);
      ASSERT_EQ(y, want) << "forward, p #" << prime << ", log_n " << log_n;
      run(y, batch, log_n, p, false);
      ASSERT_EQ(y, x) << "round trip, p #" << prime << ", log_n " << log_n;
    }
  }
}

TEST_F(NttApi, BitReversedOrderIsAPermutationOfNatural) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[1].p;
  const int log_n = 13;
  const std::size_t n = std::size_t{1} << log_n;
  std::vector<std::uint64_t> x = random_residues(2 * n, p, 7), nat = x, rev = x;
  run(nat, 2, log_n, p, true, NttOrder::natural);
  run(rev, 2, log_n, p, true, NttOrder::bit_reversed);
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t k = 0; k < n; ++k) {
      std::size_t r = 0;
      for (int i = 0; i < log_n; ++i) r |= ((k >> i) & 1u) << (log_n - 1 - i);
      ASSERT_EQ(rev[b * n + r], nat[b * n + k]) << "index " << k;
    }
  run(rev, 2, log_n, p, false, NttOrder::bit_reversed);
  ASSERT_EQ(rev, x);
}

TEST_F(NttApi, PrimeOutsideTheTable) {
  // (2^29 + 29) * 2^16 + 1: prime, 2-adicity 16, not in the table.
  const std::uint64_t p = 35184373989377ull;
  ASSERT_EQ(mpgpu::field::find_ntt_prime(p), nullptr);
  const int log_n = 16;
  const std::size_t n = std::size_t{1} << log_n;
  EXPECT_THROW(mpgpu::ntt_forward(Context::cpu(), nullptr, 0, 17, p), mpgpu::InvalidArgument);
  std::vector<std::uint64_t> x = random_residues(n, p, 3), y = x, want = x;
  mpgpu::ntt::host_plan<mpgpu::field::PrimeField64>(p, log_n)->forward(want.data(), 1);
  run(y, 1, log_n, p, true);
  ASSERT_EQ(y, want);
  run(y, 1, log_n, p, false);
  ASSERT_EQ(y, x);
}

#if MPGPU_NTT_TEST_CUDA
TEST_F(NttApi, TwoToTheTwentyFourRoundTripOnTheDevice) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[2].p;
  const int log_n = 24;
  std::vector<std::uint64_t> x = random_residues(std::size_t{1} << log_n, p, 24), y = x;
  run(y, 1, log_n, p, true);
  std::vector<std::uint64_t> want = x;
  mpgpu::ntt::host_plan<mpgpu::field::PrimeField64>(p, log_n)->forward(want.data(), 1);
  ASSERT_EQ(y, want);
  run(y, 1, log_n, p, false);
  ASSERT_EQ(y, x);
}
#endif

TEST_F(NttApi, BadArgumentsThrow) {
  std::uint64_t dummy[4] = {1, 2, 3, 4};
  const std::uint64_t p = mpgpu::field::ntt_primes62[0].p;
  EXPECT_THROW(mpgpu::ntt_forward(Context::cpu(), dummy, 1, 29, p), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::ntt_forward(Context::cpu(), dummy, 1, -1, p), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::ntt_forward(Context::cpu(), dummy, 1, 2, 15), mpgpu::InvalidArgument);   // 2^2 does not divide 14
  EXPECT_THROW(mpgpu::ntt_forward(Context::cpu(), dummy, 1, 1, 21), mpgpu::InvalidArgument);   // not prime
  EXPECT_THROW(mpgpu::ntt_forward(Context::cpu(), dummy, 1, 1, 1ull << 40), mpgpu::InvalidArgument);  // even
  EXPECT_THROW(mpgpu::ntt_forward(Context::cpu(), nullptr, 1, 1, p), mpgpu::InvalidArgument);
  const std::uint64_t before[4] = {1, 2, 3, 4};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(dummy[i], before[i]);
}

}  // namespace
