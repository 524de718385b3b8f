// The runs of a staged product or square that one thread computes, for
// groups of up to a warp (mul.cuh): Q = L/2 columns a run by product
// scanning in registers, folded into Q + 2 words; two runs a thread, paired
// from both ends of the product and walked as one loop.
#pragma once

#include "mpgpu/batch/register_mul.cuh"

namespace mpgpu::batch {

namespace mul_detail {

/// Folds Q three-word column accumulators (column q weighs 2^(32q)) into
/// one (Q + 2)-word number.
template <int Q>
MPGPU_HD void fold_columns(const word_t lo[Q], const word_t hi[Q], const word_t cc[Q], word_t out[Q + 2]) {
  word_t x0 = lo[0], x1 = hi[0], x2 = cc[0];
  out[0] = x0;
#pragma unroll
  for (int q = 1; q < Q; ++q) {
    word_t k = add_word(x1, lo[q], 0, x0);
    k = add_word(x2, hi[q], k, x1);
    x2 = cc[q] + k;
    out[q] = x0;
  }
  out[Q] = x1;
  out[Q + 1] = x2;
}

/// The part of a product's run that one thread computes: columns [c0, c0 +
/// Q), their nonzero rows from i0 on, in `chunks` chunks of Q rows.
struct RunSpan {
  int c0, i0, chunks;
};

/// Run r of a product of W words: columns below W take rows 0 .. c0 + Q - 1
/// (r + 1 chunks), columns from W on rows c0 - W .. W - 1.
template <int Q, int W>
MPGPU_HD RunSpan product_run_span(int r) {
  const int c0 = r * Q;
  if (c0 < W) return {c0, 0, r + 1};
  return {c0, c0 - W, (2 * W - c0) / Q};
}

/// Adds rows [i0, i0 + Q) of the columns [c0, c0 + Q) of A * B to the
/// column accumulators (lo, hi, cc), given rows = A + i0 and window = B +
/// c0 - i0 - Q. The chunk reads the Q words of A and the 2Q words of B it
/// needs at once, B's as a window indexed at compile time: sliding a window
/// word by word made ptxas move registers at every chunk (on the multiply
/// pipe: 8 IMAD.MOV to 16 IMAD.WIDE at 2048 bits). Vector: 16-byte loads
/// (both pointers 16-byte aligned).
template <int Q, bool Vector>
MPGPU_HD void product_chunk(const word_t* rows, const word_t* window, word_t (&lo)[Q], word_t (&hi)[Q],
                            word_t (&cc)[Q]) {
  word_t av[Q], bw[2 * Q];
#if defined(__CUDA_ARCH__)
  if constexpr (Vector) {
#pragma unroll
    for (int k = 0; k < Q; k += 4) {
      const uint4 v = *reinterpret_cast<const uint4*>(rows + k);
      av[k] = v.x, av[k + 1] = v.y, av[k + 2] = v.z, av[k + 3] = v.w;
    }
#pragma unroll
    for (int k = 0; k < 2 * Q; k += 4) {
      const uint4 v = *reinterpret_cast<const uint4*>(window + k);
      bw[k] = v.x, bw[k + 1] = v.y, bw[k + 2] = v.z, bw[k + 3] = v.w;
    }
  } else
#endif
  {
#pragma unroll
    for (int k = 0; k < Q; ++k) av[k] = rows[k];
#pragma unroll
    for (int k = 0; k < 2 * Q; ++k) bw[k] = window[k];
  }
  // Row i0 + s, column c0 + q: B[c0 + q - i0 - s] = bw[q - s + Q].
#pragma unroll
  for (int s = 0; s < Q; ++s)
#pragma unroll
    for (int q = 0; q < Q; ++q) mac_word(av[s], bw[q - s + Q], lo[q], hi[q], cc[q]);
}

/// The snapshot of a thread's first run: its column sums when the loop
/// switches runs.
template <int Q>
MPGPU_HD void take_snapshot(const word_t (&lo)[Q], const word_t (&hi)[Q], const word_t (&cc)[Q], word_t (&slo)[Q],
                            word_t (&shi)[Q], word_t (&scc)[Q]) {
#pragma unroll
  for (int q = 0; q < Q; ++q) slo[q] = lo[q], shi[q] = hi[q], scc[q] = cc[q];
}

/// The second run's column sums: the totals minus the snapshot, three words
/// a column.
template <int Q>
MPGPU_HD void subtract_snapshot(word_t (&lo)[Q], word_t (&hi)[Q], word_t (&cc)[Q], const word_t (&slo)[Q],
                                const word_t (&shi)[Q], const word_t (&scc)[Q]) {
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    word_t borrow = sub_word(lo[q], slo[q], 0, lo[q]);
    borrow = sub_word(hi[q], shi[q], borrow, hi[q]);
    cc[q] = cc[q] - scc[q] - borrow;
  }
}

/// paired_runs' loop (below), with or without 16-byte loads.
template <int Q, bool Vector>
MPGPU_HD void paired_chunks(const word_t* A, const word_t* B, RunSpan ra, RunSpan rb, word_t outA[Q + 2],
                            word_t outB[Q + 2]) {
  // The snapshot is taken at step ra.chunks < steps (every run has a chunk).
  // Zeroing it first made ptxas keep it in local memory.
  word_t lo[Q], hi[Q], cc[Q], slo[Q], shi[Q], scc[Q];
#pragma unroll
  for (int q = 0; q < Q; ++q) lo[q] = hi[q] = cc[q] = 0;
  const int steps = ra.chunks + rb.chunks;
  const word_t* rows = A + ra.i0;
  const word_t* window = B + ra.c0 - ra.i0 - Q;
  for (int k = 0; k < steps; ++k) {
    if (k == ra.chunks) {
      take_snapshot<Q>(lo, hi, cc, slo, shi, scc);
      rows = A + rb.i0;
      window = B + rb.c0 - rb.i0 - Q;
    }
    product_chunk<Q, Vector>(rows, window, lo, hi, cc);
    rows += Q;
    window -= Q;
  }
  subtract_snapshot<Q>(lo, hi, cc, slo, shi, scc);
  fold_columns<Q>(slo, shi, scc, outA);
  fold_columns<Q>(lo, hi, cc, outB);
}

/// Two runs of one thread (Q + 2 words each, as fold_columns makes them),
/// walked as one loop of ra.chunks + rb.chunks chunk steps. The runs are
/// paired so that this sum is the same in every thread of the group: the
/// lanes of a warp then step together. (Two loops, one a run, made a warp
/// take max(ra.chunks) + max(rb.chunks) steps: 3G instead of 2G + 1 for a
/// low half. The one loop and the compile-time window measured faster on
/// batches of products at 2048 to 8192 bits: docs/tuning-history.md, "Paired
/// runs".) The accumulators carry on from run a
/// into run b; a snapshot at the switch separates them. A and B are
/// zero-padded by 2Q words on both sides.
template <int Q>
MPGPU_HD void paired_runs(const word_t* A, const word_t* B, RunSpan ra, RunSpan rb, word_t outA[Q + 2],
                          word_t outB[Q + 2]) {
#if defined(__CUDA_ARCH__)
  if constexpr (Q % 4 == 0) {
    // Chunks start at multiples of Q, so aligned arrays give aligned chunks.
    const auto bits = reinterpret_cast<std::uintptr_t>(A) | reinterpret_cast<std::uintptr_t>(B);
    if ((bits & 15u) == 0) return paired_chunks<Q, true>(A, B, ra, rb, outA, outB);
  }
#endif
  paired_chunks<Q, false>(A, B, ra, rb, outA, outB);
}

/// Adds R rows from i0 of A^2's off-diagonal terms to the columns [c0, c0 +
/// Q): A[i] A[c0 + q - i], only where q > Skip * s (row i0 + s) when Skip
/// is 2 (the masked rows from c0/2 on, whose partners j must exceed i), all
/// of them when Skip is 0. Scalar loads (R = Q/2 rows start at odd
/// multiples of Q/2); the window holds A[c0 - i0 - R + k].
template <int Q, int R, int Skip>
MPGPU_HD void square_rows(const word_t* A, int c0, int i0, word_t (&lo)[Q], word_t (&hi)[Q], word_t (&cc)[Q]) {
  word_t av[R], bw[R + Q];
#pragma unroll
  for (int k = 0; k < R; ++k) av[k] = A[i0 + k];
#pragma unroll
  for (int k = 0; k < R + Q; ++k) bw[k] = A[c0 - i0 - R + k];
#pragma unroll
  for (int s = 0; s < R; ++s)
#pragma unroll
    for (int q = 0; q < Q; ++q)
      if (q >= Skip * s + (Skip ? 1 : 0)) mac_word(av[s], bw[q - s + R], lo[q], hi[q], cc[q]);
}

/// The rows of a squaring run at columns [c0, c0 + Q) (c0 a multiple of Q,
/// Q even): rows i0 .. c0/2 - 1 pair with every column, in `halves` steps
/// of Q/2 rows (i0 = c0 - W for columns from W on, whose earlier rows meet
/// only the zero padding); the Q/2 rows from c0/2 on with the columns q >
/// 2(i - c0/2) only.
struct SquareSpan {
  int c0, i0, halves;
};

template <int Q, int W>
MPGPU_HD SquareSpan square_run_span(int r) {
  const int c0 = r * Q, i0 = c0 >= W ? c0 - W : 0;
  return {c0, i0, (c0 / 2 - i0) / (Q / 2)};
}

/// Doubles a squaring run's off-diagonal column sums (below W 2^64 doubled,
/// so the three words hold them), adds A[c/2]^2 to the even columns and
/// folds the run into Q + 2 words.
template <int Q>
MPGPU_HD void finish_square_run(const word_t* A, int c0, word_t (&lo)[Q], word_t (&hi)[Q], word_t (&cc)[Q],
                                word_t out[Q + 2]) {
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    cc[q] = (cc[q] << 1) | (hi[q] >> 31);
    hi[q] = (hi[q] << 1) | (lo[q] >> 31);
    lo[q] <<= 1;
    if (q % 2 == 0) {
      const word_t d = A[c0 / 2 + q / 2];
      mac_word(d, d, lo[q], hi[q], cc[q]);
    }
  }
  fold_columns<Q>(lo, hi, cc, out);
}

