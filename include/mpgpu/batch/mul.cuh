// Products of fixed-width instances. A thread per instance of up to 1024
// bits multiplies in registers (register_mul.cuh), classes of at least
// kNttProductMinWords words through transforms (ntt_mul.cuh). Otherwise (seed 000,
// section 3) the operands are staged in shared memory, each thread computes
// runs of Q = L/2 consecutive product columns by product scanning in
// registers, runs are paired from both ends of the product so every thread
// does the same number of terms, and the runs' (Q + 2)-word results are
// summed by two group additions. Squares scan each column's products
// a[i] a[j] with i < j once, double them and add the diagonal a[c/2]^2:
// about half the terms of a product.
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

/// Columns [c0, c0 + Q) of A * B (W words each, zero-padded by 2Q words on
/// both sides in shared memory) as Q + 2 words: out = sum_q column_q 2^(32q).
/// Each column keeps its own three-word accumulator, so the Q chains are
/// independent. (Measured on an H100: faster at 4096+ bits than adding each
/// row a[i] * window as one long carry chain, and equal below.)
template <int Q, int W>
MPGPU_HD void product_run(const word_t* A, const word_t* B, int c0, word_t out[Q + 2]) {
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

/// One step of a squaring run at row i: adds A[i] * win[q] to the columns q
/// with q > skip (the terms of the run's first columns whose j <= i), then
/// slides the window to row i + 1.
template <int Q, int W>
MPGPU_HD void square_step(const word_t* A, int c0, int i, int skip, word_t win[Q], word_t lo[Q], word_t hi[Q],
                          word_t cc[Q]) {
  const word_t ai = A[i];
#pragma unroll
  for (int q = 0; q < Q; ++q)
    if (q > skip) mac_word(ai, win[q], lo[q], hi[q], cc[q]);
#pragma unroll
  for (int q = Q - 1; q > 0; --q) win[q] = win[q - 1];
  win[0] = A[c0 - i - 1];
}

/// Columns [c0, c0 + Q) of A^2 (W words, zero-padded by 2Q words on both
/// sides; c0 a multiple of Q, Q even) as Q + 2 words, the same layout as
/// product_run: column c = c0 + q sums A[i] A[c - i] over i < c - i, doubles
/// that and adds A[c/2]^2 when c is even. Rows i < c0/2 pair with every
/// column of the run; the Q/2 rows from c0/2 on with the columns q > 2(i -
/// c0/2) only, a mask known at compile time. The doubled sum stays below
/// W 2^64, so the three-word accumulator holds it.
template <int Q, int W>
MPGPU_HD void square_run(const word_t* A, int c0, word_t out[Q + 2]) {
  static_assert(Q % 2 == 0, "a squaring run needs an even number of columns");
  word_t lo[Q], hi[Q], cc[Q], win[Q];
#pragma unroll
  for (int q = 0; q < Q; ++q) lo[q] = hi[q] = cc[q] = 0;
  // Upper columns (c0 >= W) start at row c0 - W, whose partners j = W + q
  // are the zero padding: then the number of full rows, c0/2 - i_lo, is a
  // multiple of Q/2 for every run (W is a multiple of 2Q).
  const int i_lo = c0 >= W ? c0 - W : 0;
  const int i_mid = c0 / 2;
#pragma unroll
  for (int q = 0; q < Q; ++q) win[q] = A[c0 - i_lo + q];
  int i = i_lo;
  for (; i + Q <= i_mid; i += Q) {
#pragma unroll
    for (int s = 0; s < Q; ++s) square_step<Q, W>(A, c0, i + s, -1, win, lo, hi, cc);
  }
  if (i < i_mid) {  // i_mid - i == Q/2
#pragma unroll
    for (int s = 0; s < Q / 2; ++s) square_step<Q, W>(A, c0, i + s, -1, win, lo, hi, cc);
  }
#pragma unroll
  for (int s = 0; s < Q / 2; ++s) square_step<Q, W>(A, c0, i_mid + s, 2 * s, win, lo, hi, cc);
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    cc[q] = (cc[q] << 1) | (hi[q] >> 31);
    hi[q] = (hi[q] << 1) | (lo[q] >> 31);
    lo[q] <<= 1;
    if (q % 2 == 0) {
      const word_t d = A[i_mid + q / 2];
      mac_word(d, d, lo[q], hi[q], cc[q]);
    }
  }
  fold_columns<Q>(lo, hi, cc, out);
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
/// too). Squares by square_run need an even run length (4+ words a
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
#pragma unroll
  for (int k = 0; k < mine; ++k) {
    if constexpr (square_runs) mul_detail::square_run<(square_runs ? Q : 2), W>(A, my_runs[k] * Q, out[k]);
    else mul_detail::product_run<Q, W>(A, B, my_runs[k] * Q, out[k]);
  }
  env.group.sync();  // A and B are read; their space becomes P0 and P1
  word_t* P0 = env.work;
  word_t* P1 = env.work + E::partial_span;
#pragma unroll
  for (int k = 0; k < mine; ++k) mul_detail::publish_run<Q>(P0, P1, my_runs[k], out[k]);
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
    register_product<E::words, Wide>(a.w, b.w, product);
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
