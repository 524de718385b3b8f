// Batch powm by sliding windows (mpgpu/batch/montgomery.cuh, powm_sliding):
// its own file, so that its kernels (one per width class) compile in
// parallel with batch_modular.cu's.
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

void run_powm_sliding(const Args& args, cudaStream_t stream) {
  launch_op<ModularBody, Op::powm_sliding, Scratch::full>(args, stream);
}

}  // namespace mpgpu::detail::batch::cuda
