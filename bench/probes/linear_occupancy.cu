// Probe (issue 5: seed 000's 1-Add at 2^18 bits 2.94 TB/s against 3.0, 6-Add 2.66 / 2.20 TB/s
// at 2^17 / 2^18 against 2.8): are the wide linear classes short of resident blocks?
// ptxas (nvcc 13.0) for the tuned linear classes: 1-Add 2^18 (Env<8192, 1024>) 44 registers,
// so one 1024-thread block an SM (two need <= 32); 6-Add 58 registers at 2^17 (Env<4096, 512>:
// two blocks an SM) and 2^18 (one). With one block an SM nothing loads while the block resolves
// its carries or stores. `__launch_bounds__` minimums (launch<E, S, MinBlocksPerSM>): 1-Add
// 2^18 at 2 blocks: 32 registers, 48 bytes spilled; 6-Add 2^17 at 3: 40 registers, 136 bytes;
// 6-Add 2^18 at 2: 32 registers, 264 bytes.
// Expected, written before the run: 1-Add 2^18 2.94 -> ~3.0 TB/s at 2 blocks (the spill is a
// few L1 words); 6-Add gains only where the spill stays small (2^17 at 3 blocks +3-5%),
// 2^18 at 2 blocks unclear (264 bytes a thread in local memory).
// Variants: for each width and operation, the tuned group size G (tuning.cuh) without a
// minimum and with the minimums above, and for 6-Add the neighbouring G.
// Measured: bench/results/2026-11-24-nvidia-h100-80gb-hbm3-linear-occupancy.md (every spilling
// minimum slower by 20-70%; not adopted).
// NumBits x NumInsts = 2^32 as in seed 000; CUDA events, median of 11 after 3 warm-ups;
// 64 instances spread over the batch and the last one checked against a host computation.
// GB/s = 3 x bits/8 x instances / time (seed 000's count for both adds).
// Build: nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I../../include linear_occupancy.cu -o linear_occupancy
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../cuda_timing.cuh"
#include "mpgpu/batch/batch.cuh"
#include "mpgpu/batch/tuning.cuh"

namespace mb = mpgpu::batch;
using mb::word_t;

#include "linear_probe_check.cuh"

template <bool kSix>
struct AddBody {
  const word_t *a, *b;
  word_t* r;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, y, t1, t2, t3;
    const std::size_t off = i * E::words;
    if (live) {
      mb::load(env, x, a + off);
      mb::load(env, y, b + off);
    } else {
      mb::set_zero(env, x);
      mb::set_zero(env, y);
    }
    if constexpr (!kSix) {
      mb::add(env, t1, x, y);
    } else {  // seed 000's chain, as bench/batch_seed000.cu
      mb::add(env, t1, x, y);
      mb::add(env, t2, t1, x);
      mb::add(env, t3, t2, y);
      mb::add(env, t1, t3, t1);
      mb::add(env, t2, t1, t2);
      mb::add(env, t1, t2, t3);
    }
    if (live) mb::store(env, r + off, t1);
  }
};

template <int W, int G, int MinBlocks, bool kSix>
void run(const word_t* a, const word_t* b, word_t* r, std::size_t count) {
  using E = mb::Env<W, G>;
  AddBody<kSix> body{a, b, r};
  auto call = [&] { CHECK((mb::launch<E, E::comm_words, MinBlocks>(body, count, nullptr))); };
  for (int w = 0; w < 2; ++w) call();
  const double ms = mpgpu_bench::median_ms(nullptr, 11, call);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify<W, kSix>(a, b, r, count);
  CHECK(cudaMemset(r, 0, count * W * 4));  // the next variant must write its own result
  const double gbs = 3.0 * W * 4 * double(count) / (ms / 1e3) / 1e9;
  std::printf("| %d | %s | %d | %d | %d | %.4f | %.0f | %s |\n", W * 32, kSix ? "6-Add" : "1-Add", G, W / G,
              MinBlocks, ms, gbs, ok ? "yes" : "NO");
}

template <int W>
void width() {
  with_probe_operands<W>([](word_t* a, word_t* b, word_t* r, std::size_t count) {
    constexpr int G = mb::tuned_linear_group_size(W);
    run<W, G, 0, false>(a, b, r, count);
    run<W, G, 65536 / (G * 32), false>(a, b, r, count);  // 32 registers
    run<W, G, 0, true>(a, b, r, count);
    run<W, G, 65536 / (G * 40), true>(a, b, r, count);   // <= 40 registers
    run<W, G, 65536 / (G * 32), true>(a, b, r, count);   // 32 registers
    if constexpr (G < 1024) {
      run<W, 2 * G, 0, true>(a, b, r, count);
      run<W, 2 * G, 65536 / (2 * G * 32), true>(a, b, r, count);
    }
    run<W, G / 2, 0, true>(a, b, r, count);
  });
}

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("Device: %s. NumBits x NumInsts = 2^32; median of 11 after warm-ups.\n\n", prop.name);
  std::printf("| bits | op | G | words a thread | min blocks an SM | ms | GB/s | verified |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  width<2048>();  // 2^16 bits: reference (meets both targets)
  width<4096>();  // 2^17
  width<8192>();  // 2^18
  return 0;
}
