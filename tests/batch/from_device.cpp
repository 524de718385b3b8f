// Batch::from_device_limbs: limbs already in device memory into a batch on
// the device, against GMP. The source is another batch's storage (device
// memory the library made, so the test needs no CUDA runtime of its own),
// read with its row stride, with more limbs than the class (reduced, the
// first row over the width reported), with one limb per row, and on the
// streams DLPack consumers name (the context's, the legacy default stream).
// The CPU context and host memory are refused with a reason; on the CPU
// backend only those cases run.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "batch_test.hpp"

namespace {

using namespace mpgpu_test;
using mpgpu::limb_t;

class BatchFromDevice : public BatchTest {
 protected:
  void SetUp() override {
    BatchTest::SetUp();
    if (!IsSkipped() && !on_gpu()) GTEST_SKIP() << "device memory is read on a CUDA context (the CPU case: BatchFromDeviceCpu)";
    if (!IsSkipped() && ctx().part_count() > 1)
      GTEST_SKIP() << "a context over several devices refuses device limbs (BatchSplit.SplitContextsTakeNoCallerStream)";
  }
};

TEST(BatchFromDeviceCpu, CpuContextRefusesWithAReason) {
  const std::vector<limb_t> host(8, 1);
  const Batch none;
  EXPECT_TRUE(rejects([&] { Batch::from_device_limbs(host.data(), 4, 2, 2, 128, mpgpu::Context::cpu()); },
                      "Batch::from_device_limbs", "the context is the CPU's", {&none}));
  // Even with nothing to read: the call is wrong on this context, not only its data.
  EXPECT_TRUE(rejects([&] { Batch::from_device_limbs(nullptr, 0, 1, 0, 64, mpgpu::Context::cpu()); },
                      "Batch::from_device_limbs", "the context is the CPU's", {&none}));
  EXPECT_TRUE(rejects([&] { Batch::from_device_limbs(host.data(), 4, 2, 2, 0, mpgpu::Context::cpu()); },
                      "Batch::from_device_limbs", "out of range", {&none}));
}

TEST_P(BatchFromDevice, RowsOfAnotherBatch) {
  Operands gen(61);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = std::min<std::size_t>(instances_for(bits), 24);
    const std::vector<Mpz> v = make_operands(gen, bits, n, 0);
    const Batch src = to_batch(v, bits, ctx());
    std::size_t first = 0;
    // The source's rows are stride_limbs() apart, its data limbs_per_instance() long.
    const Batch b = Batch::from_device_limbs(src.data(), n, src.limbs_per_instance(), src.stride_limbs(), bits,
                                             ctx(), nullptr, &first);
    ASSERT_TRUE(equals(b, bits, v, "from_device_limbs(another batch's rows)"));
    EXPECT_EQ(first, n) << bits << " bits: no row is over the width";
    EXPECT_NE(b.data(), src.data());
    // Its whole rows, padding included, into a narrower width: reduced.
    const std::size_t narrow = bits > 1 ? bits - 1 : 1;
    std::vector<Mpz> low(n);
    std::size_t want_first = n;
    for (std::size_t i = 0; i < n; ++i) {
      low[i] = mod2exp(v[i], narrow);
      if (want_first == n && !(low[i] == v[i])) want_first = i;
    }
    const Batch r = Batch::from_device_limbs(src.data(), n, src.stride_limbs(), 0, narrow, ctx(), ctx().stream(),
                                             &first);
    ASSERT_TRUE(equals(r, narrow, low, "from_device_limbs into a narrower width"));
    EXPECT_EQ(first, want_first) << bits << " -> " << narrow << " bits: the first row over the width";
  }
}

TEST_P(BatchFromDevice, WideRowsAndOneLimbRows) {
  Operands gen(62);
  for (std::size_t bits : {std::size_t{1}, std::size_t{64}, std::size_t{65}, std::size_t{1000}, std::size_t{3072}}) {
    // Source rows wider than the target's class, garbage in every limb.
    const std::size_t wide_bits = 64 * (mpgpu::batch_stride_limbs(bits) + 1);
    const std::size_t n = 40;
    const Batch src = Batch::random(n, wide_bits, 7, ctx());
    const Readback all = read(src);
    std::vector<Mpz> want(n), one(n);
    std::size_t want_first = n;
    for (std::size_t i = 0; i < n; ++i) {
      want[i] = mod2exp(all.values[i], bits);
      if (want_first == n && !(want[i] == all.values[i])) want_first = i;
      one[i] = mod2exp(mod2exp(all.values[i], 64), bits);
    }
    std::size_t first = 0;
    const Batch b = Batch::from_device_limbs(src.data(), n, src.limbs_per_instance(), src.stride_limbs(), bits,
                                             ctx(), nullptr, &first);
    ASSERT_TRUE(equals(b, bits, want, "from_device_limbs of rows wider than the class"));
    EXPECT_EQ(first, want_first);
    // One limb a row, on the legacy default stream (DLPack's and CUDA Array
    // Interface's stream 1): ordered after the context's stream by the call.
    const auto legacy = reinterpret_cast<mpgpu::Stream>(std::uintptr_t{1});
    const Batch o = Batch::from_device_limbs(src.data(), n, 1, src.stride_limbs(), bits, ctx(), legacy);
    ASSERT_TRUE(equals(o, bits, one, "from_device_limbs of one limb a row"));
  }
}

TEST_P(BatchFromDevice, EmptyAndZeroLimbs) {
  const Batch empty = Batch::from_device_limbs(nullptr, 0, 3, 0, 100, ctx());
  EXPECT_EQ(empty.count(), 0u);
  EXPECT_EQ(empty.bits(), 100u);
  const Batch src = Batch::random(5, 64, 3, ctx());
  const Batch zeros = Batch::from_device_limbs(src.data(), 5, 0, 2, 70, ctx());
  ASSERT_TRUE(equals(zeros, 70, std::vector<Mpz>(5), "from_device_limbs of zero limbs a row"));
}

TEST_P(BatchFromDevice, HostMemoryAndBadShapesAreRefused) {
  const std::vector<limb_t> host(64, 1);
  const Batch src = Batch::random(8, 128, 3, ctx());
  const std::vector<const Batch*> kept = {&src};
  EXPECT_TRUE(rejects([&] { Batch::from_device_limbs(host.data(), 8, 2, 2, 128, ctx()); }, "Batch::from_device_limbs",
                      "not in device memory", kept));
  EXPECT_TRUE(rejects([&] { Batch::from_device_limbs(src.data(), 8, 2, 1, 128, ctx()); }, "Batch::from_device_limbs",
                      "row_stride_limbs >= limbs_per_instance", kept));
  EXPECT_TRUE(rejects([&] { Batch::from_device_limbs(nullptr, 8, 2, 2, 128, ctx()); }, "Batch::from_device_limbs",
                      "null pointer", kept));
}

MPGPU_INSTANTIATE_ON_BACKEND(BatchFromDevice);

}  // namespace
