// An empty asm statement that takes a pointer in and out of a register, so
// that the compiler no longer knows what it holds: addresses derived from it
// before the barrier cannot be reused after it and are recomputed instead of
// kept live (no instruction is emitted). ntt/column_ntt32.cuh uses it to keep
// 2^K row addresses out of the registers its butterflies need. Device code
// only.
#pragma once

namespace mpgpu::limb {

#if defined(__CUDACC__)
template <class T>
__device__ __forceinline__ void register_barrier(T*& p) {
  asm volatile("" : "+l"(p));
}
#endif

}  // namespace mpgpu::limb
