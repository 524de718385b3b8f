// Probe (issue 5: 1-Mul at 2048 / 4096 / 8192 bits runs 0.96x / 1.01x / 1.20x the best peer,
// target 1.25x): what bounds the staged product runs and the 1024-bit register product?
// Arithmetic from the recorded rates: both run ~0.10 warp-terms (32x32 -> 64-bit products) a
// clock per SM sub-partition. If IMAD.WIDE / IMAD.HI take the multiply pipe twice as long as
// IMAD (0.25 warp instructions a clock), the staged loop (one IMAD.WIDE a term plus moves) is
// at ~55% of that pipe and the register product (IMAD + IMAD.HI a term) at ~60%.
// Part 1 measures the pipe: IMAD, IMAD.HI, IMAD.WIDE.U32 (independent chains, every warp slot).
// Part 2 times the library's 1-Mul (low half) at 1024 .. 8192 bits for several G, checks a
// sample against a host schoolbook, and (under ncu) gives the kernels to profile.
// Build: nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I../../include mul_pipe_profile.cu -o mul_pipe_profile
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../cuda_timing.cuh"
#include "mpgpu/batch/batch.cuh"

namespace mb = mpgpu::batch;
using mb::word_t;

#include "linear_probe_check.cuh"  // fill

// ---- part 1: instruction throughput --------------------------------------------------------
constexpr int kChains = 8, kIters = 4096;

