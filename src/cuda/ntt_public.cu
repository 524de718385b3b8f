// The public batched NTT on the device (include/mpgpu/ntt.hpp): canonical
// residues in, converted to Montgomery form, the radix-2 passes of the
// huge-product NTT (DIF forward: natural in, bit-reversed out; DIT inverse:
// bit-reversed in, natural out), an optional bit-reversal permutation, and
// the conversion back (the inverse folds in the 1/n scaling).
#include <algorithm>
#include <cstdint>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/words.cuh"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt/radix2_kernels.cuh"
#include "mpgpu/ntt/radix2_passes.hpp"

namespace mpgpu::detail::cuda {

namespace {

unsigned grid_for(std::size_t n) { return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65536)); }

__global__ void to_montgomery_kernel(std::uint64_t* x, field::PrimeField64 f, std::size_t len) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < len;
       i += std::size_t{gridDim.x} * blockDim.x)
    x[i] = f.to_mont(x[i]);
}

/// x[i] = x[i] * c / 2^64 mod p: with c = 1 leaves Montgomery form; with c
/// = n^-1 (plain) also scales.
__global__ void from_montgomery_kernel(std::uint64_t* x, field::PrimeField64 f, std::uint64_t c, std::size_t len) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < len;
       i += std::size_t{gridDim.x} * blockDim.x)
    x[i] = f.mont_mul(x[i], c);
}

/// Bit-reversal permutation of each 2^log_n transform, in place (each pair
/// swapped once, by the lower index).
__global__ void bit_reverse_kernel(std::uint64_t* x, int log_n, std::size_t len) {
  const std::size_t mask = (std::size_t{1} << log_n) - 1;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < len;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const std::size_t k = i & mask;
    const std::size_t j = log_n == 0 ? 0 : (__brevll(k) >> (64 - log_n));
    if (k < j) {
      const std::size_t base = i - k;
      const std::uint64_t t = x[base + k];
      x[base + k] = x[base + j];
      x[base + j] = t;
    }
  }
}

const std::uint64_t* cached_twiddles(ContextState& st, Stream s, const field::PrimeField64& f, std::uint64_t p,
                                     std::uint64_t generator, int log_n) {
  std::lock_guard<std::recursive_mutex> lock(st.mutex);
  auto key = std::make_pair(p, log_n);
  auto it = st.ntt_twiddles.find(key);
  if (it != st.ntt_twiddles.end()) return it->second;
  const std::size_t half = std::max<std::size_t>((std::size_t{1} << log_n) / 2, 1);
  std::uint64_t* tw = nullptr;
  MPGPU_CUDA_CHECK(cudaMalloc(&tw, half * sizeof(std::uint64_t)));
  const std::uint64_t w = field::root_of_unity(p, generator, log_n);
  ntt::twiddle_kernel<<<static_cast<unsigned>((half / 64 + 255) / 256 + 1), 256, 0, s>>>(tw, f, w, half);
  MPGPU_CHECK_LAUNCH("twiddle_kernel");
  // Later calls may come on other streams: finish the table once, here.
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(s));
  st.ntt_twiddles.emplace(key, tw);
  return tw;
}

void run_passes(std::uint64_t* x, std::size_t batch, const field::PrimeField64& f, const std::uint64_t* tw,
                int log_n, bool forward, cudaStream_t s) {
  auto passes = ntt::forward_passes(log_n);
  if (!forward) std::reverse(passes.begin(), passes.end());
  for (std::size_t first = 0; first < batch; first += 65535) {  // gridDim.y limit
    const unsigned count = static_cast<unsigned>(std::min<std::size_t>(batch - first, 65535));
    std::uint64_t* base = x + (first << log_n);
    for (const ntt::Radix2Pass& pass : passes) {
      const int log_s = pass.hi - pass.k + 1;
      const int log_groups = log_n - pass.k;
      const int log_c = std::min({ntt::kPassLogElements - pass.k, log_s, log_groups});
      const dim3 grid(1u << (log_groups - log_c), count);
      if (forward)
        ntt::radix2_pass_kernel<true><<<grid, ntt::kPassThreads, 0, s>>>(base, f, tw, log_n, pass.hi, pass.k, log_c);
      else
        ntt::radix2_pass_kernel<false><<<grid, ntt::kPassThreads, 0, s>>>(base, f, tw, log_n, pass.hi, pass.k, log_c);
      MPGPU_CHECK_LAUNCH("radix2_pass_kernel");
    }
  }
}

}  // namespace

void ntt_transform(ContextState& st, Stream s, std::uint64_t* data, std::size_t batch, int log_n, std::uint64_t p,
                   std::uint64_t generator, bool forward, bool bit_reversed) {
  use_device(st.device);
  if (batch == 0) return;
  const std::size_t len = batch << log_n;
  const field::PrimeField64 f = field::PrimeField64::make(p);
  if (log_n == 0) return;  // length 1: the transform is the identity
  const std::uint64_t* tw = cached_twiddles(st, s, f, p, generator, log_n);
  to_montgomery_kernel<<<grid_for(len), 256, 0, s>>>(data, f, len);
  MPGPU_CHECK_LAUNCH("to_montgomery_kernel");
  if (!forward && !bit_reversed) {
    bit_reverse_kernel<<<grid_for(len), 256, 0, s>>>(data, log_n, len);
    MPGPU_CHECK_LAUNCH("bit_reverse_kernel");
  }
  run_passes(data, batch, f, tw, log_n, forward, s);
  if (forward && !bit_reversed) {
    bit_reverse_kernel<<<grid_for(len), 256, 0, s>>>(data, log_n, len);
    MPGPU_CHECK_LAUNCH("bit_reverse_kernel");
  }
  const std::uint64_t scale = forward ? 1 : f.inv((std::size_t{1} << log_n) % p);
  from_montgomery_kernel<<<grid_for(len), 256, 0, s>>>(data, f, scale, len);
  MPGPU_CHECK_LAUNCH("from_montgomery_kernel");
}

}  // namespace mpgpu::detail::cuda
