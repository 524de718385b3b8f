// Small GMP expressions as values, for building oracle operands in tests:
// pow_of(x, 3), plus(x, -1), times_ui(x, 7), product(x, y), fib(n).
#pragma once

#include <cstddef>

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

inline Mpz product(const Mpz& a, const Mpz& b) {
  Mpz r;
  mpz_mul(r, a, b);
  return r;
}

inline Mpz fib(unsigned long n) {
  Mpz r;
  mpz_fib_ui(r, n);
  return r;
}

/// The smallest n with F(n) of at least `limbs` limbs (F(n) ~ phi^n / sqrt 5):
/// consecutive Fibonacci numbers are the gcd's worst case.
inline unsigned long fib_index_for_limbs(std::size_t limbs) {
  unsigned long n = static_cast<unsigned long>(static_cast<double>(limbs) * 64 / 0.6942419136);
  while (n > 2 && fib(n - 1).limbs() >= limbs) --n;
  while (fib(n).limbs() < limbs) ++n;
  return n;
}

}  // namespace mpgpu_test
