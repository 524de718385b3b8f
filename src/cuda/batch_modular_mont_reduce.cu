// Batch mont_reduce: its kernels, one per width class and group size (run_modular_op
// in batch_launch.cuh says why each operation has a file).
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

template void run_modular_op<Op::mont_reduce>(const Args&, cudaStream_t);

}  // namespace mpgpu::detail::batch::cuda
