// Probe (issue 5: seed 000's 1-Add at 2^18 bits 2.93 TB/s against 3.0; 6-Add at 2^17 2.78
// against 2.8): with add/sub as PTX carry chains (word.cuh add_words: add_word's 64-bit sums
// made ptxas hold operands as 64-bit pairs) the kernels take fewer registers (ptxas, nvcc
// 13.0): 1-Add 44 -> 28 (2^18 bits: two 1024-thread blocks an SM instead of one), 6-Add 58 ->
// 44 (2^17: 40 with a minimum of 3 blocks of 512, no spill). Expected: 1-Add 2^18 ~3.0 TB/s
// (a second block loads while the first resolves and stores); 6-Add 2^17 with 3 blocks an
// SM >= 2.8; staged (launch_staged) unchanged or better.
// NumBits x NumInsts = 2^32 as in seed 000; CUDA events, median of 11 after warm-ups; 65
// instances checked against a host computation.
// Build: nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I../../include linear_chains.cu -o linear_chains
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../cuda_timing.cuh"
#include "mpgpu/batch/batch.cuh"
#include "mpgpu/batch/launch_staged.cuh"
#include "mpgpu/batch/tuning.cuh"

namespace mb = mpgpu::batch;
using mb::word_t;

#include "linear_probe_check.cuh"

template <bool kSix>
struct StagedBody {
  word_t* r;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, const word_t* const* staged) const {
    typename E::Num x, y, t;
    mb::load(env, x, staged[0]);
    mb::load(env, y, staged[1]);
    add_chain<kSix>(env, t, x, y);
    mb::store(env, r + i * E::words, t);
  }
};

template <int W, bool kSix>
void report(const char* how, int G, double ms, const word_t* a, const word_t* b, word_t* r, std::size_t count) {
  const double bytes = 3.0 * W * 4 * double(count);
  const bool ok = verify<W, kSix>(a, b, r, count);
  CHECK(cudaMemset(r, 0, count * W * 4));
  std::printf("| %d | %s | %d | %s | %.4f | %.0f | %s |\n", W * 32, kSix ? "6-Add" : "1-Add", G, how, ms,
              bytes / (ms / 1e3) / 1e9, ok ? "yes" : "NO");
}

/// 1-Add variants at 2^18 bits, to see what holds it under 3.0 TB/s. Mode 1: cache-streaming
/// loads and stores (ld.global.cs / st.global.cs); mode 2: no carry resolve between the threads
/// (each thread's own sum only: wrong results, timing only -- is the block-wide barrier the
/// cost?).
template <int Mode>
struct Add1Variant {
  const word_t *a, *b;
  word_t* r;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    constexpr int L = E::per_thread;
    typename E::Num x, y, t;
    const std::size_t off = i * E::words + env.first_word();
    if (!live) return;
#pragma unroll
    for (int k = 0; k < L; k += 4) {
      const uint4 u = __ldcs(reinterpret_cast<const uint4*>(a + off + k));
      const uint4 v = __ldcs(reinterpret_cast<const uint4*>(b + off + k));
      x.w[k] = u.x, x.w[k + 1] = u.y, x.w[k + 2] = u.z, x.w[k + 3] = u.w;
      y.w[k] = v.x, y.w[k + 1] = v.y, y.w[k + 2] = v.z, y.w[k + 3] = v.w;
    }
    if constexpr (Mode == 1) mb::add(env, t, x, y);
    else mb::add_words<L>(x.w, y.w, t.w);
#pragma unroll
    for (int k = 0; k < L; k += 4)
      __stcs(reinterpret_cast<uint4*>(r + off + k), make_uint4(t.w[k], t.w[k + 1], t.w[k + 2], t.w[k + 3]));
  }
};

template <int W, int Mode>
void add1_variant(const word_t* a, const word_t* b, word_t* r, std::size_t count) {
  constexpr int G = mb::tuned_linear_group_size(W);
  using E = mb::Env<W, G>;
  Add1Variant<Mode> body{a, b, r};
  auto call = [&] { CHECK((mb::launch<E, E::comm_words>(body, count, nullptr))); };
  for (int w = 0; w < 2; ++w) call();
  const double ms = mpgpu_bench::median_ms(nullptr, 11, call);
  CHECK(cudaDeviceSynchronize());
  report<W, false>(Mode == 1 ? "launch, streaming loads/stores" : "launch, no carry resolve (timing only)", G, ms,
                   a, b, r, count);
}

template <int W, bool kSix, int G, int MinBlocks>
void plain(const word_t* a, const word_t* b, word_t* r, std::size_t count) {
  using E = mb::Env<W, G>;
  PlainBody<kSix> body{a, b, r};
  auto call = [&] { CHECK((mb::launch<E, E::comm_words, MinBlocks>(body, count, nullptr))); };
  for (int w = 0; w < 2; ++w) call();
  const double ms = mpgpu_bench::median_ms(nullptr, 11, call);
  CHECK(cudaDeviceSynchronize());
  char how[64];
  std::snprintf(how, sizeof how, "launch, min blocks %d", MinBlocks);
  report<W, kSix>(how, G, ms, a, b, r, count);
}

template <int W, bool kSix, int G>
void staged(const word_t* a, const word_t* b, word_t* r, std::size_t count) {
  using E = mb::Env<W, G>;
  const word_t* inputs[2] = {a, b};
  auto call = [&] { CHECK((mb::launch_staged<E, 2>(StagedBody<kSix>{r}, inputs, count, nullptr))); };
  for (int w = 0; w < 2; ++w) call();
  const double ms = mpgpu_bench::median_ms(nullptr, 11, call);
  CHECK(cudaDeviceSynchronize());
  report<W, kSix>("launch_staged, 3 stages", G, ms, a, b, r, count);
}

template <int W>
void width() {
  with_probe_operands<W>([](word_t* a, word_t* b, word_t* r, std::size_t count) {
    constexpr int G = mb::tuned_linear_group_size(W);
    plain<W, false, G, 0>(a, b, r, count);
    plain<W, true, G, 0>(a, b, r, count);
    staged<W, true, G>(a, b, r, count);
    if constexpr (W == 4096) {
      plain<W, true, G, 3>(a, b, r, count);
      plain<W, true, G / 2, 0>(a, b, r, count);
      staged<W, true, G / 2>(a, b, r, count);
    }
    if constexpr (W >= 4096) {
      add1_variant<W, 1>(a, b, r, count);
      add1_variant<W, 2>(a, b, r, count);
    }
    if constexpr (W == 8192) {
      plain<W, false, G / 2, 0>(a, b, r, count);
      staged<W, true, G / 2>(a, b, r, count);
    }
  });
}

int main() {
  std::printf("| bits | op | G | launch | ms | GB/s | verified |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  width<2048>();
  width<4096>();
  width<8192>();
  return 0;
}
