// CUDA error handling for the backend: every runtime call and every launch
// goes through MPGPU_CUDA_CHECK / MPGPU_CHECK_LAUNCH, which throw CudaError
// naming the call, the error and the place.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "mpgpu/error.hpp"

namespace mpgpu::detail::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* what, const char* file, int line) {
  std::string msg = std::string("mpgpu: CUDA error ") + cudaGetErrorName(e) + " (" +
                    cudaGetErrorString(e) + ") in " + what + " at " + file + ":" + std::to_string(line);
  if (e == cudaErrorMemoryAllocation) {
    std::size_t free_bytes = 0, total = 0;
    cudaGetLastError();
    cudaMemGetInfo(&free_bytes, &total);
    throw OutOfMemory(msg, 0, free_bytes);
  }
  throw CudaError(msg, static_cast<int>(e));
}

inline void check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) throw_cuda_error(e, what, file, line);
}

}  // namespace mpgpu::detail::cuda

#define MPGPU_CUDA_CHECK(call) ::mpgpu::detail::cuda::check((call), #call, __FILE__, __LINE__)
#define MPGPU_CHECK_LAUNCH(name) \
  ::mpgpu::detail::cuda::check(cudaGetLastError(), "launch of " name, __FILE__, __LINE__)
