// The canonical forward NTT pass kernel (include/mpgpu/ntt/block_ntt.cuh;
// primes >= 2^62 or without 2^32 | p - 1), compiled once for the library.
// One kernel a file: each is large (its ptxas run is one of the longest
// steps of the build), and files compile in parallel.
#include "mpgpu/ntt/block_ntt.cuh"

namespace mpgpu::ntt {

MPGPU_BLOCK_PASS_VARIANT(true, false, 512, 1);

}  // namespace mpgpu::ntt
