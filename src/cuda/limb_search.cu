// Comparisons and normalization on the device, through the early-exit
// searches of include/mpgpu/device/limb_search.cuh.
#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/words.cuh"
#include "mpgpu/device/limb_search.cuh"

namespace mpgpu::detail::cuda {

int cmp_same_size(ContextState& st, Stream s, const limb_t* a, const limb_t* b, std::size_t n) {
  WordsLock lock(st.mutex);
  MPGPU_CUDA_CHECK(cudaSetDevice(st.device));
  clear_words(st, s);
  MPGPU_CUDA_CHECK(device::launch_limb_search<true>(device::DifferingLimb{a, b}, n,
                                                    device_words(st) + kSlotFound, s));
  const std::uint64_t found = read_words(st, s)[kSlotFound];
  if (found == 0) return 0;
  return (found & 1) ? 1 : -1;
}

std::size_t lowest_nonzero(ContextState& st, Stream s, Operand a) {
  if (a.size == 0) return 0;
  WordsLock lock(st.mutex);
  MPGPU_CUDA_CHECK(cudaSetDevice(st.device));
  clear_words(st, s);
  MPGPU_CUDA_CHECK(device::launch_limb_search<false>(device::NonzeroLimb{a.limbs}, a.size,
                                                     device_words(st) + kSlotFound, s));
  const std::uint64_t found = read_words(st, s)[kSlotFound];
  return found == 0 ? a.size : a.size - found / 2;
}

std::size_t normalized_size(ContextState& st, Stream s, Operand a) {
  if (a.size == 0) return 0;
  WordsLock lock(st.mutex);
  MPGPU_CUDA_CHECK(cudaSetDevice(st.device));
  clear_words(st, s);
  MPGPU_CUDA_CHECK(device::launch_limb_search<true>(device::NonzeroLimb{a.limbs}, a.size,
                                                    device_words(st) + kSlotFound, s));
  return read_words(st, s)[kSlotFound] / 2;
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
