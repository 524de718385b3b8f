// A second kernel skeleton for the device API, for groups larger than a warp
// (one instance a block) whose body spends long between its loads and its
// store: persistent blocks walk the instances, and while a block computes one
// instance, the operands of its next kStages - 1 instances are already on
// their way into shared memory (bulk copies on sm_90, completion on an
// mbarrier). The body gets the instance's operands in shared memory:
//
//   struct Body {
//     template <class E>
//     __device__ void operator()(const E& env, std::size_t instance,
//                                const mpgpu::batch::word_t* const* staged) const;
//   };
//   const mpgpu::batch::word_t* inputs[2] = {a, b};
//   mpgpu::batch::launch_staged<Env<8192, 1024>, 2>(body, inputs, count, stream);
//
// staged[k] is instance `instance` of inputs[k] (E::words words, read with
// mb::load like global memory). Every instance is live: there are no padding
// instances. Why: at 2^18 bits an instance is a 1024-thread block of ~58
// registers, one block an SM, and a chain of six carry-resolving additions
// spends about a quarter of each instance in six block-wide carry resolves
// with no load in flight; with three stages the next operands arrive
// meanwhile, and the chain measured faster staged at 2^17 and 2^18 bits.
// A body of one streaming operation (a single addition) measured slower
// staged: use launch() for those. tuning_table.hpp's tuned_staged_chain(W)
// says where such chains gain; the figures: docs/tuning-history.md, "Staged
// chains".
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/launch.cuh"
#include "mpgpu/limb/smem_limit.cuh"

#if defined(__CUDACC__)
#include <cuda/barrier>
#include <cuda/ptx>

#include <algorithm>
#include <cstdint>
#endif

namespace mpgpu::batch {

#if defined(__CUDACC__)
namespace staged_detail {

/// Shared words before the stages: the group's communication area, rounded
/// up so that every stage starts 16-byte aligned (the bulk copies need it).
template <class E>
constexpr int comm_pad() {
  return (E::comm_words + 3) / 4 * 4;
}

template <class E, int kInputs, int kStages>
constexpr std::size_t smem_bytes() {
  return (static_cast<std::size_t>(comm_pad<E>()) + static_cast<std::size_t>(kStages) * kInputs * E::words) *
         sizeof(word_t);
}

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

struct Inputs {
  const word_t* p[8];
};

template <class E, int kInputs, int kStages, class Body>
__global__ void __launch_bounds__(E::threads) staged_kernel(Body body, Inputs in, std::size_t count) {
  constexpr int W = E::words;
  constexpr unsigned kBytes = W * sizeof(word_t);
  extern __shared__ __align__(16) word_t smem[];
  auto stage = [&](int s) { return smem + comm_pad<E>() + s * kInputs * W; };
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier bar[kStages];  // initialized below, by one thread
#pragma nv_diag_default static_var_with_dynamic_init
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < kStages; ++s) init(&bar[s], blockDim.x);
  }
  __syncthreads();
  E env(static_cast<int>(threadIdx.x), smem);
  // One thread queues every operand of instance i into stage s. The fence
  // orders the block's earlier generic reads of the stage (made visible to
  // this thread by the barrier that ended their iteration) before the copy
  // engine's writes.
  auto queue = [&](int s, std::size_t i) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
#pragma unroll
    for (int k = 0; k < kInputs; ++k)
      cuda::device::memcpy_async_tx(stage(s) + k * W, in.p[k] + i * W, cuda::aligned_size_t<16>(kBytes), bar[s]);
#else
    (void)s, (void)i;
#endif
  };
  const std::size_t first = blockIdx.x, step = gridDim.x;
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s + 1 < kStages; ++s)
      if (first + s * step < count) queue(s, first + s * step);
  }
  int s = 0;
  for (std::size_t i = first; i < count; i += step) {
    // The stage before s was read in the previous iteration, which ended
    // with a barrier: it takes the instance kStages - 1 steps ahead.
    const std::size_t ahead = i + (kStages - 1) * step;
    if (threadIdx.x == 0 && ahead < count) queue(s == 0 ? kStages - 1 : s - 1, ahead);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    block_barrier::arrival_token token =
        threadIdx.x == 0 ? cuda::device::barrier_arrive_tx(bar[s], 1, kInputs * kBytes) : bar[s].arrive();
    bar[s].wait(std::move(token));
#else
    // Before sm_90 (no bulk copies): the block copies the instance itself,
    // without overlap.
    for (int k = 0; k < kInputs; ++k)
      for (int j = threadIdx.x; j < W; j += blockDim.x) stage(s)[k * W + j] = in.p[k][i * W + j];
    __syncthreads();
#endif
    const word_t* staged[kInputs];
#pragma unroll
    for (int k = 0; k < kInputs; ++k) staged[k] = stage(s) + k * W;
    body(env, i, staged);
    __syncthreads();  // stage s and the group's area are read before they are reused
    s = s + 1 == kStages ? 0 : s + 1;
  }
}

}  // namespace staged_detail

