// Dot products mod p on the device (src/dot/dot_backend.hpp): single, strided
// and batched, every method of mpgpu/dot/dot_host.hpp plus the
// one-reduction-per-term baseline.
//
// Two launches per call:
//   1. dot_partials_kernel: grid (parts, dots). Each thread walks its
//      grid-stride share of one dot (kUnroll loads in flight), checks every
//      element it reads (the check is fused: no extra pass over memory),
//      sums with the method's per-thread accumulator (mpgpu/dot/thread_dot.cuh),
//      turns the sum into a residue; the block adds its residues mod p into
//      one partial. The first bad element goes to a flag by atomicMin.
//   2. combine_kernel: one block per dot adds its partials mod p and writes
//      the result only if the flag is clear, so outputs are never written
//      from invalid inputs.
// The host then reads the flag (and a single dot's result) back.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "cuda/check.cuh"
#include "cuda/scoped_memory.cuh"
#include "dot/dot_backend.hpp"
#include "mpgpu/dot/thread_dot.cuh"

namespace mpgpu::detail::dot_cuda {

namespace {

using dot::Method;
using dot::Residue;
using dot::thread::DotConsts;
using u128 = unsigned __int128;

// Launch policy: 256 threads, 8 blocks per SM fill an SM of 2048 threads
// (sm_80, sm_90); 4 independent loads in flight per thread hide HBM latency; a
// block is only split off when each thread gets >= 16 terms.
constexpr int kThreads = 256;
constexpr int kUnroll = 4;
constexpr int kBlocksPerSm = 8;
constexpr std::size_t kMinTermsPerThread = 16;
constexpr unsigned long long kNoBad = ~0ull;
constexpr std::size_t kNoIndex = ~std::size_t{0};

void activate(int device) {
  int current = -1;
  MPGPU_CUDA_CHECK(cudaGetDevice(&current));
  if (current != device) MPGPU_CUDA_CHECK(cudaSetDevice(device));
}

/// Sum mod p of one residue per thread of the block; the result is valid in
/// thread 0. Residues are < p; add_mod is exact for every p < 2^64 (it
/// handles the wrap of a + b when p > 2^63).
__device__ std::uint64_t block_sum_mod(std::uint64_t x, std::uint64_t p) {
  __shared__ std::uint64_t warp_sums[kThreads / 32];
  for (int o = 16; o > 0; o >>= 1) x = dot::thread::add_mod(x, __shfl_down_sync(~0u, x, o), p);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    x = lane < kThreads / 32 ? warp_sums[lane] : 0;
    for (int o = 16; o > 0; o >>= 1) x = dot::thread::add_mod(x, __shfl_down_sync(~0u, x, o), p);
  }
  return x;
}

template <class Acc, bool Unit>
__global__ void __launch_bounds__(kThreads)
    dot_partials_kernel(const typename Acc::T* a, std::size_t sa, const typename Acc::T* b, std::size_t sb,
                        std::size_t n, std::size_t batch_stride, std::size_t first_dot, DotConsts consts,
                        std::uint64_t* partials, unsigned long long* bad) {
  using T = typename Acc::T;
  const DotConsts c = consts;
  const std::size_t k = first_dot + blockIdx.y;
  const T* ak = a + k * batch_stride;
  const T* bk = b + k * batch_stride;
  Acc acc(c);
  // This thread's first (smallest) bad index in a and in b: it walks
  // increasing indices, so the first one it meets is its smallest.
  std::size_t bad_a = kNoIndex, bad_b = kNoIndex;
  const auto visit = [&](T x, T y, std::size_t i) {
    if (!dot::thread::is_residue(x, c) && bad_a == kNoIndex) bad_a = i;
    if (!dot::thread::is_residue(y, c) && bad_b == kNoIndex) bad_b = i;
    acc.add(x, y);
  };
  const std::size_t step = std::size_t{gridDim.x} * kThreads;
  std::size_t i = std::size_t{blockIdx.x} * kThreads + threadIdx.x;
  for (; i + (kUnroll - 1) * step < n; i += kUnroll * step) {
    T x[kUnroll], y[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::size_t j = i + u * step;
      x[u] = ak[Unit ? j : j * sa];
      y[u] = bk[Unit ? j : j * sb];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) visit(x[u], y[u], i + u * step);
  }
  for (; i < n; i += step) visit(ak[Unit ? i : i * sa], bk[Unit ? i : i * sb], i);
  // The host's order (src/dot/dot_host.cpp): dot by dot, all of a before b.
  // Code (2k + in_b) n + i < 2 count n < 2^63 (checked by the caller).
  if (bad_a != kNoIndex || bad_b != kNoIndex) {
    const bool in_b = bad_a == kNoIndex;
    atomicMin(bad, static_cast<unsigned long long>((2 * k + (in_b ? 1 : 0)) * n + (in_b ? bad_b : bad_a)));
  }
  const std::uint64_t sum = block_sum_mod(acc.finish(c), c.p);
  if (threadIdx.x == 0) partials[k * gridDim.x + blockIdx.x] = sum;
}

/// out[k] = sum of dot k's `parts` partials mod p, unless an element was bad.
__global__ void __launch_bounds__(kThreads)
    combine_kernel(const std::uint64_t* partials, unsigned parts, std::size_t first_dot, std::uint64_t p,
                   const unsigned long long* bad, std::uint64_t* out) {
  const std::size_t k = first_dot + blockIdx.x;
  std::uint64_t x = 0;
  for (unsigned j = threadIdx.x; j < parts; j += kThreads) x = dot::thread::add_mod(x, partials[k * parts + j], p);
  x = block_sum_mod(x, p);
  if (threadIdx.x == 0 && *bad == kNoBad) out[k] = x;
}

std::uint64_t pow2_mod(int e, std::uint64_t p) {
  u128 r = 1 % p;
  for (int i = 0; i < e; ++i) r = (r << 1) % p;
  return static_cast<std::uint64_t>(r);
}

DotConsts make_consts(const DotArgs& args) {
  DotConsts c{};
  const std::uint64_t p = args.p;
  c.p = p;
  c.pd = static_cast<double>(p);
  c.pinv = 1.0 / c.pd;
  if (args.residue == Residue::f64 && !args.per_term) {
    if (args.method == Method::fp_naive || args.method == Method::fp_lambda)
      c.block = dot::reduction_block(args.method, Residue::f64, p);
    const int l = 63 - __builtin_clzll(p - 1);  // p >= 3
    c.sigma = std::ldexp(1.0, l + 53);
    c.inv = std::ldexp(1.0, -(l + 1));
    c.two_l = std::ldexp(1.0, l);
    c.pow_l1 = pow2_mod(l + 1, p);
    c.pow_l = pow2_mod(l, p);
    c.pow79 = pow2_mod(79, p);
    c.pow53 = pow2_mod(53, p);
    c.pow26 = pow2_mod(26, p);
  }
  return c;
}

struct Launch {
  ContextState& st;
  cudaStream_t s;
  const DotArgs& args;
  unsigned parts;
  std::uint64_t* partials;
  unsigned long long* bad;
  std::uint64_t* out;
  DotConsts consts;

