// The strided passes of a 32-bit NTT longer than a team transform
// (team_ntt32.cuh, up to 2^10 points): a lane per column, every stage in
// registers.
//
// Decomposition (decimation in frequency, in place). A pass of K stages
// views each block of m = 2^(s+K) consecutive words as 2^K rows x 2^s
// columns (row r, column c at r 2^s + c). The forward pass transforms each
// column (2^K points, root w_m^(2^s)), leaving output rev_K(r) in row r,
// then multiplies row r of column c by w_m^(c rev_K(r)). After it each row
// of a block is an independent transform of 2^s points, the next pass's
// blocks. Passes of K_1, K_2, ... stages and a last team pass of 2^10
// points leave the transform in bit-reversed order. The inverse is the
// transpose: the team pass in decimation in time first
// (team_ntt32_dit_kernel), then the column passes in reverse order, each
// multiplying first (w^-1) and then transforming its columns by decimation
// in time. The scaling by 1/n rides on one pass's twiddles.
//
// Coalescing: a warp holds 32 adjacent columns (s >= 5), so each row load
// or store is 128 contiguous bytes.
//
// Twiddles. Column stages: w_(2^K)^i (the same for every lane) from a
// block-wide copy in shared memory, Shoup products. Cross twiddles: lane
// c forms beta = w_m^c once from two small tables (lo[e mod 2^b] hi[e >>
// b], Montgomery form) and walks the powers beta^i, i = 0 .. 2^K - 1, one
// Montgomery product to advance and one to apply: no gather per word.
#pragma once

#include <utility>

#include "mpgpu/field/prime_field32.cuh"
#include "mpgpu/limb/register_barrier.cuh"
#include "mpgpu/ntt/team_ntt32.cuh"

