// Host-only conversions between gfp elements and GMP integers, and the field
// inverse through GMP (mpz_invert: an extended gcd on the full 64k-bit value,
// not a native base-r algorithm). g++ only: includes gmp.h.
#pragma once

#include <gmp.h>

#include <string>

#include "mpgpu/gfp/field.cuh"
#include "mpgpu/gfp/host_errors.hpp"
#include "mpgpu/gfp/primes.hpp"
#include "mpgpu/gfp/roots.hpp"

namespace mpgpu::gfp {

/// The Field for a table prime; throws mpgpu::InvalidArgument unless
/// prime.k == Digits.
template <int Digits>
Field<Digits> make_field(const GfpPrime& prime) {
  if (prime.k != Digits)
    detail::throw_invalid_argument("gfp::make_field: prime has k = " + std::to_string(prime.k) +
                                   " digits, the field type " + std::to_string(Digits));
  return Field<Digits>{prime.radix()};
}

/// out = the value of x in [0, p) (the special case gives r^k = p - 1).
template <int Digits>
void to_mpz(mpz_ptr out, const Field<Digits>& f, const Element<Digits>& x) {
  mpz_set_ui(out, 0);
  for (int i = Digits - 1; i >= 0; --i) {  // Horner in base r
    mpz_mul_ui(out, out, f.r);
    mpz_add_ui(out, out, x.digit[i]);
  }
}

/// The canonical element for x mod p, any integer x (negative ones too).
template <int Digits>
Element<Digits> from_mpz(const Field<Digits>& f, mpz_srcptr x) {
  mpz_t p, v;
  mpz_init(p);
  mpz_init(v);
  mpz_ui_pow_ui(p, f.r, Digits);  // r^k
  mpz_add_ui(p, p, 1);
  mpz_mod(v, x, p);
  mpz_sub_ui(p, p, 1);
  Element<Digits> z{};
  if (mpz_cmp(v, p) == 0) {
    z = f.minus_one();
  } else {
    for (int i = 0; i < Digits; ++i) z.digit[i] = mpz_fdiv_q_ui(v, v, f.r);
  }
  mpz_clear(p);
  mpz_clear(v);
  return z;
}

/// x^-1 mod p through GMP's mpz_invert. Throws mpgpu::DivisionByZero for x = 0.
template <int Digits>
Element<Digits> inverse(const Field<Digits>& f, const Element<Digits>& x) {
  if (f.is_zero(x)) detail::throw_division_by_zero("gfp::inverse: 0 has no inverse mod p");
  mpz_t a, p;
  mpz_init(a);
  mpz_init(p);
  to_mpz(a, f, x);
  mpz_ui_pow_ui(p, f.r, Digits);
  mpz_add_ui(p, p, 1);
  mpz_invert(a, a, p);  // p prime and x != 0: always invertible
  const Element<Digits> z = from_mpz(f, a);
  mpz_clear(a);
  mpz_clear(p);
  return z;
}

/// The primitive N-th root of unity omega with omega^(N/2k) = r of
/// root_of_unity(), as an element.
template <int Digits>
Element<Digits> root_of_unity_element(const GfpPrime& prime, unsigned long long n) {
  const Field<Digits> f = make_field<Digits>(prime);
  mpz_t w;
  mpz_init(w);
  root_of_unity(w, prime, n);
  const Element<Digits> z = from_mpz(f, w);
  mpz_clear(w);
  return z;
}

}  // namespace mpgpu::gfp
