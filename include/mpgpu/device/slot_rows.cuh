// Rows of slots: many pieces of a huge computation side by side in one limb
// vector, piece i at limbs [i pitch, (i + 1) pitch), so that one product of
// the whole row by a number c multiplies every piece by c (when each
// piece's product fits in its slot, the slots never interact). The radix
// conversion (src/integer/integer_radix.cpp) divides all the pieces of a tree level
// at once this way. Two maps build and correct such rows; each output limb
// is computed on its own from at most three input limbs, so the same
// functions serve the device kernels and the CPU backend's loops.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

/// A bit field of every slot of a source row. Slot j starts at limb
/// j * stride (stride 0: every slot reads slot 0, a broadcast); limbs past
/// `extent` within a slot, or past the vector's `size`, read as zero. The
/// field is bits [bit_offset, bit_offset + 64 width) of the slot.
struct SlotSource {
  const limb_t* limbs;
  std::size_t size;
  std::size_t stride;
  std::size_t extent;
  std::uint64_t bit_offset;
  std::size_t width;
};

/// Limb l of source `src`'s field in slot j (0 for l >= width).
MPGPU_HD limb_t slot_field_limb(const SlotSource& src, std::size_t j, std::size_t l) {
  if (l >= src.width) return 0;
  const std::uint64_t bit = src.bit_offset + 64 * std::uint64_t(l);
  const std::size_t a = static_cast<std::size_t>(bit / 64);
  const unsigned sh = static_cast<unsigned>(bit % 64);
  const std::size_t base = j * src.stride;
  auto at = [&](std::size_t i) -> limb_t {
    return i < src.extent && base + i < src.size ? src.limbs[base + i] : 0;
  };
  const limb_t lo = at(a);
  return sh ? (lo >> sh) | (at(a + 1) << (64 - sh)) : lo;
}

/// Output limb (s, l) of a gathered row: dst slot s takes the field of
/// source s mod groups in that source's slot s / groups (groups = 2
/// interleaves two rows: slots r0 q0 r1 q1 ...).
MPGPU_HD limb_t gathered_limb(const SlotSource* sources, int groups, std::size_t s, std::size_t l) {
  const std::size_t g = groups == 1 ? 0 : s % static_cast<std::size_t>(groups);
  return slot_field_limb(sources[g], s / static_cast<std::size_t>(groups), l);
}

/// The correction step of a row division (see src/integer/integer_radix.cpp): with
/// T = R + (B^(pitch-1) - D) per slot, the top limb of T's slot is 1 exactly
/// when that slot of R is >= D. Then R's slot becomes T's without its top
/// limb (R - D) and the slot's count (limb 0 of C's slot) goes up by one.
/// Returns limb l of the new R's slot s; *count_limb the new C limb.
MPGPU_HD limb_t corrected_limb(const limb_t* r, std::size_t r_size, const limb_t* t, std::size_t t_size,
                               const limb_t* c, std::size_t c_size, std::size_t pitch, std::size_t s,
                               std::size_t l, limb_t* count_limb, bool* stepped) {
  const std::size_t top = s * pitch + pitch - 1, i = s * pitch + l;
  const bool flag = top < t_size && t[top] != 0;
  *stepped = flag;
  if (l == 0) *count_limb = (i < c_size ? c[i] : 0) + (flag ? 1 : 0);
  else *count_limb = 0;
  if (l == pitch - 1) return 0;
  return flag ? (i < t_size ? t[i] : 0) : (i < r_size ? r[i] : 0);
}

#if defined(__CUDACC__)

/// Threads of the row maps; a block covers kThreads consecutive limbs of
/// one slot, so the slot index costs one division per block.
inline constexpr int kSlotRowThreads = 256;

/// dst[s pitch + l] = gathered_limb(s, l) for s < slots, l < pitch.
/// Sources are passed by value (at most two).
struct SlotSources {
  SlotSource s[2];
};

/// (Templates, like the other kernels of this layer, so that headers which
/// include this one define nothing.)
template <int kThreads = kSlotRowThreads>
__global__ void __launch_bounds__(kThreads)
    gather_slots_kernel(limb_t* __restrict__ dst, std::size_t slots, std::size_t pitch, SlotSources sources,
                        int groups) {
  const std::size_t tiles_per_slot = (pitch + kThreads - 1) / kThreads;
  for (std::size_t tile = blockIdx.x; tile < slots * tiles_per_slot; tile += gridDim.x) {
    const std::size_t s = tile / tiles_per_slot;
    const std::size_t l = (tile - s * tiles_per_slot) * kThreads + threadIdx.x;
    if (l < pitch) dst[s * pitch + l] = gathered_limb(sources.s, groups, s, l);
  }
}

/// One correction step over every slot (corrected_limb); *any is set when a
/// slot stepped.
template <int kThreads = kSlotRowThreads>
__global__ void __launch_bounds__(kThreads)
    correct_slots_kernel(limb_t* __restrict__ r_out, limb_t* __restrict__ c_out, const limb_t* r, std::size_t r_size,
                         const limb_t* t, std::size_t t_size, const limb_t* c, std::size_t c_size, std::size_t slots,
                         std::size_t pitch, unsigned* any) {
  const std::size_t tiles_per_slot = (pitch + kThreads - 1) / kThreads;
  for (std::size_t tile = blockIdx.x; tile < slots * tiles_per_slot; tile += gridDim.x) {
    const std::size_t s = tile / tiles_per_slot;
    const std::size_t l = (tile - s * tiles_per_slot) * kThreads + threadIdx.x;
    if (l >= pitch) continue;
    limb_t count = 0;
    bool stepped = false;
    r_out[s * pitch + l] = corrected_limb(r, r_size, t, t_size, c, c_size, pitch, s, l, &count, &stepped);
    c_out[s * pitch + l] = count;
    if (l == 0 && stepped) *any = 1;
  }
}

#endif  // __CUDACC__

}  // namespace mpgpu::device
