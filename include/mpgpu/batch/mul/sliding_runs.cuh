// The runs of a staged product or square that one thread computes, for
// groups larger than a warp (mul.cuh): each run its own loop.
#pragma once

#include "mpgpu/batch/mul/paired_runs.cuh"

namespace mpgpu::batch {

namespace mul_detail {

// ---- runs of groups larger than a warp -------------------------------------------------
//
// With G > 32 the lanes of a warp are 32 consecutive ranks of one instance,
// whose runs differ by at most 32 chunks: two loops cost a warp 2G + 32
// chunk steps against 2G + 1, so the paired loop's snapshot (a select per
// accumulator word a step) costs more than it saves there. Those groups
// (in the tuning tables: 2^15 bits in the general table, 64 threads of 16
// words, where powm's Montgomery products run; users' own classes) run
// each run as its own loop, sliding a window of B one word a row (the
// paired form measured slower there: docs/tuning-history.md, "Paired
// runs").

/// Columns [c0, c0 + Q) of A * B as Q + 2 words, one row at a time.
template <int Q, int W>
MPGPU_HD void sliding_product_run(const word_t* A, const word_t* B, int c0, word_t out[Q + 2]) {
  word_t lo[Q], hi[Q], cc[Q], win[Q];
#pragma unroll
  for (int q = 0; q < Q; ++q) lo[q] = hi[q] = cc[q] = 0;
  const int i_lo = c0 - W + 1 > 0 ? c0 - W + 1 : 0;
  const int i_hi = c0 + Q - 1 < W - 1 ? c0 + Q - 1 : W - 1;
  // win[q] = B[c0 + q - i] for the current i; A and B are zero outside [0, W),
  // so the run's ragged ends need no bounds checks (the loop runs whole
  // chunks of Q steps and may read up to Q - 1 zero words past i_hi).
#pragma unroll
  for (int q = 0; q < Q; ++q) win[q] = B[c0 - i_lo + q];
  for (int i0 = i_lo; i0 <= i_hi; i0 += Q) {
#pragma unroll
    for (int s = 0; s < Q; ++s) {
      const int i = i0 + s;
      const word_t ai = A[i];
#pragma unroll
      for (int q = 0; q < Q; ++q) mac_word(ai, win[q], lo[q], hi[q], cc[q]);
#pragma unroll
      for (int q = Q - 1; q > 0; --q) win[q] = win[q - 1];
      win[0] = B[c0 - i - 1];
    }
  }
  fold_columns<Q>(lo, hi, cc, out);
}

/// One row of a sliding squaring run: adds A[i] * win[q] to the columns q >
/// skip, then slides the window to row i + 1.
template <int Q>
MPGPU_HD void sliding_square_step(const word_t* A, int c0, int i, int skip, word_t (&win)[Q], word_t (&lo)[Q],
                                  word_t (&hi)[Q], word_t (&cc)[Q]) {
  const word_t ai = A[i];
#pragma unroll
  for (int q = 0; q < Q; ++q)
    if (q > skip) mac_word(ai, win[q], lo[q], hi[q], cc[q]);
#pragma unroll
  for (int q = Q - 1; q > 0; --q) win[q] = win[q - 1];
  win[0] = A[c0 - i - 1];
}

/// Columns [c0, c0 + Q) of A^2 as Q + 2 words (the rows of SquareSpan), one
/// row at a time.
template <int Q, int W>
MPGPU_HD void sliding_square_run(const word_t* A, int c0, word_t out[Q + 2]) {
  static_assert(Q % 2 == 0, "a squaring run needs an even number of columns");
  word_t lo[Q], hi[Q], cc[Q], win[Q];
#pragma unroll
  for (int q = 0; q < Q; ++q) lo[q] = hi[q] = cc[q] = 0;
  const int i_lo = c0 >= W ? c0 - W : 0;
  const int i_mid = c0 / 2;
#pragma unroll
  for (int q = 0; q < Q; ++q) win[q] = A[c0 - i_lo + q];
  int i = i_lo;
  for (; i + Q <= i_mid; i += Q) {
#pragma unroll
    for (int s = 0; s < Q; ++s) sliding_square_step<Q>(A, c0, i + s, -1, win, lo, hi, cc);
  }
  if (i < i_mid) {  // i_mid - i == Q/2
#pragma unroll
    for (int s = 0; s < Q / 2; ++s) sliding_square_step<Q>(A, c0, i + s, -1, win, lo, hi, cc);
  }
#pragma unroll
  for (int s = 0; s < Q / 2; ++s) sliding_square_step<Q>(A, c0, i_mid + s, 2 * s, win, lo, hi, cc);
  finish_square_run<Q>(A, c0, lo, hi, cc, out);
}

}  // namespace mul_detail

}  // namespace mpgpu::batch
