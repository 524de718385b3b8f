// Device kernels of the big prime FFT (stages in fft_stages.cuh): one thread
// per DFT_K group for the shift-only butterflies, one thread per element for
// the twiddle products. Chen et al.'s batching: one element per thread, its k
// digits strided by N in the digit-major layout, so a warp's loads of one
// digit are coalesced. nvcc only; launched by src/cuda/gfp_fft.cu.
#pragma once

#include <cstddef>

#include "mpgpu/gfp/fft_stages.cuh"

namespace mpgpu::gfp {

/// in -> out: the N/K group DFTs of the stage of stride s.
template <int D>
__global__ void fft_group_dft_kernel(Field<D> f, const limb_t* __restrict__ in, limb_t* __restrict__ out,
                                     std::size_t n, std::size_t s, int dir) {
  const std::size_t groups = n / (2 * D);
  for (std::size_t g = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; g < groups;
       g += std::size_t{gridDim.x} * blockDim.x)
    stages::group_dft(f, in, out, n, s, g, dir);
}

/// In place on x: the twiddles of the stage of stride s (and the scale).
/// `scale` is passed by value (has_scale says whether to use it).
template <int D>
__global__ void fft_twiddle_kernel(Field<D> f, limb_t* x, std::size_t n, std::size_t s,
                                   const limb_t* __restrict__ table, int dir, Element<D> scale, bool has_scale) {
  for (std::size_t o = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; o < n;
       o += std::size_t{gridDim.x} * blockDim.x)
    stages::twiddle_element(f, x, n, s, o, table, dir, has_scale ? &scale : nullptr);
}

}  // namespace mpgpu::gfp
