// The context of the public NTT tests, whose sources build twice: the CPU
// context, or CUDA device 0 when built with MPGPU_NTT_TEST_CUDA=1 (then the
// tests skip without a device).
#pragma once

#include <gtest/gtest.h>

#include "mpgpu/context.hpp"

namespace mpgpu_test {

class NttContextTest : public ::testing::Test {
 protected:
  void SetUp() override {
#if MPGPU_NTT_TEST_CUDA
    if (mpgpu::Context::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
    ctx_ = mpgpu::Context::cuda(0);
#else
    ctx_ = mpgpu::Context::cpu();
#endif
  }

  mpgpu::Context ctx_ = mpgpu::Context::cpu();
};

}  // namespace mpgpu_test
