// The public NTT on 32-bit words (mpgpu/ntt.hpp, p < 2^32) against the naive
// DFT and against the 64-bit transform of the same prime, on the CPU context,
// or on CUDA device 0 when built as ntt_api32_gpu_test (MPGPU_NTT_TEST_CUDA=1;
// skips without a device). On the device, lengths up to 2^10 take the team
// kernel (mpgpu/ntt/team_ntt32.cuh), longer ones column passes of 1 .. 6
// stages and a team pass (mpgpu/ntt/column_ntt32.cuh): both sides of that
// line, every column pass size (2^11 .. 2^16 points: one pass of 1 .. 6
// stages; 2^17 and 2^20: two), passes forced smaller, batches that leave a
// block's teams partly empty, both orders, the largest residues, primes
// above and below 2^31.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt.hpp"
#include "ntt_test_context.hpp"
#include "mpgpu/ntt/ntt_host.hpp"
#include "naive.hpp"
#include "support/test_size.hpp"

#if MPGPU_NTT_TEST_CUDA
#include <cuda_runtime.h>
#endif

namespace {

using mpgpu::Context;
using mpgpu::NttOrder;
using Words = std::vector<std::uint32_t>;

// A prime below 2^31 (lazy-reduction room) and one above (full 32-bit words).
const std::uint32_t kPrimes[] = {static_cast<std::uint32_t>(mpgpu::field::ntt_primes31[0].p),
                                 static_cast<std::uint32_t>(mpgpu::field::ntt_primes32[0].p)};

class NttApi32 : public mpgpu_test::NttContextTest {
 protected:

