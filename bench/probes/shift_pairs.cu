// Probe (issue 2, shifts >= 2.6 TB/s): the scalar shift kernels of 339748b (one limb a thread,
// 8-byte accesses, publish_when_last) against the paired form (16-byte accesses, one shuffle)
// with the old publication and with early publication + programmatic dependent launch.
// Kernel bursts of 20 launches timed with CUDA events, median of 9 bursts; 2^28 and 2^30 bits;
// q even and odd; the outputs checked against a host shift.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mpgpu/device/shift.cuh"

using mpgpu::limb_t;
using namespace mpgpu::device;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

struct OldPolicy {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 8;
  static constexpr int kMinBlocksPerSM = 5;
};

/// r[o] = (a[o-q] << s) | (a[o-q-1] >> (64 - s)) for o in [q, n + q], and
/// r[o] = 0 below q. Threads own output limbs, so stores are aligned and
/// only loads straddle (a shift by q limbs misaligns one side; the right
/// shift, built this way, ran 101 us at 2^30 bits against 109 us for the left
/// shift when it stored misaligned, b301919). Consecutive lanes own
/// consecutive o, so a[o-q-1] comes from the neighbouring lane by shuffle:
/// one coalesced load per limb. Publishes the result size (kSlotSize).
template <class Policy = OldPolicy>
__global__ void __launch_bounds__(Policy::kThreads, Policy::kMinBlocksPerSM)
    old_shift_left(limb_t* __restrict__ r, const limb_t* __restrict__ a, std::size_t n, std::size_t q,
                      unsigned s, ResultWords words) {
  const std::size_t base = std::size_t(blockIdx.x) * Policy::kThreads * Policy::kItems + threadIdx.x;
  const int lane = threadIdx.x % 32;
  limb_t hi[Policy::kItems];
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t o = base + std::size_t(it) * Policy::kThreads;
    hi[it] = o >= q && o - q < n ? a[o - q] : 0;
  }
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t o = base + std::size_t(it) * Policy::kThreads;
    limb_t lo = __shfl_up_sync(0xffffffffu, hi[it], 1);
    if (lane == 0) lo = (o >= q + 1 && o - q - 1 < n) ? a[o - q - 1] : 0;
    if (o <= n + q) {
      const limb_t v = s ? (hi[it] << s) | (lo >> (64 - s)) : hi[it];  // 0 below q
      r[o] = v;
      if (o == n + q) atomicMax(&words.slot[kSlotSize], v ? n + q + 1 : n + q);
    }
  }
  words.publish_when_last();
}

/// r[k] = (a[k+q] >> s) | (a[k+q+1] << (64 - s)) for k in [0, n - q),
/// requires q < n; a[k+q+1] comes from the next lane by shuffle. Publishes
/// the result size (kSlotSize).
template <class Policy = OldPolicy>
__global__ void __launch_bounds__(Policy::kThreads, Policy::kMinBlocksPerSM)
    old_shift_right(limb_t* __restrict__ r, const limb_t* __restrict__ a, std::size_t n, std::size_t q,
                       unsigned s, ResultWords words) {
  const std::size_t m = n - q;
  const std::size_t base = std::size_t(blockIdx.x) * Policy::kThreads * Policy::kItems + threadIdx.x;
  const int lane = threadIdx.x % 32;
  limb_t lo[Policy::kItems];
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t k = base + std::size_t(it) * Policy::kThreads;
    lo[it] = k < m ? a[k + q] : 0;
  }
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t k = base + std::size_t(it) * Policy::kThreads;
    limb_t hi = __shfl_down_sync(0xffffffffu, lo[it], 1);
    if (lane == 31) hi = k + q + 1 < n ? a[k + q + 1] : 0;
    if (k < m) {
      const limb_t v = s ? (lo[it] >> s) | (hi << (64 - s)) : lo[it];
      r[k] = v;
      if (k == m - 1) atomicMax(&words.slot[kSlotSize], v ? m : m - 1);
    }
  }
  words.publish_when_last();
}


