// Probe (issue 38: Montgomery products and powm 1.5x CGBN; ours are 0.96-1.02x at 2048-8192
// bits): Montgomery products on the FP64 pipe instead of the integer multiplier, against the
// library's integer rows in the same run.
//
// Why: the library's products by rows spend one IMAD.WIDE (32 x 32 -> 64 bits, 4 cycles of a
// warp on the multiply pipe) per word product: 1024 bit^2 per 4 cycles. 2048-bit Montgomery
// products run at 8.46e8/s on an H200, ~83% of what the IMAD.WIDE rate allows (132 SMs x 32 a
// clock x 1.98 GHz / 8192 products), so the integer pipe is near its ceiling and 1.5x needs
// another unit. Hopper's FP64 pipe does 64 DFMA a clock an SM, as many as IMAD: a 52 x 52-bit
// product split into its high and low halves is 2 DFMA + 1 DADD (2704 bit^2 per 6 cycles of a
// warp), and the halves' sums are integer adds, which go to the ALU and, as IMAD.IADD, to the
// multiply pipe, both idle otherwise. If the FP64 pipe is the bound: ~1.7x the integer rows.
// (The approach is that of Emmart, Zheng and Weems, "Faster modular exponentiation using double
// precision floating point arithmetic on the GPU", ARITH 2018; this code is ours.)
//
// The arithmetic, exact: limbs of 52 bits held in doubles. For a, b < 2^52, with both fused
// multiply-adds rounded toward zero:
//   h = fma_rz(a, b, 2^104)                = 2^104 + m 2^52, m = floor(a b / 2^52) < 2^52
//   l = fma_rz(a, b, (2^104 + 2^52) - h)   = a b - m 2^52 + 2^52, an integer in [2^52, 2^53)
// (h's unit in the last place is 2^52, so rounding toward zero floors; the subtraction is exact;
// l is exact). Their bit patterns, read as integers, are E(2^104) + m and E(2^52) + (a b - m
// 2^52), so both halves come out with one integer subtraction each: a b = m 2^52 + low. (Round
// to nearest does not do: its low half is signed, and no one double addition can then move it
// into one binade, as 2^104 + 1.5 2^52 is not a double.) The host check runs the same code
// with the host's rounding mode set toward zero (fesetround), std::fma honouring it. The Montgomery
// product is CIOS by rows over N limbs, R = 2^(52 N): per row, acc += a_i b (the halves into
// columns j and j + 1), q = (acc_0 n') mod 2^52 (one 64-bit integer product), acc += q n,
// acc_0 is then a multiple of 2^52 and its quotient carries into acc_1 as acc shifts down. The
// column sums are int64: per row each gets at most four terms below 2^52, so after N rows
// acc_j < 4 N 2^52 + carries < 2^60 for N <= 60. Inputs below 2n with 4n <= R give a
// result below 2n (no final subtraction in the chain); the result's limbs are normalized (one
// carry pass) and become doubles again.
//
// One instance a thread (the library's best G at 512 and 1024 bits is 1 too), 64 dependent
// products an instance (x = x y / R mod n), as the CGBN side-by-side's Montgomery rows. The same
// function runs on the host (std::fma, round to nearest, as the device's fma), so the run first
// checks the host's chain against GMP, then the device's against the host's and GMP.
//
// The last rows run both at once (mixed_chain_kernel): half of each block's warps on the
// library's rows, half on the FP64 chain, two sets of instances. If the two pipes overlap, the
// mixed rate approaches the sum of the two rows alone; if they compete for issue slots or
// registers, it stays near the faster one.
//
// Build: nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler=-frounding-math -I../../include
//        dpf_montgomery.cu -lgmp
// Run:   ./a.out [--host-only]   (prints a markdown table; --host-only: the host check alone,
//        for a machine without a GPU)
#include <gmp.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../cuda_timing.cuh"
#include "mpgpu/batch/batch.cuh"
#include "mpgpu/batch/launch.cuh"
#include "library_instance.cuh"

namespace mb = mpgpu::batch;
using mb::word_t;

