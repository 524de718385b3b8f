// Exact products of huge magnitudes on the device: three NTTs of 64-bit
// digits modulo three ~62-bit primes (include/mpgpu/ntt/radix2_kernels.cuh),
// Garner CRT per coefficient, column sums, and one scan add for the carries.
//
// Memory (N = transform length >= na + nb, words of 8 bytes): three residue
// vectors of N, one operand vector of N (reused for the column sums), N/2
// twiddles and M+1 carry words: about 5.5 N words, i.e. <= 5.5x the output
// for N close to na + nb and <= 11x in the worst case of padding (M just
// above a power of two).
#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/scoped_memory.cuh"
#include "cuda/words.cuh"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt/radix2_kernels.cuh"
#include "mpgpu/ntt/radix2_passes.hpp"

namespace mpgpu::detail::cuda {

namespace {

unsigned grid_for(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65536));
}

void run_passes(std::uint64_t* x, const field::PrimeField64& f, const std::uint64_t* tw, int log_n, bool forward,
                cudaStream_t s) {
  auto passes = ntt::forward_passes(log_n);
  if (!forward) std::reverse(passes.begin(), passes.end());
  for (const ntt::Radix2Pass& pass : passes) {
    const int log_s = pass.hi - pass.k + 1;
    const int log_groups = log_n - pass.k;
    const int log_c = std::min({ntt::kPassLogElements - pass.k, log_s, log_groups});
    const unsigned blocks = 1u << (log_groups - log_c);
    if (forward)
      ntt::radix2_pass_kernel<true><<<blocks, ntt::kPassThreads, 0, s>>>(x, f, tw, log_n, pass.hi, pass.k, log_c);
    else
      ntt::radix2_pass_kernel<false><<<blocks, ntt::kPassThreads, 0, s>>>(x, f, tw, log_n, pass.hi, pass.k, log_c);
    MPGPU_CHECK_LAUNCH("radix2_pass_kernel");
  }
}

}  // namespace

Pending mul_abs(ContextState& st, Stream s, limb_t* r, Operand a, Operand b) {
  use_device(st.device);
  const bool square = a.limbs == b.limbs && a.size == b.size;
  const std::size_t m = a.size + b.size;
  int log_n = 1;
  while ((std::size_t{1} << log_n) < m) ++log_n;
  const int max_log = std::min({field::ntt_primes62[0].n, field::ntt_primes62[1].n, field::ntt_primes62[2].n});
  if (log_n > max_log || log_n > 40)
    throw Overflow("mpgpu::mul: a product of " + std::to_string(m) + " limbs exceeds the NTT length limit");
  const std::size_t n = std::size_t{1} << log_n;

  ScopedDeviceMemory residues(st, s, 3 * n * sizeof(std::uint64_t));
  ScopedDeviceMemory other(st, s, n * sizeof(std::uint64_t));
  ScopedDeviceMemory twiddles(st, s, (n / 2) * sizeof(std::uint64_t));
  ScopedDeviceMemory carries(st, s, (m + 1) * sizeof(std::uint64_t));
  std::uint64_t* x[3] = {residues.as<std::uint64_t>(), residues.as<std::uint64_t>() + n,
                         residues.as<std::uint64_t>() + 2 * n};
  std::uint64_t* y = other.as<std::uint64_t>();
  std::uint64_t* tw = twiddles.as<std::uint64_t>();

  for (int i = 0; i < 3; ++i) {
    const field::NttPrime& prime = field::ntt_primes62[i];
    const field::PrimeField64 f = field::PrimeField64::make(prime.p);
    const std::uint64_t w = field::root_of_unity(prime.p, prime.generator, log_n);
    const std::size_t half = n / 2;
    ntt::twiddle_kernel<<<static_cast<unsigned>((half / 64 + 255) / 256 + 1), 256, 0, s>>>(tw, f, w, half);
    MPGPU_CHECK_LAUNCH("twiddle_kernel");
    ntt::load_operand_kernel<<<grid_for(n), 256, 0, s>>>(x[i], f, a.limbs, a.size, n);
    MPGPU_CHECK_LAUNCH("load_operand_kernel");
    run_passes(x[i], f, tw, log_n, true, s);
    if (square) {
      ntt::pointwise_kernel<<<grid_for(n), 256, 0, s>>>(x[i], x[i], f, n);
    } else {
      ntt::load_operand_kernel<<<grid_for(n), 256, 0, s>>>(y, f, b.limbs, b.size, n);
      MPGPU_CHECK_LAUNCH("load_operand_kernel");
      run_passes(y, f, tw, log_n, true, s);
      ntt::pointwise_kernel<<<grid_for(n), 256, 0, s>>>(x[i], y, f, n);
    }
    MPGPU_CHECK_LAUNCH("pointwise_kernel");
    run_passes(x[i], f, tw, log_n, false, s);
    const std::uint64_t n_inv = f.inv(n % prime.p);
    ntt::scale_kernel<<<grid_for(n), 256, 0, s>>>(x[i], f, n_inv, m);
    MPGPU_CHECK_LAUNCH("scale_kernel");
  }
  const ntt::Crt3 crt =
      ntt::Crt3::make(field::ntt_primes62[0].p, field::ntt_primes62[1].p, field::ntt_primes62[2].p);
  ntt::crt_kernel<<<grid_for(m), 256, 0, s>>>(x[0], x[1], x[2], crt, m);
  MPGPU_CHECK_LAUNCH("crt_kernel");
  std::uint64_t* lo = y;
  std::uint64_t* carry = carries.as<std::uint64_t>();
  ntt::column_kernel<<<grid_for(m), 256, 0, s>>>(lo, carry, x[0], x[1], x[2], m);
  MPGPU_CHECK_LAUNCH("column_kernel");
  // r = carry (m + 1 limbs) + lo (m limbs); neither need be normalized.
  return add_abs(st, s, r, {carry, m + 1}, {lo, m});
}

}  // namespace mpgpu::detail::cuda
