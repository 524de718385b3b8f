// Operands for differential tests: random values from a seeded GMP state
// (mpz_rrandomb's long runs of 0s and 1s, which find carry bugs, and uniform
// mpz_urandomb), and the adversarial edge values of the project brief: zero,
// one, all-ones 2^n - 1 (longest carry chains), a single high bit 2^n,
// alternating limbs, sparse bits, sizes at limb boundaries and unbalanced
// sizes, each with both signs.
//
// The seed is fixed (so a failure reproduces) and printed once per process;
// MPGPU_TEST_SEED overrides it.
#pragma once

#include <gmp.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <vector>

#include "support/mpz.hpp"
#include "support/test_size.hpp"

namespace mpgpu_test {

inline unsigned long test_seed() {
  static const unsigned long seed = [] {
    const char* env = std::getenv("MPGPU_TEST_SEED");
    unsigned long s = env ? std::strtoul(env, nullptr, 0) : 20261122ul;
    std::printf("[ mpgpu  ] random seed %lu (set MPGPU_TEST_SEED to change)\n", s);
    std::fflush(stdout);
    return s;
  }();
  return seed;
}

/// Bit sizes at and around limb boundaries and powers of two.
inline const std::vector<std::uint64_t>& boundary_bits() {
  static const std::vector<std::uint64_t> b = {1,    2,    63,   64,   65,   127,  128,
                                               129,  191,  192,  193,  255,  256,  257,
                                               1023, 1024, 1025, 4095, 4096, 4097};
  return b;
}

class Operands {
 public:
  /// Each test makes its own generator, so a test's operands do not depend on
  /// which other tests ran before it. `salt` separates streams in one test.
  explicit Operands(unsigned long salt = 0) {
    gmp_randinit_default(state_);
    gmp_randseed_ui(state_, test_seed() * 1000003ul + salt);
  }
  Operands(const Operands&) = delete;
  Operands& operator=(const Operands&) = delete;
  ~Operands() { gmp_randclear(state_); }

  /// Uniform in [0, n) (n > 0).
  unsigned long below(unsigned long n) { return gmp_urandomm_ui(state_, n); }
  bool coin() { return below(2) == 1; }
  /// A random limb of 1..64 significant bits, runs or uniform.
  std::uint64_t limb() {
    Mpz r = random_bits(1 + below(64));
    return mpz_getlimbn(r, 0);
  }

  /// Exactly `bits` bits (top bit set), long runs of 0s and 1s.
  Mpz runs(std::uint64_t bits) {
    Mpz r;
    mpz_rrandomb(r, state_, bits);
    return r;
  }
  /// Uniform in [0, 2^bits).
  Mpz uniform(std::uint64_t bits) {
    Mpz r;
    mpz_urandomb(r, state_, bits);
    return r;
  }
  /// Either kind, half the time each.
  Mpz random_bits(std::uint64_t bits) { return coin() ? runs(bits) : uniform(bits); }

  /// A size in limbs in [1, max_limbs], log-uniform so small sizes are common.
  std::size_t limbs_up_to(std::size_t max_limbs) {
    unsigned magnitude = 0;
    while ((std::size_t{1} << (magnitude + 1)) <= max_limbs) ++magnitude;
    std::size_t hi = std::size_t{1} << below(magnitude + 1);  // power of two <= max
    std::size_t n = hi / 2 + 1 + below(hi - hi / 2);
    return n > max_limbs ? max_limbs : n;
  }
  /// Non-negative, 1..max_limbs limbs (top limb partly filled), sometimes zero.
  Mpz random_value(std::size_t max_limbs) {
    if (below(32) == 0) return Mpz();
    std::uint64_t bits = limbs_up_to(max_limbs) * 64 - below(64);
    return random_bits(bits);
  }
  /// As random_value, with a random sign.
  Mpz random_signed(std::size_t max_limbs) {
    Mpz v = random_value(max_limbs);
    return coin() ? -v : v;
  }
  /// `count` random set bits below 2^bits (bit bits-1 always set).
  Mpz sparse(std::uint64_t bits, unsigned count) {
    Mpz r = Mpz::pow2(bits - 1);
    for (unsigned i = 1; i < count; ++i) mpz_setbit(r, below(bits));
    return r;
  }

