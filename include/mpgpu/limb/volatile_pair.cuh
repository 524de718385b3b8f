// 16-byte volatile loads and stores of global memory (ld/st.volatile.global
// .v2.u64): one access moves a pair of limbs whole, so a status word and
// its value published by one thread are read by another either both new or
// both old, with no fence (aligned 16-byte accesses are not split on the
// GPUs we build for; cub::ScanTileState relies on the same for 8 bytes).
// Volatile: every call reaches memory, so a polling loop sees other blocks'
// stores. Device code only; p must be 16-byte aligned.
#pragma once

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

#include "mpgpu/limb/config.cuh"

namespace mpgpu::limb {

#if defined(__CUDACC__)
/// {x, y} = *p in one 16-byte volatile load.
__device__ __forceinline__ ulonglong2 load_volatile_pair(const volatile ulonglong2* p) {
  ulonglong2 v;
  asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];" : "=l"(v.x), "=l"(v.y) : "l"(p) : "memory");
  return v;
}

/// *p = {x, y} in one 16-byte volatile store.
__device__ __forceinline__ void store_volatile_pair(ulonglong2* p, limb_t x, limb_t y) {
  asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(x), "l"(y) : "memory");
}
#endif

}  // namespace mpgpu::limb
