// 16-byte access to pairs of limbs, the access width at which a warp moves
// 512 contiguous bytes per instruction. Falls back to single limbs at the
// end of a vector or when the pointer is not 16-byte aligned (pool
// allocations always are; user-supplied device pointers may not be).
#pragma once

#include "mpgpu/limb/config.cuh"

namespace mpgpu::device {

__device__ __forceinline__ bool aligned16(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & 15) == 0;
}

/// lo = p[i], hi = p[i+1], zero at and beyond n.
__device__ __forceinline__ void load_pair(const limb_t* p, std::size_t i, std::size_t n, bool vector_ok,
                                          limb_t& lo, limb_t& hi) {
  if (vector_ok && i + 1 < n) {
    const ulonglong2 v = *reinterpret_cast<const ulonglong2*>(p + i);
    lo = v.x;
    hi = v.y;
  } else {
    lo = i < n ? p[i] : 0;
    hi = i + 1 < n ? p[i + 1] : 0;
  }
}

/// p[i] = lo, p[i+1] = hi, only below n.
__device__ __forceinline__ void store_pair(limb_t* p, std::size_t i, std::size_t n, bool vector_ok, limb_t lo,
                                           limb_t hi) {
  if (vector_ok && i + 1 < n) {
    *reinterpret_cast<ulonglong2*>(p + i) = make_ulonglong2(lo, hi);
  } else {
    if (i < n) p[i] = lo;
    if (i + 1 < n) p[i + 1] = hi;
  }
}

}  // namespace mpgpu::device
