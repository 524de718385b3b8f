// Context on a CUDA device: its properties and device information.
#include <gtest/gtest.h>

#include "mpgpu/mpgpu.hpp"

namespace {

using mpgpu::Context;

class CudaContext : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

TEST_F(CudaContext, Properties) {
  const Context ctx = Context::cuda(0);
  EXPECT_TRUE(ctx.is_cuda());
  EXPECT_EQ(ctx.backend(), mpgpu::Backend::cuda);
  EXPECT_EQ(ctx.device(), 0);
  EXPECT_EQ(ctx.resolve(nullptr), ctx.stream());
  EXPECT_EQ(ctx.describe().rfind("cuda:0", 0), 0u) << ctx.describe();
  const mpgpu::DeviceInfo info = ctx.info();
  EXPECT_EQ(info.backend, mpgpu::Backend::cuda);
  EXPECT_EQ(info.device, 0);
  EXPECT_FALSE(info.name.empty());
  EXPECT_GT(info.multiprocessors, 0);
  EXPECT_GT(info.total_memory, 0u);
  EXPECT_LE(info.free_memory, info.total_memory);
  EXPECT_GE(info.compute_major, 7);
  EXPECT_GT(info.runtime_version, 0);
  EXPECT_FALSE(info.gmp_release.empty());
  ctx.synchronize();
}

TEST_F(CudaContext, TuningParamsGivenAtCreation) {
  mpgpu::TuningParams p;
  p.upload_ring_bytes = 0;  // no ring: every small upload synchronizes
  p.staging_chunk_bytes = std::size_t{1} << 16;
  p.ntt_digit_limbs = 2;
  const Context ctx = Context::cuda(0, p);
  EXPECT_EQ(ctx.tuning(), p);
  const Context other = ctx.with_tuning(mpgpu::TuningParams::defaults());
  EXPECT_TRUE(other != ctx);
  EXPECT_TRUE(other.is_cuda());
  EXPECT_EQ(other.device(), 0);
  EXPECT_EQ(other.tuning(), mpgpu::TuningParams::defaults());
  EXPECT_EQ(ctx.tuning(), p);
  // Work in each context, values moved between them.
  const mpgpu::Integer x = mpgpu::Integer::from_string("123456789012345678901234567890", 10, ctx);
  EXPECT_EQ((x * x).to_context(other).to_string(), "15241578753238836750495351562536198787501905199875019052100");
}

TEST_F(CudaContext, FromStringAndSeparateStates) {
  EXPECT_TRUE(Context::from_string("cuda").is_cuda());
  EXPECT_TRUE(Context::from_string("cuda:0").is_cuda());
  EXPECT_TRUE(Context::from_string("auto").is_cuda());
  EXPECT_TRUE(Context::cuda(0) != Context::cuda(0));
  EXPECT_THROW(Context::cuda(Context::cuda_device_count()), mpgpu::BackendUnavailable);
}

}  // namespace
