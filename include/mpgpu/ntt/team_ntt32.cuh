// Batched NTTs of 2^1 .. 2^10 points over a prime p < 2^32 on 32-bit words:
// a team of T lanes of one warp per transform, every stage in registers.
//
// Why a separate path: the block passes of block_ntt.cuh work on 64-bit
// words (any p < 2^64), where a Shoup product costs ~14 instructions and a
// 2^10-point batch is bound by instruction issue at about half the memory
// bandwidth (docs/tuning-history.md, "NTT kernels"). On 32-bit words the product is
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
// the table of w^-1 and multiplies by 1/n in the last stage, whose twiddles
// are 1. Butterflies whose twiddle index is 0 at compile time (phase B: a
// fraction 1/h of the stage of distance h, ~2 stages' worth) skip the
// product.
#pragma once

#include "mpgpu/field/prime_field32.cuh"

namespace mpgpu::ntt {

inline constexpr int kTeamNtt32MaxLog = 10;
inline constexpr int kTeamNtt32Warps = 8;
/// Blocks an SM the kernel is compiled for: 3 (<= 85 registers) up to 2^8
/// points, 2 (<= 128) for 2^9 and 2^10, whose 32 words a lane would spill
/// at 85 (docs/tuning-history.md, "NTT kernels").
constexpr int team_ntt32_min_blocks(int log_n) { return log_n <= 8 ? 3 : 2; }

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
/// The decimation-in-frequency butterfly on canonical residues:
/// (a, b) -> (a + b, (a - b) w). With kLazy (p < 2^31, so 2p < 2^32) the
/// sums stay in 32 bits and each reduction is min(x, x - p) (x < 2p; a
/// wrapped x - p is larger than x), and the product is Shoup's without its
/// 64-bit correction: ~10 instructions a butterfly instead of ~20.
template <bool kLazy>
__device__ __forceinline__ void dif_butterfly(const field::PrimeField32& f, std::uint32_t& a, std::uint32_t& b,
                                              uint2 w) {
  if constexpr (kLazy) {
    const std::uint32_t s = a + b;
    const std::uint32_t r = f.mul_shoup_lazy(a - b + f.p, w.x, w.y);  // a - b + p in (0, 2p)
    a = min(s, s - f.p);
    b = min(r, r - f.p);
  } else {
    const std::uint32_t d = f.sub(a, b);
    a = f.add(a, b);
    b = f.mul_shoup(d, w.x, w.y);
  }
}

/// The butterfly with twiddle 1: (a, b) -> (a + b, a - b), no product.
template <bool kLazy>
__device__ __forceinline__ void dif_butterfly_unit(const field::PrimeField32& f, std::uint32_t& a, std::uint32_t& b) {
  if constexpr (kLazy) {
    const std::uint32_t s = a + b, d = a - b + f.p;  // both in [0, 2p)
    a = min(s, s - f.p);
    b = min(d, d - f.p);
  } else {
    const std::uint32_t d = f.sub(a, b);
    a = f.add(a, b);
    b = d;
  }
}

/// The last stage of an inverse (twiddle 1) with the 1/n scaling folded in:
/// (a, b) -> ((a + b) s, (a - b) s), two products instead of the stage's
/// one and a scaling product per output.
template <bool kLazy>
__device__ __forceinline__ void dif_butterfly_scaled(const field::PrimeField32& f, std::uint32_t& a, std::uint32_t& b,
                                                     uint2 s) {
  if constexpr (kLazy) {
    const std::uint32_t x = f.mul_shoup_lazy(a + b, s.x, s.y), y = f.mul_shoup_lazy(a - b + f.p, s.x, s.y);
    a = min(x, x - f.p);
    b = min(y, y - f.p);
  } else {
    const std::uint32_t d = f.sub(a, b);
    a = f.mul_shoup(f.add(a, b), s.x, s.y);
    b = f.mul_shoup(d, s.x, s.y);
  }
}

/// One butterfly of a stage whose twiddle index `e` is known at compile time
/// when `kKnown`: index 0 (twiddle 1) skips the product, and the last stage
/// of a scaled transform folds the scaling in.
template <bool kLazy>
__device__ __forceinline__ void dif_stage_butterfly(const field::PrimeField32& f, std::uint32_t& a, std::uint32_t& b,
                                                    const uint2* tw, int e, bool known_unit, bool last_scaled,
                                                    uint2 scale) {
  if (last_scaled) dif_butterfly_scaled<kLazy>(f, a, b, scale);
  else if (known_unit) dif_butterfly_unit<kLazy>(f, a, b);
  else dif_butterfly<kLazy>(f, a, b, tw[e]);
}

/// The decimation-in-time butterfly (the transpose of dif_butterfly):
/// (a, b) -> (a + b w, a - b w), canonical in and out. Its twiddle-1 form is
/// dif_butterfly_unit.
template <bool kLazy>
__device__ __forceinline__ void dit_butterfly(const field::PrimeField32& f, std::uint32_t& a, std::uint32_t& b,
                                              uint2 w) {
  if constexpr (kLazy) {
    std::uint32_t t = f.mul_shoup_lazy(b, w.x, w.y);  // [0, 2p)
    t = min(t, t - f.p);
    const std::uint32_t s = a + t, d = a - t + f.p;
    a = min(s, s - f.p);
    b = min(d, d - f.p);
  } else {
    const std::uint32_t t = f.mul_shoup(b, w.x, w.y), a0 = a;
    a = f.add(a0, t);
    b = f.sub(a0, t);
  }
}

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
/// inverse), inside the last stage. `in_reversed` / `out_reversed`: the input / output is in
/// bit-reversed index order instead of natural order. kLazy: p < 2^31
/// (dif_butterfly). kMinBlocks: the __launch_bounds__ minimum.
template <int L, bool kLazy, int kMinBlocks = team_ntt32_min_blocks(L)>
__global__ void __launch_bounds__(kTeamNtt32Warps * 32, kMinBlocks)
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
  const uint2 scale2 = make_uint2(scale, scale_shoup);
  std::uint32_t* sb = buffer[warp] + team * S::kTeamWords;
  // Teams of fewer than 8 lanes read 16-byte runs at x[l + T j]: half a
  // 32-byte sector. They go through shared memory instead (direct loads
  // measured well below the copy rate: docs/tuning-history.md, "NTT
  // kernels").
  constexpr bool kStaged = T < 8;
  // Shared-memory word of the warp's g-th global word (team g / n).
  const auto warp_slot = [](int g) { return (g / n) * S::kTeamWords + padded32(g % n); };
  const std::size_t per_step = std::size_t(gridDim.x) * kTeamNtt32Warps * S::kTeamsPerWarp;
  for (std::size_t first = (std::size_t(blockIdx.x) * kTeamNtt32Warps + warp) * S::kTeamsPerWarp; first < batch;
       first += per_step) {
    const std::size_t t = first + team;
    const bool live = t < batch;
    std::uint32_t* x = data + t * n;
    std::uint32_t* warp_data = data + first * n;  // the warp's transforms: 32 E consecutive words
    std::uint32_t v[E];
    // Load: lane l takes x[l + T j]. With teams of 8 lanes or more that is
    // coalesced (32-byte runs); smaller teams stage the warp's 32 E words
    // through shared memory (lane, lane + 32, ...), as does a bit-reversed
    // input.
    if (kStaged) {
#pragma unroll
      for (int k = 0; k < E; ++k) {
        const int g = lane + 32 * k;
        buffer[warp][warp_slot(g)] = first + g / n < batch ? warp_data[g] : 0;
      }
      __syncwarp();
    } else if (in_reversed) {
#pragma unroll
      for (int j = 0; j < E; ++j) sb[padded32(l + T * j)] = live ? x[l + T * j] : 0;
      __syncwarp();
    }
    if (kStaged || in_reversed) {
#pragma unroll
      for (int j = 0; j < E; ++j) {
        const int i = l + T * j;
        v[j] = sb[padded32(in_reversed ? static_cast<int>(bit_reverse_low<L>(i)) : i)];
      }
      __syncwarp();
    } else {
#pragma unroll
      for (int j = 0; j < E; ++j) v[j] = live ? x[l + T * j] : 0;
    }
    // Phase A: distance h = T d; pair (j, j + d), index i = l + T j,
    // twiddle exponent (i mod h) n / (2h) = (l + T (j mod d)) E / (2d).
#pragma unroll
    for (int d = E / 2; d >= 1; d /= 2) {
#pragma unroll
      for (int j = 0; j < E; ++j) {
        if (j & d) continue;
        // With T == 1 (2 points) the index is known, and d == 1 is the last stage.
        dif_stage_butterfly<kLazy>(f, v[j], v[j + d], tw, (l + T * (j % d)) * (E / (2 * d)),
                                   T == 1 && j % d == 0, T == 1 && d == 1 && scale_output, scale2);
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
        dif_stage_butterfly<kLazy>(f, v[j], v[j + h], tw, (j % h) * (n / (2 * h)), j % h == 0,
                                   h == 1 && scale_output, scale2);
      }
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
    if (kStaged) {
#pragma unroll
      for (int k = 0; k < E; ++k) {
        const int g = lane + 32 * k;
        if (first + g / n < batch) warp_data[g] = buffer[warp][warp_slot(g)];
      }
    } else if (live) {
#pragma unroll
      for (int j = 0; j < E; ++j) x[l + T * j] = sb[padded32(l + T * j)];
    }
    __syncwarp();
  }
}
/// The transpose of team_ntt32_kernel without permutations or scaling, for
/// the last pass of an inverse of several passes (column_ntt32.cuh): each
/// 2^L-word vector holds a forward transform's output in bit-reversed order
/// (as team_ntt32_kernel leaves it with out_reversed); decimation in time,
/// stages of distance 1 .. n/2, leaves the inverse's vector in natural
/// order (unscaled). `table`: the stage twiddles of w^-1. Teams of >= 8
/// lanes (L >= 6): loads and stores are coalesced 32-byte runs.
template <int L, bool kLazy>
__global__ void __launch_bounds__(kTeamNtt32Warps * 32, team_ntt32_min_blocks(L))
    team_ntt32_dit_kernel(std::uint32_t* __restrict__ data, std::size_t batch, const uint2* __restrict__ table,
                          field::PrimeField32 f) {
  using S = TeamShape32<L>;
  constexpr int T = S::kLanes, E = S::kWords, n = S::kPoints;
  static_assert(T >= 8, "teams of fewer lanes would need staged loads");
  __shared__ uint2 tw[n / 2];
  __shared__ std::uint32_t buffer[kTeamNtt32Warps][S::kTeamsPerWarp * S::kTeamWords];
  for (int e = threadIdx.x; e < n / 2; e += blockDim.x) tw[e] = table[e];
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
    // Coalesced load, then lane l takes the run x[E l + j].
#pragma unroll
    for (int j = 0; j < E; ++j) sb[padded32(l + T * j)] = live ? x[l + T * j] : 0;
    __syncwarp();
#pragma unroll
    for (int j = 0; j < E; ++j) v[j] = sb[padded32(E * l + j)];
    // Distances h = 1 .. T/2 within the run (phase B of the forward, reversed).
#pragma unroll
    for (int h = 1; h < T; h *= 2) {
#pragma unroll
      for (int j = 0; j < E; ++j) {
        if (j & h) continue;
        if (j % h == 0) dif_butterfly_unit<kLazy>(f, v[j], v[j + h]);
        else dit_butterfly<kLazy>(f, v[j], v[j + h], tw[(j % h) * (n / (2 * h))]);
      }
    }
    // Transpose back: lane l holds x[l + T j].
    __syncwarp();
#pragma unroll
    for (int j = 0; j < E; ++j) sb[padded32(E * l + j)] = v[j];
    __syncwarp();
#pragma unroll
    for (int j = 0; j < E; ++j) v[j] = sb[padded32(l + T * j)];
    // Distances h = T d, d = 1 .. E/2 (phase A of the forward, reversed).
#pragma unroll
    for (int d = 1; d < E; d *= 2) {
#pragma unroll
      for (int j = 0; j < E; ++j) {
        if (j & d) continue;
        dit_butterfly<kLazy>(f, v[j], v[j + d], tw[(l + T * (j % d)) * (E / (2 * d))]);
      }
    }
    if (live) {
#pragma unroll
      for (int j = 0; j < E; ++j) x[l + T * j] = v[j];
    }
    __syncwarp();
  }
}
#endif

}  // namespace mpgpu::ntt