namespace mpgpu::ntt {

inline constexpr int kColumnNtt32MaxLog = 6;  ///< stages of a column pass (2^6 words a lane)
inline constexpr int kColumnNtt32Threads = 256;
/// Blocks an SM (the register budget; ptxas, CUDA 13.0): 2^4 words a lane
/// fit 64 registers (4 blocks); 2^5 spilled ~160 bytes at 80 (3 blocks) and
/// ~300 at 64, so 2 blocks; 2^6 spilled 728 bytes at 128, so 1 block.
constexpr int column_ntt32_min_blocks(int k) { return k <= 4 ? 4 : k == 5 ? 2 : 1; }

/// Stage twiddle index space: `stage_table` holds w_(2^10)^i, i < 2^9 (the
/// team table of 2^10 points), so w_(2^K)^i is entry i 2^(10-K).
inline constexpr int kColumnStageTableLog = 9;

/// Bit reversal of the low `bits` bits, constexpr (register indices).
__host__ __device__ constexpr int reverse_low_bits(int i, int bits) {
  int r = 0;
  for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
  return r;
}

#if defined(__CUDACC__)
/// Row r's cross twiddle t beta^rev_K(r): the powers in order i, applied
/// to row rev_K(i) (Montgomery products; t and beta in Montgomery form).
/// The rows are template arguments (a fold), not loop indices: a 2^6-row
/// loop stayed partly rolled even with #pragma unroll and put v in local
/// memory.
template <int K, int... I>
__device__ __forceinline__ void column_cross_twiddles(const field::PrimeField32& f, std::uint32_t (&v)[1 << K],
                                                      std::uint32_t t, std::uint32_t beta,
                                                      std::integer_sequence<int, I...>) {
  ((v[reverse_low_bits(I, K)] = f.mont_mul(v[reverse_low_bits(I, K)], t),
    t = I + 1 < (1 << K) ? f.mont_mul(t, beta) : t),
   ...);
}

/// One pass of K stages over `tasks` = (words / 2^K) columns of 2^s rows
/// apart (log_s = s >= 5). `lo` / `hi`: w^e, e < 2^lo_bits, and
/// w^(e 2^lo_bits) in Montgomery form for the transform's root w (forward)
/// or w^-1 (inverse), where w_m = w^(2^exp_shift). `first_twiddle`: the
/// Montgomery form of the twiddle of row 0 (1, or 1/n for the scaling pass).
template <int K, bool kForward, bool kLazy>
__global__ void __launch_bounds__(kColumnNtt32Threads, column_ntt32_min_blocks(K))
    column_ntt32_kernel(std::uint32_t* __restrict__ data, std::size_t tasks, int log_s, int exp_shift,
                        const uint2* __restrict__ stage_table, const std::uint32_t* __restrict__ lo,
                        const std::uint32_t* __restrict__ hi, int lo_bits, field::PrimeField32 f,
                        std::uint32_t first_twiddle) {
  constexpr int E = 1 << K;
  constexpr int kHalf = E / 2;
  __shared__ uint2 tw[kHalf];  // w_(2^K)^i
  for (int i = threadIdx.x; i < kHalf; i += blockDim.x) tw[i] = stage_table[i << (kColumnStageTableLog + 1 - K)];
  __syncthreads();
  const std::size_t s_mask = (std::size_t{1} << log_s) - 1;
  const std::size_t lo_mask = (std::size_t{1} << lo_bits) - 1;
  // One column a thread (no grid-stride loop: over a loop the compiler kept
  // every stage twiddle in registers, 236 of them at 2^5 words).
  const std::size_t task = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (task < tasks) {
    const std::size_t c = task & s_mask;
    std::uint32_t* x = data + ((task >> log_s) << (log_s + K)) + c;
    std::uint32_t v[E];
#pragma unroll
    for (int j = 0; j < E; ++j) v[j] = x[std::size_t(j) << log_s];
    const std::size_t e = c << exp_shift;
    const std::uint32_t beta = f.mont_mul(__ldg(&lo[e & lo_mask]), __ldg(&hi[e >> lo_bits]));
    if constexpr (kForward) {
#pragma unroll
      for (int d = kHalf; d >= 1; d /= 2) {
#pragma unroll
        for (int j = 0; j < E; ++j) {
          if (j & d) continue;
          if (j % d == 0) dif_butterfly_unit<kLazy>(f, v[j], v[j + d]);
          else dif_butterfly<kLazy>(f, v[j], v[j + d], tw[(j % d) * (E / (2 * d))]);
        }
      }
      column_cross_twiddles<K>(f, v, first_twiddle, beta, std::make_integer_sequence<int, E>{});
    } else {
      column_cross_twiddles<K>(f, v, first_twiddle, beta, std::make_integer_sequence<int, E>{});
#pragma unroll
      for (int d = 1; d < E; d *= 2) {
#pragma unroll
        for (int j = 0; j < E; ++j) {
          if (j & d) continue;
          if (j % d == 0) dif_butterfly_unit<kLazy>(f, v[j], v[j + d]);
          else dit_butterfly<kLazy>(f, v[j], v[j + d], tw[(j % d) * (E / (2 * d))]);
        }
      }
    }
    // Recompute the row addresses for the stores instead of keeping 2^K
    // 64-bit addresses live across the arithmetic (registers).
    limb::register_barrier(x);
#pragma unroll
    for (int j = 0; j < E; ++j) x[std::size_t(j) << log_s] = v[j];
  }
}

/// lo[e] = w^e and hi[e] = w^(e 2^bits) for e < 2^bits, Montgomery form:
/// the cross-twiddle tables of column_ntt32_kernel.
__global__ void column_ntt32_table_kernel(std::uint32_t* lo, std::uint32_t* hi, field::PrimeField32 f,
                                          std::uint32_t w, int bits) {
  const std::size_t count = std::size_t{1} << bits;
  const std::size_t e = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= count) return;
  lo[e] = f.to_mont(f.pow(w, e));
  hi[e] = f.to_mont(f.pow(w, e << bits));
}
#endif

}  // namespace mpgpu::ntt
