// Comparing an mpgpu::Integer with its GMP oracle value. `matches` checks the
// value and every invariant the API documents: sign() in {-1,0,1} agreeing
// with the value, size() equal to the normalized limb count, and to_limbs()
// returning exactly GMP's (normalized) limb array.
#pragma once

#include <gtest/gtest.h>

#include <cstring>

#include "mpgpu/mpgpu.hpp"
#include "support/mpz.hpp"

namespace mpgpu_test {

/// The value of x as an mpz (through to_mpz).
inline Mpz value_of(const mpgpu::Integer& x) {
  Mpz z;
  x.to_mpz(z);
  return z;
}

inline ::testing::AssertionResult matches(const mpgpu::Integer& x, const Mpz& want,
                                          bool check_limbs = true) {
  Mpz got = value_of(x);
  if (!(got == want))
    return ::testing::AssertionFailure() << "value " << got << ", expected " << want;
  if (x.sign() != want.sgn())
    return ::testing::AssertionFailure() << "sign() " << x.sign() << ", expected " << want.sgn()
                                         << " for " << want;
  if (x.size() != want.limbs())
    return ::testing::AssertionFailure() << "size() " << x.size() << ", expected " << want.limbs()
                                         << " for " << want;
  if (x.is_zero() != (want.sgn() == 0))
    return ::testing::AssertionFailure() << "is_zero() " << x.is_zero() << " for " << want;
  if (check_limbs) {
    std::vector<mpgpu::limb_t> limbs = x.to_limbs();
    if (limbs.size() != want.limbs() ||
        (!limbs.empty() &&
         std::memcmp(limbs.data(), mpz_limbs_read(want), limbs.size() * sizeof(mpgpu::limb_t))))
      return ::testing::AssertionFailure() << "to_limbs() differs from GMP's limbs of " << want;
  }
  return ::testing::AssertionSuccess();
}

/// Normalized sign of a GMP comparison result.
inline int sign_of(int c) { return (c > 0) - (c < 0); }

}  // namespace mpgpu_test
