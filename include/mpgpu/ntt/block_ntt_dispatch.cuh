// The host side of the device NTT (block_ntt.cuh): the kernel variant of each
// pass and its launch (with the extern declarations of the variants compiled
// in src/cuda/ntt_block_pass*.cu), and a whole transform as its sequence of
// passes and their arguments.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/limb/smem_limit.cuh"
#include "mpgpu/ntt/block_ntt_args.cuh"
#include "mpgpu/ntt/block_ntt_kernels.cuh"
#include "mpgpu/ntt/block_ntt_thread.cuh"
#include "mpgpu/ntt/block_plan.hpp"

namespace mpgpu::ntt {

// ---- a whole transform ---------------------------------------------------------------------------

/// One batched transform, as a sequence of passes. Pass i reads `src` (i ==
/// 0) or `work`, and writes `dst` (last pass) or `work`; in place when all
/// three are the same buffer. Natural order with several passes needs
/// `work` distinct from `dst` (block_plan.hpp says why).
struct BlockTransform {
  std::uint64_t* dst;
  std::uint64_t* work;
  const std::uint64_t* src;
  std::uint64_t src_len;  ///< words per transform in src (the rest read as 0)
  std::uint64_t src_stride = 0;  ///< words between transforms in src; 0: 2^log_n
  std::uint64_t src_total = 0;   ///< words of src (reads past it give 0); 0: no bound
  bool other_broadcast = false;  ///< pointwise: one spectrum `other` for every transform of the batch
  int digit_limbs = 1;           ///< reduce_input: limbs per source element (BlockPassArgs::digit_limbs)
  std::size_t batch;
  int log_n;
  bool forward, natural, reduce_input;
  PassEpilogue epilogue;  ///< of the last pass
  std::uint64_t scale;    ///< PassEpilogue::scale (plain residue)
  const std::uint64_t* other;
};

/// True when the lazy kernels apply: 4p < 2^64, and 2^32 divides p - 1
/// (PassArith::mul's short q p; every prime of ntt_primes62 has 2^53 or
/// more). Other primes run the canonical kernels.
inline bool block_ntt_lazy(std::uint64_t p) {
  return p < (std::uint64_t{1} << 62) && ((p - 1) & 0xffffffffu) == 0;
}

/// Launches one pass with the kernel variant <kForward, kLazy, kThreads,
/// kMinBlocks> (kThreads >= the pass's threads); returns the first CUDA error.
template <bool kForward, bool kLazy, int kThreads, int kMinBlocks>
cudaError_t launch_block_pass_variant(const BlockPassArgs& args, dim3 grid, unsigned threads, std::size_t smem,
                                      cudaStream_t s) {
  const void* fn = reinterpret_cast<const void*>(&block_pass_kernel<kForward, kLazy, kThreads, kMinBlocks>);
  if (const cudaError_t e = limb::allow_dynamic_smem(fn, smem); e != cudaSuccess) return e;
  block_pass_kernel<kForward, kLazy, kThreads, kMinBlocks><<<grid, threads, smem, s>>>(args);
  return cudaGetLastError();
}

// The variants launch_block_pass uses, each compiled in one file of the
// library (src/cuda/ntt_block_pass*.cu): the kernels are large, and the
// files compile in parallel. (The host emulation of the kernels,
// tests/ntt/block_ntt_emulation_test.cpp, instantiates its own.)
#define MPGPU_BLOCK_PASS_VARIANT(F, L, T, B)                                                                        \
  template cudaError_t launch_block_pass_variant<F, L, T, B>(const BlockPassArgs&, dim3, unsigned, std::size_t, \
                                                             cudaStream_t)
/// Launches the specialized kernel of kK stages (tiles of 2^12 elements).
template <bool kForward, int kK>
cudaError_t launch_block_pass_fixed(const BlockPassArgs& args, dim3 grid, std::size_t smem, cudaStream_t s) {
  const void* fn = reinterpret_cast<const void*>(&block_pass_fixed_kernel<kForward, kK>);
  if (const cudaError_t e = limb::allow_dynamic_smem(fn, smem); e != cudaSuccess) return e;
  constexpr unsigned kThreads = 1u << (kBlockMultiPassTileLog - kBlockPerThreadLog);
  block_pass_fixed_kernel<kForward, kK><<<grid, kThreads, smem, s>>>(args);
  return cudaGetLastError();
}
#define MPGPU_BLOCK_PASS_FIXED(F, K) \
  template cudaError_t launch_block_pass_fixed<F, K>(const BlockPassArgs&, dim3, std::size_t, cudaStream_t)

#if defined(__CUDACC__)
extern MPGPU_BLOCK_PASS_FIXED(true, 6);
extern MPGPU_BLOCK_PASS_FIXED(true, 7);
extern MPGPU_BLOCK_PASS_FIXED(true, 10);
extern MPGPU_BLOCK_PASS_FIXED(true, 12);
extern MPGPU_BLOCK_PASS_FIXED(false, 6);
extern MPGPU_BLOCK_PASS_FIXED(false, 7);
extern MPGPU_BLOCK_PASS_FIXED(false, 10);
extern MPGPU_BLOCK_PASS_FIXED(false, 12);
extern MPGPU_BLOCK_PASS_VARIANT(true, true, 512, 1);
extern MPGPU_BLOCK_PASS_VARIANT(true, true, 256, 3);
extern MPGPU_BLOCK_PASS_VARIANT(false, true, 512, 1);
extern MPGPU_BLOCK_PASS_VARIANT(false, true, 256, 3);
extern MPGPU_BLOCK_PASS_VARIANT(true, false, 512, 1);
extern MPGPU_BLOCK_PASS_VARIANT(false, false, 512, 1);
#endif

/// The kernel variant of one direction. Register budget: tiles of <= 2^12
/// points (<= 256 threads) run the lazy kernels capped at 80 registers,
/// __launch_bounds__(256, 3), so that three blocks share an SM: ptxas spills
/// a few words a thread, and the transforms and the products built on them
/// measured faster than at 128 registers (two blocks). A 64-register cap
/// (four blocks) spilled an order of magnitude more. Figures:
/// docs/tuning-history.md, "NTT tile sizes". Tiles of 2^13 (512 threads) and
/// the canonical kernels keep 128 registers.
template <bool kForward>
inline cudaError_t launch_block_pass_direction(bool lazy, const BlockPassArgs& args, dim3 grid, unsigned threads,
                                               std::size_t smem, cudaStream_t s) {
  if (!lazy) return launch_block_pass_variant<kForward, false, 512, 1>(args, grid, threads, smem, s);
  if (threads > 256) return launch_block_pass_variant<kForward, true, 512, 1>(args, grid, threads, smem, s);
  if (args.k + args.log_c == kBlockMultiPassTileLog) {
    // The shapes of the common passes (2^24 points: 6 + 6 + 12 stages; 2^25
    // and 2^26: 7-stage strided passes; batches of 2^10 points), compiled
    // in; faster than the generic kernel on each of them
    // (docs/tuning-history.md, "NTT kernels").
    // A pass with kPassFoldIn of other than 6 stages (none of block_passes'
    // schedules) takes the generic kernel: BlockPassView::kFoldable.
    const bool other_fold = (args.flags & kPassFoldIn) != 0 && args.k != 6;
    switch (other_fold ? 0 : args.k) {
      case 6: return launch_block_pass_fixed<kForward, 6>(args, grid, smem, s);
      case 7: return launch_block_pass_fixed<kForward, 7>(args, grid, smem, s);
      case 10: return launch_block_pass_fixed<kForward, 10>(args, grid, smem, s);
      case 12: return launch_block_pass_fixed<kForward, 12>(args, grid, smem, s);
      default: break;
    }
  }
  return launch_block_pass_variant<kForward, true, 256, 3>(args, grid, threads, smem, s);
}

/// Launches one pass; returns the first CUDA error.
inline cudaError_t launch_block_pass(bool forward, bool lazy, const BlockPassArgs& args, cudaStream_t s) {
  const int tile_log = args.k + args.log_c;
  const unsigned threads = tile_log > kBlockPerThreadLog ? 1u << (tile_log - kBlockPerThreadLog) : 1u;
  const std::size_t smem = block_smem_bytes(tile_log);
  const std::uint64_t blocks = (args.total_groups + (std::uint64_t{1} << args.log_c) - 1) >> args.log_c;
  if (blocks > 0x7fffffffu) return cudaErrorInvalidConfiguration;
  const dim3 grid(static_cast<unsigned>(blocks));
  return forward ? launch_block_pass_direction<true>(lazy, args, grid, threads, smem, s)
                 : launch_block_pass_direction<false>(lazy, args, grid, threads, smem, s);
}

/// The passes of `t` in the order they run (the inverse reverses them).
inline std::vector<BlockPass> block_transform_passes(const BlockTransform& t) {
  auto passes = block_passes(t.log_n, t.batch, t.natural);
  if (!t.forward) {
    for (std::size_t i = 0, j = passes.size() - 1; i < j; ++i, --j) std::swap(passes[i], passes[j]);
  }
  return passes;
}

/// Whether the top pass's cross twiddles (hi = L-1, k0 stages) are folded
/// into the next pass (hi = L-1-k0), and that pass's index in `passes`.
///
/// After the top pass, row j of its tile is a sub-transform of 2^(L-k0)
/// points whose element n gets the twist w^(n b), b = bitrev_k0(j): two
/// Shoup products a point (lo and hi tables). The next pass views that
/// sub-transform as rows t x columns n3, n = t 2^log_s + n3, so w^(n b) =
/// w^(n3 b) w^((t b) << log_s). The first factor is constant down a column
/// and commutes with the next pass's sub-NTT: it joins that pass's own cross
/// twiddle (one exponent, still two products). The second is one entry of
/// the hi table when log_s >= cross_bits: one product, on load (forward) or
/// store (inverse). So the top pass moves its data without twiddles, one
/// product a point less in the transform (2^24 points: 6 + 6 + 12 stages).
/// Without log_s >= cross_bits (the row factor would take two products
/// again) nothing is folded.
inline bool block_fold_cross(const std::vector<BlockPass>& passes, int log_n, int cross_bits, std::size_t& next) {
  int k0 = 0;
  for (const BlockPass& p : passes)
    if (p.hi == log_n - 1) k0 = p.k;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const BlockPass& p = passes[i];
    if (k0 > 0 && p.hi == log_n - 1 - k0 && !p.permute && p.hi - p.k + 1 >= cross_bits) {
      next = i;
      return true;
    }
  }
  return false;
}

