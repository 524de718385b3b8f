// Launcher of the single-limb division scan (include/mpgpu/device/div_limb.cuh).
#include <climits>
#include <string>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/words.cuh"
#include "mpgpu/device/div_limb.cuh"

namespace mpgpu::detail::cuda {

namespace {
using Policy = device::DivLimbPolicy;
}  // namespace

Pending divrem_limb(ContextState& st, Stream s, limb_t* q, limb_t* r, Operand a, limb_t d,
                    bool publish_remainder_size) {
  // The host API checks these; a violation here is a library bug.
  if (a.size == 0 || d == 0) throw InvalidArgument("mpgpu: divrem_limb needs a nonzero dividend and divisor");
  const std::size_t tiles = (a.size + Policy::kTile - 1) / Policy::kTile;
  if (tiles > static_cast<std::size_t>(INT32_MAX))
    throw Overflow("mpgpu: division of " + std::to_string(a.size) + " limbs exceeds the tile count limit");
  // The scan divides by d's odd part (div_limb.cuh).
  const int twos = limb::count_trailing_zeros(d);
  const limb_t odd = d >> twos;
  const device::LimbDivisor v = device::make_limb_divisor(odd);

  OpWords ow(st, s);
  device::RemainderTileState tile_state;
  void* tile_storage = nullptr;
  if (tiles > 1) {  // one tile needs no look-back, hence no tile state
    std::size_t bytes = 0;
    MPGPU_CUDA_CHECK(device::RemainderTileState::AllocationSize(static_cast<int>(tiles), bytes));
    tile_storage = allocate(st, s, bytes);
    try {
      MPGPU_CUDA_CHECK(tile_state.Init(static_cast<int>(tiles), tile_storage, bytes));
      const int init_threads = 256;
      device::init_remainder_tile_state<<<static_cast<unsigned>((tiles + init_threads - 1) / init_threads),
                                          init_threads, 0, s>>>(tile_state, static_cast<int>(tiles));
      MPGPU_CHECK_LAUNCH("init_remainder_tile_state");
    } catch (...) {
      deallocate(st, s, tile_storage);
      throw;
    }
  }
  constexpr std::size_t smem = sizeof(limb_t) * Policy::kPadded;
  static_assert(smem <= 48 * 1024, "the tile fits the default dynamic shared memory limit");
  device::div_limb_kernel<Policy><<<static_cast<unsigned>(tiles), Policy::kThreads, smem, s>>>(
      q, r, a.limbs, a.size, v, twos, device::item_powers(odd), device::scan_powers(Policy::kItems, odd),
      device::tile_powers(Policy::kTile, odd), tile_state, ow.words(), publish_remainder_size);
  const cudaError_t launched = cudaGetLastError();
  deallocate(st, s, tile_storage);  // stream-ordered: after the kernel
  check(launched, "launch of div_limb_kernel", __FILE__, __LINE__);
  return ow.defer();
}

}  // namespace mpgpu::detail::cuda