namespace {

constexpr int kChainLength = 64;
constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;
constexpr double kHighBias = 0x1p104;               // h = a b + 2^104, rounded
constexpr double kLowBias = 0x1p104 + 0x1p52;       // l = a b - (h - 2^104) + 2^52
constexpr std::int64_t kHighPattern = 0x4670000000000000;  // the bits of 2^104
constexpr std::int64_t kLowPattern = 0x4330000000000000;  // the bits of 2^52

__host__ __device__ inline std::int64_t bits_of(double x) {
#if defined(__CUDA_ARCH__)
  return __double_as_longlong(x);
#else
  std::int64_t v;
  std::memcpy(&v, &x, sizeof v);
  return v;
#endif
}

/// a b + c rounded toward zero (on the host: std::fma in the rounding mode the caller set).
__host__ __device__ inline double fma_rz(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rz(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

/// acc[0 .. L] += x v as halves: the low half of x v[j] into acc[j], the high half into
/// acc[j + 1] (v[j], x < 2^52 held exactly).
/// Deferred = false: each half corrected (its pattern less E(2^52) or E(2^104)) as it is added.
/// Deferred = true: the raw patterns are added, a column's two halves in one three-input add,
/// and the patterns' constants (multiples of 2^52, so acc mod 2^52 is right all along) are
/// taken off once, when a column is read (column_bias): half the integer adds, if the
/// compiler makes each a+b+c one IADD3 pair.
template <int L, bool Deferred>
__host__ __device__ inline void add_row(std::int64_t (&acc)[L + 1], double x, const double (&v)[L]) {
  std::int64_t prev_high = 0;
#pragma unroll
  for (int j = 0; j < L; ++j) {
    const double h = fma_rz(x, v[j], kHighBias);
    const double l = fma_rz(x, v[j], kLowBias - h);
    if constexpr (Deferred) {
      acc[j] += bits_of(l) + prev_high;
      prev_high = bits_of(h);
    } else {
      acc[j] += bits_of(l) - kLowPattern;
      acc[j + 1] += bits_of(h) - kHighPattern;
    }
  }
  if constexpr (Deferred) acc[L] += prev_high;
}

/// With deferred constants: what the raw patterns add to the column that is first (position
/// 0) when row i reads it, and to the column at position p after the last of N rows. Row r
/// adds to position j two low patterns if j < N and two high ones if j > 0 (the a_r b and
/// q_r n rows), and the columns shift down by one after each row. Mod 2^64.
__host__ __device__ constexpr std::uint64_t first_column_bias(int i) {
  return 2 * static_cast<std::uint64_t>(kLowPattern) * static_cast<std::uint64_t>(i + 1) +
         2 * static_cast<std::uint64_t>(kHighPattern) * static_cast<std::uint64_t>(i);
}
__host__ __device__ constexpr std::uint64_t final_column_bias(int n, int p) {
  return 2 * static_cast<std::uint64_t>(kHighPattern) * static_cast<std::uint64_t>(n - p) +
         2 * static_cast<std::uint64_t>(kLowPattern) * static_cast<std::uint64_t>(n - 1 - p);
}

/// r = a b / R mod n, below 2n, for a, b < 2n, 4n <= R = 2^(52 N), n odd; np = -1/n mod 2^52.
template <int N, bool Deferred>
__host__ __device__ inline void dpf_mont_mul(double (&r)[N], const double (&a)[N], const double (&b)[N],
                                             const double (&n)[N], std::uint64_t np) {
  std::int64_t acc[N + 1];
#pragma unroll
  for (int j = 0; j <= N; ++j) acc[j] = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    add_row<N, Deferred>(acc, a[i], b);
    const std::uint64_t q = ((static_cast<std::uint64_t>(acc[0]) & kMask52) * np) & kMask52;
    add_row<N, Deferred>(acc, static_cast<double>(q), n);
    // The first column is now a multiple of 2^52: its quotient carries into the next.
    const std::int64_t first =
        Deferred ? static_cast<std::int64_t>(static_cast<std::uint64_t>(acc[0]) - first_column_bias(i)) : acc[0];
    const std::int64_t carry = first >> 52;
#pragma unroll
    for (int j = 0; j < N; ++j) acc[j] = acc[j + 1];
    acc[N] = 0;
    acc[0] += carry;
  }
  std::int64_t carry = 0;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const std::int64_t column =
        Deferred ? static_cast<std::int64_t>(static_cast<std::uint64_t>(acc[j]) - final_column_bias(N, j)) : acc[j];
    const std::int64_t v = column + carry;
    r[j] = static_cast<double>(v & static_cast<std::int64_t>(kMask52));
    carry = v >> 52;
  }
}

/// The chain of one instance: x = x y / R, kChainLength times. Limb k of instance i at k * count + i.
template <int N, bool Deferred>
__host__ __device__ inline void chain_one(const double* x0, const double* y0, const double* n0,
                                          const std::uint64_t* np, double* out, std::size_t count, std::size_t i) {
  double x[N], y[N], n[N];
#pragma unroll
  for (int k = 0; k < N; ++k) {
    x[k] = x0[k * count + i];
    y[k] = y0[k * count + i];
    n[k] = n0[k * count + i];
  }
  const std::uint64_t p = np[i];
  for (int s = 0; s < kChainLength; ++s) {
    double r[N];
    dpf_mont_mul<N, Deferred>(r, x, y, n, p);
#pragma unroll
    for (int k = 0; k < N; ++k) x[k] = r[k];
  }
#pragma unroll
  for (int k = 0; k < N; ++k) out[k * count + i] = x[k];
}

template <int N, bool Deferred>
__global__ void __launch_bounds__(128) dpf_chain_kernel(const double* x0, const double* y0, const double* n0,
                                                        const std::uint64_t* np, double* out, std::size_t count) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < count) chain_one<N, Deferred>(x0, y0, n0, np, out, count, i);
}

