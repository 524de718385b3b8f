// The dynamic shared memory a kernel may ask for above the default 48 KiB
// (cudaFuncAttributeMaxDynamicSharedMemorySize), raised and never lowered.
//
// Why: that limit is one value per kernel and device for the whole process.
// Setting it to each launch's own size made launches fail when threads
// launched one kernel with different sizes at once (one thread lowered the
// limit between another's setting and its launch: cudaErrorInvalidValue or
// cudaErrorLaunchOutOfResources; seen with the pi series' device threads).
// The limit is a permission, not an allocation: a launch still gets the
// shared memory it asks for, so raising it costs the smaller launches
// nothing. Host code of CUDA translation units (and of the host emulation
// of kernels, tests/ntt/cuda_host_shim, whose <cuda_runtime.h> stands in).
#pragma once

#if defined(__CUDACC__) || __has_include(<cuda_runtime.h>)
#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

namespace mpgpu::limb {

/// Lets `kernel` (a __global__ function's address) be launched with `bytes`
/// of dynamic shared memory on the current device. Returns the CUDA error.
inline cudaError_t allow_dynamic_smem(const void* kernel, std::size_t bytes) {
  if (bytes <= 48 * 1024) return cudaSuccess;
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return e;
  static std::mutex mutex;
  static std::map<std::pair<int, const void*>, std::size_t> allowed;  // guarded by mutex
  std::lock_guard<std::mutex> lock(mutex);
  std::size_t& limit = allowed[{device, kernel}];
  if (bytes <= limit) return cudaSuccess;
  e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
  if (e == cudaSuccess) limit = bytes;
  return e;
}

template <class... Args>
cudaError_t allow_dynamic_smem(void (*kernel)(Args...), std::size_t bytes) {
  return allow_dynamic_smem(reinterpret_cast<const void*>(kernel), bytes);
}

}  // namespace mpgpu::limb

#endif
