// Small GMP expressions as values, for building oracle operands in tests:
// pow_of(x, 3), plus(x, -1), times_ui(x, 7).
#pragma once

#include "support/mpz.hpp"

namespace mpgpu_test {

inline Mpz pow_of(const Mpz& base, unsigned long e) {
  Mpz r;
  mpz_pow_ui(r, base, e);
  return r;
}

inline Mpz plus(const Mpz& a, long k) {
  Mpz r;
  if (k >= 0) mpz_add_ui(r, a, static_cast<unsigned long>(k));
  else mpz_sub_ui(r, a, static_cast<unsigned long>(-k));
  return r;
}

inline Mpz times_ui(const Mpz& a, unsigned long k) {
  Mpz r;
  mpz_mul_ui(r, a, k);
  return r;
}

}  // namespace mpgpu_test