/// The same product with an instance over G lanes of a warp (G divides 32, L = N / G limbs a
/// lane; lane t holds limbs t L .. t L + L - 1 of x, y, n and of the column sums, plus acc[L],
/// its top column's high halves, which belong to lane t + 1's first column). Per row: a_i from
/// its lane (one shuffle), the row's products on each lane's columns, q from lane 0 (one
/// shuffle), the q n products, then the shift down by one column: each lane's first column
/// goes to the lane below (one shuffle), lane 0's carries into its new first column. After N
/// rows the columns are normalized lane after lane (carry passed by shuffle). The result is
/// the same integer as dpf_mont_mul<N>'s (same q's), limb for limb. Device only.
template <int N, int G, bool Deferred>
__device__ inline void dpf_mont_mul_lanes(double (&r)[N / G], const double (&a)[N / G], const double (&b)[N / G],
                                          const double (&n)[N / G], std::uint64_t np) {
  constexpr int L = N / G;
  static_assert(N % G == 0 && 32 % G == 0, "G lanes divide the limbs and the warp");
  const int lane = static_cast<int>(threadIdx.x) % G;
  const unsigned mask = G == 32 ? 0xffffffffu : ((1u << G) - 1) << (static_cast<int>(threadIdx.x) % 32 / G * G);
  std::int64_t acc[L + 1];
#pragma unroll
  for (int j = 0; j <= L; ++j) acc[j] = 0;
  for (int owner = 0; owner < G; ++owner) {
#pragma unroll
    for (int k = 0; k < L; ++k) {
      const double ai = __shfl_sync(mask, a[k], owner, G);
      add_row<L, Deferred>(acc, ai, b);
      const std::uint64_t q0 = ((static_cast<std::uint64_t>(acc[0]) & kMask52) * np) & kMask52;
      add_row<L, Deferred>(acc, static_cast<double>(__shfl_sync(mask, q0, 0, G)), n);
      std::int64_t below = __shfl_down_sync(mask, acc[0], 1, G);
      if (lane == G - 1) below = 0;
      // Lane 0's first column (global column 0) is a multiple of 2^52: its quotient carries.
      const std::int64_t first =
          Deferred ? static_cast<std::int64_t>(static_cast<std::uint64_t>(acc[0]) - first_column_bias(owner * L + k))
                   : acc[0];
      const std::int64_t carry = first >> 52;
#pragma unroll
      for (int j = 0; j < L - 1; ++j) acc[j] = acc[j + 1];
      acc[L - 1] = acc[L] + below;
      acc[L] = 0;
      if (lane == 0) acc[0] += carry;
    }
  }
  std::int64_t carry = 0;
  for (int t = 0; t < G; ++t) {
    if (lane == t) {
#pragma unroll
      for (int j = 0; j < L; ++j) {
        const std::int64_t column =
            Deferred ? static_cast<std::int64_t>(static_cast<std::uint64_t>(acc[j]) - final_column_bias(N, t * L + j))
                     : acc[j];
        const std::int64_t v = column + carry;
        acc[j] = v & static_cast<std::int64_t>(kMask52);
        carry = v >> 52;
      }
    }
    carry = __shfl_sync(mask, carry, t, G);
  }
#pragma unroll
  for (int j = 0; j < L; ++j) r[j] = static_cast<double>(acc[j]);
}

