// Probe: what a 2^28-bit streaming map (r = a & b, 96 MB moved) loses per call
// in a stream of calls, and which launch shape wins it back.
//   plain   : ordinary launches (each kernel waits for the previous one)
//   pdl     : programmatic dependent launch, wait at the start, trigger after
//             the stores (what bitwise_kernel does)
//   early   : trigger at the start, so the next grid's blocks take the slots
//             of the tail as they free up
//   prefetch: early, and those blocks prefetch their inputs into L2 before
//             griddepcontrol.wait (a prefetch has no semantic effect, so it
//             is safe even if the previous kernel writes those words)
//   rows8   : prefetch with twice the rows a warp (half the blocks)
//   hints   : prefetch, loads that skip L1, stores marked evict-first
// Build: nvcc -O3 -arch=sm_90 bench/probes/stream_overlap.cu -o stream_overlap
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../cuda_timing.cuh"

/// Calls a burst of this many back-to-back launches: a sample is the burst's
/// time (CUDA events) divided by it.
constexpr int kBurst = 20;

enum Mode { kPlain, kPdl, kEarly, kPrefetch, kHints };

__device__ __forceinline__ void prefetch_l2(const void* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}
__device__ __forceinline__ ulonglong2 load_nc(const ulonglong2* p) {
  ulonglong2 v;
  asm volatile("ld.global.nc.L1::no_allocate.v2.u64 {%0, %1}, [%2];" : "=l"(v.x), "=l"(v.y) : "l"(p));
  return v;
}
__device__ __forceinline__ void store_cs(ulonglong2* p, ulonglong2 v) {
  asm volatile("st.global.cs.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(v.x), "l"(v.y) : "memory");
}

template <int kRows, Mode kMode, int kMinBlocks>
__global__ void __launch_bounds__(256, kMinBlocks)
    and_kernel(unsigned long long* __restrict__ r, const unsigned long long* __restrict__ a,
               const unsigned long long* __restrict__ b, std::size_t n) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t base = (std::size_t(blockIdx.x) * 8 + warp) * (kRows * 64) + 2 * lane;
  if constexpr (kMode == kEarly || kMode == kPrefetch || kMode == kHints)
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  if constexpr (kMode == kPrefetch || kMode == kHints) {
    if (lane % 8 == 0) {
#pragma unroll
      for (int k = 0; k < kRows; ++k) {
        const std::size_t i = base + k * 64;
        if (i < n) {
          prefetch_l2(a + i);
          prefetch_l2(b + i);
        }
      }
    }
  }
  if constexpr (kMode != kPlain) asm volatile("griddepcontrol.wait;" ::: "memory");
  ulonglong2 x[kRows], y[kRows];
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    const std::size_t i = base + k * 64;
    if (i + 1 < n) {
      if constexpr (kMode == kHints) {
        x[k] = load_nc(reinterpret_cast<const ulonglong2*>(a + i));
        y[k] = load_nc(reinterpret_cast<const ulonglong2*>(b + i));
      } else {
        x[k] = *reinterpret_cast<const ulonglong2*>(a + i);
        y[k] = *reinterpret_cast<const ulonglong2*>(b + i);
      }
    }
  }
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    const std::size_t i = base + k * 64;
    if (i + 1 < n) {
      const ulonglong2 v = make_ulonglong2(x[k].x & y[k].x, x[k].y & y[k].y);
      if constexpr (kMode == kHints)
        store_cs(reinterpret_cast<ulonglong2*>(r + i), v);
      else
        *reinterpret_cast<ulonglong2*>(r + i) = v;
    }
  }
  if constexpr (kMode == kPdl) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

template <int kRows, Mode kMode, int kMinBlocks>
void launch(cudaStream_t s, unsigned long long* r, const unsigned long long* a, const unsigned long long* b,
            std::size_t n) {
  const unsigned grid = unsigned((n + 8 * kRows * 64 - 1) / (8 * kRows * 64));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(256);
  config.stream = s;
  cudaLaunchAttribute attribute[1] = {};
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attribute;
  config.numAttrs = kMode == kPlain ? 0 : 1;
  CHECK(cudaLaunchKernelEx(&config, and_kernel<kRows, kMode, kMinBlocks>, r, a, b, n));
}

template <int kRows, Mode kMode, int kMinBlocks = 8>
void run(const char* name, cudaStream_t s, unsigned long long* r, const unsigned long long* a,
         const unsigned long long* b, std::size_t n, const std::vector<unsigned long long>& expect) {
  CHECK(cudaMemsetAsync(r, 0, n * 8, s));
  const double us = 1000 / double(kBurst) * mpgpu_bench::median_ms(s, 15, [&] {
    for (int i = 0; i < kBurst; ++i) launch<kRows, kMode, kMinBlocks>(s, r, a, b, n);
  });
  CHECK(cudaGetLastError());
  std::vector<unsigned long long> got(n);
  CHECK(cudaMemcpy(got.data(), r, n * 8, cudaMemcpyDeviceToHost));
  const bool ok = got == expect;
  std::printf("%-14s n=2^%-2d  %8.2f us  %6.0f GB/s  %s\n", name, 63 - __builtin_clzll(n * 64), us,
              3.0 * n * 8 / us / 1e3, ok ? "verified" : "WRONG");
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int bits_log : {26, 28, 29, 30}) {
    const std::size_t n = std::size_t(1) << (bits_log - 6);
    std::vector<unsigned long long> ha(n), hb(n), expect(n);
    unsigned long long state = 0x9E3779B97F4A7C15ull;
    for (std::size_t i = 0; i < n; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      ha[i] = state;
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      hb[i] = state ^ (state >> 29);
      expect[i] = ha[i] & hb[i];
    }
    unsigned long long *a, *b, *r;
    CHECK(cudaMalloc(&a, n * 8));
    CHECK(cudaMalloc(&b, n * 8));
    CHECK(cudaMalloc(&r, n * 8));
    CHECK(cudaMemcpy(a, ha.data(), n * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb.data(), n * 8, cudaMemcpyHostToDevice));
    run<2, kPlain>("r2 plain", s, r, a, b, n, expect);
    run<2, kPdl>("r2 pdl", s, r, a, b, n, expect);
    run<2, kEarly>("r2 early", s, r, a, b, n, expect);
    run<2, kPrefetch>("r2 prefetch", s, r, a, b, n, expect);
    run<2, kHints>("r2 hints", s, r, a, b, n, expect);
    run<1, kPdl>("r1 pdl", s, r, a, b, n, expect);
    run<1, kPrefetch>("r1 prefetch", s, r, a, b, n, expect);
    run<4, kPdl, 4>("r4/4 pdl", s, r, a, b, n, expect);
    run<4, kPrefetch, 4>("r4/4 prefetch", s, r, a, b, n, expect);
    run<8, kPdl, 2>("r8/2 pdl", s, r, a, b, n, expect);
    run<2, kPdl>("r2 pdl", s, r, a, b, n, expect);
    // the copy roof for the same bytes: 64 MB in, 32 MB out is not a memcpy;
    // report a D2D memcpy of n words (2 x n x 8 bytes moved) for scale
    const double copy_us = 1000 / double(kBurst) * mpgpu_bench::median_ms(s, 15, [&] {
      for (int i = 0; i < kBurst; ++i) CHECK(cudaMemcpyAsync(r, a, n * 8, cudaMemcpyDeviceToDevice, s));
    });
    std::printf("memcpy     n=2^%-2d  %8.2f us  %6.0f GB/s (2 x n x 8 bytes)\n", bits_log, copy_us,
                2.0 * n * 8 / copy_us / 1e3);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(r));
  }
  return 0;
}