template <int Kind>
__global__ void __launch_bounds__(256) pipe_kernel(word_t* out, word_t seed) {
  word_t x[kChains], y[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) x[c] = seed + threadIdx.x * 7 + c, y[c] = seed ^ (c * 0x9E3779B9u);
  const word_t m = seed | 1u;
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      if constexpr (Kind == 0) {
        x[c] = x[c] * m + y[c];  // IMAD
      } else if constexpr (Kind == 1) {
        x[c] = __umulhi(x[c], m) + y[c];  // IMAD.HI
      } else {
        std::uint64_t w = (std::uint64_t(x[c]) << 32) | y[c];
        w = std::uint64_t(x[c]) * m + w;  // IMAD.WIDE.U32
        x[c] = word_t(w >> 32);
        y[c] = word_t(w);
      }
    }
  }
  word_t s = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) s ^= x[c] ^ y[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int Kind>
void time_pipe(const char* name, word_t* out, int sms) {
  const int blocks = sms * 8;  // 2048 threads an SM
  const double ms = mpgpu_bench::median_ms(0, 5, [&] { pipe_kernel<Kind><<<blocks, 256>>>(out, 12345u); });
  CHECK(cudaGetLastError());
  const double warp_instr = double(blocks) * 256 / 32 * kIters * kChains;
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  const double clocks = ms * 1e-3 * clock_khz * 1e3;
  std::printf("| %s | %.3f ms | %.3f warp instr / clk / SMSP (at %d MHz) |\n", name, ms,
              warp_instr / (clocks * sms * 4), clock_khz / 1000);
}

// ---- part 2: the library's 1-Mul -----------------------------------------------------------
template <int W>
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

// ---- part 3: products by column scanning in registers (register_mul.cuh), a thread an
// instance, loads and stores through the warp's tile -----------------------------------------
// The forms measured here: any number R of result words, an addend (Onto), and squares. The
// library kept only the low product (register_mul.cuh's column_product).
namespace cols {
/// (x2:x1:x0) += (t2:t1:t0).
__device__ __forceinline__ void add3(word_t& x0, word_t& x1, word_t& x2, word_t t0, word_t t1, word_t t2) {
  word_t k = mb::add_word(x0, t0, 0, x0);
  k = mb::add_word(x1, t1, k, x1);
  x2 += t2 + k;
}

/// r[0..R) = the low R words of a * b (with Onto: of r + a * b).
template <int W, int R, bool Onto = false>
__device__ __forceinline__ void product(const word_t (&a)[W], const word_t (&b)[W], word_t* r) {
  word_t x0 = 0, x1 = 0, x2 = 0;
#pragma unroll
  for (int c = 0; c < R; ++c) {
    const int lo = c >= W ? c - W + 1 : 0, hi = c < W ? c : W - 1;
    if constexpr (Onto) add3(x0, x1, x2, r[c], 0, 0);
    if (c == R - 1 && R == W) {
#pragma unroll
      for (int i = lo; i <= hi; ++i) x0 += a[i] * b[c - i];
    } else {
#pragma unroll
      for (int i = lo; i <= hi; ++i) mb::mac_word(a[i], b[c - i], x0, x1, x2);
    }
    r[c] = x0;
    x0 = x1, x1 = x2, x2 = 0;
  }
}

/// r[0..R) = the low R words of a^2: each column's pairs i < c - i in their own accumulator,
/// doubled, plus a[c/2]^2 for even c, then added to the carry of the columns below.
template <int W, int R>
__device__ __forceinline__ void square(const word_t (&a)[W], word_t* r) {
  word_t x0 = 0, x1 = 0, x2 = 0;
#pragma unroll
  for (int c = 0; c < R; ++c) {
    const int lo = c >= W ? c - W + 1 : 0;
    if (c == R - 1 && R == W) {
      word_t t = 0;
#pragma unroll
      for (int i = lo; i < c - i; ++i) t += a[i] * a[c - i];
      t <<= 1;
      if (c % 2 == 0) t += a[c / 2] * a[c / 2];
      x0 += t;
    } else {
      word_t t0 = 0, t1 = 0, t2 = 0;
#pragma unroll
      for (int i = lo; i < c - i; ++i) mb::mac_word(a[i], a[c - i], t0, t1, t2);
      t2 = (t2 << 1) | (t1 >> 31);
      t1 = (t1 << 1) | (t0 >> 31);
      t0 <<= 1;
      if (c % 2 == 0) mb::mac_word(a[c / 2], a[c / 2], t0, t1, t2);
      add3(x0, x1, x2, t0, t1, t2);
    }
    r[c] = x0;
    x0 = x1, x1 = x2, x2 = 0;
  }
}
}  // namespace cols
template <int W, bool Poly>
struct ColumnBody {
  const word_t *a, *b;
  word_t* r;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    (void)env;
#if defined(__CUDA_ARCH__)
    word_t x[W], y[W], t[W];
    if (live) mb::warp_io::tiled_load<W>(x, a + i * W), mb::warp_io::tiled_load<W>(y, b + i * W);
    else
      for (int k = 0; k < W; ++k) x[k] = y[k] = 0;
    if constexpr (!Poly) {
      cols::product<W, W>(x, y, t);
    } else {
      // (a*a + b) * (b*b + b) + a*b as seed 000's Poly body orders it.
      word_t ab[W], u[W], v[W];
      cols::product<W, W>(x, y, ab);
      cols::square<W, W>(x, u);
      word_t c = 0;
      for (int k = 0; k < W; ++k) c = mb::add_word(u[k], y[k], c, u[k]);
      cols::square<W, W>(y, v);
      c = 0;
      for (int k = 0; k < W; ++k) c = mb::add_word(v[k], y[k], c, v[k]);
      for (int k = 0; k < W; ++k) t[k] = ab[k];
      cols::product<W, W, true>(u, v, t);
    }
    if (live) mb::warp_io::tiled_store<W>(r + i * W, t);
#endif
  }
};

template <int W>
struct LibraryPoly {
  const word_t *a, *b;
  word_t* r;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, y, t1, t2, t3;
    if (live) mb::load(env, x, a + i * W), mb::load(env, y, b + i * W);
    else mb::set_zero(env, x), mb::set_zero(env, y);
    mb::mul(env, t3, x, y);
    mb::sqr(env, t1, x);
    mb::add(env, t1, t1, y);
    mb::sqr(env, t2, y);
    mb::add(env, t2, t2, y);
    mb::mul_add(env, t1, t1, t2, t3);
    if (live) mb::store(env, r + i * W, t1);
  }
};

