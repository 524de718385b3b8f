// The product's coefficients from their residues mod the three primes
// (ntt_mul.cuh): the residues read out, Garner's CRT, and a thread's sum of
// its coefficients with their carries.
#pragma once

#include "mpgpu/batch/ntt_mul/butterflies.cuh"
#include "mpgpu/batch/ntt_mul/primes.cuh"

namespace mpgpu::batch {

namespace ntt_detail {

// Garner: x = r1 + p1 (v2 + p2 v3), v2 = (r2 - r1) / p1 mod p2,
// v3 = (r3 - r1 - p1 v2) / (p1 p2) mod p3; constants in Montgomery form.
inline constexpr std::uint32_t kInvP1ModP2 = mont_form(pow_mod(P1::p, P2::p - 2, P2::p), P2::p);
inline constexpr std::uint32_t kP1ModP3 = mont_form(P1::p, P3::p);
inline constexpr std::uint32_t kInvP1P2ModP3 =
    mont_form(pow_mod(std::uint64_t{P1::p} * P2::p % P3::p, P3::p - 2, P3::p), P3::p);
inline constexpr std::uint64_t kP1P2 = std::uint64_t{P1::p} * P2::p;

/// Residue k of the product mod prime Pr, from the unscaled inverse.
template <class Pr, int LogLen>
MPGPU_HD word_t residue(const field::PrimeField32& F, word_t y) {
  // y = L c R (lazy, < 2p): times L^-1 (plain), Montgomery's R^-1 cancels
  // the R, and the result is canonical.
  return F.mont_mul(y, Pr::inverse_length(LogLen));
}

/// This thread's coefficients (k0 .. k0 + n - 1 of each part) mod Pr.
template <class E, class Pr, int LogLen, int Parts>
MPGPU_HD void read_residues(const E& env, const word_t* X, word_t (&R)[Parts][E::per_thread]) {
  const field::PrimeField32 F = Pr::field();
#pragma unroll
  for (int part = 0; part < Parts; ++part) {
    load_run(X + part * E::words + env.first_word(), R[part]);
#pragma unroll
    for (int i = 0; i < E::per_thread; ++i) R[part][i] = residue<Pr, LogLen>(F, R[part][i]);
  }
}

/// 96-bit value of one coefficient from its three residues (Garner).
struct Coefficient {
  word_t w[3];
};
MPGPU_HD Coefficient garner(word_t r1, word_t r2, word_t r3) {
  const field::PrimeField32 F2 = P2::field(), F3 = P3::field();
  const word_t v2 = F2.mont_mul(F2.sub(r2, r1), kInvP1ModP2);  // r1 < p1 < p2
  const word_t s = F3.add(r1, F3.mont_mul(v2, kP1ModP3));  // r1 < p1 < p3
  const word_t v3 = F3.mont_mul(F3.sub(r3, s), kInvP1P2ModP3);
  // x = r1 + p1 v2 + p1 p2 v3 < 2^89.
  const std::uint64_t low = static_cast<std::uint64_t>(P1::p) * v2 + r1;  // < 2^62
  const std::uint64_t m0 = (kP1P2 & 0xffffffffu) * v3, m1 = (kP1P2 >> 32) * v3;
  const std::uint64_t s0 = (low & 0xffffffffu) + (m0 & 0xffffffffu);
  const std::uint64_t s1 = (low >> 32) + (m0 >> 32) + (m1 & 0xffffffffu) + (s0 >> 32);
  const std::uint64_t s2 = (m1 >> 32) + (s1 >> 32);
  return {{static_cast<word_t>(s0), static_cast<word_t>(s1), static_cast<word_t>(s2)}};
}

/// Adds coefficients k0 .. k0 + n - 1 (their residues in R1, R2, R3) at
/// word offsets 0 .. n - 1: out gets the n words, `carry` the three words
/// that belong at offsets n .. n + 2 (a coefficient is below 2^89, so the
/// pending sum past word n stays below 2^58).
template <int N>
MPGPU_HD void assemble(const word_t (&R1)[N], const word_t (&R2)[N], const word_t (&R3)[N], word_t (&out)[N],
                       word_t (&carry)[3]) {
  std::uint64_t a0 = 0, a1 = 0, a2 = 0;  // the running sum, word by word (each < 2^33)
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const Coefficient c = garner(R1[i], R2[i], R3[i]);
    a0 += c.w[0];
    a1 += c.w[1];
    a2 += c.w[2];
    out[i] = static_cast<word_t>(a0);
    a1 += a0 >> 32;
    a0 = a1, a1 = a2, a2 = 0;
  }
  a1 += a0 >> 32;
  a2 += a1 >> 32;
  carry[0] = static_cast<word_t>(a0), carry[1] = static_cast<word_t>(a1), carry[2] = static_cast<word_t>(a2);
}

}  // namespace ntt_detail

}  // namespace mpgpu::batch
