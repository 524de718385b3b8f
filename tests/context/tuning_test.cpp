// TuningParams and the tuning table, without a GPU: the defaults are the
// build's table (and the public crossover names read the same values), a
// context made with params reports exactly those, with_tuning makes a new
// context and leaves the old one as it was, and the MPGPU_* overrides are
// read when a context is made without params (and only then).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "mpgpu/batch/ntt_sizes.cuh"
#include "mpgpu/batch/tuning_table.hpp"
#include "mpgpu/mpgpu.hpp"
#include "mpgpu/tuning.hpp"

namespace {

using mpgpu::Context;
using mpgpu::TuningParams;
namespace table = mpgpu::tuning::table;

/// Every variable TuningParams::from_environment reads.
const char* const kOverrides[] = {
    "MPGPU_SCHOOLBOOK_MAX_WORK", "MPGPU_NTT_DIGIT_LIMBS",     "MPGPU_NTT_SIDE_PRIMES_MAX_LOG",
    "MPGPU_MUL_EACH_BATCH_MAX_LOG", "MPGPU_MUL_EACH_SUMS_AT_ONCE", "MPGPU_DIVISION_MIN_LIMBS",  "MPGPU_RADIX_MIN_LIMBS",     "MPGPU_RADIX_LEAF_LIMBS",
    "MPGPU_SEQUENCE_LEAF_LIMBS", "MPGPU_NTT32_COLUMN_STAGES", "MPGPU_UPLOAD_RING_BYTES",
    "MPGPU_STAGING_CHUNK_BYTES", "MPGPU_STAGING_THREADS",     "MPGPU_STAGING_MIN_BYTES"};

/// Params that differ from the defaults in every field.
TuningParams custom() {
  TuningParams p;
  p.schoolbook_max_work = 12345;
  p.ntt_digit_limbs = 4;
  p.side_primes_max_log = 0;
  p.mul_each_batch_max_log = 5;
  p.mul_each_sums_at_once = 0;
  p.division_min_limbs = 3000;
  p.radix_min_limbs = 100;
  p.radix_leaf_limbs = 7;
  p.sequence_leaf_limbs = 4096;
  p.ntt32_column_stages = 3;
  p.upload_ring_bytes = 0;
  p.staging_chunk_bytes = 65547;
  p.staging_threads = 3;
  p.staging_min_bytes = 1 << 16;
  return p;
}

/// The tests below set the overrides themselves; none may come from outside.
class Tuning : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : kOverrides) ::unsetenv(name);
  }
  void TearDown() override {
    for (const char* name : kOverrides) ::unsetenv(name);
  }
};

TEST_F(Tuning, DefaultsAreTheTable) {
  const TuningParams d = TuningParams::defaults();
  EXPECT_EQ(d, TuningParams{});
  EXPECT_EQ(d.schoolbook_max_work, table::kSchoolbookMaxWork);
  EXPECT_EQ(d.ntt_digit_limbs, 0);  // the cost model
  EXPECT_EQ(d.side_primes_max_log, table::kMulSidePrimesMaxLog);
  EXPECT_EQ(d.mul_each_batch_max_log, table::kMulEachBatchMaxLog);
  EXPECT_EQ(d.mul_each_sums_at_once, table::kMulEachSumsAtOnce);
  EXPECT_EQ(d.division_min_limbs, table::kDeviceDivisionMinLimbs);
  EXPECT_EQ(d.radix_min_limbs, table::kRadixDeviceMinLimbs);
  EXPECT_EQ(d.radix_leaf_limbs, 0u);     // the table's per-direction leaves
  EXPECT_EQ(d.sequence_leaf_limbs, 0u);  // the table's rule
  EXPECT_EQ(d.ntt32_column_stages, table::kNtt32ColumnStages);
  EXPECT_EQ(d.upload_ring_bytes, table::kUploadRingBytes);
  EXPECT_EQ(d.staging_chunk_bytes, table::kStagingChunkBytes);
  EXPECT_EQ(d.staging_threads, table::kStagingThreads);
  EXPECT_EQ(d.staging_min_bytes, table::kStagingMinBytes);
  EXPECT_STREQ(mpgpu::tuning_table_name(), "sm90");
}

