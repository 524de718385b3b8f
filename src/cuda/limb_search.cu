// Comparisons and normalization on the device, through the early-exit
// searches of include/mpgpu/device/limb_search.cuh.
#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/result_words.cuh"
#include "mpgpu/device/limb_search.cuh"

namespace mpgpu::detail::cuda {

namespace {
/// Runs one search and returns its key, handed to the host through the
/// ready word (no slot publication, no system fence): a search of one chunk
/// (up to 2048 limbs) is one block; a longer one publishes at once when its
/// first index hits (operands whose top limbs differ), else from its last
/// block.
template <bool kHighest, class Pred>
std::uint64_t search(ContextState& st, Stream s, Pred pred, std::size_t n) {
  ResultWordsLease lease(st, s);
  lease.arm_ready();
  if (n <= device::LimbSearchPolicy::kChunk) {
    device::limb_search_block_kernel<kHighest><<<1, device::LimbSearchPolicy::kThreads, 0, s>>>(pred, n, lease.words());
    MPGPU_CHECK_LAUNCH("limb_search_block_kernel");
  } else {
    MPGPU_CUDA_CHECK(device::launch_limb_search<kHighest>(pred, n, lease.words(), kSlotFound, false, s, true));
  }
  return lease.wait_ready();
}
}  // namespace

int cmp_same_size(ContextState& st, Stream s, const limb_t* a, const limb_t* b, std::size_t n) {
  if (n == 0) return 0;
  const std::uint64_t found = search<true>(st, s, device::DifferingLimb{a, b}, n);
  if (found == 0) return 0;
  return (found & 1) ? 1 : -1;
}

std::size_t lowest_nonzero(ContextState& st, Stream s, Operand a) {
  if (a.size == 0) return 0;
  const std::uint64_t found = search<false>(st, s, device::NonzeroLimb{a.limbs}, a.size);
  return found == 0 ? a.size : a.size - found / 2;
}

std::size_t normalized_size(ContextState& st, Stream s, Operand a) {
  if (a.size == 0) return 0;
  return search<true>(st, s, device::NonzeroLimb{a.limbs}, a.size) / 2;
}

bool any_low_bits(ContextState& st, Stream s, Operand a, std::uint64_t bits) {
  const std::uint64_t whole = std::min<std::uint64_t>(bits / 64, a.size);
  if (whole && lowest_nonzero(st, s, {a.limbs, whole}) < whole) return true;
  if (bits / 64 >= a.size || bits % 64 == 0) return false;
  limb_t partial = 0;
  copy_to_host(st, s, &partial, a.limbs + bits / 64, sizeof partial);
  return (partial & ((limb_t{1} << (bits % 64)) - 1)) != 0;
}

}  // namespace mpgpu::detail::cuda
