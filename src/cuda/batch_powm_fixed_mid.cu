// Batch powm by fixed windows (powm), the classes from kPowmMidMinWords to below kPowmWideMinWords words:
// its kernels (run_powm_part in batch_launch.cuh says why powm is split).
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

template void run_powm_part<Op::powm, kPowmMidMinWords, kPowmWideMinWords - 1>(const Args&, cudaStream_t);

}  // namespace mpgpu::detail::batch::cuda
