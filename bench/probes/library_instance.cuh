// What the batch probes share (powm_rows.cu, dpf_montgomery.cu): reproducible operands and the
// load of one batch instance with its modulus set up, as the library's batch kernels do it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpgpu/batch/batch.cuh"

namespace probes {

/// SplitMix64: reproducible, well-mixed operands (not cryptographic).
inline std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Instance i's base x and exponent (or second factor) e, and its modulus set up in m, from
/// instance-major arrays of E::words words each. An instance past the end (live false) runs on
/// zeros with the modulus 3, so that a partly filled group still takes every step with the
/// others.
template <class E>
__device__ void load_instance(const E& env, typename E::Num& x, typename E::Num& e, mpgpu::batch::Modulus<E>& m,
                              const mpgpu::batch::word_t* base, const mpgpu::batch::word_t* exp,
                              const mpgpu::batch::word_t* mod, std::size_t i, bool live) {
  namespace mb = mpgpu::batch;
  typename E::Num n;
  const std::size_t off = i * E::words;
  if (live) {
    mb::load(env, x, base + off);
    mb::load(env, e, exp + off);
    mb::load(env, n, mod + off);
  } else {
    mb::set_zero(env, x);
    mb::set_zero(env, e);
    mb::set_ui32(env, n, 3);
  }
  mb::setup_modulus(env, m, n);
}

}  // namespace probes
