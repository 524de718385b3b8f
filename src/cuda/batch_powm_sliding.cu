// Batch powm by sliding windows (mpgpu/batch/montgomery.cuh, powm_sliding).
// Each powm form has its own file, so that their kernels (one per width
// class, the longest compilations of the library) build in parallel.
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

void run_powm_sliding_windows(const Args& args, cudaStream_t stream) {
  launch_op<ModularBody, Op::powm_sliding, Scratch::full, Tuning::modular>(args, stream);
}

}  // namespace mpgpu::detail::batch::cuda
