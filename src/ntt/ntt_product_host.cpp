// Host twin of src/cuda/ntt_mul.cu; see include/mpgpu/ntt/product_host.hpp.
#include <gmp.h>

#include <algorithm>
#include <string>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt/crt3.cuh"
#include "mpgpu/ntt/crt_many.cuh"
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

/// Digit j of x (limbs j d .. j d + d - 1, zero past n) mod p, in Montgomery form.
std::uint64_t digit_mont(const Field& f, const limb_t* x, std::size_t n, std::size_t j, int d) {
  std::uint64_t v = 0, r = 1;  // r = 2^(64 t) mod p
  for (int t = 0; t < d; ++t, r = f.mul(r, f.r1))
    if (j * d + t < n) v = f.add(v, f.mul(x[j * d + t] % f.p, r));
  return f.to_mont(v);
}

/// The product's coefficients (of d-limb digits, 2^log_n of them) mod prime.
std::vector<std::uint64_t> residues_mod(const field::NttPrime& prime, const limb_t* a, std::size_t na,
                                        const limb_t* b, std::size_t nb, int d, int log_n) {
  const Field f = Field::make(prime.p);
  const std::size_t n = std::size_t{1} << log_n;
  const std::uint64_t w = field::root_of_unity(prime.p, prime.generator, log_n);
  std::vector<std::uint64_t> tw(n / 2);
  std::uint64_t cur = f.r1;
  const std::uint64_t w_mont = f.to_mont(w);
  for (auto& t : tw) {
    t = cur;
    cur = f.mont_mul(cur, w_mont);
  }
  std::vector<std::uint64_t> x(n, 0), y(n, 0);
  for (std::size_t j = 0; j * d < na; ++j) x[j] = digit_mont(f, a, na, j, d);
  for (std::size_t j = 0; j * d < nb; ++j) y[j] = digit_mont(f, b, nb, j, d);
  forward(x, f, tw, log_n);
  forward(y, f, tw, log_n);
  for (std::size_t j = 0; j < n; ++j) x[j] = f.mont_mul(x[j], y[j]);
  inverse(x, f, tw, log_n);
  const std::uint64_t n_inv = f.inv(n % prime.p);
  for (std::size_t j = 0; j < n; ++j) x[j] = f.mont_mul(x[j], n_inv);
  return x;
}

/// Garner over kP primes and the column sums of ntt_mul_digits.cu: limb L
/// is the sum of limb t of c_j, t = L - d j in {L mod d, + d, + 2d}.
template <int kP, int kD>
void digits_columns(const std::vector<std::uint64_t>* residues, std::size_t count, std::vector<limb_t>& lo,
                    std::vector<limb_t>& carry) {
  const CrtMany<kP> crt = CrtMany<kP>::make();
  std::vector<std::uint64_t> c(count * (2 * kD + 1));
  for (std::size_t j = 0; j < count; ++j) {
    std::uint64_t r[kP], limbs[2 * kD + 1];
    for (int i = 0; i < kP; ++i) r[i] = residues[i][j];
    crt.template combine<2 * kD + 1>(r, limbs);
    std::copy(limbs, limbs + 2 * kD + 1, c.begin() + j * (2 * kD + 1));
  }
  for (std::size_t l = 0; l < lo.size(); ++l) {
    std::uint64_t s = 0, h = 0;
    for (std::size_t t = l % kD; t <= 2 * kD && t <= l; t += kD) {
      const std::size_t j = (l - t) / kD;
      if (j < count) h += limb::add_with_carry(s, c[j * (2 * kD + 1) + t], 0, s);
    }
    lo[l] = s;
    carry[l + 1] = h;
  }
}

}  // namespace

std::vector<limb_t> multiply_host(const limb_t* a, std::size_t na, const limb_t* b, std::size_t nb,
                                  int digit_limbs) {
  const std::size_t m = na + nb;
  std::vector<limb_t> out(m, 0);
  if (na == 0 || nb == 0) return out;
  const int d = digit_limbs;
  if (d != 1 && d != 2 && d != 4)
    throw InvalidArgument("mpgpu::ntt::multiply_host: digits of " + std::to_string(d) + " limbs (1, 2 or 4)");
  const std::size_t da = (na + d - 1) / d, db = (nb + d - 1) / d, count = da + db;
  int log_n = 1;
  while ((std::size_t{1} << log_n) < count) ++log_n;
  if (log_n > 40) throw Overflow("mpgpu::ntt::multiply_host: product of " + std::to_string(m) + " limbs is too long");
  const int primes = d == 1 ? 3 : digits_primes(d, std::min(da, db));
  if (primes != 2 * d + 1) throw Overflow("mpgpu::ntt::multiply_host: no CRT set for this product");
  std::vector<std::uint64_t> residues[kCrtMaxPrimes];
  for (int i = 0; i < primes; ++i) residues[i] = residues_mod(field::ntt_primes62[i], a, na, b, nb, d, log_n);
  std::vector<limb_t> lo(m), carry(m + 1, 0);
  if (d == 2) digits_columns<5, 2>(residues, count, lo, carry);
  if (d == 4) digits_columns<9, 4>(residues, count, lo, carry);
  if (d == 1) {
    const Crt3 crt = Crt3::make(field::ntt_primes62[0].p, field::ntt_primes62[1].p, field::ntt_primes62[2].p);
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
  }
  // out = lo + carry; the true product fits in m limbs, so the top carry limb is 0.
  mpn_add(reinterpret_cast<mp_ptr>(out.data()), reinterpret_cast<const mp_limb_t*>(lo.data()),
          static_cast<mp_size_t>(m), reinterpret_cast<const mp_limb_t*>(carry.data()), static_cast<mp_size_t>(m));
  return out;
}

}  // namespace mpgpu::ntt