/// Arguments of pass i of `passes` (from block_transform_passes(t)).
inline BlockPassArgs block_pass_args(const BlockTransform& t, const std::vector<BlockPass>& passes, std::size_t i,
                                     const BlockTables& tables, const field::PrimeField64& f) {
  const bool lazy = block_ntt_lazy(f.p);
  const BlockPass& pass = passes[i];
  const bool first = i == 0, last = i + 1 == passes.size();
  BlockPassArgs a{};
  a.src = first ? t.src : t.work;
  a.dst = last ? t.dst : t.work;
  a.other = t.other;
  a.other_mask = t.other_broadcast ? (std::uint64_t{1} << t.log_n) - 1 : ~std::uint64_t{0};
  a.src_len = first ? t.src_len : std::uint64_t{1} << t.log_n;
  a.src_stride = first && t.src_stride != 0 ? t.src_stride : std::uint64_t{1} << t.log_n;
  a.src_total = first && t.src_total != 0 ? t.src_total : ~std::uint64_t{0};
  a.total_groups = std::uint64_t(t.batch) << (t.log_n - pass.k);
  a.tables = tables;
  a.f = f;
  a.log_n = t.log_n;
  a.hi = pass.hi;
  a.k = pass.k;
  a.log_c = pass.log_c;
  std::size_t fold_next = 0;
  const bool fold = block_fold_cross(passes, t.log_n, tables.cross_bits, fold_next);
  const bool cross = pass.hi - pass.k + 1 > 0 && !(fold && pass.hi == t.log_n - 1);
  a.flags = (first && t.reduce_input ? kPassReduceInput : 0) | (cross ? kPassCross : 0) |
            (fold && i == fold_next ? kPassFoldIn : 0) | (pass.permute ? kPassPermute : 0);
  a.one_q = f.shoup(1);
  a.digit_limbs = first && t.reduce_input ? t.digit_limbs : 1;
  std::uint64_t w = 1;  // 2^(64 d) mod p; r1 = 2^64 mod p
  for (int d = 0; d < a.digit_limbs; ++d, w = f.mul(w, f.r1)) a.digit_w[d] = make_ulonglong2(w, f.shoup(w));
  a.epilogue = last ? t.epilogue : (lazy ? PassEpilogue::lazy : PassEpilogue::canonical);
  if (last && t.epilogue == PassEpilogue::scale) {
    a.scale = t.scale;
    a.scale_q = f.shoup(t.scale);
  }
  return a;
}

/// Runs all passes of `t` with the tables `tables` (of the same log_n and p).
inline cudaError_t run_block_transform(const BlockTransform& t, const BlockTables& tables,
                                       const field::PrimeField64& f, cudaStream_t s) {
  if (t.batch == 0 || t.log_n == 0) return cudaSuccess;  // callers handle length 1
  const auto passes = block_transform_passes(t);
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const cudaError_t e = launch_block_pass(t.forward, block_ntt_lazy(f.p), block_pass_args(t, passes, i, tables, f), s);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

}  // namespace mpgpu::ntt
