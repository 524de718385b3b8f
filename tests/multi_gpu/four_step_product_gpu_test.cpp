// The distributed four-step product over CUDA parts, one part a GPU (every GPU of the
// machine, one or more), with the NCCL communicator and the parts' steps as kernels
// (src/cuda/distributed_part_steps.cu), against GMP: random, all-ones and runs-of-special-limb
// operands split over the parts' device memory in uneven ranges, digits of 1, 2 and 4 limbs,
// the transposes tiled and as plain strided copies. The same algorithm over CPU parts is
// four_step_product_test (CI).
#include <cuda_runtime.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "distributed/four_step_product.hpp"
#include "distributed/nccl_communicator.hpp"
#include "mpgpu/error.hpp"
#include "support/cuda_assert.hpp"

namespace {

using mpgpu::Context;
using namespace mpgpu::distributed;
using Words = std::vector<std::uint64_t>;


Words gmp_product(const Words& a, const Words& b) {
  Words r(a.size() + b.size(), 0);
  const Words& x = a.size() >= b.size() ? a : b;
  const Words& y = a.size() >= b.size() ? b : a;
  mpn_mul(reinterpret_cast<mp_limb_t*>(r.data()), reinterpret_cast<const mp_limb_t*>(x.data()),
          static_cast<mp_size_t>(x.size()), reinterpret_cast<const mp_limb_t*>(y.data()),
          static_cast<mp_size_t>(y.size()));
  return r;
}

class FourStepProductGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    const int n = Context::cuda_device_count();
    if (n < 1) GTEST_SKIP() << "no CUDA device";
    setenv("NCCL_NVLS_ENABLE", "0", 1);  // NVLink multicast off, as on the lent machines
    for (int d = 0; d < n; ++d) parts_.push_back(Context::cuda(d));
    comm_ = std::make_unique<NcclCommunicator>(parts_);
  }

  /// a b over every GPU, the operands cut at `cuts` (part g: [cut_g, cut_{g+1})), checked
  /// limb for limb.
  void check(const Words& a, const Words& b, std::mt19937_64& rng, const std::string& what) {
    const std::size_t G = parts_.size();
    const std::size_t limbs = a.size() + b.size();
    if (limbs / G < 2) return;
    auto cut = [&](const Words& x) {
      std::vector<std::size_t> c = {0, x.size()};
      for (std::size_t i = 1; i < G; ++i) c.push_back(rng() % (x.size() + 1));
      std::sort(c.begin(), c.end());
      return c;
    };
    const std::vector<std::size_t> ca = cut(a), cb = cut(b);
    std::vector<SendBlock> ra(G), rb(G);
    std::vector<RecvBlock> rp(G);
    std::vector<std::uint64_t*> mem;
    auto upload = [&](std::size_t g, const std::uint64_t* host, std::size_t n) {
      std::uint64_t* p = nullptr;
      EXPECT_EQ(cudaSetDevice(static_cast<int>(g)), cudaSuccess);
      EXPECT_EQ(cudaMalloc(&p, std::max<std::size_t>(n, 1) * 8), cudaSuccess);
      if (n != 0) {
        EXPECT_EQ(cudaMemcpy(p, host, n * 8, cudaMemcpyHostToDevice), cudaSuccess);
      }
      mem.push_back(p);
      return p;
    };
    for (std::size_t g = 0; g < G; ++g) {
      ra[g] = {upload(g, a.data() + ca[g], ca[g + 1] - ca[g]), ca[g + 1] - ca[g]};
      rb[g] = {upload(g, b.data() + cb[g], cb[g + 1] - cb[g]), cb[g + 1] - cb[g]};
      const std::size_t count = part_range(limbs, G, g).count;
      CUDA_ASSERT(cudaMalloc(&rp[g].data, count * 8));
      mem.push_back(rp[g].data);
    }
    const Words want = gmp_product(a, b);
    // Every digit size with the tiled transposes, and one limb with the plain strided copies.
    const std::pair<std::size_t, bool> variants[] = {{1, true}, {2, true}, {4, true}, {1, false}};
    for (const auto& [d, tiled] : variants) {
      if ((limbs + d - 1) / d / G < 2) continue;
      {
        const std::unique_ptr<PartSteps> steps = make_cuda_part_steps(parts_, {tiled});
        four_step_mul(parts_, *comm_, *steps, ra, rb, rp, d);
      }
      for (std::size_t g = 0; g < G; ++g) {
        const PartRange range = part_range(limbs, G, g);
        Words got(range.count);
        CUDA_ASSERT(cudaSetDevice(static_cast<int>(g)));
        CUDA_ASSERT(cudaStreamSynchronize(parts_[g].stream()));
        CUDA_ASSERT(cudaMemcpy(got.data(), rp[g].data, range.count * 8, cudaMemcpyDeviceToHost));
        for (std::size_t k = 0; k < range.count; ++k)
          ASSERT_EQ(got[k], want[range.begin + k]) << what << ": " << a.size() << " x " << b.size() << " limbs over "
                                                   << G << " GPUs, digits of " << d << " limbs"
                                                   << (tiled ? "" : ", strided copies") << ", limb " << range.begin + k
                                                   << " (part " << g << ")";
      }
    }
    for (std::uint64_t* p : mem) CUDA_ASSERT(cudaFree(p));
  }

  std::vector<Context> parts_;
  std::unique_ptr<NcclCommunicator> comm_;
};

Words random_words(std::size_t n, std::mt19937_64& rng) {
  Words w(n);
  for (auto& v : w) v = rng();
  return w;
}

TEST_F(FourStepProductGpu, RandomOperands) {
  std::mt19937_64 rng(20261129);
  for (std::size_t na : {std::size_t{8}, std::size_t{200}, std::size_t{4096}, std::size_t{65537}})
    for (std::size_t nb : {std::size_t{3}, std::size_t{1000}, std::size_t{65536}})
      check(random_words(na, rng), random_words(nb, rng), rng, "random");
}

TEST_F(FourStepProductGpu, CarryChains) {
  std::mt19937_64 rng(11);
  for (std::size_t n : {std::size_t{6}, std::size_t{515}, std::size_t{1} << 15}) {
    const Words ones(n, ~std::uint64_t{0});
    check(ones, ones, rng, "all ones squared");
    Words one_plus(n, 0);
    one_plus.front() = 1;
    one_plus.back() = 1;
    check(ones, one_plus, rng, "all ones times 2^k + 1");
  }
  const std::uint64_t special[] = {0, ~std::uint64_t{0}, 1, ~std::uint64_t{0} - 1, std::uint64_t{1} << 63};
  for (int round = 0; round < 60; ++round) {
    const std::size_t na = 12 + rng() % 200, nb = 1 + rng() % 4;
    Words a(na), b(nb);
    for (std::size_t i = 0; i < na;) {
      const std::uint64_t v = special[rng() % 5];
      for (std::size_t run = 1 + rng() % 40; run > 0 && i < na; --run) a[i++] = v;
    }
    for (auto& v : b) v = special[rng() % 5];
    check(a, b, rng, "runs of special limbs");
  }
}

}  // namespace
