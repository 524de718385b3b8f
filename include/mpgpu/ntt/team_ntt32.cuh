// Batched NTTs of 2^1 .. 2^10 points over a prime p < 2^32 on 32-bit words:
// a team of T lanes of one warp per transform, every stage in registers.
//
// Why a separate path: the block passes of block_ntt.cuh work on 64-bit
// words (any p < 2^64), where a Shoup product costs ~14 instructions and a
// 2^10-point batch is bound by instruction issue at ~47% of the memory
// bandwidth (bench/results/NOTES-ntt.md). On 32-bit words the product is
// ~5 instructions and a transform moves half the bytes, so small transforms
// over 31- and 32-bit primes can run at memory speed.
//
// Layout. n = 2^L = T E with T = 2^floor(L/2) lanes (a warp holds 32 / T
// transforms) and E = 2^ceil(L/2) >= T words a lane. Decimation in
// frequency:
//  - phase A: lane l holds x[l + T j], j < E, so the stages of distance
//    h = T d (d = E/2 .. 1) pair two registers of one lane;
//  - a transpose through the warp's shared memory (padded: one word per 32,
//    no bank conflicts) gives lane l the run x[E l + j];
//  - phase B: the stages of distance h < T pair registers of that run.
// The result sits in bit-reversed order; the store goes through shared
// memory once more (natural order: to the bit-reversed index), so that
// global loads and stores are coalesced: lane l touches x[l + T j].
// Stage twiddles w^((i mod h) n / (2h)) come from a block-wide table in
// shared memory (n/2 pairs: w^e and its Shoup quotient); the inverse uses
// the table of w^-1 and multiplies by 1/n at the end.
#pragma once

#include "mpgpu/field/prime_field32.cuh"

namespace mpgpu::ntt {

inline constexpr int kTeamNtt32MaxLog = 10;
inline constexpr int kTeamNtt32Warps = 8;

/// The team layout of a 2^L-point transform.
template <int L>
struct TeamShape32 {
  static constexpr int kLanes = 1 << (L / 2);       // T
  static constexpr int kWords = 1 << (L - L / 2);   // E, words a lane
  static constexpr int kPoints = 1 << L;            // n
  static constexpr int kTeamsPerWarp = 32 / kLanes;
  /// Shared words of one team's transform, padded one word per 32.
  static constexpr int kTeamWords = kPoints + kPoints / 32;
};

/// Bit reversal of the low L bits.
template <int L>
__host__ __device__ constexpr unsigned bit_reverse_low(unsigned i) {
#if defined(__CUDA_ARCH__)
  return L == 0 ? 0 : __brev(i) >> (32 - L);
#else
  unsigned r = 0;
  for (int b = 0; b < L; ++b) r |= ((i >> b) & 1u) << (L - 1 - b);
  return r;
#endif
}

/// Padded shared-memory index: one spare word after every 32.
__host__ __device__ constexpr int padded32(int i) { return i + (i >> 5); }

#if defined(__CUDACC__)
/// table[e] = (w^e, shoup(w^e)) for e < max(n/2, 1).
__global__ void team_ntt32_table_kernel(uint2* table, field::PrimeField32 f, std::uint32_t w, int log_n) {
  const std::size_t half = log_n > 0 ? std::size_t{1} << (log_n - 1) : 1;
  const std::size_t e = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= half) return;
  const std::uint32_t v = f.pow(w, e);
  table[e] = make_uint2(v, f.shoup(v));
}