/// The chain of the instance of `thread` (G lanes an instance; every lane of a group calls it).
template <int N, int G, bool Deferred>
__device__ inline void lanes_chain(const double* x0, const double* y0, const double* n0, const std::uint64_t* np,
                                   double* out, std::size_t count, std::size_t thread) {
  constexpr int L = N / G;
  const std::size_t i = thread / G;
  const int lane = static_cast<int>(thread % G);
  const bool live = i < count;  // a partly filled last group still shuffles with its lanes
  const std::size_t at = live ? i : 0;
  double x[L], y[L], n[L];
#pragma unroll
  for (int k = 0; k < L; ++k) {
    const std::size_t limb = static_cast<std::size_t>(lane * L + k);
    x[k] = x0[limb * count + at];
    y[k] = y0[limb * count + at];
    n[k] = n0[limb * count + at];
  }
  const std::uint64_t p = np[at];
  for (int s = 0; s < kChainLength; ++s) {
    double r[L];
    dpf_mont_mul_lanes<N, G, Deferred>(r, x, y, n, p);
#pragma unroll
    for (int k = 0; k < L; ++k) x[k] = r[k];
  }
  if (live)
#pragma unroll
    for (int k = 0; k < L; ++k) out[static_cast<std::size_t>(lane * L + k) * count + i] = x[k];
}

template <int N, int G, bool Deferred>
__global__ void __launch_bounds__(128) dpf_lanes_chain_kernel(const double* x0, const double* y0, const double* n0,
                                                              const std::uint64_t* np, double* out, std::size_t count) {
  lanes_chain<N, G, Deferred>(x0, y0, n0, np, out, count, blockIdx.x * std::size_t{blockDim.x} + threadIdx.x);
}

/// The library's chain at width W words, G threads an instance (the side-by-side's form).
struct LibraryChain {
  const word_t *base, *exp, *mod;
  word_t* out;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, e, r;
    mb::Modulus<E> m;
    probes::load_instance(env, x, e, m, base, exp, mod, i, live);
    const std::size_t off = i * E::words;
    r = x;
    for (int k = 0; k < kChainLength; ++k) mb::montgomery_mul_step(env, r, r, e, m);
    if (live) mb::store(env, out + off, r);
  }
};

/// Both pipes at once (issue 38's untried lever): blocks of 256 threads whose first four warps
/// run the library's chain (IMAD, Env<W, GL>) on one set of instances and whose last four run
/// the FP64 chain (GD lanes an instance) on another, so that every SM's schedulers hold warps of
/// both kinds and can issue to the integer and FP64 pipes in the same cycles. Groups of at most
/// a warp synchronize by warp only, so the two halves never wait for each other.
template <int W, int GL, int N, int GD>
__global__ void __launch_bounds__(256) mixed_chain_kernel(LibraryChain body, std::size_t count_lib, const double* x0,
                                                          const double* y0, const double* n0, const std::uint64_t* np,
                                                          double* out, std::size_t count_dpf) {
  static_assert(GL <= 32 && GD <= 32, "groups of at most a warp");
  if (threadIdx.x < 128) {
    using E = mb::Env<W, GL>;
    extern __shared__ word_t scratch[];
    constexpr int ipb = 128 / GL;
    const int local = static_cast<int>(threadIdx.x) / GL;
    const std::size_t instance = static_cast<std::size_t>(blockIdx.x) * ipb + local;
    E env(static_cast<int>(threadIdx.x) % GL, scratch + static_cast<std::size_t>(local) * E::scratch_words);
    body(env, instance, instance < count_lib);
    return;
  }
  const std::size_t thread = blockIdx.x * std::size_t{128} + (threadIdx.x - 128);
  if constexpr (GD == 1) {
    if (thread < count_dpf) chain_one<N, false>(x0, y0, n0, np, out, count_dpf, thread);
  } else {
    lanes_chain<N, GD, false>(x0, y0, n0, np, out, count_dpf, thread);
  }
}

using probes::splitmix;

/// Instances of `bits`-bit odd moduli (top bit set), x and y below them, as 32-bit words.
struct Instances {
  int words;
  std::size_t count;
  std::vector<word_t> x, y, n;
};

