// Host-side number theory for p = r^k + 1 through GMP: the modulus as an
// mpz, and Chen et al.'s Algorithm 1, a primitive N-th root of unity omega with
// omega^(N/K) = r (K = 2k), which makes every DFT_K of the FFT a sequence of
// shifts (multiplications by powers of r). g++ only.
#pragma once

#include <gmp.h>

#include "mpgpu/gfp/primes.hpp"

namespace mpgpu::gfp {

/// out = r^k + 1.
void modulus(mpz_ptr out, const GfpPrime& prime);

/// A primitive N-th root of unity omega mod p with omega^(N/K) = r, K = 2k.
/// N must be a power of two with K <= N <= 2^two_adicity(); otherwise throws
/// mpgpu::InvalidArgument. Deterministic: tries alpha = 2, 3, 4, ... for
/// g = alpha^((p-1)/N) until g^(N/2) = -1 (g has order N), then finds the j
/// with (g^(N/K))^j = r (Algorithm 1) and returns g^j.
void root_of_unity(mpz_ptr omega, const GfpPrime& prime, unsigned long long n);

}  // namespace mpgpu::gfp
