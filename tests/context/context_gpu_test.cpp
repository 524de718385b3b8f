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

TEST_F(CudaContext, FromStringAndSeparateStates) {
  EXPECT_TRUE(Context::from_string("cuda").is_cuda());
  EXPECT_TRUE(Context::from_string("cuda:0").is_cuda());
  EXPECT_TRUE(Context::from_string("auto").is_cuda());
  EXPECT_TRUE(Context::cuda(0) != Context::cuda(0));
  EXPECT_THROW(Context::cuda(Context::cuda_device_count()), mpgpu::BackendUnavailable);
}

}  // namespace