/// Transforms `batch` contiguous 2^L-point vectors in place. `table`: the
/// stage twiddles of w (forward) or w^-1 (inverse), n/2 pairs. With
/// `scale_output`, every output is multiplied by `scale` (1/n for the
/// inverse). `in_reversed` / `out_reversed`: the input / output is in
/// bit-reversed index order instead of natural order.
template <int L>
__global__ void __launch_bounds__(kTeamNtt32Warps * 32)
    team_ntt32_kernel(std::uint32_t* __restrict__ data, std::size_t batch, const uint2* __restrict__ table,
                      field::PrimeField32 f, std::uint32_t scale, std::uint32_t scale_shoup, bool scale_output,
                      bool in_reversed, bool out_reversed) {
  using S = TeamShape32<L>;
  constexpr int T = S::kLanes, E = S::kWords, n = S::kPoints;
  constexpr int kHalf = n / 2 > 0 ? n / 2 : 1;
  __shared__ uint2 tw[kHalf];
  __shared__ std::uint32_t buffer[kTeamNtt32Warps][S::kTeamsPerWarp * S::kTeamWords];
  for (int e = threadIdx.x; e < kHalf; e += blockDim.x) tw[e] = table[e];
  __syncthreads();

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int team = lane / T, l = lane % T;
  std::uint32_t* sb = buffer[warp] + team * S::kTeamWords;
  const std::size_t per_step = std::size_t(gridDim.x) * kTeamNtt32Warps * S::kTeamsPerWarp;
  for (std::size_t first = (std::size_t(blockIdx.x) * kTeamNtt32Warps + warp) * S::kTeamsPerWarp; first < batch;
       first += per_step) {
    const std::size_t t = first + team;
    const bool live = t < batch;
    std::uint32_t* x = data + t * n;
    std::uint32_t v[E];
    // Load: lane l takes x[l + T j] (coalesced), through shared memory
    // when the input is bit-reversed.
    if (!in_reversed) {
#pragma unroll
      for (int j = 0; j < E; ++j) v[j] = live ? x[l + T * j] : 0;
    } else {
#pragma unroll
      for (int j = 0; j < E; ++j) sb[padded32(l + T * j)] = live ? x[l + T * j] : 0;
      __syncwarp();
#pragma unroll
      for (int j = 0; j < E; ++j) v[j] = sb[padded32(bit_reverse_low<L>(l + T * j))];
      __syncwarp();
    }
    // Phase A: distance h = T d; pair (j, j + d), index i = l + T j,
    // twiddle exponent (i mod h) n / (2h) = (l + T (j mod d)) E / (2d).
#pragma unroll
    for (int d = E / 2; d >= 1; d /= 2) {
#pragma unroll
      for (int j = 0; j < E; ++j) {
        if (j & d) continue;
        const std::uint32_t a = v[j], b = v[j + d];
        const uint2 w = tw[(l + T * (j % d)) * (E / (2 * d))];
        v[j] = f.add(a, b);
        v[j + d] = f.mul_shoup(f.sub(a, b), w.x, w.y);
      }
    }
    // Transpose: lane l now holds x[E l + j].
    if constexpr (T > 1) {
      __syncwarp();
#pragma unroll
      for (int j = 0; j < E; ++j) sb[padded32(l + T * j)] = v[j];
      __syncwarp();
#pragma unroll
      for (int j = 0; j < E; ++j) v[j] = sb[padded32(E * l + j)];
      __syncwarp();
    }
    // Phase B: distance h < T within the run (h divides E l), twiddle
    // exponent (j mod h) n / (2h): the same for every lane.
#pragma unroll
    for (int h = T / 2; h >= 1; h /= 2) {
#pragma unroll
      for (int j = 0; j < E; ++j) {
        if (j & h) continue;
        const std::uint32_t a = v[j], b = v[j + h];
        const uint2 w = tw[(j % h) * (n / (2 * h))];
        v[j] = f.add(a, b);
        v[j + h] = f.mul_shoup(f.sub(a, b), w.x, w.y);
      }
    }
    if (scale_output) {
#pragma unroll
      for (int j = 0; j < E; ++j) v[j] = f.mul_shoup(v[j], scale, scale_shoup);
    }
    // v[j] is output bit_reverse(E l + j). Store through shared memory so
    // that lane l writes x[l + T j] (coalesced).
    __syncwarp();
#pragma unroll
    for (int j = 0; j < E; ++j) {
      const int k = E * l + j;
      sb[padded32(out_reversed ? k : static_cast<int>(bit_reverse_low<L>(k)))] = v[j];
    }
    __syncwarp();
    if (live) {
#pragma unroll
      for (int j = 0; j < E; ++j) x[l + T * j] = sb[padded32(l + T * j)];
    }
    __syncwarp();
  }
}
#endif

}  // namespace mpgpu::ntt
