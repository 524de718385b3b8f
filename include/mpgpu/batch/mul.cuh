// Products of fixed-width instances. A thread per instance of up to 1024 bits
// multiplies in registers (register_mul.cuh), classes of at least
// kNttProductMinWords words through transforms (ntt_mul.cuh). Otherwise (the
// product scanning of Oancea & Watt's midsize multiplication) the operands
// are staged in shared memory, each thread computes runs of Q = L/2
// consecutive product columns by product scanning in registers, runs are
// paired from both ends of the product so every thread does the same number
// of terms (and walks a pair as one loop, so the lanes of a warp step
// together), and the runs' (Q + 2)-word results are summed by two group
// additions. Squares scan each column's products a[i] a[j] with i < j once,
// double them and add the diagonal a[c/2]^2: about half the terms of a
// product.
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/ntt_mul.cuh"
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

/// lo = the low W words of a thread's register product; with Wide, *high
/// = the next W.
template <class E, bool Wide>
MPGPU_HD void take_halves(const word_t* product, typename E::Num& lo, typename E::Num* high) {
#pragma unroll
  for (int i = 0; i < E::words; ++i) lo.w[i] = product[i];
  if constexpr (Wide) {
#pragma unroll
    for (int i = 0; i < E::words; ++i) high->w[i] = product[E::words + i];
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

/// The product for any group: in registers for a thread per instance of
/// at most 1024 bits (register_mul.cuh), through the NTT for classes of at
/// least kNttProductMinWords words (ntt_mul.cuh), by staged runs otherwise.
template <class E, bool Wide>
MPGPU_HD void mul_runs(const E& env, typename E::Num& lo, typename E::Num* high,
                       const typename E::Num& a, const typename E::Num& b) {
  if constexpr (E::register_products) {
    word_t product[Wide ? 2 * E::words : E::words];
    // Low halves by columns (one IMAD.WIDE a term, measured faster than
    // rows: docs/tuning-history.md, "Register products"); whole products
    // by rows, whose chains end in the top word.
    if constexpr (Wide) register_product<E::words, true>(a.w, b.w, product);
    else column_product<E::words>(a.w, b.w, product);
    mul_detail::take_halves<E, Wide>(product, lo, high);
  } else if constexpr (E::ntt_products) {
    ntt_mul_runs<E, Wide, false>(env, lo, high, a, b, env.work);
  } else {
    staged_runs<E, Wide, false>(env, lo, high, a, b);
  }
}

/// r = a * b mod 2^(32W).
template <class E>
MPGPU_HD void mul(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
  mul_runs<E, false>(env, r, nullptr, a, b);
}

/// r = a * b + c mod 2^(32W) (GMP's addmul, truncated to the class). For a
/// thread per instance in registers the product accumulates onto c, so the
/// addition is free; other groups multiply, then add. r may alias any of a,
/// b and c.
template <class E>
MPGPU_HD void mul_add(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& b,
                      const typename E::Num& c) {
  if constexpr (E::register_products) {
    word_t acc[E::words];
#pragma unroll
    for (int i = 0; i < E::words; ++i) acc[i] = c.w[i];
    register_product_onto<E::words>(a.w, b.w, acc);
#pragma unroll
    for (int i = 0; i < E::words; ++i) r.w[i] = acc[i];
  } else {
    typename E::Num p;
    mul(env, p, a, b);
    add(env, r, p, c);
  }
}

/// (hi, lo) = a * b, the whole 64W-bit product.
template <class E>
MPGPU_HD void mul_wide(const E& env, typename E::Num& lo, typename E::Num& hi, const typename E::Num& a,
                       const typename E::Num& b) {
  mul_runs<E, true>(env, lo, &hi, a, b);
}

/// r = floor(a * b / 2^(32W)).
template <class E>
MPGPU_HD void mul_high(const E& env, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
  typename E::Num lo;
  mul_runs<E, true>(env, lo, &r, a, b);
}

/// The square for any group: register_square for register products, the
/// NTT with one forward transform a prime for wide classes, the product
/// runs otherwise.
template <class E, bool Wide>
MPGPU_HD void square_runs(const E& env, typename E::Num& lo, typename E::Num* high, const typename E::Num& a) {
  if constexpr (E::register_products) {
    word_t square[Wide ? 2 * E::words : E::words];
    register_square<E::words, Wide>(a.w, square);
    mul_detail::take_halves<E, Wide>(square, lo, high);
  } else if constexpr (E::ntt_products) {
    ntt_mul_runs<E, Wide, true>(env, lo, high, a, a, env.work);
  } else {
    staged_runs<E, Wide, true>(env, lo, high, a, a);
  }
}

/// r = a^2 mod 2^(32W).
template <class E>
MPGPU_HD void sqr(const E& env, typename E::Num& r, const typename E::Num& a) {
  square_runs<E, false>(env, r, nullptr, a);
}

/// (hi, lo) = a^2, all 64W bits.
template <class E>
MPGPU_HD void sqr_wide(const E& env, typename E::Num& lo, typename E::Num& hi, const typename E::Num& a) {
  square_runs<E, true>(env, lo, &hi, a);
}

/// r = a * v for a 32-bit v; returns the word carried out of the instance.
template <class E>
MPGPU_HD word_t mul_ui32(const E& env, typename E::Num& r, const typename E::Num& a, word_t v) {
  word_t carry = 0;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) {
    std::uint64_t p = static_cast<std::uint64_t>(a.w[i]) * v + carry;
    r.w[i] = static_cast<word_t>(p);
    carry = static_cast<word_t>(p >> 32);
  }
  // Each thread's outgoing word enters the next thread's lowest word.
  env.group.sync();
  env.work[env.rank()] = carry;
  env.group.sync();
  typename E::Num up;
  set_zero(env, up);
  if (env.rank() > 0) up.w[0] = env.work[env.rank() - 1];
  word_t top = env.group.broadcast(carry, E::threads - 1);
  word_t c = add(env, r, r, up);
  return top + c;  // no overflow: the true carry word is below 2^32
}

/// r = a * v for a 64-bit v; returns the 64 bits carried out of the
/// instance. Two 32-bit scalar products: a v = a v_lo + 2^32 a v_hi, the
/// second shifted up one word (its top word joins the carry).
template <class E>
MPGPU_HD std::uint64_t mul_ui64(const E& env, typename E::Num& r, const typename E::Num& a, std::uint64_t v) {
  typename E::Num high, shifted;
  const word_t top_low = mul_ui32(env, r, a, static_cast<word_t>(v));
  const word_t top_high = mul_ui32(env, high, a, static_cast<word_t>(v >> word_bits));
  const word_t spill = env.group.broadcast(high.w[E::per_thread - 1], E::threads - 1);
  shift_left(env, shifted, high, word_bits);
  const word_t c = add(env, r, r, shifted);
  return static_cast<std::uint64_t>(top_low) + spill + c + (static_cast<std::uint64_t>(top_high) << word_bits);
}

}  // namespace mpgpu::batch
