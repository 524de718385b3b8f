// The lazy forward NTT pass kernel of 256 threads a block (at least 3 blocks an SM)
// (launch_block_pass_direction in block_ntt.cuh says which budget runs when).
// One kernel a file: each is large (its ptxas run is one of the longest
// steps of the build), and files compile in parallel.
#include "mpgpu/ntt/block_ntt.cuh"

namespace mpgpu::ntt {

MPGPU_BLOCK_PASS_VARIANT(true, true, 256, 3);

}  // namespace mpgpu::ntt
