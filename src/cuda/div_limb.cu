// Launcher of the single-limb division scan (include/mpgpu/device/div_limb.cuh).
#include <climits>
#include <string>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/contracts.hpp"
#include "cuda/epoch_tiles.hpp"
#include "cuda/result_words.cuh"
#include "mpgpu/device/div_limb.cuh"

namespace mpgpu::detail::cuda {

namespace {

template <class Policy>
Deferred launch(ContextState& st, Stream s, limb_t* q, limb_t* r, Operand a, limb_t d, bool publish_remainder_size) {
  const std::size_t tiles = (a.size + Policy::kTile - 1) / Policy::kTile;
  if (tiles > static_cast<std::size_t>(INT32_MAX))
    throw Overflow("mpgpu: division of " + std::to_string(a.size) + " limbs exceeds the tile count limit");
  // The scan divides by d's odd part (div_limb.cuh).
  const int twos = limb::count_trailing_zeros(d);
  const limb_t odd = d >> twos;
  const device::LimbDivisor v = device::make_limb_divisor(odd);

  ResultWordsLease lease(st, s);
  EpochTiles statuses(st, s, st.remainder_tiles, tiles, sizeof(ulonglong2));
  const device::RemainderTiles tile_state{static_cast<ulonglong2*>(statuses.words()), statuses.epoch()};
  constexpr std::size_t smem = sizeof(limb_t) * (Policy::kPadded + 1);
  static_assert(smem <= 48 * 1024, "the tile fits the default dynamic shared memory limit");
  device::div_limb_kernel<Policy><<<static_cast<unsigned>(tiles), Policy::kThreads, smem, s>>>(
      q, r, a.limbs, a.size, v, twos, device::item_powers(odd), device::scan_powers(Policy::kItems, odd),
      device::tile_powers(Policy::kTile, odd), tile_state, lease.words(), publish_remainder_size);
  MPGPU_CHECK_LAUNCH("div_limb_kernel");
  return lease.defer();
}

}  // namespace

Deferred divrem_limb(ContextState& st, Stream s, limb_t* q, limb_t* r, Operand a, limb_t d,
                    bool publish_remainder_size) {
  contract::divrem_limb(q, r, a, d);
  // The host API checks these; a violation here is a library bug.
  if (a.size == 0 || d == 0) throw InvalidArgument("mpgpu: divrem_limb needs a nonzero dividend and divisor");
  return launch<device::DivLimbPolicy>(st, s, q, r, a, d, publish_remainder_size);
}

}  // namespace mpgpu::detail::cuda
