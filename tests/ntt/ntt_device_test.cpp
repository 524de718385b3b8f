// The device NTT (include/mpgpu/ntt/block_ntt.cuh through the public API)
// against the host plan: every log_n from 0 to 24, both orders, forward and
// inverse, batches (including partial tiles), primes on the lazy path (31-
// and 62-bit) and on the canonical one (Goldilocks > 2^62), maximal
// residues, and the pass schedule itself (host only). Skips without a device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "mpgpu/context.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt.hpp"
#include "mpgpu/ntt/ntt_host.hpp"
#include "support/test_size.hpp"

namespace {

using mpgpu::Context;
using mpgpu::NttOrder;
using mpgpu_test::sized;

// Sanitizer-sized (support/test_size.hpp), by the pass schedule of
// ntt/block_plan.hpp (block_passes): one pass up to 2^13 points, two from
// 2^14, three from 2^23 in natural order and from 2^24 bit-reversed. The
// lengths kept reach each side of each of those lines; the others (and
// the host reference's minutes of 2^25 and 2^26) are dropped.

std::vector<std::uint64_t> random_residues(std::size_t n, std::uint64_t p, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = gen() % p;
  return v;
}

std::size_t bit_reverse(std::size_t k, int bits) {
  std::size_t r = 0;
  for (int i = 0; i < bits; ++i) r |= ((k >> i) & 1u) << (bits - 1 - i);
  return r;
}

/// Forward on the host in the given order.
std::vector<std::uint64_t> host_forward(std::vector<std::uint64_t> x, std::size_t batch, int log_n, std::uint64_t p,
                                        NttOrder order) {
  mpgpu::ntt_forward(Context::cpu(), x.data(), batch, log_n, p, order);
  return x;
}

class NttDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
    ctx_ = Context::cuda(0);
  }
  /// Runs the transform on a device copy of `data` (with guard words on
  /// both sides, checked untouched) and copies the result back.
  void run(std::vector<std::uint64_t>& data, std::size_t batch, int log_n, std::uint64_t p, bool forward,
           NttOrder order) {
    constexpr std::size_t kGuard = 64;
    constexpr std::uint64_t kGuardWord = 0x5a5a5a5a5a5a5a5aull;
    std::vector<std::uint64_t> buf(data.size() + 2 * kGuard, kGuardWord);
    std::copy(data.begin(), data.end(), buf.begin() + kGuard);
    std::uint64_t* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, buf.size() * 8), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(d, buf.data(), buf.size() * 8, cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // the context's stream does not wait for the legacy one
    if (forward) mpgpu::ntt_forward(ctx_, d + kGuard, batch, log_n, p, order);
    else mpgpu::ntt_inverse(ctx_, d + kGuard, batch, log_n, p, order);
    ctx_.synchronize();
    ASSERT_EQ(cudaMemcpy(buf.data(), d, buf.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaFree(d), cudaSuccess);
    for (std::size_t i = 0; i < kGuard; ++i) {
      ASSERT_EQ(buf[i], kGuardWord) << "guard before the data, word " << i;
      ASSERT_EQ(buf[buf.size() - 1 - i], kGuardWord) << "guard after the data";
    }
    std::copy(buf.begin() + kGuard, buf.end() - kGuard, data.begin());
  }
  /// Forward in `order` against the host, then the inverse back to x.
  void check(std::uint64_t p, int log_n, std::size_t batch, NttOrder order, std::uint64_t seed, bool maximal = false) {
    const std::size_t n = std::size_t{1} << log_n;
    std::vector<std::uint64_t> x = random_residues(n * batch, p, seed);
    if (maximal) std::fill(x.begin(), x.begin() + n, p - 1);
    const std::vector<std::uint64_t> want = host_forward(x, batch, log_n, p, order);
    std::vector<std::uint64_t> y = x;
    run(y, batch, log_n, p, true, order);
    for (std::size_t i = 0; i < y.size(); ++i)
      ASSERT_EQ(y[i], want[i]) << "forward, p " << p << ", log_n " << log_n << ", batch " << batch << ", "
                               << (order == NttOrder::natural ? "natural" : "bit-reversed") << ", index " << i;
    run(y, batch, log_n, p, false, order);
    for (std::size_t i = 0; i < y.size(); ++i)
      ASSERT_EQ(y[i], x[i]) << "round trip, p " << p << ", log_n " << log_n << ", batch " << batch << ", index " << i;
  }
  Context ctx_ = Context::cpu();
};

TEST_F(NttDevice, EveryLengthUpTo2To24BothOrders) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[0].p;
  std::vector<int> lengths;
  for (int log_n = 0; log_n <= 24; ++log_n)
    if (!mpgpu_test::sanitizer_sized() || log_n <= 14 || log_n == 17 || log_n == 22 || log_n == 23)
      lengths.push_back(log_n);
  for (int log_n : lengths)
    for (NttOrder order : {NttOrder::natural, NttOrder::bit_reversed}) {
      check(p, log_n, 1, order, 1000 + log_n, log_n % 4 == 1);
      if (HasFatalFailure()) return;
    }
}

TEST_F(NttDevice, BatchesAndPartialTiles) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[1].p;
  // A single-pass tile holds up to 2^(11 - log_n) transforms: batches of 1,
  // exactly one tile, one more, and odd counts.
  for (int log_n : {1, 2, 3, 5, 8, 10, 11, 12, 13, 14, 16})
    for (std::size_t batch : {std::size_t{3}, std::size_t{7}, (std::size_t{1} << (11 - std::min(log_n, 11))) + 1})
      for (NttOrder order : {NttOrder::natural, NttOrder::bit_reversed}) {
        check(p, log_n, batch, order, 7 * log_n + batch);
        if (HasFatalFailure()) return;
      }
}

TEST_F(NttDevice, OtherPrimesLazyAndCanonicalPaths) {
  const std::uint64_t primes[] = {mpgpu::field::ntt_primes31[0].p, mpgpu::field::ntt_primes32[0].p,
                                  mpgpu::field::ntt_primes62[2].p, mpgpu::field::goldilocks.p};
  for (std::uint64_t p : primes)
    for (int log_n : sized<std::vector<int>>({1, 4, 7, 11, 13, 14, 17, 20}, {1, 4, 7, 11, 13, 14, 17}))
      for (NttOrder order : {NttOrder::natural, NttOrder::bit_reversed}) {
        check(p, log_n, log_n <= 13 ? 5 : 2, order, p % 1000 + log_n, true);
        if (HasFatalFailure()) return;
      }
}

TEST_F(NttDevice, ThreePassLengths) {
  // 2^25 natural and 2^26 both orders take three passes. Sanitizer-sized:
  // 2^24 in both orders, the shortest that takes three passes in both.
  const std::uint64_t p = mpgpu::field::ntt_primes62[2].p;
  check(p, sized(25, 24), 1, NttOrder::natural, 25);
  if (HasFatalFailure()) return;
  check(p, sized(26, 24), 1, NttOrder::bit_reversed, 26);
}

TEST_F(NttDevice, BitReversedIsAPermutationOfNatural) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[0].p;
  for (int log_n : sized<std::vector<int>>({12, 15, 24}, {12, 15, 20})) {
    const std::size_t n = std::size_t{1} << log_n;
    std::vector<std::uint64_t> x = random_residues(n, p, log_n), nat = x, rev = x;
    run(nat, 1, log_n, p, true, NttOrder::natural);
    run(rev, 1, log_n, p, true, NttOrder::bit_reversed);
    for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(rev[bit_reverse(k, log_n)], nat[k]) << "log_n " << log_n;
  }
}

}  // namespace
