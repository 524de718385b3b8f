// The block-level work of one pass of the device NTT (block_ntt.cuh), CUB's
// "agent": the rounds of up to 3 stages between shared-memory round trips,
// their loads from and stores to global memory, the natural-order side of a
// permuting pass, and block_pass_body, all that a pass kernel runs.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "mpgpu/ntt/block_ntt_args.cuh"
#include "mpgpu/ntt/block_ntt_thread.cuh"
#include "mpgpu/ntt/block_ntt_view.cuh"
#include "mpgpu/ntt/block_plan.hpp"

namespace mpgpu::ntt {

/// Geometry of unit u of a round (R stages, lowest half-size 2^low): its
/// column c and the row of its element 0; element m is at row base + (m << low).
struct BlockUnit {
  unsigned c, r_lo, base;
  __device__ __forceinline__ BlockUnit(unsigned u, int log_c, int low, int R) {
    c = u & ((1u << log_c) - 1);
    const unsigned rest = u >> log_c;
    r_lo = rest & ((1u << low) - 1);
    base = ((rest >> low) << (low + R)) | r_lo;
  }
};

/// First round of a non-permuting pass: each unit's 2^R words straight from
/// global memory, all of a thread's loads issued before any product (the
/// reduction of operand words, the twiddles before the sub-NTT: the
/// inverse's cross twiddles, the forward's row factors of a folded pass)
/// waits on them. kReduce and kTwist are template arguments so that a pass
/// without them does not issue their products predicated off.
template <bool kReduce, bool kTwist, bool kForward, bool kLazy, int R, int kK>
__device__ __forceinline__ void block_load_global(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* x, int low,
                                                  unsigned units) {
  constexpr int kUnits = (1 << kBlockPerThreadLog) >> R;
  const std::uint64_t step = std::uint64_t{1} << (low + v.log_s);
  if (!kReduce && v.whole_source && v.tile_full()) {
    // The common case, one uniform branch for the round: whole transforms
    // in a dense source and a tile of valid groups, so that a unit's 2^R
    // loads are one base and immediate offsets, with no bound per element
    // (the general loop below costs ~10 instructions and a convergence
    // region per element).
#pragma unroll
    for (int q = 0; q < kUnits; ++q) {
      const unsigned u = threadIdx.x + q * v.threads();
      if (u >= units) continue;
      const BlockUnit un(u, v.log_c(), low, R);
      const std::uint64_t* src = v.a.src + v.index(v.group(un.c), un.base);
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) x[q * (1 << R) + m] = src[m * step];
    }
  } else {
#pragma unroll
    for (int q = 0; q < kUnits; ++q) {
      const unsigned u = threadIdx.x + q * v.threads();
      if (u >= units) continue;
      const BlockUnit un(u, v.log_c(), low, R);
      const std::uint64_t g = v.group(un.c);
      const bool ok = v.valid(g);
      const std::uint64_t idx0 = v.index(g, un.base);
      if (kReduce && v.a.digit_limbs > 1) {  // a uniform branch: the products' digit loads
#pragma unroll
        for (int m = 0; m < (1 << R); ++m) x[q * (1 << R) + m] = ok ? v.read_digit(idx0 + m * step) : 0;
      } else {
#pragma unroll
        for (int m = 0; m < (1 << R); ++m) x[q * (1 << R) + m] = ok ? v.read(idx0 + m * step) : 0;
      }
    }
  }
  const bool reduce_words = kReduce && v.a.digit_limbs == 1;
  if (reduce_words || kTwist) {
#pragma unroll
    for (int q = 0; q < kUnits; ++q) {
      const unsigned u = threadIdx.x + q * v.threads();
      if (u >= units) continue;
      const BlockUnit un(u, v.log_c(), low, R);
      const std::uint64_t g = v.group(un.c);
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) {
        std::uint64_t& val = x[q * (1 << R) + m];
        if (reduce_words) val = v.reduce_input(val);
        if constexpr (kTwist) {
          const unsigned t = un.base + (unsigned(m) << low);
          val = kForward ? v.mul_row(val, g, t) : v.mul_cross(val, g, t);
        }
      }
    }
  }
}

