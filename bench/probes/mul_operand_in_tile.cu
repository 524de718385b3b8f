// Probe (next session, issue 5: 1-Mul at 1024 bits, 6.32 G/s against the 6.8 target): does a
// thread-per-instance low product run faster when one operand stays in the warp's shared tile
// instead of registers? The register product (register_mul.cuh) holds a, b and the result:
// ~115 registers, 16 warps an SM, and its carry chains are latency-bound (seed 000's Poly gained
// 33% from more warps, bench/results/2026-11-23-nvidia-h100-80gb-hbm3-probes.md). Reading a[i]
// from the tile once per row (8 16-byte loads a product) frees 32 registers: 24 warps an SM.
// Expected: 1-Mul at 1024 bits 6.3 -> 6.6-6.9 G/s if latency, not the multiply pipe, binds.
// ptxas (nvcc 13.0): the library kernel 107 registers; the tile form 113 with a minimum of 4
// blocks, 96 (4 bytes spilled) with 5, 80 (60 bytes spilled) with 6. Not run yet.
// Variants: the library's path (Env<32, 1>: tiled load of both, mb::mul, tiled store) and the
// operand-in-tile kernel at __launch_bounds__ minimums of 4, 5 and 6 blocks of 128 threads.
// 2^22 instances (NumBits x NumInsts = 2^32), CUDA events, median of 11 after 3 warm-ups,
// every instance of a sample checked against a host schoolbook product.
// Build: nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I../../include mul_operand_in_tile.cu -o mul_operand_in_tile
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mpgpu/batch/batch.cuh"

namespace mb = mpgpu::batch;
using mb::word_t;
constexpr int W = 32;  // 1024 bits

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::printf("%s failed: %s\n", #x, cudaGetErrorString(e_));                         \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

struct LibraryMul {
  const word_t *a, *b;
  word_t* r;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, y, t;
    if (live) mb::load(env, x, a + i * W), mb::load(env, y, b + i * W);
    else mb::set_zero(env, x), mb::set_zero(env, y);
    mb::mul(env, t, x, y);
    if (live) mb::store(env, r + i * W, t);
  }
};

/// Rows i0 .. W-1 of the low product, a[i] from the tile row (16-byte chunks).
// (warp_io and register_mul_detail exist in the device pass only.)
template <int i>
__device__ __forceinline__ void rows_from_tile(const uint4* row, int lane, const word_t* b, word_t* r, uint4 chunk) {
#if defined(__CUDA_ARCH__)
  if constexpr (i < W) {
    if constexpr (i % 4 == 0) chunk = row[mb::warp_io::swizzled<W / 4>(lane, i / 4)];
    const word_t ai = i % 4 == 0 ? chunk.x : i % 4 == 1 ? chunk.y : i % 4 == 2 ? chunk.z : chunk.w;
    mb::register_mul_detail::row_low<W - i, false>(ai, b, r + i);
    if constexpr (W - i >= 2) mb::register_mul_detail::row_high<W - i - 1, false>(ai, b, r + i);
    rows_from_tile<i + 1>(row, lane, b, r, chunk);
  }
#endif
}

template <int MinBlocks>
__global__ void __launch_bounds__(128, MinBlocks) mul_operand_in_tile(const word_t* a, const word_t* b, word_t* r) {
#if defined(__CUDA_ARCH__)
  __shared__ uint4 a_tile[4][32 * (W / 4)];
  const std::size_t i = blockIdx.x * 128ull + threadIdx.x;  // the grid covers the batch exactly
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  word_t y[W], t[W];
  mb::warp_io::tiled_load<W>(y, b + i * W);
  // a's rows into this warp's second tile, read coalesced as tiled_load does, not into registers.
  constexpr int C = W / 4, rows_per_step = 32 / C;
  const auto mine = reinterpret_cast<unsigned long long>(a + i * W);
  uint4* tile = a_tile[warp];
#pragma unroll
  for (int s = 0; s < C; ++s) {
    const int row = s * rows_per_step + lane / C;
    const auto src = __shfl_sync(0xffffffffu, mine, row);
    tile[mb::warp_io::swizzled<C>(row, lane % C)] = reinterpret_cast<const uint4*>(src)[lane % C];
  }
  __syncwarp();
#pragma unroll
  for (int k = 0; k < W; ++k) t[k] = 0;
  rows_from_tile<0>(tile, lane, y, t, uint4{});
  mb::warp_io::tiled_store<W>(r + i * W, t);
#endif
}