  template <class Acc>
  void run() const {
    using T = typename Acc::T;
    const bool unit = args.stride_a == 1 && args.stride_b == 1;
    const auto* a = static_cast<const T*>(args.a);
    const auto* b = static_cast<const T*>(args.b);
    for (std::size_t first = 0; first < args.count; first += 65535) {  // gridDim.y limit
      const unsigned dots = static_cast<unsigned>(std::min<std::size_t>(args.count - first, 65535));
      const dim3 grid(parts, dots);
      if (unit)
        dot_partials_kernel<Acc, true><<<grid, kThreads, 0, s>>>(a, 1, b, 1, args.n, args.batch_stride, first,
                                                                  consts, partials, bad);
      else
        dot_partials_kernel<Acc, false><<<grid, kThreads, 0, s>>>(a, args.stride_a, b, args.stride_b, args.n,
                                                                   args.batch_stride, first, consts, partials, bad);
      MPGPU_CHECK_LAUNCH("dot_partials_kernel");
      combine_kernel<<<dots, kThreads, 0, s>>>(partials, parts, first, args.p, bad, out);
      MPGPU_CHECK_LAUNCH("combine_kernel");
    }
  }
};

void dispatch(const Launch& L) {
  namespace th = dot::thread;
  const DotArgs& args = L.args;
  switch (args.residue) {
    case Residue::u32:
      if (args.per_term) return L.run<th::PerTerm<std::uint32_t>>();
      return L.run<th::IntegerU32>();
    case Residue::u64:
      if (args.per_term) return L.run<th::PerTerm<std::uint64_t>>();
      return L.run<th::IntegerWide<std::uint64_t>>();
    case Residue::f64:
      if (args.per_term) return L.run<th::PerTerm<double>>();
      switch (args.method) {
        case Method::fp_naive: return L.run<th::FpNaive>();
        case Method::fp_lambda: return L.run<th::FpLambda>();
        case Method::fp_abcd: return L.run<th::FpAbcd>();
        default: return L.run<th::IntegerWide<double>>();
      }
  }
}

}  // namespace

BadElement dot(ContextState& st, Stream stream, const DotArgs& args, std::uint64_t* out, std::uint64_t* result) {
  activate(st.device);
  const cudaStream_t s = stream;
  int sms = 0;
  MPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, st.device));
  const std::size_t per_block = kThreads * kMinTermsPerThread;
  const std::size_t wanted = std::max<std::size_t>(1, (args.n + per_block - 1) / per_block);
  const std::size_t room = std::max<std::size_t>(1, std::size_t(sms) * kBlocksPerSm / std::max<std::size_t>(args.count, 1));
  const unsigned parts = static_cast<unsigned>(std::min(wanted, room));

  // Scratch: [0] the bad-element flag, [1] a single dot's result, then the partials.
  cuda::ScopedDeviceMemory scratch(st, s, (2 + args.count * parts) * sizeof(std::uint64_t));
  auto* words = scratch.as<std::uint64_t>();
  MPGPU_CUDA_CHECK(cudaMemsetAsync(words, 0xff, sizeof(std::uint64_t), s));
  const Launch launch{st, s, args, parts, words + 2, reinterpret_cast<unsigned long long*>(words),
                      out ? out : words + 1, make_consts(args)};
  if (args.count > 0) dispatch(launch);

  std::uint64_t host[2] = {kNoBad, 0};
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(host, words, sizeof host, cudaMemcpyDeviceToHost, s));
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(s));
  BadElement bad;
  if (host[0] != kNoBad) {  // (2k + in_b) n + i
    const std::size_t code = static_cast<std::size_t>(host[0]), n = args.n, t = code / n;
    bad.found = true;
    bad.index = (t / 2) * n + code % n;
    bad.in_b = (t & 1) != 0;
  } else if (!out && result) {
    *result = host[1];
  }
  return bad;
}

}  // namespace mpgpu::detail::dot_cuda
