// Staged products of a group (mul.cuh): the operands staged in shared
// memory, every thread's runs (paired_runs.cuh, sliding_runs.cuh), their
// results summed by two group additions.
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/mul/paired_runs.cuh"
#include "mpgpu/batch/mul/sliding_runs.cuh"

namespace mpgpu::batch {

namespace mul_detail {

/// Stages a and, unless Square, b (zero-padded) in env.work; for a square
/// B is A.
template <class E, bool Square>
MPGPU_HD void stage_operands(const E& env, const typename E::Num& a, const typename E::Num& b,
                             word_t*& A, word_t*& B) {
  constexpr int pad = 2 * E::run;
  A = env.work + pad;
  B = Square ? A : env.work + E::operand_span + pad;
  env.group.sync();  // earlier readers of work are done
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) {
    A[env.first_word() + i] = a.w[i];
    if constexpr (!Square) B[env.first_word() + i] = b.w[i];
  }
  for (int j = env.rank(); j < pad; j += E::threads) {
    A[-pad + j] = 0, A[E::words + j] = 0;
    if constexpr (!Square) B[-pad + j] = 0, B[E::words + j] = 0;
  }
  env.group.sync();
}

/// Writes run r's Q + 2 words into the partial-sum array it belongs to (even
/// runs to P0, odd runs to P1, so runs in one array never overlap), padding
/// the rest of its 2Q-word slot with zeros.
template <int Q>
MPGPU_HD void publish_run(word_t* P0, word_t* P1, int r, const word_t out[Q + 2]) {
  word_t* P = (r & 1) ? P1 : P0;
  const int base = r * Q;
#pragma unroll
  for (int q = 0; q < Q + 2; ++q) P[base + q] = out[q];
#pragma unroll
  for (int q = Q + 2; q < 2 * Q; ++q) P[base + q] = 0;
  if (r == 0) {
#pragma unroll
    for (int q = 0; q < Q; ++q) P1[q] = 0;
  }
}

}  // namespace mul_detail

/// lo = a * b mod 2^(32W) (a^2 with Square: b is not read); with `high`,
/// also the upper W words. One code path for both keeps the load balance:
/// the low half is 2G runs, the whole product 4G (runs r and R-1-r to each
/// thread; a column's term count grows and falls linearly, for squares
/// too). Squares by paired_square_runs need an even run length (4+ words a
/// thread); otherwise they take the product's runs.
template <class E, bool Wide, bool Square>
MPGPU_HD void staged_runs(const E& env, typename E::Num& lo, typename E::Num* high, const typename E::Num& a,
                          const typename E::Num& b) {
  constexpr int Q = E::run, G = E::threads, W = E::words;
  constexpr int runs = Wide ? 4 * G : 2 * G;
  constexpr int mine = Wide ? 4 : 2;
  constexpr bool square_runs = Square && Q % 2 == 0;
  word_t *A, *B;
  mul_detail::stage_operands<E, Square>(env, a, b, A, B);
  const int t = env.rank();
  const int my_runs[4] = {t, 2 * G - 1 - t, 2 * G + t, 4 * G - 1 - t};
  word_t out[mine][Q + 2];
  int out_runs[mine];
#pragma unroll
  for (int k = 0; k < mine; ++k) out_runs[k] = my_runs[k];
  if constexpr (G > 32) {  // one loop a run (see sliding_product_run)
#pragma unroll
    for (int k = 0; k < mine; ++k) {
      if constexpr (square_runs) mul_detail::sliding_square_run<(square_runs ? Q : 2), W>(A, my_runs[k] * Q, out[k]);
      else mul_detail::sliding_product_run<Q, W>(A, B, my_runs[k] * Q, out[k]);
    }
  } else if constexpr (square_runs) {
#pragma unroll
    for (int k = 0; k < mine; k += 2) {
      mul_detail::paired_square_runs<Q, W>(A, my_runs[k], my_runs[k + 1], &out_runs[k], out[k], &out_runs[k + 1],
                                           out[k + 1]);
    }
  } else {
    // Runs t and 2G-1-t cover the low half, 2G+t and 4G-1-t the high.
    using mul_detail::product_run_span;
    mul_detail::paired_runs<Q>(A, B, product_run_span<Q, W>(my_runs[0]), product_run_span<Q, W>(my_runs[1]),
                                     out[0], out[1]);
    if constexpr (Wide) {
      mul_detail::paired_runs<Q>(A, B, product_run_span<Q, W>(my_runs[2]),
                                        product_run_span<Q, W>(my_runs[3]), out[2], out[3]);
    }
  }
  env.group.sync();  // A and B are read; their space becomes P0 and P1
  word_t* P0 = env.work;
  word_t* P1 = env.work + E::partial_span;
#pragma unroll
  for (int k = 0; k < mine; ++k) mul_detail::publish_run<Q>(P0, P1, out_runs[k], out[k]);
  (void)runs;
  env.group.sync();
  typename E::Num x, y;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) {
    x.w[i] = P0[env.first_word() + i];
    y.w[i] = P1[env.first_word() + i];
  }
  word_t carry = add(env, lo, x, y);
  if constexpr (Wide) {
#pragma unroll
    for (int i = 0; i < E::per_thread; ++i) {
      x.w[i] = P0[W + env.first_word() + i];
      y.w[i] = P1[W + env.first_word() + i];
    }
    add(env, *high, x, y, carry);
  }
}

}  // namespace mpgpu::batch