Instances make_instances(int bits, std::size_t count, std::uint64_t seed) {
  Instances in{bits / 32, count, {}, {}, {}};
  const std::size_t total = count * static_cast<std::size_t>(in.words);
  in.x.resize(total);
  in.y.resize(total);
  in.n.resize(total);
  for (std::size_t i = 0; i < total; ++i) {
    in.x[i] = static_cast<word_t>(splitmix(seed));
    in.y[i] = static_cast<word_t>(splitmix(seed));
    in.n[i] = static_cast<word_t>(splitmix(seed));
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t top = i * in.words + in.words - 1;
    in.n[i * in.words] |= 1u;
    in.n[top] |= 0x80000000u;
    in.x[top] &= 0x7fffffffu;
    in.y[top] &= 0x7fffffffu;
  }
  return in;
}

void word_mpz(mpz_t z, const word_t* w, int words) { mpz_import(z, words, -1, 4, 0, 0, w); }

/// Instance i's value as N limbs of 52 bits, limb-major (limb k of instance i at k * count + i).
void to_limbs52(std::vector<double>& out, const std::vector<word_t>& words, int W, std::size_t count, int N) {
  out.assign(static_cast<std::size_t>(N) * count, 0.0);
  mpz_t z, t;
  mpz_inits(z, t, nullptr);
  for (std::size_t i = 0; i < count; ++i) {
    word_mpz(z, &words[i * W], W);
    for (int k = 0; k < N; ++k) {
      mpz_tdiv_r_2exp(t, z, 52);
      out[static_cast<std::size_t>(k) * count + i] = static_cast<double>(mpz_get_ui(t));
      mpz_tdiv_q_2exp(z, z, 52);
    }
  }
  mpz_clears(z, t, nullptr);
}

std::uint64_t neg_inverse52(const std::vector<word_t>& n, int W, std::size_t i) {
  const std::uint64_t n0 = n[i * W] | (static_cast<std::uint64_t>(n[i * W + 1]) << 32);
  std::uint64_t inv = n0;  // Newton: 3 correct bits, doubled per step
  for (int k = 0; k < 6; ++k) inv *= 2 - n0 * inv;
  return (0 - inv) & kMask52;
}

void limbs52_mpz(mpz_t z, const std::vector<double>& v, std::size_t count, std::size_t i, int N) {
  mpz_set_ui(z, 0);
  for (int k = N - 1; k >= 0; --k) {
    mpz_mul_2exp(z, z, 52);
    mpz_add_ui(z, z, static_cast<unsigned long>(v[static_cast<std::size_t>(k) * count + i]));
  }
}

/// x y^64 / R^64 mod n for instance i, R = 2^(52 N) (dpf) or 2^(32 W) (the library's).
void want_chain(mpz_t want, const Instances& in, std::size_t i, unsigned long r_bits) {
  mpz_t x, y, n, rinv;
  mpz_inits(x, y, n, rinv, nullptr);
  word_mpz(x, &in.x[i * in.words], in.words);
  word_mpz(y, &in.y[i * in.words], in.words);
  word_mpz(n, &in.n[i * in.words], in.words);
  mpz_set_ui(rinv, 1);
  mpz_mul_2exp(rinv, rinv, r_bits);
  mpz_invert(rinv, rinv, n);
  mpz_mul(rinv, rinv, y);
  mpz_powm_ui(want, rinv, kChainLength, n);
  mpz_mul(want, want, x);
  mpz_mod(want, want, n);
  mpz_clears(x, y, n, rinv, nullptr);
}

/// Sample instances: the first 8, then every 7th up to 64, and the last.
template <class F>
bool every_sample(std::size_t count, F&& check) {
  bool ok = true;
  for (std::size_t i = 0; i < count && i < 64; i += (i < 8 ? 1 : 7)) ok = check(i) && ok;
  return check(count - 1) && ok;
}

/// Instance i of a limb-major FP64 result (N limbs of 52 bits) agrees with GMP's chain.
bool dpf_agrees(const std::vector<double>& res, const Instances& in, std::size_t i, int N) {
  mpz_t got, want, nn;
  mpz_inits(got, want, nn, nullptr);
  limbs52_mpz(got, res, in.count, i, N);
  word_mpz(nn, &in.n[i * in.words], in.words);
  mpz_mod(got, got, nn);
  want_chain(want, in, i, 52ul * N);
  const bool ok = mpz_cmp(got, want) == 0;
  mpz_clears(got, want, nn, nullptr);
  return ok;
}

