// Host version of the device's huge-product pipeline (src/cuda/ntt_mul.cu,
// ntt_mul_digits.cu): the same primes, the same decimation-in-frequency
// forward and decimation-in-time inverse transforms with the same twiddle
// table, the same Garner CRT (three primes, or CrtMany for digits of 2 or 4
// limbs) and column sums. CI (no GPU) tests the math through it;
// the Integer API on the CPU backend calls GMP instead, which is faster.
#pragma once

#include <cstddef>
#include <vector>

#include "mpgpu/limb/config.cuh"

namespace mpgpu::ntt {

/// |a| * |b| as na + nb limbs (not normalized), through NTTs whose points
/// are digits of `digit_limbs` limbs (1: three primes; 2: five; 4: nine).
std::vector<limb_t> multiply_host(const limb_t* a, std::size_t na, const limb_t* b, std::size_t nb,
                                  int digit_limbs = 1);

}  // namespace mpgpu::ntt