TEST_F(Tuning, PublicNamesReadTheTable) {
  EXPECT_EQ(mpgpu::kDeviceDivisionMinLimbs, table::kDeviceDivisionMinLimbs);
  EXPECT_EQ(mpgpu::kDeviceProductMinLimbs, table::kDeviceProductMinLimbs);
  EXPECT_EQ(mpgpu::kHostValueMaxLimbs, table::kHostValueMaxLimbs);
  EXPECT_EQ(mpgpu::kHostProductMaxLimbs, table::kHostProductMaxLimbs);
  EXPECT_EQ(mpgpu::kDevicePowerMinLimbs, table::kDevicePowerMinLimbs);
  EXPECT_EQ(mpgpu::kDeviceRootMinLimbs, table::kDeviceRootMinLimbs);
  EXPECT_EQ(mpgpu::kDeviceSqrtMinLimbs, table::kDeviceSqrtMinLimbs);
  EXPECT_EQ(mpgpu::kDeviceSequenceMinLimbs, table::kDeviceSequenceMinLimbs);
  EXPECT_EQ(mpgpu::kSequenceLeafMaxLimbs, table::kSequenceLeafMaxLimbs);
  EXPECT_EQ(mpgpu::kDeviceGcdMinLimbs, table::kDeviceGcdMinLimbs);
  EXPECT_EQ(mpgpu::kHostHalfGcdMaxLimbs, table::kHostHalfGcdMaxLimbs);
  for (int w : {1, 8, 16, 32, 64, 96, 128, 256, 512, 1024, 2048, 4096, 8192, 16384}) {
    EXPECT_EQ(mpgpu::batch::tuned_product_group_size(w), table::tuned_product_group_size(w)) << w;
    EXPECT_EQ(mpgpu::batch::tuned_linear_group_size(w), table::tuned_linear_group_size(w)) << w;
    EXPECT_EQ(mpgpu::batch::tuned_group_size(w), table::tuned_group_size(w)) << w;
    EXPECT_EQ(mpgpu::batch::tuned_gcd_group_size(w), table::tuned_gcd_group_size(w)) << w;
    EXPECT_EQ(mpgpu::batch::tuned_staged_chain(w), table::tuned_staged_chain(w)) << w;
    EXPECT_EQ(mpgpu::batch::tuned_chain_min_blocks(w), table::tuned_chain_min_blocks(w)) << w;
    EXPECT_EQ(mpgpu::batch::tuned_modular_group_size(w), table::tuned_modular_group_size(w)) << w;
    for (std::size_t n : {std::size_t{0}, std::size_t{1000}, std::size_t{100000}})
      EXPECT_EQ(mpgpu::batch::tuned_modular_group_size(w, n), table::tuned_modular_group_size(w, n)) << w;
  }
  EXPECT_EQ(mpgpu::batch::kNttProductMinWords, table::kBatchNttProductMinWords);
  // The cost model's floor of digit sizes is a transform length the NTT
  // product can have; its coefficients are positive.
  EXPECT_GE(table::kNttDigitModel.digits_min_log_n, 1);
  EXPECT_GT(table::kNttDigitModel.pass_point_ps, 0.0);
  EXPECT_GT(table::kNttDigitModel.column_bytes_per_s, 0.0);
}

/// The batch width classes (32-bit words) of widths 1 .. 2^18 bits.
std::vector<int> batch_word_classes() {
  std::vector<int> w;
  for (std::size_t bits = 1; bits <= (std::size_t{1} << 18); ++bits) {
    const int words = static_cast<int>(2 * mpgpu::batch_stride_limbs(bits));
    if (w.empty() || w.back() != words) w.push_back(words);
  }
  return w;
}

/// Instance counts around every threshold of the modular rows, and powers of two.
std::vector<std::size_t> modular_counts() {
  std::vector<std::size_t> n = {0};
  for (int k = 0; k <= 26; ++k) n.push_back(std::size_t{1} << k);
  for (const auto& row : table::kModularGroupRows)
    for (std::size_t d : {std::size_t{0}, std::size_t{1}})
      if (row.min_instances >= d) n.push_back(row.min_instances - d);
  std::sort(n.begin(), n.end());
  return n;
}

