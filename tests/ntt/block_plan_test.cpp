// The pass schedule of the device NTT (include/mpgpu/ntt/block_plan.hpp):
// plain C++, so it runs in CPU-only CI too.
#include <gtest/gtest.h>

#include "mpgpu/ntt/block_plan.hpp"

namespace {

TEST(NttBlockPlan, PassesCoverEveryStageOnce) {
  for (bool natural : {false, true})
    for (int log_n = 1; log_n <= 40; ++log_n) {
      const auto passes = mpgpu::ntt::block_passes(log_n, 1, natural);
      int hi = log_n - 1;
      for (std::size_t i = 0; i < passes.size(); ++i) {
        const auto& pass = passes[i];
        ASSERT_EQ(pass.hi, hi) << log_n;
        ASSERT_GE(pass.k, 1);
        ASSERT_LE(pass.k + pass.log_c,
                  passes.size() == 1 ? mpgpu::ntt::kBlockTileLog : mpgpu::ntt::kBlockMultiPassTileLog);
        if (i + 1 < passes.size()) ASSERT_LE(pass.log_c, pass.hi - pass.k + 1) << "columns within the stride";
        else if (natural && passes.size() > 1) ASSERT_LE(pass.log_c, log_n - pass.k) << "columns within a transform";
        ASSERT_EQ(pass.permute, natural && i + 1 == passes.size());
        if (i + 1 < passes.size()) {
          ASSERT_LE(pass.k, mpgpu::ntt::kBlockStridedMaxStages);
          ASSERT_GE(pass.log_c, 1) << "strided passes read runs of >= 2 words";
        }
        hi -= pass.k;
      }
      ASSERT_EQ(hi, -1) << "stages of 2^" << log_n;
      if (log_n <= 13) ASSERT_EQ(passes.size(), 1u);
      if (log_n <= (natural ? 22 : 23)) ASSERT_LE(passes.size(), 2u) << log_n;
      if (log_n <= (natural ? 33 : 34)) ASSERT_LE(passes.size(), 3u) << log_n;
    }
}

TEST(NttBlockPlan, SmallTransformsShareATile) {
  for (int log_n = 1; log_n <= 13; ++log_n) {
    const auto passes = mpgpu::ntt::block_passes(log_n, 4096, false);
    ASSERT_EQ(passes.size(), 1u);
    EXPECT_EQ(passes[0].k + passes[0].log_c, std::max(log_n, mpgpu::ntt::kBlockMultiPassTileLog)) << log_n;
    EXPECT_EQ(mpgpu::ntt::block_passes(log_n, 1, false)[0].log_c, 0) << "no empty columns for one transform";
  }
}

}  // namespace
