// Batch::to_integers' kernels: each instance's size and sign (a warp an
// instance), then every instance's magnitude into the buffer of its own
// Integer (a warp an instance, a limb a lane at a time: coalesced).
#include <algorithm>
#include <vector>

#include "batch/batch_backend.hpp"
#include "cuda/check.cuh"
#include "scoped_memory.cuh"

namespace mpgpu::detail::batch::cuda {

namespace {

constexpr unsigned kWarpsPerBlock = 8;

unsigned blocks_for(std::size_t count) {
  return static_cast<unsigned>(
      std::min<std::size_t>((count + kWarpsPerBlock - 1) / kWarpsPerBlock, std::size_t{1} << 16));
}

/// The mask of limb j's bits within the width (all but the top limb: all).
__device__ limb_t width_mask(std::size_t j, std::size_t bits) {
  return (j + 1 == (bits + 63) / 64 && bits % 64) ? (limb_t{1} << (bits % 64)) - 1 : ~limb_t{0};
}

/// For a non-negative x: the magnitude's limbs are the lowest up to the
/// highest nonzero one. For a negative x (-x = ~x + 1 within the width):
/// limbs below the lowest nonzero one, j, are zero in -x, limb j is -x_j
/// (nonzero), and limb i > j is ~x_i; so the size is one past the larger of
/// j and the highest limb whose complement (within the width) is nonzero:
/// that highest limb is below j only when every limb above j is all ones.
__global__ void records(const limb_t* a, std::size_t count, std::size_t stride, std::size_t bits, bool twos,
                        std::uint64_t* out) {
  const unsigned lane = threadIdx.x % 32;
  const std::size_t limbs = (bits + 63) / 64;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(kWarpsPerBlock) + threadIdx.x / 32; i < count;
       i += static_cast<std::size_t>(gridDim.x) * kWarpsPerBlock) {
    const limb_t* x = a + i * stride;
    const bool negative = twos && ((x[limbs - 1] >> ((bits - 1) % 64)) & 1);
    long long high = -1, low = static_cast<long long>(limbs), high_complement = -1;
    for (std::size_t j = lane; j < limbs; j += 32) {
      const limb_t v = x[j];
      if (v) {
        high = static_cast<long long>(j);
        low = std::min(low, static_cast<long long>(j));
      }
      if (~v & width_mask(j, bits)) high_complement = static_cast<long long>(j);
    }
    for (unsigned o = 16; o; o >>= 1) {
      high = max(high, __shfl_xor_sync(0xffffffffu, high, o));
      low = min(low, __shfl_xor_sync(0xffffffffu, low, o));
      high_complement = max(high_complement, __shfl_xor_sync(0xffffffffu, high_complement, o));
    }
    if (lane == 0) {
      const long long top = negative ? max(low, high_complement) : high;
      out[i] = instance_record(static_cast<std::size_t>(top + 1), static_cast<std::size_t>(low < 0 ? 0 : low),
                               negative);
    }
  }
}

__global__ void magnitudes(const limb_t* a, std::size_t count, std::size_t stride, std::size_t bits,
                           const std::uint64_t* recs, limb_t* const* dst) {
  const unsigned lane = threadIdx.x % 32;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(kWarpsPerBlock) + threadIdx.x / 32; i < count;
       i += static_cast<std::size_t>(gridDim.x) * kWarpsPerBlock) {
    const limb_t* x = a + i * stride;
    const std::uint64_t r = recs[i];
    const std::size_t size = instance_record_size(r), low = instance_record_low(r);
    const bool negative = instance_record_negative(r);
    limb_t* out = dst[i];
    for (std::size_t j = lane; j < size; j += 32) {
      const limb_t v = x[j];
      out[j] = !negative ? v : j < low ? 0 : j == low ? (~v + 1) & width_mask(j, bits) : ~v & width_mask(j, bits);
    }
  }
}

}  // namespace

void instance_records(ContextState& st, Stream stream, const limb_t* a, std::size_t count, std::size_t stride,
                      std::size_t bits, bool twos_complement, std::uint64_t* host_records) {
  if (count == 0) return;
  mpgpu::detail::cuda::ScopedDeviceMemory recs(st, stream, count * sizeof(std::uint64_t));
  records<<<blocks_for(count), 32 * kWarpsPerBlock, 0, stream>>>(a, count, stride, bits, twos_complement,
                                                                  recs.as<std::uint64_t>());
  MPGPU_CHECK_LAUNCH("instance records");
  MPGPU_CUDA_CHECK(
      cudaMemcpyAsync(host_records, recs.p, count * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream));
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void write_magnitudes(ContextState& st, Stream stream, const limb_t* a, std::size_t count, std::size_t stride,
                      std::size_t bits, const std::uint64_t* host_records, limb_t* const* dst) {
  if (count == 0) return;
  // One upload: the records, then the pointers.
  mpgpu::detail::cuda::ScopedDeviceMemory tables(st, stream, 2 * count * sizeof(std::uint64_t));
  std::vector<std::uint64_t> image(2 * count);
  std::copy(host_records, host_records + count, image.begin());
  for (std::size_t i = 0; i < count; ++i) image[count + i] = reinterpret_cast<std::uint64_t>(dst[i]);
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(tables.p, image.data(), image.size() * sizeof(std::uint64_t),
                                   cudaMemcpyHostToDevice, stream));
  const auto* recs = tables.as<std::uint64_t>();
  magnitudes<<<blocks_for(count), 32 * kWarpsPerBlock, 0, stream>>>(a, count, stride, bits, recs,
                                                                     reinterpret_cast<limb_t* const*>(recs + count));
  MPGPU_CHECK_LAUNCH("instance magnitudes");
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace mpgpu::detail::batch::cuda
