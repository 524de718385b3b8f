// Root of unity search for p = r^k + 1 (see mpgpu/gfp/roots.hpp), and the
// out-of-line throws of the gfp/ host headers (mpgpu/gfp/host_errors.hpp).
#include "mpgpu/gfp/roots.hpp"

#include <string>

#include "mpgpu/error.hpp"
#include "mpgpu/gfp/host_errors.hpp"

namespace mpgpu::gfp {

void modulus(mpz_ptr out, const GfpPrime& prime) {
  mpz_ui_pow_ui(out, prime.radix(), static_cast<unsigned long>(prime.k));
  mpz_add_ui(out, out, 1);
}

void root_of_unity(mpz_ptr omega, const GfpPrime& prime, unsigned long long n) {
  const unsigned long long big_k = static_cast<unsigned long long>(prime.base_dft_size());
  const bool power_of_two = n != 0 && (n & (n - 1)) == 0;
  if (!power_of_two || n < big_k || __builtin_ctzll(n) > prime.two_adicity())
    throw InvalidArgument("gfp::root_of_unity: N = " + std::to_string(n) +
                          " must be a power of two with 2k = " + std::to_string(big_k) +
                          " <= N <= 2^" + std::to_string(prime.two_adicity()));
  mpz_t p, q, g, t, alpha, beta, r;
  mpz_inits(p, q, g, t, alpha, beta, r, nullptr);
  modulus(p, prime);
  mpz_set_ui(r, prime.radix());
  mpz_sub_ui(q, p, 1);
  mpz_divexact_ui(q, q, n);  // p - 1 = q N
  // g = alpha^q has order dividing N; it is exactly N iff g^(N/2) != 1
  // (then g^(N/2) = -1). Half of all alpha qualify (the non-residues).
  for (unsigned long a = 2;; ++a) {
    mpz_set_ui(alpha, a);
    mpz_powm(g, alpha, q, p);
    mpz_powm_ui(t, g, n / 2, p);
    if (mpz_cmp_ui(t, 1) != 0) break;
  }
  // Algorithm 1: alpha = g^(N/K) is a primitive K-th root, so r = alpha^j for
  // exactly one j in [1, K), and j is odd (r is primitive too): omega = g^j
  // is then a primitive N-th root with omega^(N/K) = alpha^j = r.
  mpz_powm_ui(alpha, g, n / big_k, p);
  mpz_set(beta, alpha);
  unsigned long j = 1;
  while (mpz_cmp(beta, r) != 0) {
    mpz_mul(beta, beta, alpha);
    mpz_mod(beta, beta, p);
    if (++j > big_k) throw InvalidArgument("gfp::root_of_unity: r is not a power of g^(N/K)");
  }
  mpz_powm_ui(omega, g, j, p);
  mpz_clears(p, q, g, t, alpha, beta, r, nullptr);
}

namespace detail {

void throw_invalid_argument(const std::string& what) { throw InvalidArgument(what); }
void throw_division_by_zero(const std::string& what) { throw DivisionByZero(what); }

}  // namespace detail

}  // namespace mpgpu::gfp
