// Programmatic dependent launch (sm_90): a kernel launched by
// launch_dependent() may be scheduled while the kernel before it on the
// stream still runs, once every block of that kernel has called
// allow_dependent_grids() or exited. It must call wait_for_prior_grids()
// before it reads or writes anything an earlier operation touches: that
// waits until the earlier kernels have completed and their memory is
// visible. What is saved is the launch latency and the ramp-up of the next
// grid, a few percent of a 2^28-bit addition in a stream of additions
// (docs/tuning-history.md, "Result publication and searches").
// The device calls are no-ops in a kernel launched the ordinary way.
#pragma once

#if defined(__CUDACC__)
#include <cuda_runtime.h>

#include <utility>
#endif

#include "mpgpu/limb/grid_dependency.cuh"

namespace mpgpu::device {

#if defined(__CUDACC__)
__device__ __forceinline__ void wait_for_prior_grids() { limb::grid_dependency_wait(); }

__device__ __forceinline__ void allow_dependent_grids() { limb::grid_dependency_launch_dependents(); }

/// kernel<<<grid, block, 0, stream>>>(args...) with programmatic stream
/// serialization allowed; returns the launch error. Only for kernels that
/// call wait_for_prior_grids() before they touch memory. (Programmatic
/// launch is a feature of sm_90 and later, the architecture the library
/// targets.)
template <class... Params, class... Args>
cudaError_t launch_dependent(void (*kernel)(Params...), unsigned grid, unsigned block, cudaStream_t stream,
                             Args&&... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  cudaLaunchAttribute attribute[1] = {};
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}
#endif

}  // namespace mpgpu::device
