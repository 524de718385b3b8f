// Context without a GPU: the CPU backend's properties, backend strings, and
// the errors for CUDA requests that cannot be met.
#include <gmp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

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

/// `call` throws E whose message contains `part`.
template <class E>
::testing::AssertionResult throws_saying(const std::function<void()>& call, const std::string& part) {
  try {
    call();
  } catch (const E& e) {
    if (std::string(e.what()).find(part) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "message \"" << e.what() << "\" does not say \"" << part << "\"";
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "another exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "no exception (expected one saying \"" << part << "\")";
}

// Specs of several devices are parsed, and their errors explained, before
// any device is asked for: the same answers on every machine.
TEST(Context, FromStringSeveralDevicesBadSpecs) {
  using mpgpu::InvalidArgument;
  for (const char* bad : {"cuda:0,", "cuda:,1", "cuda:0,,1", "cuda:0,x", "cuda:0;1", "cuda:0, 1", "cuda:ALL",
                          "cuda:all,0", "cuda:0,-1", "cuda:0,1234567"})
    EXPECT_THROW(Context::from_string(bad), InvalidArgument) << bad;
  EXPECT_TRUE(throws_saying<InvalidArgument>([] { Context::from_string("cuda:"); }, "empty device index in \"cuda:\""));
  EXPECT_TRUE(throws_saying<InvalidArgument>([] { Context::from_string("cuda:0,x"); }, "bad device index \"x\""));
  EXPECT_TRUE(throws_saying<InvalidArgument>([] { Context::from_string("cuda:0,0"); }, "device 0 is listed twice"));
  EXPECT_TRUE(throws_saying<InvalidArgument>([] { Context::from_string("cuda:1,0,1"); }, "device 1 is listed twice"));
  EXPECT_TRUE(throws_saying<InvalidArgument>([] { Context::cuda_devices({}); }, "no device given"));
  EXPECT_TRUE(throws_saying<InvalidArgument>([] { Context::cuda_devices({2, 2}); }, "device 2 is listed twice"));
}

TEST(Context, FromStringSeveralDevicesThatCannotBeMet) {
  using mpgpu::BackendUnavailable;
  const int count = Context::cuda_device_count();
  // One past the last device beside another (without devices, two devices
  // that do not exist).
  const int other = count == 0 ? 1 : 0;
  const std::string spec = "cuda:" + std::to_string(other) + "," + std::to_string(count);
  EXPECT_TRUE(throws_saying<BackendUnavailable>([&] { Context::from_string(spec); },
                                                Context::built_with_cuda() ? "requested, but" : "built without"))
      << spec;
  EXPECT_THROW(Context::cuda_devices({other, count}), BackendUnavailable);
  if (!Context::built_with_cuda()) {
    // As "cuda:0" is: the build has no CUDA backend.
    EXPECT_TRUE(throws_saying<BackendUnavailable>([] { Context::from_string("cuda:0,1"); }, "built without"));
    EXPECT_TRUE(throws_saying<BackendUnavailable>([] { Context::from_string("cuda:all"); }, "built without"));
    EXPECT_TRUE(throws_saying<BackendUnavailable>([] { Context::from_string("cuda:0"); }, "built without"));
  } else if (count == 0) {
    EXPECT_TRUE(throws_saying<BackendUnavailable>([] { Context::from_string("cuda:all"); }, "no CUDA device"));
  }
}

TEST(Context, OrdinaryContextsHaveOnePart) {
  const Context cpu = Context::cpu();
  EXPECT_EQ(cpu.part_count(), 1u);
  EXPECT_TRUE(cpu.part(0) == cpu);
  EXPECT_TRUE(cpu.devices().empty());
  EXPECT_THROW(cpu.part(1), mpgpu::InvalidArgument);
}

// A context over parts, made of CPU contexts (the tests' way to run the
// split without a GPU): its first part stands for it.
TEST(Context, SplitOverCpuParts) {
  using mpgpu::detail::ContextAccess;
  const mpgpu::TuningParams params = mpgpu::TuningParams::defaults();
  const Context p0 = Context::cpu(params), p1 = Context::cpu(params);
  const Context split = ContextAccess::split({p0, p1}, params);
  EXPECT_EQ(split.part_count(), 2u);
  EXPECT_TRUE(split.part(0) == p0);
  EXPECT_TRUE(split.part(1) == p1);
  EXPECT_TRUE(split != p0);
  EXPECT_THROW(split.part(2), mpgpu::InvalidArgument);
  EXPECT_FALSE(split.is_cuda());
  EXPECT_EQ(split.device(), -1);
  EXPECT_TRUE(split.devices().empty());
  EXPECT_EQ(split.stream(), nullptr);
  EXPECT_EQ(split.describe(), "cpu,cpu");
  EXPECT_TRUE(&ContextAccess::state(split) == &ContextAccess::state(p0));  // Integers live on part 0
  split.synchronize();
  const Context twin = split.with_tuning(params);
  EXPECT_TRUE(twin != split);
  EXPECT_EQ(twin.part_count(), 2u);
  EXPECT_TRUE(twin.part(0) != p0);
  // Integers work in it, on its first part.
  const mpgpu::Integer x = mpgpu::Integer::from_string("123456789012345678901234567890", 10, split);
  EXPECT_EQ((x * x).to_string(), "15241578753238836750495351562536198787501905199875019052100");
  // Two parts at least, each once, none itself split.
  EXPECT_THROW(ContextAccess::split({p0}, params), mpgpu::InvalidArgument);
  EXPECT_THROW(ContextAccess::split({p0, p0}, params), mpgpu::InvalidArgument);
  EXPECT_THROW(ContextAccess::split({split, p1}, params), mpgpu::InvalidArgument);
}

TEST(Context, BuildMatchesConfiguration) {
#if defined(MPGPU_TEST_EXPECT_CUDA)
  EXPECT_EQ(Context::built_with_cuda(), MPGPU_TEST_EXPECT_CUDA != 0);
#else
  GTEST_SKIP() << "configuration unknown";
#endif
}

}  // namespace