/// How the store round applies the pass's epilogue: not at all (lazy), the
/// canonical reduction, or BlockPassView::finish's branch on the kind. The
/// two common kinds are chosen once per round (block_round), not per element:
/// an if-chain per stored element made 16 convergence regions of the last
/// round, where the 12-stage pass stalled noticeably on instruction fetch
/// (Nsight Compute; docs/tuning-history.md, "NTT kernels"). Only these two: a
/// template argument for all five kinds gave the foldable kernels a large
/// stack frame (docs/tuning-history.md, "NTT kernels").
enum class StoreFinish : int { none, canonical, any };

/// Last round of a non-permuting pass: each unit's 2^R words straight to
/// global memory, after the twiddles after the sub-NTT (kTwist: the
/// forward's cross twiddles, the inverse's row factors of a folded pass) and
/// the last pass's epilogue (kFinish).
template <bool kTwist, StoreFinish kFinish, bool kForward, bool kLazy, int R, bool kLow0, int kK>
__device__ __forceinline__ void block_store_global(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* x, int low,
                                                   unsigned units) {
  constexpr int kUnits = (1 << kBlockPerThreadLog) >> R;
  const BlockPassArgs& a = v.a;
  const std::uint64_t step = std::uint64_t{1} << (low + v.log_s);
  // Contiguous pass, smallest stages: a unit's 2^R rows are 2^R consecutive
  // words (base is a multiple of 2^R); 16-byte stores halve the store
  // requests of a lane stride of 2^R words.
  const bool pairs = kLow0 && R > 1 && v.log_s == 0 && (reinterpret_cast<std::uintptr_t>(a.dst) & 15) == 0;
#pragma unroll
  for (int q = 0; q < kUnits; ++q) {
    const unsigned u = threadIdx.x + q * v.threads();
    if (u >= units) continue;
    const BlockUnit un(u, v.log_c(), low, R);
    const std::uint64_t g = v.group(un.c);
    if (!v.valid(g)) continue;
    const std::uint64_t idx0 = v.index(g, un.base);
#pragma unroll
    for (int m = 0; m < (1 << R); ++m) {
      std::uint64_t& val = x[q * (1 << R) + m];
      if constexpr (kTwist) {
        const unsigned t = un.base + (unsigned(m) << low);
        val = kForward ? v.mul_cross(val, g, t) : v.mul_row(val, g, t);
      }
      if constexpr (kFinish == StoreFinish::canonical) val = v.ar.template canonical<kForward>(val);
      else if constexpr (kFinish == StoreFinish::any) val = v.finish(val, idx0 + m * step);
    }
    if (pairs) {
#pragma unroll
      for (int m = 0; m < (1 << R); m += 2)
        *reinterpret_cast<ulonglong2*>(a.dst + idx0 + m) = make_ulonglong2(x[q * (1 << R) + m], x[q * (1 << R) + m + 1]);
    } else {
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) a.dst[idx0 + m * step] = x[q * (1 << R) + m];
    }
  }
}

/// block_store_global with the StoreFinish of the pass's epilogue.
template <bool kTwist, bool kForward, bool kLazy, int R, bool kLow0, int kK>
__device__ __forceinline__ void block_store_finish(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* x,
                                                   int low, unsigned units) {
  const PassEpilogue e = v.a.epilogue;
  if (e == PassEpilogue::lazy)
    block_store_global<kTwist, StoreFinish::none, kForward, kLazy, R, kLow0>(v, x, low, units);
  else if (e == PassEpilogue::canonical)
    block_store_global<kTwist, StoreFinish::canonical, kForward, kLazy, R, kLow0>(v, x, low, units);
  else
    block_store_global<kTwist, StoreFinish::any, kForward, kLazy, R, kLow0>(v, x, low, units);
}