/// The FP64 chains' operands (limb-major limbs of 52 bits, and -n^-1 mod 2^52) on the host and
/// on the device, with a result buffer.
struct DpfOperands {
  int N;
  std::size_t count, bytes;
  std::vector<double> x, y, n;
  std::vector<std::uint64_t> np;
  double *dx = nullptr, *dy = nullptr, *dn = nullptr, *dout = nullptr;
  std::uint64_t* dnp = nullptr;

  DpfOperands(const Instances& in, int limbs, bool on_device)
      : N(limbs), count(in.count), bytes(static_cast<std::size_t>(limbs) * in.count * sizeof(double)), np(in.count) {
    to_limbs52(x, in.x, in.words, count, N);
    to_limbs52(y, in.y, in.words, count, N);
    to_limbs52(n, in.n, in.words, count, N);
    for (std::size_t i = 0; i < count; ++i) np[i] = neg_inverse52(in.n, in.words, i);
    if (!on_device) return;
    for (auto [d, h] : {std::pair{&dx, &x}, std::pair{&dy, &y}, std::pair{&dn, &n}}) {
      CHECK(cudaMalloc(d, bytes));
      CHECK(cudaMemcpy(*d, h->data(), bytes, cudaMemcpyHostToDevice));
    }
    CHECK(cudaMalloc(&dout, bytes));
    CHECK(cudaMalloc(&dnp, count * sizeof(std::uint64_t)));
    CHECK(cudaMemcpy(dnp, np.data(), count * sizeof(std::uint64_t), cudaMemcpyHostToDevice));
  }
  ~DpfOperands() {
    for (void* p : {static_cast<void*>(dx), static_cast<void*>(dy), static_cast<void*>(dn), static_cast<void*>(dout),
                    static_cast<void*>(dnp)})
      if (p) cudaFree(p);
  }
  std::vector<double> result() const {
    std::vector<double> r(bytes / sizeof(double));
    CHECK(cudaMemcpy(r.data(), dout, bytes, cudaMemcpyDeviceToHost));
    return r;
  }
};

/// The library chains' operands (32-bit words, instance-major) on the device, with a result buffer.
struct LibraryOperands {
  std::size_t total;
  word_t *db = nullptr, *de = nullptr, *dm = nullptr, *dr = nullptr;

  explicit LibraryOperands(const Instances& in) : total(in.count * static_cast<std::size_t>(in.words)) {
    for (auto [d, h] : {std::pair{&db, &in.x}, std::pair{&de, &in.y}, std::pair{&dm, &in.n}}) {
      CHECK(cudaMalloc(d, total * 4));
      CHECK(cudaMemcpy(*d, h->data(), total * 4, cudaMemcpyHostToDevice));
    }
    CHECK(cudaMalloc(&dr, total * 4));
  }
  ~LibraryOperands() {
    for (word_t* p : {db, de, dm, dr}) cudaFree(p);
  }
  LibraryChain body() const { return {db, de, dm, dr}; }
  /// The sampled instances' results agree with GMP's chain (R = 2^(32 W)).
  bool results_agree(const Instances& in) const {
    std::vector<word_t> hr(total);
    CHECK(cudaMemcpy(hr.data(), dr, total * 4, cudaMemcpyDeviceToHost));
    mpz_t got, want, nn;
    mpz_inits(got, want, nn, nullptr);
    const int W = in.words;
    const bool ok = every_sample(in.count, [&](std::size_t i) {
      word_mpz(got, &hr[i * W], W);
      word_mpz(nn, &in.n[i * W], W);
      mpz_mod(got, got, nn);
      want_chain(want, in, i, 32ul * W);
      return mpz_cmp(got, want) == 0;
    });
    mpz_clears(got, want, nn, nullptr);
    return ok;
  }
};

