// Host twin of src/cuda/ntt_mul.cu; see include/mpgpu/ntt/product_host.hpp.
#include <gmp.h>

#include <string>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt/crt3.cuh"
#include "mpgpu/ntt/product_host.hpp"

namespace mpgpu::ntt {

namespace {

using Field = field::PrimeField64;

/// Forward DIF (natural in, bit-reversed out), Montgomery values.
void forward(std::vector<std::uint64_t>& x, const Field& f, const std::vector<std::uint64_t>& tw, int log_n) {
  const std::size_t n = x.size();
  for (int log_h = log_n - 1; log_h >= 0; --log_h) {
    const std::size_t h = std::size_t{1} << log_h;
    for (std::size_t base = 0; base < n; base += 2 * h)
      for (std::size_t j = 0; j < h; ++j) {
        const std::uint64_t u = x[base + j], v = x[base + j + h];
        x[base + j] = f.add(u, v);
        x[base + j + h] = f.mont_mul(f.sub(u, v), tw[j << (log_n - 1 - log_h)]);
      }
  }
}

/// Inverse DIT (bit-reversed in, natural out), unscaled; w^-e = -w^(n/2-e).
void inverse(std::vector<std::uint64_t>& x, const Field& f, const std::vector<std::uint64_t>& tw, int log_n) {
  const std::size_t n = x.size();
  for (int log_h = 0; log_h < log_n; ++log_h) {
    const std::size_t h = std::size_t{1} << log_h;
    for (std::size_t base = 0; base < n; base += 2 * h)
      for (std::size_t j = 0; j < h; ++j) {
        const std::size_t e = j << (log_n - 1 - log_h);
        const std::uint64_t w = e == 0 ? f.r1 : f.neg(tw[n / 2 - e]);
        const std::uint64_t u = x[base + j], v = f.mont_mul(x[base + j + h], w);
        x[base + j] = f.add(u, v);
        x[base + j + h] = f.sub(u, v);
      }
  }
}

}  // namespace

std::vector<limb_t> multiply_host(const limb_t* a, std::size_t na, const limb_t* b, std::size_t nb) {
  const std::size_t m = na + nb;
  std::vector<limb_t> out(m, 0);
  if (na == 0 || nb == 0) return out;
  int log_n = 1;
  while ((std::size_t{1} << log_n) < m) ++log_n;
  if (log_n > 40) throw Overflow("mpgpu::ntt::multiply_host: product of " + std::to_string(m) + " limbs is too long");
  const std::size_t n = std::size_t{1} << log_n;
  std::vector<std::uint64_t> residues[3];
  for (int i = 0; i < 3; ++i) {
    const field::NttPrime& prime = field::ntt_primes62[i];
    const Field f = Field::make(prime.p);
    const std::uint64_t w = field::root_of_unity(prime.p, prime.generator, log_n);
    std::vector<std::uint64_t> tw(n / 2);
    std::uint64_t cur = f.r1;
    const std::uint64_t w_mont = f.to_mont(w);
    for (auto& t : tw) {
      t = cur;
      cur = f.mont_mul(cur, w_mont);
    }
    std::vector<std::uint64_t> x(n, 0), y(n, 0);
    for (std::size_t j = 0; j < na; ++j) x[j] = f.to_mont(a[j]);
    for (std::size_t j = 0; j < nb; ++j) y[j] = f.to_mont(b[j]);
    forward(x, f, tw, log_n);
    forward(y, f, tw, log_n);
    for (std::size_t j = 0; j < n; ++j) x[j] = f.mont_mul(x[j], y[j]);
    inverse(x, f, tw, log_n);
    const std::uint64_t n_inv = f.inv(n % prime.p);
    for (std::size_t j = 0; j < m; ++j) x[j] = f.mont_mul(x[j], n_inv);
    residues[i] = std::move(x);
  }
  const Crt3 crt = Crt3::make(field::ntt_primes62[0].p, field::ntt_primes62[1].p, field::ntt_primes62[2].p);
  std::vector<limb_t> lo(m), carry(m + 1, 0);
  std::vector<std::uint64_t> c0(m), c1(m), c2(m);
  for (std::size_t j = 0; j < m; ++j) {
    std::uint64_t c[3];
    crt.combine(residues[0][j], residues[1][j], residues[2][j], c);
    c0[j] = c[0];
    c1[j] = c[1];
    c2[j] = c[2];
  }
  for (std::size_t j = 0; j < m; ++j) {  // the column sums of column_kernel
    std::uint64_t s = c0[j], h = 0;
    if (j >= 1) h += limb::add_with_carry(s, c1[j - 1], 0, s);
    if (j >= 2) h += limb::add_with_carry(s, c2[j - 2], 0, s);
    lo[j] = s;
    carry[j + 1] = h;
  }
  // out = lo + carry; the true product fits in m limbs, so the top carry limb is 0.
  mpn_add(reinterpret_cast<mp_ptr>(out.data()), reinterpret_cast<const mp_limb_t*>(lo.data()),
          static_cast<mp_size_t>(m), reinterpret_cast<const mp_limb_t*>(carry.data()), static_cast<mp_size_t>(m));
  return out;
}

}  // namespace mpgpu::ntt
