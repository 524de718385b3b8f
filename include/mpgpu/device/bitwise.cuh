// Device-wide and/ior/xor with GMP's two's-complement semantics for
// sign-magnitude operands (see limb/twos_complement.cuh for the per-limb map).
// The lowest nonzero limb of each negative operand, and of a negative
// result's two's complement, come from early-exit searches whose results
// stay in device memory; the map itself is one pass: read a and b, write r.
#pragma once


#include "mpgpu/device/dependent_launch.cuh"
#include "mpgpu/device/limb_pairs.cuh"
#include "mpgpu/device/result_words.cuh"
#include "mpgpu/limb/twos_complement.cuh"

namespace mpgpu::device {

/// As the scan add: a warp owns kRows rows of 64 limbs, lane l holds limbs
/// 2l and 2l+1 of each row (16-byte accesses). One row a warp at full
/// occupancy measured faster than 4 rows a warp at 2^28 and 2^30 bits
/// (docs/tuning-history.md, "Device streaming kernels").
struct BitwisePolicy {
  static constexpr int kThreads = 256;
  static constexpr int kRows = 1;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kTile = kWarps * kRows * 64;
  static constexpr int kMinBlocksPerSM = 8;  // full occupancy: <= 32 registers
};

/// One operand seen in two's complement. `low_key` points at the result of
/// a lowest-nonzero search over it (2*(n - z) + bit, see limb_search.cuh).
struct TwosComplementOperand {
  const limb_t* limbs;
  std::size_t size;
  bool negative;
  const unsigned long long* low_key;

  __device__ std::size_t lowest_nonzero() const {
    if (!negative) return 0;
    const unsigned long long key = *low_key;
    return key ? size - key / 2 : size;
  }
  __device__ limb_t limb(std::size_t i, std::size_t z) const {
    return limb::twos_complement_limb(i < size ? limbs[i] : 0, i, size, z, negative);
  }
};

/// Predicate for the search of the lowest nonzero limb of op(a, b) in two's
/// complement.
struct BitwiseResultNonzero {
  limb::BitwiseOp op;
  TwosComplementOperand a, b;
  __device__ int operator()(std::size_t i) const {
    return limb::apply_bitwise(op, a.limb(i, a.lowest_nonzero()), b.limb(i, b.lowest_nonzero())) != 0;
  }
};

/// r[0..L] = magnitude of op(a, b), L = max(a.size, b.size). For a negative
/// result, slot kSlotLowR holds the lowest-nonzero search over its two's
/// complement. Publishes 1 + highest nonzero index as kSlotSize.
///
/// With `publish_early` (only on the context's stream: ResultWords::
/// publish_now), operands that are both non-negative, and a nonzero limb
/// L - 1 of the result, the size is L: block 0 publishes it and no block
/// reduces its highest limb or counts its arrival (no block reads a slot
/// then, since no search ran). Every block computes that limb from the
/// same two operand limbs, so the choice is uniform. Launched as a
/// dependent grid (dependent_launch.cuh).
template <class Policy = BitwisePolicy>
__global__ void __launch_bounds__(Policy::kThreads, Policy::kMinBlocksPerSM)
    bitwise_kernel(limb_t* __restrict__ r, limb::BitwiseOp op, TwosComplementOperand a, TwosComplementOperand b,
                   bool r_negative, ResultWords words, bool publish_early) {
  wait_for_prior_grids();
  const std::size_t L = a.size > b.size ? a.size : b.size;
  const bool early = publish_early && !a.negative && !b.negative && L > 0 &&
                     limb::apply_bitwise(op, L <= a.size ? a.limbs[L - 1] : 0, L <= b.size ? b.limbs[L - 1] : 0) != 0;
  const std::size_t za = a.lowest_nonzero(), zb = b.lowest_nonzero();
  std::size_t zr = L;
  if (r_negative) {
    const unsigned long long key = words.slot[kSlotLowR];
    zr = key ? L - key / 2 : L;
  }
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t warp_base =
      std::size_t(blockIdx.x) * Policy::kTile + std::size_t(warp) * (Policy::kRows * 64);
  const bool vec = aligned16(a.limbs) && aligned16(b.limbs) && aligned16(r);
  unsigned long long top = 0;
#pragma unroll
  for (int k = 0; k < Policy::kRows; ++k) {
    const std::size_t i = warp_base + k * 64 + 2 * lane;
    limb_t x[2], y[2], v[2];
    load_pair(a.limbs, i, a.size, vec, x[0], x[1]);
    load_pair(b.limbs, i, b.size, vec, y[0], y[1]);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const std::size_t j = i + h;
      if (j < L) {
        const limb_t t = limb::apply_bitwise(op, limb::twos_complement_limb(x[h], j, a.size, za, a.negative),
                                             limb::twos_complement_limb(y[h], j, b.size, zb, b.negative));
        v[h] = r_negative ? limb::twos_complement_limb(t, j, L, zr, true) : t;
      } else {
        // An all-zero two's complement on L limbs is -2^(64L): one more limb.
        v[h] = (j == L && r_negative && zr == L) ? 1 : 0;
      }
      if (v[h] && j <= L) top = j + 1;
    }
    store_pair(r, i, L + 1, vec, v[0], v[1]);
  }
  allow_dependent_grids();
  if (early) {
    if (blockIdx.x == 0 && threadIdx.x == 0) words.publish_now(L);
    return;
  }
  block_max_into<Policy::kWarps>(top, &words.slot[kSlotSize]);
  words.publish_when_last();
}

}  // namespace mpgpu::device