/// G == 1: one instance a thread (dpf_chain_kernel); else G lanes an instance (dpf_lanes_...).
template <int N, int G, bool Deferred>
void dpf_row(int bits, std::size_t count, bool host_only) {
  const Instances in = make_instances(bits, count, 0x5eed + bits);
  DpfOperands ops(in, N, !host_only);
  // The host's chain (the same function) on the sample.
  std::vector<double> hr(static_cast<std::size_t>(N) * count);
  const int mode = std::fegetround();
  std::fesetround(FE_TOWARDZERO);  // as the device's __fma_rz
  for (std::size_t i = 0; i < count; i += (i < 64 ? 1 : count / 64))
    chain_one<N, Deferred>(ops.x.data(), ops.y.data(), ops.n.data(), ops.np.data(), hr.data(), count, i);
  chain_one<N, Deferred>(ops.x.data(), ops.y.data(), ops.n.data(), ops.np.data(), hr.data(), count, count - 1);
  std::fesetround(mode);
  const bool host_ok = every_sample(count, [&](std::size_t i) { return dpf_agrees(hr, in, i, N); });
  if (host_only) {
    std::printf("| dpf host check%s | %d | %d limbs of 52 | %zu, sampled | - | - | %s |\n",
                Deferred ? ", deferred constants" : "", bits, N, count, host_ok ? "yes" : "NO");
    return;
  }
  const unsigned blocks = static_cast<unsigned>((count * G + 127) / 128);
  const double ms = mpgpu_bench::median_ms(nullptr, 5, [&] {
    if constexpr (G == 1) dpf_chain_kernel<N, Deferred><<<blocks, 128>>>(ops.dx, ops.dy, ops.dn, ops.dnp, ops.dout, count);
    else dpf_lanes_chain_kernel<N, G, Deferred><<<blocks, 128>>>(ops.dx, ops.dy, ops.dn, ops.dnp, ops.dout, count);
    CHECK(cudaGetLastError());
  });
  CHECK(cudaDeviceSynchronize());
  const std::vector<double> r = ops.result();
  const bool dev_ok = every_sample(count, [&](std::size_t i) {
    for (int k = 0; k < N; ++k)
      if (r[static_cast<std::size_t>(k) * count + i] != hr[static_cast<std::size_t>(k) * count + i]) return false;
    return dpf_agrees(r, in, i, N);
  });
  cudaFuncAttributes attr{};
  if constexpr (G == 1) CHECK(cudaFuncGetAttributes(&attr, dpf_chain_kernel<N, Deferred>));
  else CHECK(cudaFuncGetAttributes(&attr, dpf_lanes_chain_kernel<N, G, Deferred>));
  std::printf("| dpf (FP64 halves)%s | %d | G %d, %d limbs of 52, %d regs, %zu B local | %zu | %.4f | %.4g | %s |\n",
              Deferred ? ", deferred constants" : "", bits, G, N, attr.numRegs, static_cast<std::size_t>(attr.localSizeBytes), count, ms,
              count * kChainLength / (ms * 1e-3), host_ok && dev_ok ? "yes" : "NO");
  std::fflush(stdout);
}

template <int W, int G>
void library_row(std::size_t count) {
  using E = mb::Env<W, G>;
  const Instances in = make_instances(32 * W, count, 0x5eed + 32 * W);
  const LibraryOperands ops(in);
  const LibraryChain body = ops.body();
  const double ms = mpgpu_bench::median_ms(nullptr, 5, [&] { CHECK(mb::launch<E>(body, count, nullptr)); });
  CHECK(cudaDeviceSynchronize());
  std::printf("| library rows (IMAD) | %d | G %d | %zu | %.4f | %.4g | %s |\n", 32 * W, G, count, ms,
              count * kChainLength / (ms * 1e-3), ops.results_agree(in) ? "yes" : "NO");
  std::fflush(stdout);
}

