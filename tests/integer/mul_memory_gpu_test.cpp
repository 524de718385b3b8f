// Peak device memory of huge products (docs/integer.md, "Memory"): at most
// 8x the output, the result included, the operands not. Measured with the
// high-water mark of the device's default memory pool, which the context
// allocates from (src/cuda/runtime.cu); the twiddle tables are separate
// cudaMalloc allocations cached by the context, made in a warm-up product.
// Each product is also checked exactly: all-ones operands, whose product has
// the closed form (2^a - 1)(2^b - 1) = 2^(a+b) - 2^a - 2^b + 1, put every
// coefficient at the CRT bound.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <optional>

#include "mpgpu/mpgpu.hpp"
#include "support/cuda_assert.hpp"
#include "support/integer_check.hpp"

namespace {

using mpgpu::Integer;
using mpgpu_test::Mpz;
using mpgpu_test::matches;

// Bookkeeping besides the product's own buffers: the context's carry-tile
// statuses of the final add and the pool's rounding of each allocation.
constexpr std::uint64_t kSlackBytes = std::uint64_t{8} << 20;

class MulMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    if (mpgpu::Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
    ctx_.emplace(mpgpu::Context::cuda(0));
    if (ctx_->info().free_memory < (std::size_t{4} << 30)) GTEST_SKIP() << "less than 4 GiB of device memory free";
  }

  /// Peak pool bytes of mul(a, b) (square when b is null) above what was in
  /// use before, after a warm-up product of the same shape; checks the result.
  void expect_within_eight_times(std::uint64_t a_limbs, std::uint64_t b_limbs, bool square) {
    const mpgpu::Context& ctx = *ctx_;
    const Integer a = Integer::all_ones(64 * a_limbs, ctx);
    const Integer b = Integer::all_ones(64 * b_limbs, ctx);
    auto product = [&](Integer& r) {
      if (square) mpgpu::sqr(r, a);
      else mpgpu::mul(r, a, b);
    };
    {
      Integer warm(ctx);
      product(warm);
      ctx.synchronize();
    }
    cudaMemPool_t pool = nullptr;
    CUDA_ASSERT(cudaDeviceGetDefaultMemPool(&pool, 0));
    std::uint64_t before = 0, high = 0;
    CUDA_ASSERT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &before));
    std::uint64_t reset = 0;  // resets the high-water mark to the current use
    CUDA_ASSERT(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &reset));
    Integer r(ctx);
    product(r);
    ctx.synchronize();
    CUDA_ASSERT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
    const std::uint64_t out_bytes = 8 * (a_limbs + (square ? a_limbs : b_limbs));
    const std::uint64_t peak = high - before;
    EXPECT_LE(peak, 8 * out_bytes + kSlackBytes)
        << a_limbs << " x " << (square ? a_limbs : b_limbs) << " limbs: peak " << peak << " bytes, output "
        << out_bytes << " bytes (" << double(peak) / double(out_bytes) << "x)";
    std::printf("[ memory ] %llu x %llu limbs%s: peak %.2fx the output\n", (unsigned long long)a_limbs,
                (unsigned long long)(square ? a_limbs : b_limbs), square ? " (square)" : "",
                double(peak) / double(out_bytes));
    const std::uint64_t abits = 64 * a_limbs, bbits = 64 * (square ? a_limbs : b_limbs);
    Mpz want = Mpz::pow2(abits + bbits);
    mpz_sub(want, want, Mpz::pow2(abits));
    mpz_sub(want, want, Mpz::pow2(bbits));
    mpz_add_ui(want, want, 1);
    EXPECT_TRUE(matches(r, want, false));
  }

 private:
  std::optional<mpgpu::Context> ctx_;
};

constexpr std::uint64_t kHalf = std::uint64_t{1} << 22;  // 2^28-bit operands

// The worst case of padding: the product just above a power of two (N = 2M - 2).
TEST_F(MulMemory, ProductJustAboveAPowerOfTwo) { expect_within_eight_times(kHalf + 1, kHalf + 1, false); }
TEST_F(MulMemory, SquareJustAboveAPowerOfTwo) { expect_within_eight_times(kHalf + 1, 0, true); }
// No padding (N = M).
TEST_F(MulMemory, ProductOfAPowerOfTwo) { expect_within_eight_times(kHalf, kHalf, false); }
// Unbalanced: the chunked product when its buffers fit the bound, else padded.
TEST_F(MulMemory, UnbalancedProducts) {
  expect_within_eight_times(2 * kHalf, (std::uint64_t{1} << 16) + 3, false);
  expect_within_eight_times(2 * kHalf + 12345, (std::uint64_t{1} << 20) - 7, false);
}

}  // namespace
