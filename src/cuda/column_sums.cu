// The last step of many batched products at once (mul_abs_side_by_side_batch):
// each product's limbs r = hi + lo, its column sums' high and low words,
// one block a product in one launch, each block publishing its product's size
// in the product's own result-words slot. Why: as an add_abs each, a batch of
// k products ended in k launches, each with its slot, tile statuses and API
// calls: microseconds of the calling thread per product, which bound the
// series of pi once its products were batched (docs/workloads.md).
#include <algorithm>
#include <memory>
#include <vector>

#include <cub/block/block_scan.cuh>

#include "cuda/check.cuh"
#include "cuda/contracts.hpp"
#include "cuda/ntt_product.hpp"
#include "cuda/result_words.cuh"
#include "cuda/scoped_memory.cuh"

namespace mpgpu::detail::cuda {

namespace {

constexpr int kThreads = 256;
/// Slots held at once by one launch: far below the context's 4096, so that
/// taking them never waits for an unread result that this launch would write.
constexpr std::size_t kSumsPerLaunch = 256;

struct SumJob {
  limb_t* r;
  const std::uint64_t* hi;  ///< m + 1 words
  const std::uint64_t* lo;  ///< m words
  std::size_t m;
  device::ResultWords words;
};

/// A thread's run of limbs as a carry chain: the carry out with carry in 0
/// (generate), and whether a carry in passes through (every limb of the sum
/// all ones: propagate). Combined left to right.
struct Chain {
  bool generate, propagate;
};
struct ThenChain {
  __device__ Chain operator()(const Chain& lower, const Chain& upper) const {
    return {upper.generate || (upper.propagate && lower.generate), lower.propagate && upper.propagate};
  }
};

/// Limb i of hi + lo + carry into it; carry becomes the carry out.
__device__ __forceinline__ limb_t add_limb(const SumJob& job, std::size_t i, bool& carry) {
  const limb_t a = job.hi[i], b = i < job.m ? job.lo[i] : 0;
  const limb_t s = a + b;
  const limb_t t = s + (carry ? 1 : 0);
  carry = s < a || t < s;
  return t;
}

__global__ void __launch_bounds__(kThreads) column_sums_each(const SumJob* jobs) {
  using Scan = cub::BlockScan<Chain, kThreads>;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ unsigned long long top[kThreads / 32];
  const SumJob job = jobs[blockIdx.x];
  const std::size_t n = job.m + 1;  // r's limbs
  const std::size_t per = (n + kThreads - 1) / kThreads;
  const std::size_t begin = std::min(n, threadIdx.x * per), end = std::min(n, begin + per);
  Chain own{false, true};
  {
    bool carry = false;
    bool all_ones = true;
    for (std::size_t i = begin; i < end; ++i) all_ones &= add_limb(job, i, carry) == ~limb_t{0};
    own = {carry, all_ones};
  }
  Chain before;
  Scan(scan_storage).ExclusiveScan(own, before, Chain{false, true}, ThenChain{});
  bool carry = threadIdx.x == 0 ? false : before.generate;
  unsigned long long size = 0;  // 1 + the highest nonzero limb of this run
  for (std::size_t i = begin; i < end; ++i) {
    const limb_t x = add_limb(job, i, carry);
    job.r[i] = x;
    if (x) size = i + 1;
  }
  // The block's largest, then thread 0 publishes it (its own slot: no other block writes it).
  for (int d = 16; d > 0; d /= 2) size = max(size, __shfl_xor_sync(0xffffffffu, size, d));
  if (threadIdx.x % 32 == 0) top[threadIdx.x / 32] = size;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < kThreads / 32; ++w) size = max(size, top[w]);
    job.words.publish_now(size);
  }
}

}  // namespace

void column_sums_each(ContextState& st, Stream s, const ColumnSum* sums, std::size_t k, Deferred* const* out) {
  for (std::size_t first = 0; first < k; first += kSumsPerLaunch) {
    const std::size_t g = std::min(kSumsPerLaunch, k - first);
    std::vector<std::unique_ptr<ResultWordsLease>> leases;
    leases.reserve(g);
    std::vector<SumJob> table(g);
    for (std::size_t i = 0; i < g; ++i) {
      const ColumnSum& c = sums[first + i];
      contract::add_abs(c.r, {c.hi, c.m + 1}, {c.lo, c.m});
      leases.push_back(std::make_unique<ResultWordsLease>(st, s));
      table[i] = {c.r, c.hi, c.lo, c.m, leases.back()->words()};
    }
    ScopedDeviceMemory device_table(st, s, g * sizeof(SumJob));
    copy_to_device(st, s, device_table.p, table.data(), g * sizeof(SumJob));
    column_sums_each<<<static_cast<unsigned>(g), kThreads, 0, s>>>(device_table.as<SumJob>());
    MPGPU_CHECK_LAUNCH("column_sums_each");
    for (std::size_t i = 0; i < g; ++i) *out[first + i] = leases[i]->defer();
  }
}

}  // namespace mpgpu::detail::cuda