  /// Forward or inverse in the test's context (through device memory on CUDA).
  template <class Word>
  void run(std::vector<Word>& data, std::size_t batch, int log_n, std::uint64_t p, bool forward,
           NttOrder order = NttOrder::natural) {
#if MPGPU_NTT_TEST_CUDA
    Word* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, data.size() * sizeof(Word)), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(d, data.data(), data.size() * sizeof(Word), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // the context's stream does not wait for the copy
    if (forward) mpgpu::ntt_forward(ctx_, d, batch, log_n, static_cast<Word>(p), order);
    else mpgpu::ntt_inverse(ctx_, d, batch, log_n, static_cast<Word>(p), order);
    ctx_.synchronize();
    ASSERT_EQ(cudaMemcpy(data.data(), d, data.size() * sizeof(Word), cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaFree(d), cudaSuccess);
#else
    if (forward) mpgpu::ntt_forward(ctx_, data.data(), batch, log_n, static_cast<Word>(p), order);
    else mpgpu::ntt_inverse(ctx_, data.data(), batch, log_n, static_cast<Word>(p), order);
#endif
  }

  /// The 32-bit transform of x against the 64-bit one of the same words.
  ::testing::AssertionResult same_as_64(const Words& x, std::size_t batch, int log_n, std::uint32_t p,
                                        bool forward, NttOrder order) {
    Words got = x;
    std::vector<std::uint64_t> want(x.begin(), x.end());
    run(got, batch, log_n, p, forward, order);
    run(want, batch, log_n, p, forward, order);
    for (std::size_t i = 0; i < x.size(); ++i)
      if (got[i] != want[i])
        return ::testing::AssertionFailure() << (forward ? "forward" : "inverse") << " p " << p << " 2^" << log_n
                                             << " x " << batch << ": word " << i << " is " << got[i] << ", the 64-bit transform gives "
                                             << want[i];
    return ::testing::AssertionSuccess();
  }

};

Words random_residues(std::size_t n, std::uint32_t p, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  Words v(n);
  for (auto& x : v) x = static_cast<std::uint32_t>(gen() % p);
  return v;
}

TEST_F(NttApi32, SmallLengthsMatchTheNaiveDft) {
  for (std::uint32_t p : kPrimes)
    for (int log_n = 0; log_n <= 7; ++log_n) {
      const std::size_t n = std::size_t{1} << log_n;
      const Words x = random_residues(n, p, 10 + log_n);
      Words y = x;
      run(y, 1, log_n, p, true);
      const std::uint64_t w = mpgpu::ntt::host_plan<mpgpu::field::PrimeField64>(p, log_n)->root();
      ASSERT_EQ(y, mpgpu_test::naive_dft(x, w, p)) << "p " << p << ", 2^" << log_n;
      run(y, 1, log_n, p, false);
      ASSERT_EQ(y, x) << "round trip, p " << p << ", 2^" << log_n;
    }
}

// Sanitizer-sized (support/test_size.hpp) in both tests below: two of the
// four (direction, order) combinations a case, forward in one order and
// inverse in the other, the pairing alternating over the lengths,
// so that every length, batch and prime meets both directions and both
// orders; and no 2^20 (2^17 already takes several column passes, as below).
bool keeps(bool forward, NttOrder order, int log_n, std::size_t batch) {
  const std::size_t key = (forward ? 1 : 0) + (order == NttOrder::bit_reversed ? 1 : 0) +
                          static_cast<std::size_t>(log_n) + batch;
  return mpgpu_test::sanitizer_keeps(key, 2);
}

TEST_F(NttApi32, EveryLengthAndOrderMatchesThe64BitTransform) {
  for (std::uint32_t p : kPrimes)
    for (int log_n = 1; log_n <= 12; ++log_n)
      for (std::size_t batch : {std::size_t{1}, std::size_t{37}}) {
        const Words x = random_residues(batch << log_n, p, 1000 * log_n + batch);
        for (bool forward : {true, false})
          for (NttOrder order : {NttOrder::natural, NttOrder::bit_reversed})
            if (keeps(forward, order, log_n, batch)) {
              ASSERT_TRUE(same_as_64(x, batch, log_n, p, forward, order));
            }
      }
}

TEST_F(NttApi32, SeveralPassLengthsMatchThe64BitTransform) {
  for (std::uint32_t p : kPrimes)
    for (int log_n : mpgpu_test::sized<std::vector<int>>({11, 12, 13, 14, 15, 16, 17, 20}, {11, 12, 13, 14, 15, 16, 17}))
      for (std::size_t batch : {std::size_t{1}, std::size_t{3}}) {
        const Words x = random_residues(batch << log_n, p, 3000 * log_n + batch);
        for (bool forward : {true, false})
          for (NttOrder order : {NttOrder::natural, NttOrder::bit_reversed})
            if (keeps(forward, order, log_n, batch)) {
              ASSERT_TRUE(same_as_64(x, batch, log_n, p, forward, order));
            }
      }
}

TEST_F(NttApi32, ColumnPassesForcedSmaller) {
  // 2^17 points as column passes of at most 1, 2, 4 stages (7, 4, 2 passes),
  // each in a context whose TuningParams say so.
  for (int most : {1, 2, 4}) {
    mpgpu::TuningParams params = ctx_.tuning();
    params.ntt32_column_stages = most;
    ctx_ = ctx_.with_tuning(params);
    for (std::uint32_t p : kPrimes) {
      const Words x = random_residues(std::size_t{2} << 17, p, 4000 + p % 97);
      for (bool forward : {true, false})
        for (NttOrder order : {NttOrder::natural, NttOrder::bit_reversed})
          ASSERT_TRUE(same_as_64(x, 2, 17, p, forward, order)) << "passes of at most " << most << " stages";
    }
  }
}

TEST_F(NttApi32, LargestResiduesAndZeros) {
  for (std::uint32_t p : kPrimes)
    for (int log_n : {5, 9, 10, 11, 16}) {
      const std::size_t n = std::size_t{1} << log_n;
      Words x(3 * n, p - 1);  // p - 1 everywhere, then zeros, then alternating
      for (std::size_t i = n; i < 2 * n; ++i) x[i] = 0;
      for (std::size_t i = 2 * n; i < 3 * n; ++i) x[i] = i % 2 ? p - 1 : 1;
      ASSERT_TRUE(same_as_64(x, 3, log_n, p, true, NttOrder::natural));
      ASSERT_TRUE(same_as_64(x, 3, log_n, p, false, NttOrder::natural));
    }
}

TEST_F(NttApi32, LargeBatchRoundTrip) {
  const std::uint32_t p = kPrimes[1];
  for (int log_n : {3, 10, 16, 20})
    for (NttOrder order : {NttOrder::natural, NttOrder::bit_reversed}) {
      const std::size_t batch = (std::size_t{1} << 20) >> log_n;
      const Words x = random_residues(batch << log_n, p, 77 + log_n);
      Words y = x;
      run(y, batch, log_n, p, true, order);
      ASSERT_NE(y, x);
      run(y, batch, log_n, p, false, order);
      ASSERT_EQ(y, x) << "2^" << log_n << " x " << batch;
    }
}

TEST_F(NttApi32, BadArgumentsThrowAndLeaveTheDataAlone) {
  std::uint32_t data[4] = {1, 2, 3, 4};
  const std::uint32_t p = kPrimes[0];
  const Context cpu = Context::cpu();
  EXPECT_THROW(mpgpu::ntt_forward(cpu, data, 1, 29, p), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::ntt_forward(cpu, data, 1, -1, p), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::ntt_forward(cpu, data, 1, 1, std::uint32_t{21}), mpgpu::InvalidArgument);  // not prime
  EXPECT_THROW(mpgpu::ntt_forward(cpu, data, 1, 1, std::uint32_t{1u << 20}), mpgpu::InvalidArgument);  // even
  // 7681 = 15 * 2^9 + 1: prime, lengths up to 2^9 only.
  EXPECT_THROW(mpgpu::ntt_forward(cpu, data, 1, 10, std::uint32_t{7681}), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::ntt_inverse(cpu, static_cast<std::uint32_t*>(nullptr), 1, 1, p), mpgpu::InvalidArgument);
  const std::uint32_t before[4] = {1, 2, 3, 4};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(data[i], before[i]);
  // A prime outside the table works: 7681 at 2^9.
  Words x = random_residues(512, 7681, 5), y = x;
  run(y, 1, 9, 7681, true);
  run(y, 1, 9, 7681, false);
  EXPECT_EQ(y, x);
}

}  // namespace
