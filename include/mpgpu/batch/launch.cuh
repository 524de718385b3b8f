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
template <class E, int ScratchWords, int MinBlocksPerSM, class Body>
__global__ void __launch_bounds__(E::threads > 32 ? E::threads : 128, MinBlocksPerSM)
    group_kernel(Body body, std::size_t count) {
  extern __shared__ word_t scratch[];
  constexpr int ipb = instances_per_block<E>();
  const int local = static_cast<int>(threadIdx.x) / E::threads;
  const std::size_t instance = static_cast<std::size_t>(blockIdx.x) * ipb + local;
  E env(static_cast<int>(threadIdx.x) % E::threads, scratch + static_cast<std::size_t>(local) * ScratchWords);
  body(env, instance, instance < count);
}

/// Launches body over `count` instances with `ScratchWords` shared words per
/// instance: E::scratch_words for anything (powm, division, shifts),
/// E::product_scratch_words for products mixed with linear operations,
/// E::comm_words for add/sub/compare/bitwise alone. MinBlocksPerSM is the
/// kernel's `__launch_bounds__` hint: resident blocks of the skeleton per SM
/// that the compiler must fit in the registers (65536 / (MinBlocksPerSM x
/// threads a block) a thread at most). The default 1 leaves the compiler
/// free; a fused body of thread-per-instance products (G == 1, 128-thread
/// blocks) holds its intermediates in registers and runs latency-bound
/// carry chains, so more warps pay: seed 000's Poly at 1024 bits asks for 4
/// (128 registers) and ran 1.12x faster on an H100 than without the hint
/// (bench/results/2026-11-23-nvidia-h100-80gb-hbm3-probes.md). Returns the launch error, if any.
template <class E, int ScratchWords = E::scratch_words, int MinBlocksPerSM = 1, class Body>
cudaError_t launch(const Body& body, std::size_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  constexpr int ipb = instances_per_block<E>();
  const std::size_t blocks = (count + ipb - 1) / ipb;
  const std::size_t smem = static_cast<std::size_t>(ipb) * ScratchWords * sizeof(word_t);
  auto kernel = group_kernel<E, ScratchWords, MinBlocksPerSM, Body>;
  if (smem > 48 * 1024) {
    cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
    if (e != cudaSuccess) return e;
  }
  kernel<<<static_cast<unsigned>(blocks), ipb * E::threads, smem, stream>>>(body, count);
  return cudaGetLastError();
}
#endif

}  // namespace mpgpu::batch
