// The pipelined NTT pass kernels (block_pass_pipelined_kernel in
// block_ntt.cuh: persistent blocks, double-buffered tiles), both directions;
// block_pass_shape says when they run.
#include "mpgpu/ntt/block_ntt.cuh"

namespace mpgpu::ntt {

MPGPU_BLOCK_PASS_VARIANT(true, true, 256, 3, true);
MPGPU_BLOCK_PASS_VARIANT(false, true, 256, 3, true);

}  // namespace mpgpu::ntt
