// The public batched NTT on 32-bit words (include/mpgpu/ntt.hpp, p < 2^32):
// up to 2^10 points a transform through the warp teams of
// include/mpgpu/ntt/team_ntt32.cuh (one read and one write of the data),
// longer transforms through the 64-bit block passes (ntt_public.cu) on a
// widened copy.
#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/scoped_memory.cuh"
#include "cuda/words.cuh"
#include "mpgpu/error.hpp"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt/team_ntt32.cuh"

namespace mpgpu::detail::cuda {

namespace {

std::size_t half_points(int log_n) { return std::size_t{1} << (log_n - 1); }

/// The stage twiddles of (p, log_n): n/2 pairs for w, then n/2 for w^-1.
/// Made once per context and cached (freed with the context).
const uint2* team_tables(ContextState& st, Stream s, std::uint32_t p, std::uint64_t generator, int log_n) {
  std::lock_guard<std::recursive_mutex> lock(st.mutex);
  const auto key = std::make_pair(std::uint64_t{p}, log_n);
  if (auto it = st.ntt_twiddles32.find(key); it != st.ntt_twiddles32.end()) return static_cast<const uint2*>(it->second);
  const std::size_t half = half_points(log_n);
  uint2* tables = nullptr;
  MPGPU_CUDA_CHECK(cudaMalloc(&tables, 2 * half * sizeof(uint2)));
  const field::PrimeField32 f = field::PrimeField32::make(p);
  const auto w = static_cast<std::uint32_t>(field::root_of_unity(p, generator, log_n));
  const unsigned blocks = static_cast<unsigned>((half + 255) / 256);
  ntt::team_ntt32_table_kernel<<<blocks, 256, 0, s>>>(tables, f, w, log_n);
  ntt::team_ntt32_table_kernel<<<blocks, 256, 0, s>>>(tables + half, f, f.inv(w), log_n);
  cudaError_t e = cudaGetLastError();
  // Later calls may come on other streams: finish the tables once, here.
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  if (e != cudaSuccess) {
    cudaFree(tables);
    MPGPU_CUDA_CHECK(e);
  }
  st.ntt_twiddles32.emplace(key, tables);
  return tables;
}

struct TeamLaunch {
  std::uint32_t* data;
  std::size_t batch;
  const uint2* table;
  field::PrimeField32 f;
  std::uint32_t scale, scale_shoup;
  bool scale_output, in_reversed, out_reversed;
  Stream s;

  template <int L>
  void run() const {
    constexpr std::size_t per_block = ntt::kTeamNtt32Warps * ntt::TeamShape32<L>::kTeamsPerWarp;
    // Blocks stride over the batch beyond 2^20 blocks.
    const auto blocks = static_cast<unsigned>(std::min<std::size_t>((batch + per_block - 1) / per_block, 1u << 20));
    const auto kernel = f.p < (1u << 31) ? ntt::team_ntt32_kernel<L, true> : ntt::team_ntt32_kernel<L, false>;
    kernel<<<blocks, ntt::kTeamNtt32Warps * 32, 0, s>>>(data, batch, table, f, scale, scale_shoup, scale_output,
                                                        in_reversed, out_reversed);
    MPGPU_CHECK_LAUNCH("team_ntt32_kernel");
  }
  void run(int log_n) const {
    switch (log_n) {
      case 1: return run<1>();
      case 2: return run<2>();
      case 3: return run<3>();
      case 4: return run<4>();
      case 5: return run<5>();
      case 6: return run<6>();
      case 7: return run<7>();
      case 8: return run<8>();
      case 9: return run<9>();
      case 10: return run<10>();
      default: throw InvalidArgument("mpgpu: team NTT of 2^" + std::to_string(log_n) + " points");  // not reached
    }
  }
};
static_assert(ntt::kTeamNtt32MaxLog == 10, "TeamLaunch::run(int) lists the lengths");

__global__ void widen_kernel(std::uint64_t* out, const std::uint32_t* in, std::size_t count) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}
__global__ void narrow_kernel(std::uint32_t* out, const std::uint64_t* in, std::size_t count) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = static_cast<std::uint32_t>(in[i]);
}

}  // namespace

void ntt_transform32(ContextState& st, Stream s, std::uint32_t* data, std::size_t batch, int log_n,
                     std::uint32_t p, std::uint64_t generator, bool forward, bool bit_reversed) {
  use_device(st.device);
  if (batch == 0 || log_n == 0) return;  // length 1: the identity
  if (log_n > ntt::kTeamNtt32MaxLog) {
    const std::size_t count = batch << log_n;
    ScopedDeviceMemory wide(st, s, count * sizeof(std::uint64_t));
    const auto blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 1u << 20));
    widen_kernel<<<blocks, 256, 0, s>>>(wide.as<std::uint64_t>(), data, count);
    MPGPU_CHECK_LAUNCH("widen_kernel");
    ntt_transform(st, s, wide.as<std::uint64_t>(), batch, log_n, p, generator, forward, bit_reversed);
    narrow_kernel<<<blocks, 256, 0, s>>>(data, wide.as<std::uint64_t>(), count);
    MPGPU_CHECK_LAUNCH("narrow_kernel");
    return;
  }
  const field::PrimeField32 f = field::PrimeField32::make(p);
  const uint2* tables = team_tables(st, s, p, generator, log_n);
  const std::uint32_t scale = forward ? 1u : f.inv(static_cast<std::uint32_t>((std::uint64_t{1} << log_n) % p));
  TeamLaunch launch{data, batch, tables + (forward ? 0 : half_points(log_n)), f, scale, f.shoup(scale),
                    !forward, !forward && bit_reversed, forward && bit_reversed, s};
  launch.run(log_n);
}

}  // namespace mpgpu::detail::cuda