/// One round: each thread's kPer >> R units of 2^R elements. All of a
/// thread's elements are loaded first (kPer loads in flight), from global
/// memory (first round of a non-permuting pass) or shared memory; then R
/// stages per unit; then all are stored, to global memory (last round of a
/// non-permuting forward / any inverse pass) or shared memory. In shared
/// memory element m of a unit is tile element e0 + m * 2^(low + log_c),
/// e0 = base * 2^log_c + c.
template <bool kForward, bool kLazy, int R, bool kLow0, int kK>
__device__ __forceinline__ void block_round(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* sm, int low,
                                            bool from_global, bool to_global) {
  constexpr int kPer = 1 << kBlockPerThreadLog;
  constexpr int kUnits = kPer >> R;
  const BlockPassArgs& a = v.a;
  const unsigned units = 1u << (v.k() + v.log_c() - R);
  const unsigned smem_step = 1u << (low + v.log_c());
  const ulonglong2* inner = kForward ? a.tables.inner_fwd : a.tables.inner_inv;
  std::uint64_t x[kPer];
  if (from_global) {
    const bool reduce = (a.flags & kPassReduceInput) != 0;
    const bool fold = v.kFoldable && (a.flags & kPassFoldIn);
    if (kForward ? fold : (a.flags & kPassCross) != 0) {
      if (reduce) block_load_global<true, true, kForward, kLazy, R>(v, x, low, units);
      else block_load_global<false, true, kForward, kLazy, R>(v, x, low, units);
    } else {
      if (reduce) block_load_global<true, false, kForward, kLazy, R>(v, x, low, units);
      else block_load_global<false, false, kForward, kLazy, R>(v, x, low, units);
    }
  } else {
#pragma unroll
    for (int q = 0; q < kUnits; ++q) {
      const unsigned u = threadIdx.x + q * v.threads();
      if (u >= units) continue;
      const BlockUnit un(u, v.log_c(), low, R);
      const unsigned e0 = (un.base << v.log_c()) | un.c;
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) x[q * (1 << R) + m] = sm[block_smem_slot(e0, m, smem_step)];
    }
  }
#pragma unroll
  for (int q = 0; q < kUnits; ++q) {
    const unsigned u = threadIdx.x + q * v.threads();
    if (u >= units) continue;
    const BlockUnit un(u, v.log_c(), low, R);
    block_unit<kForward, kLazy, R, kLow0>(x + q * (1 << R), low, un.r_lo, inner, v.ar);
  }
  if (to_global) {
    const bool fold = v.kFoldable && (a.flags & kPassFoldIn);
    if (kForward ? (a.flags & kPassCross) != 0 : fold) block_store_finish<true, kForward, kLazy, R, kLow0>(v, x, low, units);
    else block_store_finish<false, kForward, kLazy, R, kLow0>(v, x, low, units);
  } else {
#pragma unroll
    for (int q = 0; q < kUnits; ++q) {
      const unsigned u = threadIdx.x + q * v.threads();
      if (u >= units) continue;
      const BlockUnit un(u, v.log_c(), low, R);
      const unsigned e0 = (un.base << v.log_c()) | un.c;
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) sm[block_smem_slot(e0, m, smem_step)] = x[q * (1 << R) + m];
    }
  }
}

template <bool kForward, bool kLazy, int kK>
__device__ __forceinline__ void block_round_dispatch(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* sm,
                                                     int R, int low, bool from_global, bool to_global) {
  if (low == 0) {
    if (R == 3) block_round<kForward, kLazy, 3, true>(v, sm, 0, from_global, to_global);
    else if (R == 2) block_round<kForward, kLazy, 2, true>(v, sm, 0, from_global, to_global);
    else block_round<kForward, kLazy, 1, true>(v, sm, 0, from_global, to_global);
  } else {
    if (R == 3) block_round<kForward, kLazy, 3, false>(v, sm, low, from_global, to_global);
    else if (R == 2) block_round<kForward, kLazy, 2, false>(v, sm, low, from_global, to_global);
    else block_round<kForward, kLazy, 1, false>(v, sm, low, from_global, to_global);
  }
}

