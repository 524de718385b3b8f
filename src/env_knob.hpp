// Tuning knobs read from the environment (MPGPU_SCHOOLBOOK_MAX_WORK,
// MPGPU_DIVISION_MIN_LIMBS, MPGPU_RADIX_MIN_LIMBS, MPGPU_RADIX_LEAF_LIMBS,
// MPGPU_NTT_DIGIT_LIMBS, MPGPU_NTT_SIDE_PRIMES_MAX_LOG, MPGPU_SEQUENCE_LEAF_LIMBS,
// MPGPU_UPLOAD_RING_BYTES): for tuning runs and tests, never needed in use.
// Host-only, plain C++.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace mpgpu::detail {

/// The unsigned number in environment variable `name` (decimal, or 0x hex),
/// or `fallback` when it is not set.
inline std::uint64_t env_knob(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v ? std::strtoull(v, nullptr, 0) : fallback;
}

}  // namespace mpgpu::detail
