// The lazy NTT pass kernels of the inverse transform, both register budgets
// (launch_block_pass_direction in block_ntt.cuh says which runs when).
#include "mpgpu/ntt/block_ntt.cuh"

namespace mpgpu::ntt {

MPGPU_BLOCK_PASS_VARIANT(false, true, 512, 1);
MPGPU_BLOCK_PASS_VARIANT(false, true, 256, 3);

}  // namespace mpgpu::ntt
