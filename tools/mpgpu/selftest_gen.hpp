// `mpgpu selftest`: the random generator of one case and the values it draws.
//
// Every case has its own generator, seeded from (seed, case number) alone,
// so `--replay N` draws exactly what case N drew in the run, whatever ran
// before it, on whichever thread. The generator is xoshiro256** (seeded
// through SplitMix64): plain integer arithmetic, the same on every machine
// and with every GMP, and fast enough to fill millions of batch instances.
#pragma once

#include <gmp.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "mpgpu/limb/config.cuh"

namespace mpgpu::cli::selftest {

/// Defined here, inline: a batch case draws a word per limb of millions of
/// instances, and a call per word cost a tenth of a batch case's host time.
class CaseRng {
 public:
  CaseRng(std::uint64_t seed, std::uint64_t case_number);
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  /// Uniform in [0, n); n > 0.
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  /// Uniform in [lo, hi].
  std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return lo + below(hi - lo + 1); }
  bool coin() { return next() >> 63; }
  /// True with probability 1/n.
  bool one_in(std::uint64_t n) { return below(n) == 0; }
  /// Log-uniform in [1, max]: every power of two as likely as the next.
  std::uint64_t log_uniform(std::uint64_t max);

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

/// How a value's bits are drawn. The shapes are the adversarial inputs of
/// the project brief: GMP's mpz_rrandomb style (long runs of 0s and 1s, which
/// find carry and borrow bugs), all-ones 2^n - 1 (the longest carry chains),
/// a single high bit 2^(n-1), 2^(n-1) + small and 2^n - small (just above and
/// below powers of two), sparse bits, alternating limbs, and uniform bits.
enum class Shape { uniform, runs, all_ones, power_of_two, above_power, below_power, sparse, alternating };

Shape random_shape(CaseRng& rng);
const char* shape_name(Shape s);

/// Writes a value of exactly `bits` bits (its top bit set; nothing for 0
/// bits) of shape `s` into limbs[0, limbs), zeroing the rest.
/// limbs >= ceil(bits / 64).
void fill_value(CaseRng& rng, limb_t* out, std::size_t limbs, std::uint64_t bits, Shape s);

/// z = a value of `bits` bits of shape `s` (non-negative).
void random_mpz(mpz_ptr z, CaseRng& rng, std::uint64_t bits, Shape s);

/// "2049 limbs" for whole limbs, else "131073 bits".
std::string describe_bits(std::uint64_t bits);

}  // namespace mpgpu::cli::selftest
