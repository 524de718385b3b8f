// The lazy NTT pass kernels of the forward transform, both register budgets
// (launch_block_pass_direction in block_ntt.cuh says which runs when).
#include "mpgpu/ntt/block_ntt.cuh"

namespace mpgpu::ntt {

MPGPU_BLOCK_PASS_VARIANT(true, true, 512, 1);
MPGPU_BLOCK_PASS_VARIANT(true, true, 256, 3);

}  // namespace mpgpu::ntt