TEST_F(Tuning, ModularGroupSizeByInstanceCount) {
  namespace mb = mpgpu::batch;
  for (int w : batch_word_classes()) {
    const mb::ModularGroups groups = mb::modular_groups(w);
    ASSERT_FALSE(groups.too_many) << w;
    ASSERT_GE(groups.count, 1) << w;
    ASSERT_LE(groups.count, mb::kMaxModularGroups) << w;
    std::vector<bool> reached(static_cast<std::size_t>(groups.count), false);
    int previous = 0;
    for (std::size_t n : modular_counts()) {
      const int g = mb::tuned_modular_group_size(w, n);
      // Only a G with a kernel (the CUDA backend compiles modular_groups(W)).
      const int* at = std::find(groups.sizes, groups.sizes + groups.count, g);
      ASSERT_NE(at, groups.sizes + groups.count) << w << " words, " << n << " instances: G " << g;
      reached[static_cast<std::size_t>(at - groups.sizes)] = true;
      // A valid Env<W, G>: a power of two that leaves an even count >= 4 of words a thread.
      EXPECT_TRUE(g >= 1 && (g & (g - 1)) == 0 && w % g == 0 && w / g >= 4 && (w / g) % 2 == 0) << w << " " << g;
      // More instances never take more threads each (they fill the GPU with fewer).
      if (previous) {
        EXPECT_LE(g, previous) << w << " words, " << n << " instances";
      }
      previous = g;
    }
    // Every kernel compiled is reached by some count.
    for (std::size_t k = 0; k < reached.size(); ++k) EXPECT_TRUE(reached[k]) << w << " words: G " << groups.sizes[k];
    // Largest G first; one instance takes the largest.
    for (int k = 1; k < groups.count; ++k) EXPECT_GT(groups.sizes[k - 1], groups.sizes[k]) << w;
    EXPECT_EQ(mb::tuned_modular_group_size(w, 1), groups.sizes[0]) << w;
  }
  // The rows: per width, thresholds falling to 0 and G rising, each threshold
  // the rule's kModularFillThreads / G (the table's comment).
  std::vector<int> widths;
  int width = 0;
  std::size_t last_min = 0;
  int last_g = 0;
  for (const auto& row : table::kModularGroupRows) {
    if (row.words != width) {
      EXPECT_EQ(last_min, 0u) << "rows of " << width << " words end below a count";
      EXPECT_EQ(std::count(widths.begin(), widths.end(), row.words), 0) << "rows of " << row.words << " words apart";
      widths.push_back(width = row.words);
    } else {
      EXPECT_LT(row.min_instances, last_min) << width;
      EXPECT_GT(row.group_size, last_g) << width;
    }
    if (row.min_instances > 0) {
      EXPECT_EQ(row.min_instances * static_cast<std::size_t>(row.group_size), table::kModularFillThreads)
          << width << " words, G " << row.group_size;
    }
    last_min = row.min_instances;
    last_g = row.group_size;
  }
  EXPECT_EQ(last_min, 0u) << "rows of " << width << " words end below a count";
  // Widths without rows keep the single G (measured at one count or none).
  for (int w : {4, 8, 16, 512, 1024, 8192})
    for (std::size_t n : modular_counts())
      EXPECT_EQ(mb::tuned_modular_group_size(w, n), mb::tuned_modular_group_size(w)) << w;
  // The measured crossings the rows come from (the table's provenance).
  EXPECT_EQ(mb::tuned_modular_group_size(32, 16384), 2);
  EXPECT_EQ(mb::tuned_modular_group_size(32, 65536), 1);
  EXPECT_EQ(mb::tuned_modular_group_size(64, 4096), 8);
  EXPECT_EQ(mb::tuned_modular_group_size(64, 16384), 2);
  EXPECT_EQ(mb::tuned_modular_group_size(96, 2048), 16);
  EXPECT_EQ(mb::tuned_modular_group_size(96, 8192), 4);
  EXPECT_EQ(mb::tuned_modular_group_size(128, 1024), 32);
  EXPECT_EQ(mb::tuned_modular_group_size(128, 4096), 8);
  EXPECT_EQ(mb::tuned_modular_group_size(128, 16384), 4);
  EXPECT_EQ(mb::tuned_modular_group_size(256, 1024), 32);
  EXPECT_EQ(mb::tuned_modular_group_size(256, 8192), 8);
}

