// A block's view of one pass of the device NTT (block_ntt.cuh): which groups
// and global positions its tile covers, and the per-element prologue (source
// reads, operand reduction, cross twiddles) and epilogue of the pass.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "mpgpu/ntt/block_ntt_args.cuh"
#include "mpgpu/ntt/block_ntt_thread.cuh"
#include "mpgpu/ntt/block_plan.hpp"

namespace mpgpu::ntt {

/// Per-block view of a pass: group indices, global positions, prologue and
/// epilogue of each element. kK > 0: a kernel specialized for passes of kK
/// stages over tiles of 2^kBlockMultiPassTileLog elements (256 threads), so
/// that the stages, columns and threads are compile-time constants and the
/// index arithmetic of each element folds into immediate offsets; kK = 0:
/// any pass, its shape read from the arguments.
template <bool kForward, bool kLazy, int kK = 0>
struct BlockPassView {
  const BlockPassArgs& a;
  PassArith<kLazy> ar;
  int log_s, groups_log;  // groups_log = log_n - k: groups per transform
  int fold_bits;          // kPassFoldIn: L-1-hi, the top pass's stages; else 0
  /// Whether this kernel serves passes with kPassFoldIn: the generic one and
  /// the 6-stage one (the second pass of 2^24 points, the one schedule of
  /// block_passes that folds). The others compile without that code: with
  /// it, 7- and 10-stage passes that never fold measured slower
  /// (docs/tuning-history.md, "NTT kernels").
  static constexpr bool kFoldable = kK == 0 || kK == 6;
  std::uint64_t s_mask, g0;
  unsigned c0;            // permuting pass: first bit-reversed group of the tile
  std::uint64_t transform;  // permuting pass: transform index of the tile
  bool whole_source;        // dense source covering whole transforms: no zero padding, no bound

  __device__ BlockPassView(const BlockPassArgs& args) : a(args) {
    ar.f = a.f;
    ar.p2 = a.f.p << 1;
    ar.p_hi = static_cast<std::uint32_t>((a.f.p - 1) >> 32);
    log_s = a.hi - k() + 1;
    groups_log = a.log_n - k();
    fold_bits = kFoldable && (a.flags & kPassFoldIn) ? a.log_n - 1 - a.hi : 0;
    s_mask = (std::uint64_t{1} << log_s) - 1;
    g0 = std::uint64_t(blockIdx.x) << log_c();
    // Permuting pass with several groups per transform: the tile's columns
    // are the groups whose bit-reversed indices are c0 .. c0 + 2^log_c - 1.
    const int tiles_log = groups_log - log_c();
    transform = groups_log > 0 ? std::uint64_t(blockIdx.x) >> tiles_log : 0;
    c0 = groups_log > 0 ? unsigned(blockIdx.x & ((1u << tiles_log) - 1)) << log_c() : 0;
    whole_source = a.digit_limbs == 1 && (a.src_len >> a.log_n) != 0 &&
                   a.src_stride == (std::uint64_t{1} << a.log_n) && a.src_total == ~std::uint64_t{0};
  }
  /// Whether every column of the tile is a valid group (no bound per element).
  __device__ __forceinline__ bool tile_full() const {
    if ((a.flags & kPassPermute) && groups_log > 0)
      return log_c() <= groups_log && ((transform + 1) << groups_log) <= a.total_groups;
    return g0 + (std::uint64_t{1} << log_c()) <= a.total_groups;
  }

