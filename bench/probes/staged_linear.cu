// Probe (issue 5: seed 000's 6-Add at 2^17 / 2^18 bits, 2.65 / 2.20 TB/s against 2.8; 1-Add at
// 2^18 2.93 against 3.0): do the wide linear classes run short because an SM holds one or two
// instances, so that nothing loads while they resolve carries?
// At 2^18 bits an instance is a 1024-thread block of 58 registers (6-Add): one block an SM,
// whose six carry resolves (a block-wide barrier each) and store follow its loads with no
// other instance's loads in flight. `__launch_bounds__` minimums that would fit a second block
// spill and run 20-70% slower (linear_occupancy.cu). Here instead the operands of the next
// instance are in flight during the current one's arithmetic: persistent blocks (as many as
// fit the SMs) walk the instances, and one thread queues the next instance's two operands into
// a second shared-memory stage with the bulk copy engine (cp.async.bulk through
// cuda::device::memcpy_async_tx, completion on an mbarrier), while the block computes from the
// first. The body then loads its words from shared memory.
// Expected, written before the run: 6-Add 2^18 2.20 -> ~2.8 TB/s (the resolves, ~1.5 us of
// each instance's ~5.9 us on an SM, hidden behind the next loads), 2^17 2.65 -> ~2.9, 1-Add
// 2^18 2.93 -> ~3.0; at 2^16 (four blocks an SM already) no change.
// Run 1 (2 stages, one bulk copy an operand): 6-Add 2^18 2203 -> 2688 GB/s, but 1-Add 2.69-2.73
// TB/s at every width (the plain launch 2.92-3.03) and 6-Add at 2^16-2^17 slower. Run 2 adds
// 3 and 4 stages and 4 copies an operand. Expected: if one instance ahead is too little in
// flight for a short body, 3 stages bring 1-Add to ~2.9-3.0 and 6-Add 2^18 to ~2.85; if a
// single bulk copy streams too slowly, 4 copies an operand do.
// Run 2: 3 stages, one copy an operand, is the best staged form: 6-Add 2^18 2860 GB/s (plain
// 2202), 2^17 2748 (plain 2652); 1-Add staged 2.84-2.88 TB/s, under the plain launch. Run 3
// adds 6-Add with half the threads (16 words each; plain 2772 at 2^17 in linear_occupancy.cu).
// Expected: 2^17 staged with 16 words a thread ~2.85.
// Results: bench/results/2026-11-24-nvidia-h100-80gb-hbm3-staged-linear.md. The kept form (3
// stages, one copy an operand, any body) is mb::launch_staged in
// include/mpgpu/batch/launch_staged.cuh; this file keeps the variants as they were measured.
// NumBits x NumInsts = 2^32 as in seed 000; CUDA events, median of 11 after warm-ups; 64
// instances spread over the batch and the last one checked against a host computation.
// Build: nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I../../include staged_linear.cu -o staged_linear
#include <cuda/barrier>
#include <cuda/ptx>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../cuda_timing.cuh"
#include "mpgpu/batch/batch.cuh"
#include "mpgpu/batch/tuning.cuh"

namespace mb = mpgpu::batch;
using mb::word_t;

#include "linear_probe_check.cuh"
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

template <class E, bool kSix, int kStages, int kChunks>
__global__ void __launch_bounds__(E::threads) staged_kernel(const word_t* a, const word_t* b, word_t* r,
                                                            std::size_t count) {
  constexpr int W = E::words;
  constexpr unsigned kBytes = W * sizeof(word_t);
  constexpr int kChunkWords = W / kChunks;
  extern __shared__ __align__(16) word_t smem[];
  constexpr int kCommPad = (E::comm_words + 3) / 4 * 4;  // keep the stages 16-byte aligned
  word_t* comm = smem;
  auto stage = [&](int s) { return smem + kCommPad + s * 2 * W; };  // operand a, then b
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier bar[kStages];  // initialized below, by one thread
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < kStages; ++s) init(&bar[s], blockDim.x);
  }
  __syncthreads();
  E env(static_cast<int>(threadIdx.x), comm);
  auto queue = [&](int s, std::size_t i) {  // one thread: both operands of instance i into stage s
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // the stage's generic reads are done
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
      cuda::device::memcpy_async_tx(stage(s) + c * kChunkWords, a + i * W + c * kChunkWords,
                                    cuda::aligned_size_t<16>(kBytes / kChunks), bar[s]);
      cuda::device::memcpy_async_tx(stage(s) + W + c * kChunkWords, b + i * W + c * kChunkWords,
                                    cuda::aligned_size_t<16>(kBytes / kChunks), bar[s]);
    }
  };
  const std::size_t first = blockIdx.x, step = gridDim.x;
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s + 1 < kStages; ++s)
      if (first + s * step < count) queue(s, first + s * step);
  }
  int s = 0;
  for (std::size_t i = first; i < count; i += step) {
    // The stage before s was read in the previous iteration, which ended with a barrier.
    const std::size_t ahead = i + (kStages - 1) * step;
    if (threadIdx.x == 0 && ahead < count) queue(s == 0 ? kStages - 1 : s - 1, ahead);
    block_barrier::arrival_token token =
        threadIdx.x == 0 ? cuda::device::barrier_arrive_tx(bar[s], 1, 2 * kBytes) : bar[s].arrive();
    bar[s].wait(std::move(token));
    typename E::Num x, y, t;
    mb::load(env, x, stage(s));
    mb::load(env, y, stage(s) + W);
    add_chain<kSix>(env, t, x, y);
    mb::store(env, r + i * W, t);
    __syncthreads();  // stage s is read before it is queued again
    s = s + 1 == kStages ? 0 : s + 1;
  }
}

