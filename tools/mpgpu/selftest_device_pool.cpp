#include "selftest_device_pool.hpp"

#if MPGPU_SELFTEST_CUDA
#include <cuda_runtime.h>
#endif

namespace mpgpu::cli::selftest {

std::optional<DevicePool> trimmed_device_pool(const Context& ctx) {
  if (!ctx.is_cuda()) return std::nullopt;
#if MPGPU_SELFTEST_CUDA
  ctx.synchronize();
  if (cudaSetDevice(ctx.device()) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  cudaMemPool_t pool = nullptr;
  if (cudaDeviceGetDefaultMemPool(&pool, ctx.device()) != cudaSuccess || cudaMemPoolTrimTo(pool, 0) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  DevicePool p;
  std::uint64_t used = 0;
  if (cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  p.used_bytes = used;
  p.free_bytes = ctx.info().free_memory;
  return p;
#else
  return std::nullopt;
#endif
}

}  // namespace mpgpu::cli::selftest