float median_ms(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class Launch>
float time_it(Launch launch) {
  cudaEvent_t s, e;
  CHECK(cudaEventCreate(&s));
  CHECK(cudaEventCreate(&e));
  for (int w = 0; w < 3; ++w) launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int k = 0; k < 11; ++k) {
    CHECK(cudaEventRecord(s));
    launch();
    CHECK(cudaEventRecord(e));
    CHECK(cudaEventSynchronize(e));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, s, e));
    t.push_back(ms);
  }
  CHECK(cudaGetLastError());
  return median_ms(t);
}

bool check(const std::vector<word_t>& a, const std::vector<word_t>& b, const word_t* dr, std::size_t count) {
  std::vector<word_t> r(W);
  for (std::size_t s = 0; s < 64; ++s) {
    const std::size_t i = s * (count / 64) + s % 7;
    CHECK(cudaMemcpy(r.data(), dr + i * W, W * 4, cudaMemcpyDeviceToHost));
    std::vector<word_t> want(W, 0);
    for (int x = 0; x < W; ++x) {
      unsigned long long c = 0;
      for (int y = 0; x + y < W; ++y) {
        const unsigned long long p = (unsigned long long)a[i * W + x] * b[i * W + y] + want[x + y] + c;
        want[x + y] = (word_t)p;
        c = p >> 32;
      }
    }
    if (want != r) return false;
  }
  return true;
}

int main() {
  const std::size_t count = (std::size_t{1} << 32) / (W * 32);
  std::vector<word_t> ha(count * W), hb(count * W);
  unsigned long long z = 88172645463325252ull;
  for (auto* v : {&ha, &hb})
    for (auto& w : *v) z ^= z << 13, z ^= z >> 7, z ^= z << 17, w = (word_t)z;
  word_t *a, *b, *r;
  CHECK(cudaMalloc(&a, count * W * 4));
  CHECK(cudaMalloc(&b, count * W * 4));
  CHECK(cudaMalloc(&r, count * W * 4));
  CHECK(cudaMemcpy(a, ha.data(), count * W * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), count * W * 4, cudaMemcpyHostToDevice));
  std::printf("| variant | 1-Mul G/s (1024 bits) | verified |\n| --- | --- | --- |\n");
  const auto row = [&](const char* name, float ms) {
    std::printf("| %s | %.3f | %s |\n", name, count / (ms / 1e3) / 1e9, check(ha, hb, r, count) ? "yes" : "NO");
  };
  const unsigned blocks = static_cast<unsigned>(count / 128);
  for (int rep = 0; rep < 2; ++rep) {
    row("library: Env<32, 1>, mb::mul", time_it([&] {
          CHECK((mb::launch<mb::Env<W, 1>, mb::Env<W, 1>::product_scratch_words>(LibraryMul{a, b, r}, count, nullptr)));
        }));
    row("a in the tile, min 4 blocks", time_it([&] { mul_operand_in_tile<4><<<blocks, 128>>>(a, b, r); }));
    row("a in the tile, min 5 blocks", time_it([&] { mul_operand_in_tile<5><<<blocks, 128>>>(a, b, r); }));
    row("a in the tile, min 6 blocks", time_it([&] { mul_operand_in_tile<6><<<blocks, 128>>>(a, b, r); }));
  }
  return 0;
}