  /// The pass's stages, log2 of its columns, the block's threads.
  __device__ __forceinline__ int k() const {
    if constexpr (kK > 0) return kK;
    else return a.k;
  }
  __device__ __forceinline__ int log_c() const {
    if constexpr (kK > 0) return kBlockMultiPassTileLog - kK;
    else return a.log_c;
  }
  __device__ __forceinline__ unsigned threads() const {
    if constexpr (kK > 0) return 1u << (kBlockMultiPassTileLog - kBlockPerThreadLog);
    else return blockDim.x;
  }
  /// Storage-side group of column c of the tile.
  __device__ __forceinline__ std::uint64_t group(unsigned c) const {
    if ((a.flags & kPassPermute) && groups_log > 0)
      return (transform << groups_log) | bit_reverse_bits(c0 + c, groups_log);
    return g0 + c;
  }
  __device__ __forceinline__ bool valid(std::uint64_t g) const { return g < a.total_groups; }
  /// Storage-side global index of row t of group g. Rows of one group are
  /// 2^log_s apart: index(g, t + d) = index(g, t) + (d << log_s).
  __device__ __forceinline__ std::uint64_t index(std::uint64_t g, unsigned t) const {
    return ((g >> log_s) << (a.hi + 1)) | (std::uint64_t(t) << log_s) | (g & s_mask);
  }
  /// kPassFoldIn: b = bitrev(j) for the sub-transform j (of the top pass's
  /// 2^(L-1-hi) rows) that group g belongs to; 0 otherwise.
  __device__ __forceinline__ unsigned fold_b(std::uint64_t g) const {
    if constexpr (!kFoldable) return 0;
    else return bit_reverse_bits(unsigned(g >> log_s) & ((1u << fold_bits) - 1), fold_bits);
  }
  /// Cross twiddle of row t of group g: w^e, e = n2 * (bitrev_k(t) 2^(L-1-hi)
  /// + fold_b(g)), n2 = g mod 2^log_s: the pass's own twiddle, times (folded
  /// pass) the part of the top pass's twiddle that is constant down a column.
  __device__ __forceinline__ std::uint64_t mul_cross(std::uint64_t v, std::uint64_t g, unsigned t) const {
    const std::uint64_t e =
        (g & s_mask) * ((std::uint64_t(bit_reverse_bits(t, k())) << (a.log_n - 1 - a.hi)) | fold_b(g));
    const ulonglong2* lo = kForward ? a.tables.lo_fwd : a.tables.lo_inv;
    const ulonglong2* hi = kForward ? a.tables.hi_fwd : a.tables.hi_inv;
    const std::uint64_t lo_mask = (std::uint64_t{1} << a.tables.cross_bits) - 1;
    v = ar.mul(v, __ldg(&lo[e & lo_mask]));
    return ar.mul(v, __ldg(&hi[e >> a.tables.cross_bits]));
  }
  /// kPassFoldIn: the rest of the top pass's twiddle, w^((t fold_b(g)) <<
  /// log_s) on row t (before the DIF, after the DIT). As log_s >= cross_bits
  /// (block_fold_cross) it is one entry of the hi table: one product.
  __device__ __forceinline__ std::uint64_t mul_row(std::uint64_t v, std::uint64_t g, unsigned t) const {
    const ulonglong2* hi = kForward ? a.tables.hi_fwd : a.tables.hi_inv;
    return ar.mul(v, __ldg(&hi[(std::uint64_t(t) * fold_b(g)) << (log_s - a.tables.cross_bits)]));
  }
  /// Reads word `idx` (transform idx >> log_n, position idx mod 2^log_n) of
  /// the source: 0 past src_len of its transform or past src_total.
  __device__ __forceinline__ std::uint64_t read(std::uint64_t idx) const {
    if (whole_source) return a.src[idx];
    const std::uint64_t pos = idx & ((std::uint64_t{1} << a.log_n) - 1);
    const std::uint64_t j = (idx >> a.log_n) * a.src_stride + pos;
    return pos < a.src_len && j < a.src_total ? a.src[j] : 0;
  }
  /// Operand loads (kPassReduceInput): any word to [0, 2p) (or [0, p)).
  __device__ __forceinline__ std::uint64_t reduce_input(std::uint64_t v) const {
    return ar.mul(v, make_ulonglong2(1, a.one_q));
  }
  /// Element `idx` of a source of digit_limbs-limb digits, reduced: the sum
  /// of limb_t 2^(64 t) mod p, one Shoup product per limb (any 64-bit limb)
  /// and a reducing add, in [0, 2p) (or [0, p)).
  __device__ __forceinline__ std::uint64_t read_digit(std::uint64_t idx) const {
    const std::uint64_t pos = idx & ((std::uint64_t{1} << a.log_n) - 1);
    const std::uint64_t first = pos * unsigned(a.digit_limbs);
    const std::uint64_t j = (idx >> a.log_n) * a.src_stride + first;
    // Zero padding (half the points of a product's transform): no loads and
    // no products. Lanes of a warp hold adjacent points, so this branch
    // rarely splits a warp.
    if (first >= a.src_len || j >= a.src_total) return 0;
    std::uint64_t acc = 0;
#pragma unroll
    for (int t = 0; t < kBlockMaxDigitLimbs; ++t) {
      if (t >= a.digit_limbs) break;
      const std::uint64_t limb = first + t < a.src_len && j + t < a.src_total ? a.src[j + t] : 0;
      const std::uint64_t term = ar.mul(limb, a.digit_w[t]);
      acc = t == 0 ? term : ar.add(acc, term);
    }
    return acc;
  }
  /// The last pass's epilogue (an if-chain on a uniform value: a switch
  /// became an indirect branch per element).
  __device__ __forceinline__ std::uint64_t finish(std::uint64_t v, std::uint64_t idx) const {
    const PassEpilogue e = a.epilogue;
    if (e == PassEpilogue::lazy) return v;
    if (e == PassEpilogue::canonical) return ar.template canonical<kForward>(v);
    if (e == PassEpilogue::scale) return a.f.mul_shoup(v, a.scale, a.scale_q);
    if (e == PassEpilogue::pointwise) return a.f.mont_mul(v, a.other[idx & a.other_mask]);
    return a.f.mont_mul(v, v);  // square
  }
};

}  // namespace mpgpu::ntt
