// Batch::from_device_limbs's kernel: limbs already on the device (rows of
// any stride, any number of limbs) into a batch's layout, masked to the
// width, without a trip through the host. It also finds the first row that
// had bits at or above the width, so that a caller can refuse to drop them;
// Batch::adopt_device_limbs runs it with no destination, for that alone.
#include <algorithm>

#include "batch/batch_backend.hpp"
#include "cuda/check.cuh"
#include "scoped_memory.cuh"

namespace mpgpu::detail::batch::cuda {

namespace {

/// One thread per limb of max(stride, limbs) per row: a row's limbs are read
/// by consecutive threads (coalesced), those past the class only checked.
/// Every limb of dst's rows is written, the padding with zeros, so the batch
/// invariant (nothing at or above `bits`) holds without a separate fill.
/// Without dst the rows are only checked (Batch::adopt_device_limbs).
__global__ void repack(limb_t* dst, std::size_t stride, std::size_t bits, const limb_t* src, std::size_t count,
                       std::size_t limbs, std::size_t row_stride, std::size_t width, unsigned long long* first) {
  const std::size_t total = count * width, full = bits / 64;
  const unsigned partial = static_cast<unsigned>(bits % 64);
  for (std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; k < total;
       k += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = k / width, j = k - i * width;
    const limb_t v = j < limbs ? src[i * row_stride + j] : 0;
    const limb_t kept = j < full ? v : (j == full && partial) ? v & ((limb_t{1} << partial) - 1) : 0;
    // Reading *first first spares the atomic when an earlier row is already known.
    if (v != kept && i < *reinterpret_cast<volatile unsigned long long*>(first))
      atomicMin(first, static_cast<unsigned long long>(i));
    if (dst && j < stride) dst[i * stride + j] = kept;
  }
}

}  // namespace

std::size_t repack_device_limbs(ContextState& st, Stream stream, limb_t* dst, std::size_t stride, std::size_t bits,
                                const limb_t* src, std::size_t count, std::size_t limbs, std::size_t row_stride) {
  if (count == 0) return 0;
  mpgpu::detail::cuda::ScopedDeviceMemory flag(st, stream, sizeof(unsigned long long));
  auto* first = flag.as<unsigned long long>();
  unsigned long long host = count;
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(first, &host, sizeof(host), cudaMemcpyHostToDevice, stream));
  const std::size_t width = std::max(stride, limbs), total = count * width;
  // Enough blocks to fill an H100/H200 several times over; the loop takes the rest.
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((total + 255) / 256, std::size_t{1} << 15));
  repack<<<blocks, 256, 0, stream>>>(dst, stride, bits, src, count, limbs, row_stride, width, first);
  MPGPU_CHECK_LAUNCH("repack");
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(&host, first, sizeof(host), cudaMemcpyDeviceToHost, stream));
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
  return static_cast<std::size_t>(host);
}

}  // namespace mpgpu::detail::batch::cuda
