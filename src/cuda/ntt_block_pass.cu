// The launches of the NTT pass kernel (include/mpgpu/ntt/block_ntt.cuh),
// compiled once here rather than in every translation unit that runs a
// transform.
#include <cstdlib>

#include "mpgpu/ntt/block_ntt.cuh"

namespace mpgpu::ntt {

namespace {

/// Launches one pass of the kernel variant <kForward, kLazy, kThreads, kMinBlocks>.
template <bool kForward, bool kLazy, int kThreads, int kMinBlocks>
cudaError_t launch_variant(const BlockPassArgs& args, dim3 grid, unsigned threads, std::size_t smem, cudaStream_t s) {
  const void* fn = reinterpret_cast<const void*>(&block_pass_kernel<kForward, kLazy, kThreads, kMinBlocks>);
  if (smem > 48 * 1024) {
    // Per device and function; cheap enough to repeat on every launch.
    const cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  block_pass_kernel<kForward, kLazy, kThreads, kMinBlocks><<<grid, threads, smem, s>>>(args);
  return cudaGetLastError();
}

/// EXPERIMENT: blocks per SM the register budget is cut for (MPGPU_NTT_MIN_BLOCKS).
int min_blocks_knob() {
  const char* v = std::getenv("MPGPU_NTT_MIN_BLOCKS");
  return v ? std::atoi(v) : 0;
}

template <bool kForward, bool kLazy>
cudaError_t launch_sized(const BlockPassArgs& args, dim3 grid, unsigned threads, std::size_t smem, cudaStream_t s) {
  if constexpr (kLazy) {
    if (min_blocks_knob() == 3) {
      if (threads > 256) return launch_variant<kForward, kLazy, 512, 1>(args, grid, threads, smem, s);
      if (threads > 128) return launch_variant<kForward, kLazy, 256, 3>(args, grid, threads, smem, s);
      return launch_variant<kForward, kLazy, 128, 6>(args, grid, threads, smem, s);
    }
  }
  return launch_variant<kForward, kLazy, 512, 1>(args, grid, threads, smem, s);
}

}  // namespace

cudaError_t launch_block_pass(bool forward, bool lazy, const BlockPassArgs& args, cudaStream_t s) {
  const int tile_log = args.k + args.log_c;
  const unsigned threads = tile_log > kBlockPerThreadLog ? 1u << (tile_log - kBlockPerThreadLog) : 1u;
  const std::size_t smem = block_smem_bytes(tile_log);
  const std::uint64_t blocks = (args.total_groups + (std::uint64_t{1} << args.log_c) - 1) >> args.log_c;
  if (blocks > 0x7fffffffu) return cudaErrorInvalidConfiguration;
  const dim3 grid(static_cast<unsigned>(blocks));
  if (forward) {
    return lazy ? launch_sized<true, true>(args, grid, threads, smem, s)
                : launch_sized<true, false>(args, grid, threads, smem, s);
  }
  return lazy ? launch_sized<false, true>(args, grid, threads, smem, s)
              : launch_sized<false, false>(args, grid, threads, smem, s);
}

}  // namespace mpgpu::ntt
