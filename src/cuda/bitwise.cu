// Launcher of the two's-complement bitwise operations: up to three searches
// and one map, all queued on the stream; the size is read when needed.
#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/contracts.hpp"
#include "cuda/result_words.cuh"
#include "mpgpu/device/bitwise.cuh"
#include "mpgpu/device/limb_search.cuh"

namespace mpgpu::detail::cuda {

Deferred bitwise(ContextState& st, Stream s, limb::BitwiseOp op, limb_t* r, Operand a, bool a_negative, Operand b,
                 bool b_negative) {
  contract::bitwise(r, a, b);
  using Policy = device::BitwisePolicy;
  ResultWordsLease lease(st, s);
  const ResultWords words = lease.words();
  const device::TwosComplementOperand ta{a.limbs, a.size, a_negative, words.slot + kSlotLowA};
  const device::TwosComplementOperand tb{b.limbs, b.size, b_negative, words.slot + kSlotLowB};
  if (a_negative)
    MPGPU_CUDA_CHECK(device::launch_limb_search<false>(device::NonzeroLimb{a.limbs}, a.size, words, kSlotLowA,
                                                       false, s));
  if (b_negative)
    MPGPU_CUDA_CHECK(device::launch_limb_search<false>(device::NonzeroLimb{b.limbs}, b.size, words, kSlotLowB,
                                                       false, s));
  const bool r_negative = limb::bitwise_result_negative(op, a_negative, b_negative);
  const std::size_t L = std::max(a.size, b.size);
  if (r_negative)
    MPGPU_CUDA_CHECK(device::launch_limb_search<false>(device::BitwiseResultNonzero{op, ta, tb}, L, words,
                                                       kSlotLowR, false, s));
  constexpr std::size_t per_block = Policy::kTile;
  const auto blocks = static_cast<unsigned>((L + 1 + per_block - 1) / per_block);
  MPGPU_CUDA_CHECK(device::launch_dependent(device::bitwise_kernel<>, blocks, Policy::kThreads, s, r, op, ta, tb,
                                            r_negative, words, publish_early(st, s)));
  return lease.defer();
}

}  // namespace mpgpu::detail::cuda