/// Two squaring runs of one thread (paired as the product's: their halves
/// add up to an odd number, the same in every thread) as one pass with
/// uniform steps: the run with the odd number of halves goes first (its
/// masked rows, its odd half, its whole chunks), then the other's chunks
/// and masked rows; a snapshot at the switch separates them, as in
/// paired_chunks. Writes the first run's index and words to *r_first /
/// out_first, the second's to the others.
template <int Q, bool Vector>
MPGPU_HD void paired_square_chunks(const word_t* A, int ra, int rb, SquareSpan sa, SquareSpan sb, int* r_first,
                                   word_t out_first[Q + 2], int* r_second, word_t out_second[Q + 2]) {
  const bool a_first = sa.halves % 2 == 1;
  const SquareSpan f = a_first ? sa : sb, g = a_first ? sb : sa;
  *r_first = a_first ? ra : rb;
  *r_second = a_first ? rb : ra;
  word_t lo[Q], hi[Q], cc[Q], slo[Q], shi[Q], scc[Q];
#pragma unroll
  for (int q = 0; q < Q; ++q) lo[q] = hi[q] = cc[q] = 0;
  square_rows<Q, Q / 2, 2>(A, f.c0, f.c0 / 2, lo, hi, cc);
  const int f_chunks = f.halves / 2;
  square_rows<Q, Q / 2, 0>(A, f.c0, f.i0 + f_chunks * Q, lo, hi, cc);
  const int steps = f_chunks + g.halves / 2;
  const word_t* rows = A + f.i0;
  const word_t* window = A + f.c0 - f.i0 - Q;
  for (int k = 0; k < steps; ++k) {
    if (k == f_chunks) {
      take_snapshot<Q>(lo, hi, cc, slo, shi, scc);
      rows = A + g.i0;
      window = A + g.c0 - g.i0 - Q;
    }
    product_chunk<Q, Vector>(rows, window, lo, hi, cc);
    rows += Q;
    window -= Q;
  }
  // The second run has no whole chunk: no switch in the loop.
  if (steps == f_chunks) take_snapshot<Q>(lo, hi, cc, slo, shi, scc);
  square_rows<Q, Q / 2, 2>(A, g.c0, g.c0 / 2, lo, hi, cc);
  subtract_snapshot<Q>(lo, hi, cc, slo, shi, scc);
  finish_square_run<Q>(A, f.c0, slo, shi, scc, out_first);
  finish_square_run<Q>(A, g.c0, lo, hi, cc, out_second);
}

template <int Q, int W>
MPGPU_HD void paired_square_runs(const word_t* A, int ra, int rb, int* r_first, word_t out_first[Q + 2],
                                 int* r_second, word_t out_second[Q + 2]) {
  const SquareSpan sa = square_run_span<Q, W>(ra), sb = square_run_span<Q, W>(rb);
#if defined(__CUDA_ARCH__)
  if constexpr (Q % 4 == 0) {
    // Whole chunks start at multiples of Q (i0 is one), so an aligned A
    // gives aligned chunks.
    if ((reinterpret_cast<std::uintptr_t>(A) & 15u) == 0)
      return paired_square_chunks<Q, true>(A, ra, rb, sa, sb, r_first, out_first, r_second, out_second);
  }
#endif
  paired_square_chunks<Q, false>(A, ra, rb, sa, sb, r_first, out_first, r_second, out_second);
}

}  // namespace mul_detail

}  // namespace mpgpu::batch
