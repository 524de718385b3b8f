// The two PTX instructions of programmatic dependent launch (sm_90,
// griddepcontrol): what device/dependent_launch.cuh builds on. Device code
// only; on older architectures both are no-ops.
#pragma once

namespace mpgpu::limb {

#if defined(__CUDACC__)
/// Waits until the grids this one depends on have completed and their
/// memory is visible (griddepcontrol.wait); returns at once in a kernel
/// launched the ordinary way.
__device__ __forceinline__ void grid_dependency_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Lets the dependent grid be scheduled once every block of this one has
/// called this or exited (griddepcontrol.launch_dependents).
__device__ __forceinline__ void grid_dependency_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
#endif

}  // namespace mpgpu::limb
