// A kernel skeleton for the device API: one group of G threads per instance,
// instances_per_block() instances per block, Env::scratch_words shared words
// per instance. Users write a body `template <class E> __device__ void
// operator()(const E& env, std::size_t instance, bool live) const` and launch
//
//   mpgpu::batch::launch<Env<32, 2>>(body, count, stream);
//
// `live` is false for the padding instances of the last block: they must
// still make every call (the group synchronizes) but must not store.
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/limb/smem_limit.cuh"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

namespace mpgpu::batch {

/// Instances per block: a 128-thread block of small groups, or one instance
/// per block for groups larger than a warp (they synchronize the block).
template <class E>
constexpr int instances_per_block() {
  return E::threads > 32 ? 1 : 128 / E::threads;
}

#if defined(__CUDACC__)
namespace launch_detail {
template <class E, int ScratchWords, class Body>
__device__ __forceinline__ void run_group(const Body& body, std::size_t count) {
  extern __shared__ word_t scratch[];
  constexpr int ipb = instances_per_block<E>();
  const int local = static_cast<int>(threadIdx.x) / E::threads;
  const std::size_t instance = static_cast<std::size_t>(blockIdx.x) * ipb + local;
  E env(static_cast<int>(threadIdx.x) % E::threads, scratch + static_cast<std::size_t>(local) * ScratchWords);
  body(env, instance, instance < count);
}
}  // namespace launch_detail

template <class E, int ScratchWords, class Body>
__global__ void __launch_bounds__(E::threads > 32 ? E::threads : 128) group_kernel(Body body, std::size_t count) {
  launch_detail::run_group<E, ScratchWords>(body, count);
}

/// The same with a minimum of resident blocks per SM for the compiler. (A
/// separate kernel: `__launch_bounds__(T, 1)` is not the same as
/// `__launch_bounds__(T)` -- with the 1, a batch of independent products
/// at 4096 bits and the NTT products of 2^16-2^17 bits measured slower;
/// docs/tuning-history.md, "Launch bounds".)
template <class E, int ScratchWords, int MinBlocksPerSM, class Body>
__global__ void __launch_bounds__(E::threads > 32 ? E::threads : 128, MinBlocksPerSM)
    group_kernel_min_blocks(Body body, std::size_t count) {
  launch_detail::run_group<E, ScratchWords>(body, count);
}

/// Launches body over `count` instances with `ScratchWords` shared words per
/// instance: E::scratch_words for anything (powm, division, shifts),
/// E::product_scratch_words for products mixed with linear operations,
/// E::comm_words for add/sub/compare/bitwise alone. MinBlocksPerSM, when
/// nonzero, is the kernel's `__launch_bounds__` minimum of resident blocks
/// per SM: the compiler must then fit a thread in 65536 / (MinBlocksPerSM x
/// threads a block) registers. The default 0 gives no minimum. A fused body
/// of thread-per-instance products (G == 1, 128-thread blocks) holds its
/// intermediates in registers and runs carry chains that wait on each
/// other, so more warps pay: a small polynomial of three products and two
/// additions at 1024 bits asks for 4 (128 registers) and measured faster
/// than without (docs/tuning-history.md, "Launch bounds"). Returns the
/// launch error, if any.
template <class E, int ScratchWords = E::scratch_words, int MinBlocksPerSM = 0, class Body>
cudaError_t launch(const Body& body, std::size_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  constexpr int ipb = instances_per_block<E>();
  const std::size_t blocks = (count + ipb - 1) / ipb;
  const std::size_t smem = static_cast<std::size_t>(ipb) * ScratchWords * sizeof(word_t);
  void (*kernel)(Body, std::size_t) = nullptr;
  if constexpr (MinBlocksPerSM > 0) kernel = group_kernel_min_blocks<E, ScratchWords, MinBlocksPerSM, Body>;
  else kernel = group_kernel<E, ScratchWords, Body>;
  if (const cudaError_t e = limb::allow_dynamic_smem(kernel, smem); e != cudaSuccess) return e;
  kernel<<<static_cast<unsigned>(blocks), ipb * E::threads, smem, stream>>>(body, count);
  return cudaGetLastError();
}
#endif

}  // namespace mpgpu::batch