TEST_F(Tuning, AContextReportsItsParams) {
  const TuningParams p = custom();
  EXPECT_EQ(Context::cpu(p).tuning(), p);
  EXPECT_EQ(Context::from_string("cpu", p).tuning(), p);
  EXPECT_EQ(Context::cpu().tuning(), TuningParams::defaults());
  EXPECT_EQ(Context::from_string("cpu").tuning(), TuningParams::defaults());
}

TEST_F(Tuning, WithTuningMakesANewContext) {
  const Context a = Context::cpu();
  const Context b = a.with_tuning(custom());
  EXPECT_TRUE(b != a);
  EXPECT_EQ(b.backend(), a.backend());
  EXPECT_EQ(b.device(), a.device());
  EXPECT_EQ(b.tuning(), custom());
  EXPECT_EQ(a.tuning(), TuningParams::defaults());  // unchanged
  // Values of the new context compute as before (the CPU backend has no
  // device paths for the params to move).
  const mpgpu::Integer x = mpgpu::Integer::from_string("123456789012345678901234567890", 10, b);
  EXPECT_EQ((x * x).to_string(), "15241578753238836750495351562536198787501905199875019052100");
  EXPECT_EQ(mpgpu::Integer::from_string("42", 10, a).to_context(b).context(), b);
}

TEST_F(Tuning, EnvironmentOverridesAreReadWhenAContextIsMade) {
  ::setenv("MPGPU_SCHOOLBOOK_MAX_WORK", "0x100", 1);
  ::setenv("MPGPU_NTT_DIGIT_LIMBS", "2", 1);
  ::setenv("MPGPU_STAGING_THREADS", "5", 1);
  TuningParams want = TuningParams::defaults();
  want.schoolbook_max_work = 256;
  want.ntt_digit_limbs = 2;
  want.staging_threads = 5;
  EXPECT_EQ(TuningParams::from_environment(), want);
  const Context read_now = Context::cpu();
  EXPECT_EQ(read_now.tuning(), want);
  EXPECT_EQ(Context::cpu(custom()).tuning(), custom());  // params given: no environment
  // Changing the environment later changes no context already made.
  ::setenv("MPGPU_NTT_DIGIT_LIMBS", "4", 1);
  EXPECT_EQ(read_now.tuning(), want);
  want.ntt_digit_limbs = 4;
  EXPECT_EQ(Context::cpu().tuning(), want);
  for (const char* name : kOverrides) ::setenv(name, "9", 1);
  const TuningParams all = TuningParams::from_environment();
  EXPECT_EQ(all.schoolbook_max_work, 9u);
  EXPECT_EQ(all.ntt_digit_limbs, 9);
  EXPECT_EQ(all.side_primes_max_log, 9);
  EXPECT_EQ(all.mul_each_batch_max_log, 9);
  EXPECT_EQ(all.mul_each_sums_at_once, 9);
  EXPECT_EQ(all.division_min_limbs, 9u);
  EXPECT_EQ(all.radix_min_limbs, 9u);
  EXPECT_EQ(all.radix_leaf_limbs, 9u);
  EXPECT_EQ(all.sequence_leaf_limbs, 9u);
  EXPECT_EQ(all.ntt32_column_stages, 9);
  EXPECT_EQ(all.upload_ring_bytes, 9u);
  EXPECT_EQ(all.staging_chunk_bytes, 9u);
  EXPECT_EQ(all.staging_threads, 9u);
  EXPECT_EQ(all.staging_min_bytes, 9u);
}

TEST_F(Tuning, ThreadsShareAContextsParams) {
  // A context's params are fixed when it is made: threads read them while
  // others make contexts with other params (a data race here would show
  // under ThreadSanitizer).
  const Context shared = Context::cpu(custom());
  std::vector<std::thread> threads;
  std::vector<int> same(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        if (shared.tuning() == custom()) ++same[t];
        TuningParams mine = custom();
        mine.division_min_limbs = static_cast<std::size_t>(t * 1000 + i);
        if (shared.with_tuning(mine).tuning() != mine) --same[t];
      }
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(same[t], 200) << "thread " << t;
}

}  // namespace
