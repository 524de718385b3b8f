// The three primes of the in-group NTT product, their roots of unity and
// the constexpr arithmetic that derives their constants (ntt_mul.cuh).
#pragma once

#include "mpgpu/batch/word.cuh"
#include "mpgpu/field/prime_field32.cuh"
#include "mpgpu/field/primes.hpp"

namespace mpgpu::batch {

namespace ntt_detail {

constexpr std::uint32_t pow_mod(std::uint64_t b, std::uint64_t e, std::uint64_t p) {
  std::uint64_t r = 1;
  b %= p;
  for (; e != 0; e >>= 1) {
    if (e & 1) r = r * b % p;
    b = b * b % p;
  }
  return static_cast<std::uint32_t>(r);
}
/// c R mod p: the Montgomery form of a constant.
constexpr std::uint32_t mont_form(std::uint64_t c, std::uint64_t p) {
  return static_cast<std::uint32_t>(((c % p) << 32) % p);
}

/// One prime of the product: p = k 2^LogMax + 1 (in field::ntt_primes31)
/// and `root`, a primitive 2^LogMax-th root of unity.
template <std::uint32_t P, std::uint32_t Generator, int LogMax>
struct Prime {
  static constexpr std::uint32_t p = P;
  static constexpr int log_max = LogMax;
  static constexpr std::uint32_t root = pow_mod(Generator, (P - 1) >> LogMax, P);
  static_assert(field::find_ntt_prime(P) != nullptr, "a prime of the table");
  static_assert(pow_mod(root, std::uint64_t{1} << (LogMax - 1), P) == P - 1, "root of order exactly 2^LogMax");

  /// (make's `%` and Newton steps fold away: P is a constant.)
  MPGPU_HD static field::PrimeField32 field() { return field::PrimeField32::make(P); }
  /// w_L R and L^-1 for transforms of 2^log_len points.
  static constexpr std::uint32_t root_mont(int log_len) {
    return mont_form(pow_mod(root, std::uint64_t{1} << (LogMax - log_len), P), P);
  }
  static constexpr std::uint32_t inverse_length(int log_len) { return P - ((P - 1) >> log_len); }
};

// Below 2^30 (lazy values below 4p fit a word), smallest first: r1 < p2
// and r1 < p3 need no reduction in the Garner step.
using P1 = Prime<469762049u, 3, 26>;   //   7 * 2^26 + 1
using P2 = Prime<754974721u, 11, 24>;  //  45 * 2^24 + 1
using P3 = Prime<998244353u, 3, 23>;   // 119 * 2^23 + 1
static_assert(P1::p < P2::p && P2::p < P3::p && P3::p < (1u << 30));
inline constexpr int kLogMaxLength = P3::log_max;  // the smallest 2-adic valuation

}  // namespace ntt_detail

}  // namespace mpgpu::batch