/// Launches body over `count` instances with kInputs operand arrays (up to
/// 8, each `count` instances of E::words words, 16-byte aligned) staged in
/// shared memory kStages - 1 instances ahead; see the top of this file.
/// Needs E::threads > 32 (one instance a block) and E::words a multiple of
/// 4 (16-byte copies); a misaligned input gives cudaErrorInvalidValue, a
/// class whose stages do not fit the SM's shared memory the error of
/// cudaFuncSetAttribute. The body may use E::comm_words of scratch (the
/// linear operations: add, sub, compare, bitwise, delayed carries), not
/// products. Returns the launch error, if any.
template <class E, int kInputs, int kStages = 3, class Body>
cudaError_t launch_staged(const Body& body, const word_t* const (&inputs)[kInputs], std::size_t count,
                          cudaStream_t stream) {
  static_assert(E::threads > 32, "launch_staged runs one instance a block: groups larger than a warp");
  static_assert(E::words % 4 == 0, "launch_staged copies 16-byte pieces: E::words a multiple of 4");
  static_assert(kInputs >= 1 && kInputs <= 8, "launch_staged takes 1 to 8 input arrays");
  static_assert(kStages >= 2, "launch_staged needs a stage to compute from and one to fill");
  if (count == 0) return cudaSuccess;
  staged_detail::Inputs in{};
  for (int k = 0; k < kInputs; ++k) {
    if (reinterpret_cast<std::uintptr_t>(inputs[k]) % 16 != 0) return cudaErrorInvalidValue;
    in.p[k] = inputs[k];
  }
  constexpr std::size_t smem = staged_detail::smem_bytes<E, kInputs, kStages>();
  auto kernel = staged_detail::staged_kernel<E, kInputs, kStages, Body>;
  // A failed query is returned and cleared from the runtime's last error,
  // so that a caller's later cudaGetLastError() does not see it again.
  auto fail = [](cudaError_t e) {
    (void)cudaGetLastError();
    return e;
  };
  cudaError_t e = limb::allow_dynamic_smem(kernel, smem);
  if (e != cudaSuccess) return fail(e);
  int device = 0, sms = 0, per_sm = 0;
  if ((e = cudaGetDevice(&device)) != cudaSuccess) return fail(e);
  if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess) return fail(e);
  if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, E::threads, smem)) != cudaSuccess)
    return fail(e);
  if (per_sm == 0) return cudaErrorInvalidConfiguration;
  const std::size_t grid = std::min<std::size_t>(count, static_cast<std::size_t>(per_sm) * sms);
  kernel<<<static_cast<unsigned>(grid), E::threads, smem, stream>>>(body, in, count);
  return cudaGetLastError();
}
#endif

}  // namespace mpgpu::batch
