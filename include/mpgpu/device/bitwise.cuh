// Device-wide and/ior/xor with GMP's two's-complement semantics for
// sign-magnitude operands (see limb/twos_complement.cuh for the per-limb map).
// The lowest nonzero limb of each negative operand, and of a negative
// result's two's complement, come from early-exit searches whose results
// stay in device memory; the map itself is one pass: read a and b, write r.
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#include "mpgpu/device/result_words.cuh"
#include "mpgpu/limb/twos_complement.cuh"

namespace mpgpu::device {

struct BitwisePolicy {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 4;
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
template <class Policy = BitwisePolicy>
__global__ void __launch_bounds__(Policy::kThreads)
    bitwise_kernel(limb_t* __restrict__ r, limb::BitwiseOp op, TwosComplementOperand a, TwosComplementOperand b,
                   bool r_negative, ResultWords words) {
  using BlockReduce = cub::BlockReduce<unsigned long long, Policy::kThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  const std::size_t L = a.size > b.size ? a.size : b.size;
  const std::size_t za = a.lowest_nonzero(), zb = b.lowest_nonzero();
  std::size_t zr = L;
  if (r_negative) {
    const unsigned long long key = words.slots[kSlotLowR];
    zr = key ? L - key / 2 : L;
  }
  const std::size_t base = std::size_t(blockIdx.x) * Policy::kThreads * Policy::kItems + threadIdx.x;
  unsigned long long top = 0;
#pragma unroll
  for (int it = 0; it < Policy::kItems; ++it) {
    const std::size_t i = base + std::size_t(it) * Policy::kThreads;
    if (i > L) break;
    limb_t v;
    if (i < L) {
      const limb_t t = limb::apply_bitwise(op, a.limb(i, za), b.limb(i, zb));
      v = r_negative ? limb::twos_complement_limb(t, i, L, zr, true) : t;
    } else {
      // An all-zero two's complement on L limbs is -2^(64L): one more limb.
      v = (r_negative && zr == L) ? 1 : 0;
    }
    r[i] = v;
    if (v) top = i + 1;
  }
  const unsigned long long block_top = BlockReduce(temp).Reduce(top, ::cuda::maximum<>{});
  if (threadIdx.x == 0 && block_top) atomicMax(&words.slots[kSlotSize], block_top);
  words.publish_when_last();
}

}  // namespace mpgpu::device
