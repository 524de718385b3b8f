// The lazy inverse NTT pass kernel of 512 threads a block (at least 1 blocks an SM)
// (launch_block_pass_direction in block_ntt.cuh says which budget runs when).
// One kernel a file: each is large (its ptxas run is one of the longest
// steps of the build), and files compile in parallel.
#include "mpgpu/ntt/block_ntt.cuh"

namespace mpgpu::ntt {

MPGPU_BLOCK_PASS_VARIANT(false, true, 512, 1);

}  // namespace mpgpu::ntt
