// Batch powm by fixed windows (mpgpu/batch/montgomery.cuh, powm), and the
// choice between the two forms; sliding windows are in
// batch_powm_sliding.cu. Each form has its own file, so that their kernels
// (one per width class, the longest compilations of the library) build in
// parallel.
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

void run_powm(const Args& args, cudaStream_t stream) {
  if (args.op == Op::powm_sliding) return run_powm_sliding_windows(args, stream);
  launch_op<ModularBody, Op::powm, Scratch::full, Tuning::modular>(args, stream);
}

}  // namespace mpgpu::detail::batch::cuda