// ---- part 4: the staged runs (several threads an instance) without register moves and
// without divergence ------------------------------------------------------------------------
// The library's product_run slides a window of B one word a row: ptxas moves registers at
// the end of each chunk (8 IMAD.MOV a 16-term chunk at 2048 bits, on the multiply pipe).
// Here a chunk of Q rows reads the 2Q words of B it needs, indexed at compile time. And the
// library runs a thread's two runs (t + 1 and 2G - t chunks) as two loops: the warp takes
// G + 2G chunk steps where each lane has 2G + 1 of work. Variant "uniform" walks both runs
// in one loop of 2G + 1 chunk steps; at the switch a lane snapshots its accumulators, and the
// second run's columns are the final accumulators minus the snapshot.
namespace v4 {
template <int Q>
__device__ __forceinline__ void chunk(const word_t* A, const word_t* B, int c0, int i0, word_t (&lo)[Q],
                                      word_t (&hi)[Q], word_t (&cc)[Q]) {
  word_t av[Q], bw[2 * Q];
  // bw[k] = B[c0 - i0 - Q + k]; row i0 + s, column c0 + q takes B[c0 + q - i0 - s] = bw[q - s + Q].
  const word_t* bs = B + c0 - i0 - Q;
  if constexpr (Q % 4 == 0) {
#pragma unroll
    for (int k = 0; k < Q; k += 4) {
      const uint4 v = *reinterpret_cast<const uint4*>(A + i0 + k);
      av[k] = v.x, av[k + 1] = v.y, av[k + 2] = v.z, av[k + 3] = v.w;
    }
#pragma unroll
    for (int k = 0; k < 2 * Q; k += 4) {
      const uint4 v = *reinterpret_cast<const uint4*>(bs + k);
      bw[k] = v.x, bw[k + 1] = v.y, bw[k + 2] = v.z, bw[k + 3] = v.w;
    }
  } else {
#pragma unroll
    for (int k = 0; k < Q; ++k) av[k] = A[i0 + k];
#pragma unroll
    for (int k = 0; k < 2 * Q; ++k) bw[k] = bs[k];
  }
#pragma unroll
  for (int s = 0; s < Q; ++s)
#pragma unroll
    for (int q = 0; q < Q; ++q) mb::mac_word(av[s], bw[q - s + Q], lo[q], hi[q], cc[q]);
}

/// Low-half columns [c0, c0 + Q) (c0 < W): rows 0 .. c0 + Q - 1 in chunks.
template <int Q, int W>
__device__ __forceinline__ void run_window(const word_t* A, const word_t* B, int c0, word_t out[Q + 2]) {
  word_t lo[Q], hi[Q], cc[Q];
#pragma unroll
  for (int q = 0; q < Q; ++q) lo[q] = hi[q] = cc[q] = 0;
  for (int i0 = 0; i0 <= c0; i0 += Q) chunk<Q>(A, B, c0, i0, lo, hi, cc);
  mb::mul_detail::fold_columns<Q>(lo, hi, cc, out);
}

template <bool Uniform, class E>
__device__ void mul(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
  constexpr int Q = E::run, G = E::threads;
  word_t *A, *B;
  mb::mul_detail::stage_operands<E, false>(env, a, b, A, B);
  const int t = env.rank();
  const int rA = t, rB = 2 * G - 1 - t;
  word_t outA[Q + 2], outB[Q + 2];
  if constexpr (!Uniform) {
    run_window<Q, E::words>(A, B, rA * Q, outA);
    run_window<Q, E::words>(A, B, rB * Q, outB);
  } else {
    word_t lo[Q], hi[Q], cc[Q], slo[Q], shi[Q], scc[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) lo[q] = hi[q] = cc[q] = 0;
    for (int k = 0; k <= 2 * G; ++k) {
      const bool first = k <= t;
      if (k == t + 1) {
#pragma unroll
        for (int q = 0; q < Q; ++q) slo[q] = lo[q], shi[q] = hi[q], scc[q] = cc[q];
      }
      chunk<Q>(A, B, (first ? rA : rB) * Q, (first ? k : k - t - 1) * Q, lo, hi, cc);
    }
    // Run B's columns: the totals minus the snapshot (three-word differences).
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      word_t bo = mb::sub_word(lo[q], slo[q], 0, lo[q]);
      bo = mb::sub_word(hi[q], shi[q], bo, hi[q]);
      cc[q] = cc[q] - scc[q] - bo;
    }
    mb::mul_detail::fold_columns<Q>(slo, shi, scc, outA);
    mb::mul_detail::fold_columns<Q>(lo, hi, cc, outB);
  }
  env.group.sync();  // A and B are read; their space becomes P0 and P1
  word_t* P0 = env.work;
  word_t* P1 = env.work + E::partial_span;
  mb::mul_detail::publish_run<Q>(P0, P1, rA, outA);
  mb::mul_detail::publish_run<Q>(P0, P1, rB, outB);
  env.group.sync();
  typename E::Num x, y;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) {
    x.w[i] = P0[env.first_word() + i];
    y.w[i] = P1[env.first_word() + i];
  }
  mb::add(env, r, x, y);
}
}  // namespace v4

