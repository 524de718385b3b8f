// The Lucas-Lehmer test of a Mersenne number 2^p - 1 with mpgpu::Integer:
// a workload of `mpgpu bench --workloads` (p - 2 squarings of p bits, each
// reduced without division) and tests/calc's check of small exponents.
#pragma once

#include <cstdint>

#include "mpgpu/integer.hpp"

namespace mpgpu::cli {

/// Whether 2^p - 1 is prime (p >= 2): s = 4, then p - 2 times s = s^2 - 2
/// mod 2^p - 1; prime when s ends at 0. The test is exact for every p >= 3
/// (the sufficiency half needs no primality of p); p = 2 (3, prime) is
/// answered directly. `progress`, if given, is called with the fraction of
/// the iterations done, now and then.
bool lucas_lehmer(std::uint64_t p, const Context& ctx, void (*progress)(double, void*) = nullptr,
                  void* progress_arg = nullptr);

}  // namespace mpgpu::cli
