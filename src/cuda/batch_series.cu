// series_leaves' kernel (mpgpu/series.hpp): one thread a node, each as
// series_leaf (batch/series_leaf.hpp) computes it on the host, writing its
// instance of P, Q and T whole (padding included), so the batches need no
// fill of their own.
#include <algorithm>

#include "batch/batch_backend.hpp"
#include "cuda/check.cuh"
#include "scoped_memory.cuh"

namespace mpgpu::detail::batch::cuda {

namespace {

__global__ void leaves(SeriesTermsPod terms, const std::uint64_t* ranges, std::size_t count, unsigned depth, limb_t* P,
                       limb_t* Q, limb_t* T, std::size_t stride, std::size_t bits) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t r = i >> depth;
    const std::size_t at = i * stride;
    series_leaf(terms, ranges[2 * r], ranges[2 * r + 1], depth, i & ((std::size_t{1} << depth) - 1), P + at, Q + at,
                T + at, stride, bits);
  }
}

}  // namespace

void series_leaves(ContextState& st, Stream stream, const SeriesTermsPod& terms, const std::uint64_t* ranges,
                   std::size_t range_count, unsigned depth, limb_t* P, limb_t* Q, limb_t* T, std::size_t stride,
                   std::size_t bits) {
  const std::size_t count = range_count << depth;
  if (count == 0) return;
  mpgpu::detail::cuda::ScopedDeviceMemory table(st, stream, 2 * range_count * sizeof(std::uint64_t));
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(table.p, ranges, 2 * range_count * sizeof(std::uint64_t), cudaMemcpyHostToDevice,
                                   stream));
  // Enough blocks to fill an H100/H200 several times over; the loop takes the rest.
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((count + 127) / 128, std::size_t{1} << 15));
  leaves<<<blocks, 128, 0, stream>>>(terms, table.as<std::uint64_t>(), count, depth, P, Q, T, stride, bits);
  MPGPU_CHECK_LAUNCH("series leaves");
}

}  // namespace mpgpu::detail::batch::cuda
