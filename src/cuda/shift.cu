// Launchers of the device shifts (include/mpgpu/device/shift.cuh).
#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/contracts.hpp"
#include "cuda/result_words.cuh"
#include "mpgpu/device/shift.cuh"

namespace mpgpu::detail::cuda {

namespace {
using Policy = device::ShiftPolicy;
/// Blocks for `limbs` output limbs (threads own pairs).
unsigned blocks_for(std::size_t limbs) {
  const std::size_t pairs = (limbs + 1) / 2;
  return static_cast<unsigned>((pairs + Policy::kPairsPerBlock - 1) / Policy::kPairsPerBlock);
}
}  // namespace

Deferred shift_left(ContextState& st, Stream s, limb_t* r, Operand a, std::uint64_t bits) {
  contract::shift_left(r, a, bits);
  ResultWordsLease lease(st, s);
  const std::size_t q = bits / 64;  // the kernel also writes the q zero limbs
  MPGPU_CUDA_CHECK(device::launch_dependent(device::shift_left_kernel<>, blocks_for(a.size + q + 1),
                                            Policy::kThreads, s, r, a.limbs, a.size, q,
                                            static_cast<unsigned>(bits % 64), lease.words(), publish_early(st, s)));
  return lease.defer();
}

Deferred shift_right(ContextState& st, Stream s, limb_t* r, Operand a, std::uint64_t bits) {
  contract::shift_right(r, a, bits);
  ResultWordsLease lease(st, s);
  const std::size_t q = bits / 64;
  MPGPU_CUDA_CHECK(device::launch_dependent(device::shift_right_kernel<>, blocks_for(a.size - q), Policy::kThreads,
                                            s, r, a.limbs, a.size, q, static_cast<unsigned>(bits % 64), lease.words(),
                                            publish_early(st, s)));
  return lease.defer();
}

}  // namespace mpgpu::detail::cuda
