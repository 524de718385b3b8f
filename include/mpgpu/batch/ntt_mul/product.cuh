// The NTT product of a group (ntt_mul.cuh): a convolution mod each of the
// three primes, the coefficients rebuilt by CRT, one group addition a half.
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/ntt_mul/crt.cuh"
#include "mpgpu/batch/ntt_mul/transform.cuh"

namespace mpgpu::batch {

/// lo = a * b mod 2^(32W); with Wide, *high = the upper W words. b is
/// ignored for squares (Square: one forward transform a prime). `work` holds
/// ntt_work_words(W) words, 16-byte aligned (env.work in the library; tests
/// pass their own).
/// lo and high may alias a or b: they are written after the last read.
template <class E, bool Wide, bool Square>
MPGPU_HD void ntt_mul_runs(const E& env, typename E::Num& lo, typename E::Num* high, const typename E::Num& a,
                           const typename E::Num& b, word_t* work) {
  using namespace ntt_detail;
  constexpr int W = E::words, n = E::per_thread, log_len = ntt_log_length(W), L = 1 << log_len;
  static_assert(W <= kNttProductMaxWords && log_len <= kLogMaxLength, "width beyond the NTT product");
  word_t* X = work;
  word_t* Y = work + L;
  word_t* T = work + 2 * L;
  constexpr int parts = Wide ? 2 : 1;  // the low W words, then the high W
  word_t R1[parts][n], R2[parts][n], R3[parts][n];
  convolve<E, P1, log_len, Square, !Wide>(env, X, Y, T, a.w, b.w);
  read_residues<E, P1, log_len, parts>(env, X, R1);
  convolve<E, P2, log_len, Square, !Wide>(env, X, Y, T, a.w, b.w);
  read_residues<E, P2, log_len, parts>(env, X, R2);
  convolve<E, P3, log_len, Square, !Wide>(env, X, Y, T, a.w, b.w);
  read_residues<E, P3, log_len, parts>(env, X, R3);
  // Each thread sums its coefficients; the three words it carries out go to
  // the next thread's lowest words (the low half's last thread feeds the
  // high half's first), and one group addition per half resolves the rest.
  typename E::Num x[parts], y[parts];
  word_t carry[parts][3];
#pragma unroll
  for (int part = 0; part < parts; ++part) assemble<n>(R1[part], R2[part], R3[part], x[part].w, carry[part]);
  env.group.sync();  // every thread has read X
#pragma unroll
  for (int part = 0; part < parts; ++part)
#pragma unroll
    for (int c = 0; c < 3; ++c) work[(part * E::threads + env.rank()) * 3 + c] = carry[part][c];
  env.group.sync();
#pragma unroll
  for (int part = 0; part < parts; ++part) {
    const int from = part * E::threads + env.rank() - 1;  // the previous thread of the whole product
#pragma unroll
    for (int i = 0; i < n; ++i) y[part].w[i] = (i < 3 && from >= 0) ? work[from * 3 + i] : 0u;
  }
  const word_t c = add(env, lo, x[0], y[0]);
  if constexpr (Wide) add(env, *high, x[1], y[1], c);
}

}  // namespace mpgpu::batch