template <int W, bool kSix, int kStages, int kChunks, int G = mb::tuned_linear_group_size(W)>
void staged(const word_t* a, const word_t* b, word_t* r, std::size_t count) {
  using E = mb::Env<W, G>;
  const double bytes = 3.0 * W * 4 * double(count);
  constexpr int kCommPad = (E::comm_words + 3) / 4 * 4;
  const std::size_t smem = (kCommPad + 2 * kStages * W) * sizeof(word_t);
  auto kernel = staged_kernel<E, kSix, kStages, kChunks>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  int per_sm = 0, sms = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, G, smem));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned grid = unsigned(std::min<std::size_t>(count, std::size_t(per_sm) * sms));
  auto call = [&] {
    kernel<<<grid, G, smem>>>(a, b, r, count);
    CHECK(cudaGetLastError());
  };
  for (int w = 0; w < 2; ++w) call();
  const double ms = mpgpu_bench::median_ms(nullptr, 11, call);
  CHECK(cudaDeviceSynchronize());
  const bool ok = verify<W, kSix>(a, b, r, count);
  CHECK(cudaMemset(r, 0, count * W * 4));
  std::printf("| %d | %s | %d | staged, %d stages, %d copies an operand | %d | %.4f | %.0f | %s |\n", W * 32,
              kSix ? "6-Add" : "1-Add", G, kStages, kChunks, per_sm, ms, bytes / (ms / 1e3) / 1e9, ok ? "yes" : "NO");
}

template <int W, bool kSix, int G = mb::tuned_linear_group_size(W)>
void plain(const word_t* a, const word_t* b, word_t* r, std::size_t count) {
  using E = mb::Env<W, G>;
  const double bytes = 3.0 * W * 4 * double(count);
  {
    PlainBody<kSix> body{a, b, r};
    auto call = [&] { CHECK((mb::launch<E, E::comm_words>(body, count, nullptr))); };
    for (int w = 0; w < 2; ++w) call();
    const double ms = mpgpu_bench::median_ms(nullptr, 11, call);
    CHECK(cudaDeviceSynchronize());
    const bool ok = verify<W, kSix>(a, b, r, count);
    CHECK(cudaMemset(r, 0, count * W * 4));
    std::printf("| %d | %s | %d | launch (one instance a block) | - | %.4f | %.0f | %s |\n", W * 32,
                kSix ? "6-Add" : "1-Add", G, ms, bytes / (ms / 1e3) / 1e9, ok ? "yes" : "NO");
  }
}

template <int W, bool kSix>
void run(const word_t* a, const word_t* b, word_t* r, std::size_t count) {
  constexpr int G = mb::tuned_linear_group_size(W);
  plain<W, kSix>(a, b, r, count);
  staged<W, kSix, 2, 1>(a, b, r, count);
  staged<W, kSix, 3, 1>(a, b, r, count);
  staged<W, kSix, 2, 4>(a, b, r, count);
  staged<W, kSix, 3, 4>(a, b, r, count);
  if constexpr (W <= 4096) staged<W, kSix, 4, 4>(a, b, r, count);
  if constexpr (kSix) {  // run 3: half the threads, 16 words each
    plain<W, kSix, G / 2>(a, b, r, count);
    staged<W, kSix, 3, 1, G / 2>(a, b, r, count);
  }
}

template <int W>
void width() {
  with_probe_operands<W>([](word_t* a, word_t* b, word_t* r, std::size_t count) {
    run<W, false>(a, b, r, count);
    run<W, true>(a, b, r, count);
  });
}

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("Device: %s. NumBits x NumInsts = 2^32; median of 11 after warm-ups.\n\n", prop.name);
  std::printf("| bits | op | G | launch | blocks an SM | ms | GB/s | verified |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  width<2048>();  // 2^16 bits
  width<4096>();  // 2^17
  width<8192>();  // 2^18
  return 0;
}
