// The lazy inverse NTT pass kernels specialized for one tile shape
// (block_pass_fixed_kernel; launch_block_pass_direction in block_ntt.cuh
// says which run when).
#include "mpgpu/ntt/block_ntt.cuh"

namespace mpgpu::ntt {

MPGPU_BLOCK_PASS_FIXED(false, 6);
MPGPU_BLOCK_PASS_FIXED(false, 7);
MPGPU_BLOCK_PASS_FIXED(false, 10);
MPGPU_BLOCK_PASS_FIXED(false, 12);

}  // namespace mpgpu::ntt