 private:
  gmp_randstate_t state_;
};

/// Single limbs that break carry, borrow and bit-count code.
inline const std::vector<std::uint64_t>& edge_limbs() {
  static const std::vector<std::uint64_t> v = {
      0,
      1,
      2,
      3,
      0x7fffffffffffffffull,
      0x8000000000000000ull,
      0x8000000000000001ull,
      0xfffffffffffffffeull,
      0xffffffffffffffffull,
      0xaaaaaaaaaaaaaaaaull,
      0x5555555555555555ull,
      0x00000000ffffffffull,
      0xffffffff00000000ull,
      0x0000000100000000ull,
      0x00000000fffffffeull,
      0x0123456789abcdefull,
  };
  return v;
}

/// `limbs` limbs, each equal to `pattern` (0xAAAA..., 0x5555...).
inline Mpz repeated_limb(std::uint64_t pattern, std::size_t limbs) {
  Mpz r;
  for (std::size_t i = limbs; i-- > 0;) {
    mpz_mul_2exp(r, r, 64);
    mpz_add_ui(r, r, pattern);
  }
  return r;
}

/// Every value and its negation (zero once).
inline std::vector<Mpz> with_both_signs(const std::vector<Mpz>& values) {
  std::vector<Mpz> out;
  for (const Mpz& v : values) {
    out.push_back(v);
    if (v.sgn()) out.push_back(-v);
  }
  return out;
}

/// The full adversarial set, both signs (~170 values, up to ~1000 limbs):
/// for unary operations and conversions. Sanitizer-sized (test_size.hpp):
/// ~75 values, the same kinds at fewer bit sizes (within a limb, at and
/// past one and two limbs, at and past 4096 bits).
inline std::vector<Mpz> edge_values() {
  Operands gen(1);
  std::vector<Mpz> v = {Mpz(), Mpz::from_ui(1), Mpz::from_ui(2), Mpz::from_ui(3)};
  static const std::vector<std::uint64_t> sanitizer_bits = {1, 63, 64, 65, 128, 129, 4096, 4097};
  for (std::uint64_t n : sized(boundary_bits(), sanitizer_bits)) {
    v.push_back(Mpz::all_ones(n));
    v.push_back(Mpz::pow2(n));
    Mpz p1 = Mpz::pow2(n);
    mpz_add_ui(p1, p1, 1);
    v.push_back(p1);
  }
  for (std::size_t limbs : sized<std::vector<std::size_t>>({1, 2, 3, 16}, {1, 3})) {
    v.push_back(repeated_limb(0xAAAAAAAAAAAAAAAAull, limbs));
    v.push_back(repeated_limb(0x5555555555555555ull, limbs));
  }
  v.push_back(gen.sparse(5000, 6));
  v.push_back(gen.sparse(64 * 40, 3));
  Mpz bits_0_64_128 = Mpz::pow2(128);
  mpz_setbit(bits_0_64_128, 64);
  mpz_setbit(bits_0_64_128, 0);
  v.push_back(bits_0_64_128);
  v.push_back(Mpz::all_ones(64 * 1000));   // unbalanced against the 1-limb values
  Mpz top_and_bottom = Mpz::pow2(64 * 1000 - 1);
  mpz_add_ui(top_and_bottom, top_and_bottom, 1);
  v.push_back(top_and_bottom);
  v.push_back(gen.runs(64 * 1000));
  v.push_back(gen.uniform(64 * 37 + 5));
  return with_both_signs(v);
}

/// A smaller adversarial set (~45 values, both signs) for binary operations,
/// whose cost grows with the square of the set. Sanitizer-sized: ~29
/// values, all-ones and powers of two at one limb, past it and at 1000 bits.
inline std::vector<Mpz> edge_pair_values() {
  Operands gen(2);
  std::vector<Mpz> v = {Mpz(), Mpz::from_ui(1), Mpz::from_ui(2)};
  for (std::uint64_t n : sized<std::vector<std::uint64_t>>({63, 64, 65, 128, 129, 1000}, {64, 65, 1000})) {
    v.push_back(Mpz::all_ones(n));
    v.push_back(Mpz::pow2(n));
  }
  v.push_back(repeated_limb(0xAAAAAAAAAAAAAAAAull, 2));
  v.push_back(repeated_limb(0x5555555555555555ull, 3));
  v.push_back(gen.sparse(3000, 5));
  v.push_back(Mpz::all_ones(64 * 1000));
  v.push_back(gen.runs(64 * 1000));
  v.push_back(gen.uniform(64 * 17 + 30));
  return with_both_signs(v);
}

}  // namespace mpgpu_test