template <class F>
float time_bursts(F launch) {
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  for (int i = 0; i < 5; ++i) launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> v;
  for (int rep = 0; rep < 9; ++rep) {
    CHECK(cudaEventRecord(t0));
    for (int i = 0; i < 20; ++i) launch();
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    v.push_back(ms * 1000 / 20);
  }
  CHECK(cudaGetLastError());
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  unsigned long long *slots, *published;
  CHECK(cudaMalloc(&slots, 64 * 8));
  CHECK(cudaMemset(slots, 0, 64 * 8));
  CHECK(cudaHostAlloc(&published, 64 * 8, cudaHostAllocMapped));
  unsigned long long* published_dev;
  CHECK(cudaHostGetDevicePointer(&published_dev, published, 0));
  ResultWords words{slots, reinterpret_cast<unsigned int*>(slots + 8), published_dev, 1};
  std::printf("| bits | shift | q | old scalar (us, TB/s) | paired, old publish | paired, early + PDL | verified |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  for (int logbits : {28, 30}) {
    const std::size_t n = (std::size_t{1} << logbits) / 64;
    std::vector<limb_t> h(n);
    unsigned long long z = 88172645463325252ull;
    for (auto& w : h) z ^= z << 13, z ^= z >> 7, z ^= z << 17, w = z;
    h[n - 1] |= 1ull << 63;
    limb_t *a, *r;
    CHECK(cudaMalloc(&a, n * 8));
    CHECK(cudaMalloc(&r, (n + 16) * 8));
    CHECK(cudaMemcpy(a, h.data(), n * 8, cudaMemcpyHostToDevice));
    for (int left = 1; left >= 0; --left) {
      for (std::size_t q : {std::size_t{2}, std::size_t{3}}) {
        const unsigned s = 5;
        const std::size_t out = left ? n + q + 1 : n - q;
        const unsigned old_blocks = static_cast<unsigned>((out + 2047) / 2048);
        const unsigned new_blocks = static_cast<unsigned>(((out + 1) / 2 + ShiftPolicy::kPairsPerBlock - 1) / ShiftPolicy::kPairsPerBlock);
        const float t_old = time_bursts([&] {
          if (left) old_shift_left<<<old_blocks, 256>>>(r, a, n, q, s, words);
          else old_shift_right<<<old_blocks, 256>>>(r, a, n, q, s, words);
        });
        const float t_new = time_bursts([&] {
          if (left) shift_left_kernel<<<new_blocks, 256>>>(r, a, n, q, s, words, false);
          else shift_right_kernel<<<new_blocks, 256>>>(r, a, n, q, s, words, false);
        });
        const float t_early = time_bursts([&] {
          if (left) CHECK(launch_dependent(shift_left_kernel<ShiftPolicy>, new_blocks, 256, nullptr, r, a, n, q, s, words, true));
          else CHECK(launch_dependent(shift_right_kernel<ShiftPolicy>, new_blocks, 256, nullptr, r, a, n, q, s, words, true));
        });
        CHECK(cudaDeviceSynchronize());
        std::vector<limb_t> got(out);
        CHECK(cudaMemcpy(got.data(), r, out * 8, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (std::size_t o = 0; o < out && ok; ++o) {
          limb_t want;
          if (left) {
            const limb_t x0 = o >= q && o - q < n ? h[o - q] : 0, xm = o >= q + 1 && o - q - 1 < n ? h[o - q - 1] : 0;
            want = (x0 << s) | (xm >> (64 - s));
          } else {
            const limb_t x0 = h[o + q], x1 = o + q + 1 < n ? h[o + q + 1] : 0;
            want = (x0 >> s) | (x1 << (64 - s));
          }
          ok = got[o] == want;
        }
        const double bytes = 2.0 * n * 8;
        std::printf("| 2^%d | %s | %zu | %.2f (%.2f) | %.2f (%.2f) | %.2f (%.2f) | %s |\n", logbits, left ? "left" : "right", q,
                    t_old, bytes / t_old / 1e6, t_new, bytes / t_new / 1e6, t_early, bytes / t_early / 1e6, ok ? "yes" : "NO");
      }
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(r));
  }
  return 0;
}
