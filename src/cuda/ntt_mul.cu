// Exact products of huge magnitudes on the device: three NTTs of 64-bit
// digits modulo three ~62-bit primes (include/mpgpu/ntt/block_ntt.cuh),
// Garner CRT per coefficient, column sums, and one scan add for the carries.
//
// Per prime: the forward transform of a reads the limbs directly (its first
// pass reduces them mod p and pads with zeros: no load kernel); the forward
// transform of b ends by multiplying into a's spectrum (Montgomery product,
// no pointwise kernel); the inverse's last pass scales by n^-1 * 2^64 (which
// also cancels the Montgomery factor) and leaves canonical residues. With N
// <= 2^25 that is 2 + 2 + 2 memory passes per prime instead of 3 + 3 + 3
// radix-2 passes plus 4 element-wise kernels.
//
// Memory (N = transform length >= na + nb, words of 8 bytes): three residue
// vectors of N, one vector of N for b's transform (reused for the column
// sums) and M+1 carry words: about 5 N words, i.e. <= 5x the output for N
// close to na + nb and <= 10x in the worst case of padding (M just above a
// power of two). Twiddle tables are small and cached in the context.
#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/scoped_memory.cuh"
#include "cuda/words.cuh"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt/block_ntt.cuh"
#include "mpgpu/ntt/crt3.cuh"
#include "mpgpu/ntt/radix2_kernels.cuh"

namespace mpgpu::detail::cuda {

// Defined in ntt_public.cu: the cached block-NTT tables of (p, log_n).
const void* ntt_block_tables(ContextState& st, Stream s, std::uint64_t p, std::uint64_t generator, int log_n);

namespace {

unsigned grid_for(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65536));
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
  ScopedDeviceMemory carries(st, s, (m + 1) * sizeof(std::uint64_t));
  std::uint64_t* x[3] = {residues.as<std::uint64_t>(), residues.as<std::uint64_t>() + n,
                         residues.as<std::uint64_t>() + 2 * n};
  std::uint64_t* y = other.as<std::uint64_t>();

  for (int i = 0; i < 3; ++i) {
    const field::NttPrime& prime = field::ntt_primes62[i];
    const field::PrimeField64 f = field::PrimeField64::make(prime.p);
    // The lazy kernels (values < 2p between stages) and the Montgomery
    // pointwise product (x y < 4p^2 < p 2^64) both need p < 2^62.
    static_assert(field::ntt_primes62[0].p < (std::uint64_t{1} << 62) &&
                  field::ntt_primes62[1].p < (std::uint64_t{1} << 62) &&
                  field::ntt_primes62[2].p < (std::uint64_t{1} << 62));
    const ntt::BlockTables tables =
        ntt::BlockTables::view(ntt_block_tables(st, s, prime.p, prime.generator, log_n), log_n);
    ntt::BlockTransform t{};
    t.batch = 1;
    t.log_n = log_n;
    t.forward = true;
    t.natural = false;  // bit-reversed spectra: the pointwise product does not care
    t.reduce_input = true;
    // x[i] = NTT(a), values in [0, 2p); squaring multiplies it by itself at the end.
    t.dst = t.work = x[i];
    t.src = a.limbs;
    t.src_len = a.size;
    t.epilogue = square ? ntt::PassEpilogue::square : ntt::PassEpilogue::lazy;
    MPGPU_CUDA_CHECK(ntt::run_block_transform(t, tables, f, s));
    if (!square) {
      // NTT(b) in y; its last pass writes x[i] = x[i] * NTT(b) / 2^64 instead.
      t.dst = x[i];
      t.work = y;
      t.src = b.limbs;
      t.src_len = b.size;
      t.epilogue = ntt::PassEpilogue::pointwise;
      t.other = x[i];
      MPGPU_CUDA_CHECK(ntt::run_block_transform(t, tables, f, s));
    }
    // Inverse; the last pass multiplies by n^-1 * 2^64 mod p: the scaling and
    // the Montgomery factor of the pointwise product at once.
    ntt::BlockTransform inv{};
    inv.dst = inv.work = x[i];
    inv.src = x[i];
    inv.src_len = n;
    inv.batch = 1;
    inv.log_n = log_n;
    inv.forward = false;
    inv.natural = false;
    inv.reduce_input = false;
    inv.epilogue = ntt::PassEpilogue::scale;
    inv.scale = f.mul(f.inv(n % prime.p), f.r1);  // r1 = 2^64 mod p (plain)
    inv.other = nullptr;
    MPGPU_CUDA_CHECK(ntt::run_block_transform(inv, tables, f, s));
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
