// Prime search helpers shared by the tests of the field-based modules.
#pragma once

#include <cstdint>

#include "mpgpu/field/roots.hpp"

namespace mpgpu_test {

/// The largest prime <= x.
inline std::uint64_t prev_prime(std::uint64_t x) {
  while (!mpgpu::field::is_prime(x)) --x;
  return x;
}

/// The smallest prime >= x.
inline std::uint64_t next_prime(std::uint64_t x) {
  while (!mpgpu::field::is_prime(x)) ++x;
  return x;
}

}  // namespace mpgpu_test