template <bool Uniform>
struct StagedBody {
  template <int W>
  struct Body {
    const word_t *a, *b;
    word_t* r;
    template <class E>
    __device__ void operator()(const E& env, std::size_t i, bool live) const {
      typename E::Num x, y, t;
      if (live) mb::load(env, x, a + i * W), mb::load(env, y, b + i * W);
      else mb::set_zero(env, x), mb::set_zero(env, y);
      v4::mul<Uniform>(env, t, x, y);
      if (live) mb::store(env, r + i * W, t);
    }
  };
};

static std::vector<word_t> low_product(const std::vector<word_t>& x, const std::vector<word_t>& y) {
  const std::size_t n = x.size();
  std::vector<word_t> r(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t c = 0;
    for (std::size_t j = 0; i + j < n; ++j) {
      c += std::uint64_t(x[i]) * y[j] + r[i + j];
      r[i + j] = word_t(c);
      c >>= 32;
    }
  }
  return r;
}

static std::vector<word_t> add_low(std::vector<word_t> x, const std::vector<word_t>& y) {
  std::uint64_t c = 0;
  for (std::size_t j = 0; j < x.size(); ++j) {
    c += std::uint64_t(x[j]) + y[j];
    x[j] = word_t(c);
    c >>= 32;
  }
  return x;
}

