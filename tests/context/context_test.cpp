// Context without a GPU: the CPU backend's properties, backend strings, and
// the errors for CUDA requests that cannot be met.
#include <gmp.h>
#include <gtest/gtest.h>

#include <string>

#include "mpgpu/mpgpu.hpp"

namespace {

using mpgpu::Context;

TEST(Context, CpuProperties) {
  const Context cpu = Context::cpu();
  EXPECT_EQ(cpu.backend(), mpgpu::Backend::cpu);
  EXPECT_FALSE(cpu.is_cuda());
  EXPECT_EQ(cpu.device(), -1);
  EXPECT_EQ(cpu.stream(), nullptr);
  EXPECT_EQ(cpu.describe(), "cpu");
  EXPECT_EQ(cpu.info().backend, mpgpu::Backend::cpu);
  EXPECT_EQ(cpu.info().gmp_release, std::string(gmp_version));
  cpu.synchronize();  // nothing to wait for
}

TEST(Context, CopiesShareStateAndNewContextsDoNot) {
  const Context a = Context::cpu();
  const Context copy = a;
  EXPECT_TRUE(copy == a);
  EXPECT_FALSE(copy != a);
  EXPECT_TRUE(Context::cpu() != a);
}

TEST(Context, FromString) {
  EXPECT_EQ(Context::from_string("cpu").backend(), mpgpu::Backend::cpu);
  for (const char* bad : {"gpu", "CPU", "cuda:", "cuda:x", "cuda:-1", "cuda:1a", " cpu"})
    EXPECT_THROW(Context::from_string(bad), mpgpu::InvalidArgument) << bad;
  const Context automatic = Context::from_string("auto");
  EXPECT_EQ(automatic.is_cuda(), Context::cuda_device_count() > 0);
}

// A device index beyond int must give an mpgpu error, not std::out_of_range.
TEST(Context, HugeDeviceIndexThrowsMpgpuError) {
  EXPECT_THROW(Context::from_string("cuda:99999999999"), mpgpu::Error);
}

TEST(Context, CudaRequestsThatCannotBeMet) {
  const int count = Context::cuda_device_count();
  EXPECT_GE(count, 0);
  if (!Context::built_with_cuda()) {
    EXPECT_EQ(count, 0);
  }
  EXPECT_THROW(Context::cuda(count), mpgpu::BackendUnavailable);  // one past the last device
  EXPECT_THROW(Context::cuda(-1), mpgpu::BackendUnavailable);
  EXPECT_THROW(Context::from_string("cuda:" + std::to_string(count)), mpgpu::BackendUnavailable);
  if (count == 0) {
    EXPECT_THROW(Context::cuda(0), mpgpu::BackendUnavailable);
    EXPECT_THROW(Context::from_string("cuda"), mpgpu::BackendUnavailable);
  }
}

TEST(Context, BuildMatchesConfiguration) {
#if defined(MPGPU_TEST_EXPECT_CUDA)
  EXPECT_EQ(Context::built_with_cuda(), MPGPU_TEST_EXPECT_CUDA != 0);
#else
  GTEST_SKIP() << "configuration unknown";
#endif
}

}  // namespace
