// Batch::from_device_limbs: limbs already in device memory into a batch on
// the device, against GMP. The source is another batch's storage (device
// memory the library made, so the test needs no CUDA runtime of its own),
// read with its row stride, with more limbs than the class (reduced, the
// first row over the width reported), with one limb per row, and on the
// streams DLPack consumers name (the context's, the legacy default stream).
// The CPU context and host memory are refused with a reason; on the CPU
// backend only those cases run. Batch::adopt_device_limbs too: the memory
// itself becomes the batch (the same pointer), the keeper lives as long as
// the last batch sharing it, rows with bits above the width are not adopted.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
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

// ---- adopt_device_limbs: the memory itself becomes the storage --------------------------

TEST(BatchFromDeviceCpu, AdoptOnTheCpuContextIsRefused) {
  std::vector<limb_t> host(8, 1);
  const Batch none;
  EXPECT_TRUE(rejects([&] { (void)Batch::adopt_device_limbs(host.data(), 4, 128, mpgpu::Context::cpu(), nullptr); },
                      "Batch::adopt_device_limbs", "the context is the CPU's", {&none}));
  EXPECT_TRUE(rejects([&] { (void)Batch::adopt_device_limbs(host.data(), 4, 0, mpgpu::Context::cpu(), nullptr); },
                      "Batch::adopt_device_limbs", "out of range", {&none}));
}

TEST_P(BatchFromDevice, AdoptsRowsInTheBatchLayout) {
  Operands gen(63);
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = std::min<std::size_t>(instances_for(bits), 24);
    const std::vector<Mpz> v = make_operands(gen, bits, n, 0);
    Batch src = to_batch(v, bits, ctx());
    auto keeper = std::make_shared<int>(0);
    const std::weak_ptr<int> kept = keeper;
    std::optional<Batch> b = Batch::adopt_device_limbs(src.data(), n, bits, ctx(), keeper);
    ASSERT_TRUE(b.has_value()) << bits << " bits: values of the width are adopted";
    EXPECT_EQ(b->data(), src.data()) << "the same memory, no copy";
    EXPECT_EQ(b->stride_limbs(), src.stride_limbs());
    ASSERT_TRUE(equals(*b, bits, v, "adopt_device_limbs(another batch's storage)"));
    // Operations read it as any batch's storage.
    std::vector<Mpz> twice(n);
    for (std::size_t i = 0; i < n; ++i) {
      Mpz s;
      mpz_add(s, v[i], v[i]);
      twice[i] = mod2exp(s, bits);
    }
    Batch sum(n, bits, ctx());
    mpgpu::add(sum, *b, src);
    ASSERT_TRUE(equals(sum, bits, twice, "add(adopted, source)"));
    keeper.reset();
    EXPECT_FALSE(kept.expired()) << "the batch holds the keeper";
    const Batch copy = *b;  // copies share the storage, and the keeper
    b.reset();
    EXPECT_FALSE(kept.expired());
    EXPECT_TRUE(equals(copy, bits, v, "a copy of the adopted batch"));
  }
}

TEST_P(BatchFromDevice, AdoptReleasesTheKeeperWithTheLastBatch) {
  Batch src = Batch::random(16, 1024, 5, ctx());
  auto keeper = std::make_shared<int>(0);
  const std::weak_ptr<int> kept = keeper;
  {
    std::optional<Batch> b = Batch::adopt_device_limbs(src.data(), 16, 1024, ctx(), std::move(keeper));
    ASSERT_TRUE(b.has_value());
    const Batch clone = b->clone();
    EXPECT_NE(clone.data(), src.data());
  }
  EXPECT_TRUE(kept.expired());
}

TEST_P(BatchFromDevice, AdoptChecksTheWidth) {
  // 1000-bit values in 1024-bit rows: the class of both. Random 1024-bit
  // values have bits above 1000; values made at 1000 bits do not.
  Batch wide = Batch::random(40, 1024, 9, ctx());
  auto keeper = std::make_shared<int>(0);
  const std::weak_ptr<int> kept = keeper;
  EXPECT_FALSE(Batch::adopt_device_limbs(wide.data(), 40, 1000, ctx(), std::move(keeper)).has_value());
  EXPECT_TRUE(kept.expired()) << "nothing adopted: the keeper is let go";
  Batch narrow = Batch::random(40, 1000, 9, ctx());
  const Readback want = read(narrow);
  const std::optional<Batch> b = Batch::adopt_device_limbs(narrow.data(), 40, 1000, ctx(), nullptr, ctx().stream());
  ASSERT_TRUE(b.has_value());
  ASSERT_TRUE(equals(*b, 1000, want.values, "adopt_device_limbs at a width below the class"));
  // Random 1000-bit values have bits at and above 990: not adopted at 990 bits.
  EXPECT_FALSE(Batch::adopt_device_limbs(narrow.data(), 40, 990, ctx(), nullptr).has_value());
}

TEST_P(BatchFromDevice, AdoptRefusesWithAReason) {
  std::vector<limb_t> host(64, 1);
  Batch src = Batch::random(8, 128, 3, ctx());
  const std::vector<const Batch*> kept = {&src};
  EXPECT_TRUE(rejects([&] { (void)Batch::adopt_device_limbs(host.data(), 8, 128, ctx(), nullptr); },
                      "Batch::adopt_device_limbs", "not in device memory", kept));
  EXPECT_TRUE(rejects([&] { (void)Batch::adopt_device_limbs(src.data() + 1, 7, 128, ctx(), nullptr); },
                      "Batch::adopt_device_limbs", "16-byte aligned", kept));
  EXPECT_TRUE(rejects([&] { (void)Batch::adopt_device_limbs(nullptr, 8, 128, ctx(), nullptr); },
                      "Batch::adopt_device_limbs", "null pointer", kept));
  const std::optional<Batch> empty = Batch::adopt_device_limbs(nullptr, 0, 100, ctx(), nullptr);
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(empty->count(), 0u);
  EXPECT_EQ(empty->bits(), 100u);
}

MPGPU_INSTANTIATE_ON_BACKEND(BatchFromDevice);

}  // namespace