template <int W, bool Poly>
bool verify_mul(const word_t* a, const word_t* b, const word_t* r, std::size_t count) {
  std::vector<word_t> x(W), y(W), got(W);
  for (int s = 0; s <= 64; ++s) {
    const std::size_t i = s == 64 ? count - 1 : (count / 64) * s + s;
    CHECK(cudaMemcpy(x.data(), a + i * W, W * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(y.data(), b + i * W, W * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got.data(), r + i * W, W * 4, cudaMemcpyDeviceToHost));
    std::vector<word_t> want = low_product(x, y);
    if (Poly) want = add_low(low_product(add_low(low_product(x, x), y), add_low(low_product(y, y), y)), want);
    if (want != got) return false;
  }
  return true;
}

template <int W, int G, bool Poly = false, template <int> class Body = LibraryMul>
void time_body(const char* name, word_t* a, word_t* b, word_t* r, int reps) {
  using E = mb::Env<W, G>;
  const std::size_t count = (std::size_t(1) << 32) / (32 * W);
  const double ms = mpgpu_bench::median_ms(0, reps, [&] {
    CHECK((mb::launch<E, E::product_scratch_words>(Body<W>{a, b, r}, count, 0)));
  });
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("| %s | %d | %d | %d | %.4f | %.1f | %s |\n", name, 32 * W, G, W / G, ms, count / ms * 1e-3,
              verify_mul<W, Poly>(a, b, r, count) ? "yes" : "NO");
}
template <int W, int G>
void time_mul(word_t* a, word_t* b, word_t* r, int reps) {
  time_body<W, G>("library 1-Mul", a, b, r, reps);
}
template <int W>
using ColumnMul = ColumnBody<W, false>;
template <int W>
using ColumnPoly = ColumnBody<W, true>;

int main(int argc, char** argv) {
  const bool profile = argc > 1;  // under ncu: one timed call each
  const int reps = profile ? 1 : 11;
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  word_t* out = nullptr;
  CHECK(cudaMalloc(&out, std::size_t(sms) * 2048 * 4));
  if (!profile) {
    std::printf("| instruction | median | rate |\n| --- | --- | --- |\n");
    time_pipe<0>("IMAD", out, sms);
    time_pipe<1>("IMAD.HI", out, sms);
    time_pipe<2>("IMAD.WIDE.U32", out, sms);
  }
  const std::size_t words = (std::size_t(1) << 32) / 32;
  word_t *a, *b, *r;
  CHECK(cudaMalloc(&a, words * 4));
  CHECK(cudaMalloc(&b, words * 4));
  CHECK(cudaMalloc(&r, words * 4));
  fill<<<1024, 256>>>(a, words, 1);
  fill<<<1024, 256>>>(b, words, 2);
  CHECK(cudaGetLastError());
  std::printf("\n| kernel | bits | G | words/thread | ms | M inst/s | verified |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  time_body<32, 1, false, ColumnMul>("columns 1-Mul", a, b, r, reps);
  time_body<64, 1, false, ColumnMul>("columns 1-Mul", a, b, r, reps);
  time_body<32, 1, true, LibraryPoly>("library Poly", a, b, r, reps);
  time_body<32, 1, true, ColumnPoly>("columns Poly", a, b, r, reps);
  time_body<64, 8, true, LibraryPoly>("library Poly", a, b, r, reps);
  time_body<128, 16, true, LibraryPoly>("library Poly", a, b, r, reps);
  time_body<256, 16, true, LibraryPoly>("library Poly", a, b, r, reps);
  time_mul<32, 1>(a, b, r, reps);
  time_mul<64, 4>(a, b, r, reps);
  time_mul<64, 8>(a, b, r, reps);
  time_mul<64, 16>(a, b, r, reps);
  time_mul<128, 8>(a, b, r, reps);
  time_mul<128, 16>(a, b, r, reps);
  time_mul<128, 32>(a, b, r, reps);
  time_mul<256, 16>(a, b, r, reps);
  time_mul<256, 32>(a, b, r, reps);
  time_body<64, 8, false, StagedBody<false>::Body>("window runs", a, b, r, reps);
  time_body<64, 8, false, StagedBody<true>::Body>("uniform runs", a, b, r, reps);
  time_body<64, 4, false, StagedBody<true>::Body>("uniform runs", a, b, r, reps);
  time_body<128, 16, false, StagedBody<false>::Body>("window runs", a, b, r, reps);
  time_body<128, 16, false, StagedBody<true>::Body>("uniform runs", a, b, r, reps);
  time_body<128, 8, false, StagedBody<true>::Body>("uniform runs", a, b, r, reps);
  time_body<256, 16, false, StagedBody<false>::Body>("window runs", a, b, r, reps);
  time_body<256, 16, false, StagedBody<true>::Body>("uniform runs", a, b, r, reps);
  time_body<256, 32, false, StagedBody<true>::Body>("uniform runs", a, b, r, reps);
  time_body<256, 8, false, StagedBody<true>::Body>("uniform runs", a, b, r, reps);
  return 0;
}