/// The natural-order side of a permuting pass: element i (< 16) of this
/// thread is tile element e = threadIdx.x + i * blockDim.x, at natural-order
/// global index `idx`, held in shared memory at `slot`; consecutive e are
/// consecutive words in global memory. With several groups per transform,
/// column c is the group with bit-reversed index c0 + c and natural row t
/// holds storage row bitrev_k(t); with one group per transform (a single
/// pass), column c is transform g0 + c. f(idx, slot, ok) is called for each.
template <bool kForward, bool kLazy, int kK, class F>
__device__ __forceinline__ void block_permute_side(const BlockPassView<kForward, kLazy, kK>& v, F f) {
  const BlockPassArgs& a = v.a;
  const int k = v.k(), log_c = v.log_c();
  const unsigned tile = 1u << (k + log_c);
  if (v.groups_log > 0) {
    const unsigned c_mask = (1u << log_c) - 1;
    const std::uint64_t base = (v.transform << a.log_n) | v.c0;
#pragma unroll
    for (int i = 0; i < (1 << kBlockPerThreadLog); ++i) {
      const unsigned e = threadIdx.x + i * v.threads();
      if (e >= tile) break;
      const unsigned c = e & c_mask, t = e >> log_c;
      f(base + ((std::uint64_t(t) << v.groups_log) | c), block_smem_index((bit_reverse_bits(t, k) << log_c) | c),
        true);
    }
  } else {
    const unsigned t_mask = (1u << k) - 1;
#pragma unroll
    for (int i = 0; i < (1 << kBlockPerThreadLog); ++i) {
      const unsigned e = threadIdx.x + i * v.threads();
      if (e >= tile) break;
      const unsigned t = e & t_mask, c = e >> k;
      f(((v.g0 + c) << a.log_n) | t, block_smem_index((bit_reverse_bits(t, k) << log_c) | c), v.valid(v.g0 + c));
    }
  }
}

/// Round r of `rounds` of a pass. Forward: rounds from the top stages, the
/// short one (k mod 3) last; inverse: the mirror image. A function, not a
/// lambda in block_pass_body: a lambda cannot be forced inline, and in the
/// 6-stage kernel NVVM once kept it a call, its captures (the pass's
/// arguments) in 1232 bytes of stack.
template <bool kForward, bool kLazy, int kK>
__device__ __forceinline__ void block_pass_round(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* smem,
                                                 int r, int rounds, bool permute) {
  const int k = v.k();
  const bool first = r == 0, last = r == rounds - 1;
  int R, low;
  if (kForward) {
    R = k - 3 * r < 3 ? k - 3 * r : 3;
    low = k - 3 * r - R;
  } else {
    R = first ? k - 3 * (rounds - 1) : 3;
    low = first ? 0 : k - 3 * (rounds - r);
  }
  const bool from_global = first && (kForward || !permute);
  const bool to_global = last && (!kForward || !permute);
  block_round_dispatch<kForward, kLazy>(v, smem, R, low, from_global, to_global);
  if (!last) __syncthreads();
}

/// The body of a pass kernel (kK: BlockPassView).
template <bool kForward, bool kLazy, int kK>
__device__ __forceinline__ void block_pass_body(const BlockPassArgs& a, std::uint64_t* smem) {
  const BlockPassView<kForward, kLazy, kK> v(a);
  const bool permute = (a.flags & kPassPermute) != 0;
  const int k = v.k();
  const int rounds = (k + 2) / 3;
  if (!kForward && permute) {
    const bool reduce = (a.flags & kPassReduceInput) != 0;
    block_permute_side(v, [&](std::uint64_t idx, unsigned slot, bool ok) {
      const bool digits = reduce && a.digit_limbs > 1;
      std::uint64_t val = ok ? (digits ? v.read_digit(idx) : v.read(idx)) : 0;
      if (reduce && !digits) val = v.reduce_input(val);
      smem[slot] = val;
    });
    __syncthreads();
  }
  // With a compile-time k the loop unrolls and each round's R, low and
  // direction of transfer are constants.
  if constexpr (kK > 0) {
#pragma unroll
    for (int r = 0; r < (kK + 2) / 3; ++r) block_pass_round(v, smem, r, rounds, permute);
  } else {
    for (int r = 0; r < rounds; ++r) block_pass_round(v, smem, r, rounds, permute);
  }
  if (kForward && permute) {
    __syncthreads();
    block_permute_side(v, [&](std::uint64_t idx, unsigned slot, bool ok) {
      if (ok) a.dst[idx] = v.finish(smem[slot], idx);
    });
  }
}

}  // namespace mpgpu::ntt
