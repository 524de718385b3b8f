// The canonical NTT pass kernels (include/mpgpu/ntt/block_ntt.cuh; primes
// >= 2^62 or without 2^32 | p - 1), compiled once for the library; the lazy
// ones are in ntt_block_pass_{forward,inverse}.cu.
#include "mpgpu/ntt/block_ntt.cuh"

namespace mpgpu::ntt {

MPGPU_BLOCK_PASS_VARIANT(true, false, 512, 1);
MPGPU_BLOCK_PASS_VARIANT(false, false, 512, 1);

}  // namespace mpgpu::ntt