/// The mixed kernel over `blocks` blocks: 128 / GL library instances and 128 / GD FP64
/// instances a block, both sets checked against GMP; the rate counts both sets' products.
template <int W, int GL, int N, int GD>
void mixed_row(std::size_t blocks) {
  using E = mb::Env<W, GL>;
  const int bits = 32 * W;
  const std::size_t count_lib = blocks * (128 / GL), count_dpf = blocks * (128 / GD);
  const Instances lib = make_instances(bits, count_lib, 0x5eed + bits);
  const Instances fp = make_instances(bits, count_dpf, 0xf00d + bits);
  const LibraryOperands lib_ops(lib);
  DpfOperands fp_ops(fp, N, true);
  auto* kernel = mixed_chain_kernel<W, GL, N, GD>;
  const std::size_t smem = static_cast<std::size_t>(128 / GL) * E::scratch_words * sizeof(word_t);
  CHECK(mpgpu::limb::allow_dynamic_smem(kernel, smem));
  const double ms = mpgpu_bench::median_ms(nullptr, 5, [&] {
    kernel<<<static_cast<unsigned>(blocks), 256, smem>>>(lib_ops.body(), count_lib, fp_ops.dx, fp_ops.dy, fp_ops.dn,
                                                          fp_ops.dnp, fp_ops.dout, count_dpf);
    CHECK(cudaGetLastError());
  });
  CHECK(cudaDeviceSynchronize());
  const std::vector<double> r = fp_ops.result();
  const bool ok = lib_ops.results_agree(lib) && every_sample(count_dpf, [&](std::size_t i) { return dpf_agrees(r, fp, i, N); });
  cudaFuncAttributes attr{};
  CHECK(cudaFuncGetAttributes(&attr, kernel));
  std::printf("| mixed: library rows G %d + dpf G %d, a block each half | %d | %d regs, %zu B local | %zu + %zu | %.4f | %.4g | %s |\n",
              GL, GD, bits, attr.numRegs, static_cast<std::size_t>(attr.localSizeBytes), count_lib, count_dpf, ms,
              (count_lib + count_dpf) * kChainLength / (ms * 1e-3), ok ? "yes" : "NO");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const bool host_only = argc > 1 && std::strcmp(argv[1], "--host-only") == 0;
  std::printf("Montgomery products, chains of %d an instance: FP64 halves against the library's rows\n\n",
              kChainLength);
  std::printf("| kernel | bits | shape | instances | ms | products/s | verified |\n"
              "| --- | --- | --- | --- | --- | --- | --- |\n");
  // 4n <= R: 512-bit moduli in 10 limbs (520 bits), 1024 in 20, 2048 in 40, 3072 in 60.
  dpf_row<10, 1, false>(512, 131072, host_only);
  dpf_row<10, 1, true>(512, 131072, host_only);
  if (!host_only) library_row<16, 1>(131072);
  dpf_row<20, 1, false>(1024, 65536, host_only);
  dpf_row<20, 1, true>(1024, 65536, host_only);
  if (!host_only) library_row<32, 1>(65536);
  dpf_row<40, 1, false>(2048, 32768, host_only);
  dpf_row<40, 1, true>(2048, 32768, host_only);
  if (!host_only) {
    dpf_row<40, 4, false>(2048, 32768, false);
    dpf_row<40, 4, true>(2048, 32768, false);
    dpf_row<40, 8, false>(2048, 32768, false);
    dpf_row<40, 8, true>(2048, 32768, false);
    library_row<64, 2>(32768);
    library_row<64, 4>(32768);
  }
  // Wider classes over lanes only (one thread would spill): 3072 bits in 64 limbs (3328 bits,
  // so that 8 lanes divide them), 4096 in 80 (4160), 8192 in 160 (8320).
  dpf_row<64, 8, false>(3072, 16384, host_only);
  dpf_row<64, 8, true>(3072, 16384, host_only);
  if (!host_only) {
    dpf_row<64, 4, false>(3072, 16384, false);
    dpf_row<64, 4, true>(3072, 16384, false);
    library_row<96, 4>(16384);
  }
  dpf_row<80, 8, false>(4096, 16384, host_only);
  dpf_row<80, 8, true>(4096, 16384, host_only);
  if (!host_only) {
    dpf_row<80, 16, false>(4096, 16384, false);
    dpf_row<80, 16, true>(4096, 16384, false);
    library_row<128, 4>(16384);
    library_row<128, 8>(16384);
  }
  dpf_row<160, 16, false>(8192, 8192, host_only);
  dpf_row<160, 16, true>(8192, 8192, host_only);
  if (!host_only) {
    dpf_row<160, 32, false>(8192, 8192, false);
    dpf_row<160, 32, true>(8192, 8192, false);
    library_row<256, 8>(8192);
    library_row<256, 16>(8192);  // the mixed row's shape
  }
  if (!host_only) {
    // Both pipes at once, each half in the shape that ran fastest alone; compare the rate with
    // the sum of the two rows above at the same width (the ceiling if the pipes overlap fully).
    mixed_row<16, 1, 10, 1>(1024);
    mixed_row<64, 4, 40, 4>(1024);
    mixed_row<128, 8, 80, 8>(512);
    mixed_row<256, 16, 160, 16>(512);
  }
  return 0;
}
