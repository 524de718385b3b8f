// What a pass of the device NTT (block_ntt.cuh) is given: the twiddle tables'
// layout and view, the pass flags and epilogues, and BlockPassArgs, the one
// argument of every pass kernel. Shared by the block-level work
// (block_ntt_view.cuh, block_ntt_agent.cuh), the kernels and the host dispatch.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/ntt/block_plan.hpp"

namespace mpgpu::ntt {


inline constexpr int kBlockMaxThreads = 1 << (kBlockTileLog - kBlockPerThreadLog);  // 512
/// Longest digit (limbs) an operand load reduces into one element.
inline constexpr int kBlockMaxDigitLimbs = 4;

// ---- twiddle tables -------------------------------------------------------------------------------

/// Layout of the tables of one (p, L), as (w, shoup(w)) pairs, in this order:
/// inner forward, inner inverse (2^K each, K = min(L, 13)), cross forward
/// lo (2^B), hi (2^(L-B)), cross inverse lo, hi (B = ceil(L/2)).
/// The inner table is one row per stage: row j (half-size 2^j) holds
/// w_(2^(j+1))^i for i < 2^j at offset 2^j - 1 (the last entry is padding),
/// so that the lanes of a warp, which take consecutive positions i, read
/// consecutive entries (2 cache lines a warp instead of up to 16 with one
/// table of w_(2^K)^m read at stride 2^(K-1-j)).
struct BlockTableLayout {
  int log_n, inner_log, cross_bits;
  std::size_t inner_count, lo_count, hi_count;
  __host__ __device__ static BlockTableLayout make(int log_n) {
    BlockTableLayout t{};
    t.log_n = log_n;
    t.inner_log = log_n < kBlockTileLog ? log_n : kBlockTileLog;
    t.cross_bits = (log_n + 1) / 2;
    t.inner_count = std::size_t{1} << t.inner_log;
    t.lo_count = std::size_t{1} << t.cross_bits;
    t.hi_count = std::size_t{1} << (log_n - t.cross_bits);
    return t;
  }
  __host__ __device__ std::size_t entries() const { return 2 * (inner_count + lo_count + hi_count); }
  __host__ __device__ std::size_t bytes() const { return entries() * sizeof(ulonglong2); }
};

struct BlockTables {
  const ulonglong2* inner_fwd;
  const ulonglong2* inner_inv;
  const ulonglong2* lo_fwd;
  const ulonglong2* hi_fwd;
  const ulonglong2* lo_inv;
  const ulonglong2* hi_inv;
  int log_n, inner_log, cross_bits;

  static BlockTables view(const void* base, int log_n) {
    const BlockTableLayout l = BlockTableLayout::make(log_n);
    const ulonglong2* t = static_cast<const ulonglong2*>(base);
    BlockTables v{};
    v.inner_fwd = t;
    v.inner_inv = v.inner_fwd + l.inner_count;
    v.lo_fwd = v.inner_inv + l.inner_count;
    v.hi_fwd = v.lo_fwd + l.lo_count;
    v.lo_inv = v.hi_fwd + l.hi_count;
    v.hi_inv = v.lo_inv + l.lo_count;
    v.log_n = log_n;
    v.inner_log = l.inner_log;
    v.cross_bits = l.cross_bits;
    return v;
  }
};

// ---- one pass ---------------------------------------------------------------------------------------

enum BlockPassFlags : int {
  kPassReduceInput = 1,  ///< inputs are any 64-bit words: reduce them first (operand loads)
  kPassCross = 2,        ///< strided pass: cross twiddles (after the DIF, before the DIT)
  kPassPermute = 4,      ///< natural-order side (see block_plan.hpp)
  kPassFoldIn = 8,       ///< also applies the top pass's cross twiddles (block_fold_cross)
};

enum class PassEpilogue : int {
  lazy,       ///< leave values in [0, 2p) (intermediate passes)
  canonical,  ///< reduce to [0, p)
  scale,      ///< x * scale mod p, canonical (Shoup, scale_q = shoup(scale))
  pointwise,  ///< mont_mul(x, other[i]): x * other[i] / 2^64 mod p, canonical
  square,     ///< mont_mul(x, x)
};

struct BlockPassArgs {
  const std::uint64_t* src;    ///< read by this pass
  std::uint64_t* dst;          ///< written by this pass (may equal src)
  const std::uint64_t* other;  ///< PassEpilogue::pointwise (may equal dst)
  std::uint64_t other_mask;    ///< pointwise reads other[idx & other_mask] (~0, or 2^log_n - 1: one spectrum for all)
  std::uint64_t src_len;       ///< words per transform present in src; the rest read as 0
  std::uint64_t src_stride;    ///< words between the transforms' starts in src (2^log_n but in a first pass)
  std::uint64_t src_total;     ///< words of src; reads at or past it give 0 (~0: no bound)
  std::uint64_t total_groups;  ///< batch * 2^(log_n - k)
  BlockTables tables;
  field::PrimeField64 f;
  std::uint64_t scale, scale_q;  ///< PassEpilogue::scale
  std::uint64_t one_q;           ///< shoup(1): reduces any word by kPassReduceInput
  /// kPassReduceInput: an element of the source is a digit of this many
  /// limbs (1, 2 or 4; src/cuda/ntt_mul_digits.cu), element pos of a
  /// transform being limbs pos * digit_limbs .. + digit_limbs - 1. Then
  /// src_len, src_stride and src_total count limbs, and limbs past them read
  /// as 0. digit_w[t] = 2^(64 t) mod p with its Shoup quotient.
  int digit_limbs;
  ulonglong2 digit_w[kBlockMaxDigitLimbs];
  int log_n, hi, k, log_c, flags;
  PassEpilogue epilogue;
};

}  // namespace mpgpu::ntt
