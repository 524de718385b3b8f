// Context on a CUDA device: its properties and device information.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

// "cuda:all" and "cuda:N,M": one ordinary context a device; the first
// stands for the whole (device(), stream(), Integers).
TEST_F(CudaContext, SeveralDevices) {
  const int count = Context::cuda_device_count();
  const Context all = Context::from_string("cuda:all");
  EXPECT_EQ(all.part_count(), static_cast<std::size_t>(count));
  EXPECT_TRUE(all.is_cuda());
  EXPECT_EQ(all.device(), 0);
  ASSERT_EQ(all.devices().size(), static_cast<std::size_t>(count));
  for (int d = 0; d < count; ++d) {
    EXPECT_EQ(all.devices()[static_cast<std::size_t>(d)], d);
    EXPECT_EQ(all.part(static_cast<std::size_t>(d)).device(), d);
  }
  EXPECT_EQ(all.describe().rfind("cuda:0", 0), 0u) << all.describe();
  EXPECT_THROW(Context::from_string("cuda:0," + std::to_string(count)), mpgpu::BackendUnavailable);
  if (count < 2) GTEST_SKIP() << "one CUDA device: \"cuda:all\" is cuda:0";
  EXPECT_EQ(all.stream(), all.part(0).stream());
  EXPECT_EQ(all.describe().rfind("cuda:0,1", 0), 0u) << all.describe();
  const Context reversed = Context::from_string("cuda:1,0");
  EXPECT_EQ(reversed.device(), 1);
  EXPECT_EQ(reversed.devices(), (std::vector<int>{1, 0}));
  EXPECT_EQ(reversed.info().device, 1);
  // Integers live on the first device.
  const mpgpu::Integer x = mpgpu::Integer::from_string("123456789012345678901234567890", 10, reversed);
  EXPECT_EQ((x * x).to_string(), "15241578753238836750495351562536198787501905199875019052100");
  const Context other = reversed.with_tuning(mpgpu::TuningParams::defaults());
  EXPECT_EQ(other.devices(), reversed.devices());
  EXPECT_TRUE(other != reversed);
  all.synchronize();
}

TEST_F(CudaContext, FromStringAndSeparateStates) {
  EXPECT_TRUE(Context::from_string("cuda").is_cuda());
  EXPECT_TRUE(Context::from_string("cuda:0").is_cuda());
  EXPECT_TRUE(Context::from_string("auto").is_cuda());
  EXPECT_TRUE(Context::cuda(0) != Context::cuda(0));
  EXPECT_THROW(Context::cuda(Context::cuda_device_count()), mpgpu::BackendUnavailable);
}

}  // namespace
