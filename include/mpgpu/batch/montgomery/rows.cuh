// The Montgomery product a b / R mod n by interleaved rows, in registers,
// for groups of up to a warp (G <= 32): the operand-scanning form (CIOS)
// spread over the group the way CGBN and Emmart's XMP spread it. Thread
// `rank` owns words [rank L, rank L + L) of a, n and the accumulator x;
// each of the W steps
//   - broadcasts one word b_i of b (a shuffle),
//   - adds b_i a to x (two chains: low halves, high halves),
//   - takes q = x_0 (-n^{-1}) mod 2^32 from rank 0 (a shuffle) and adds
//     q n, which makes x_0 zero,
//   - shifts x down a word: each thread takes the next thread's lowest
//     word (a shuffle), fused into the chain of the high halves of q n.
// So a product costs 4 W L multiply-adds a thread (two 32x32 products a
// word pair) and 3 W shuffles, with no shared memory and no
// synchronization beyond the shuffles -- against three whole products
// staged through shared memory for REDC (montgomery.cuh, redc).
//
// Carries between threads are never resolved inside the loop: each thread
// keeps the words that its top word carried out (`top`, two words during a
// step, at most 3 between steps) as a delayed carry into the next thread's
// lowest word, the representation of LazySum (env/arith.cuh). Rank 0's
// lowest word, the one q is computed from, has no delayed carry into it,
// so it is exact at every step. One normalize at the end resolves them.
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/mad_chain.cuh"

namespace mpgpu::batch {

/// Group sizes that multiply Montgomery products by rows: the shuffles of
/// one warp. (Larger groups would exchange through shared memory with a
/// block barrier at each of the W steps; they keep REDC by whole products.)
/// (-DMPGPU_MONTGOMERY_BY_REDC keeps REDC everywhere, for A/B measurements:
/// bench/probes/powm_rows.cu.)
template <class E>
#if defined(MPGPU_MONTGOMERY_BY_REDC)
inline constexpr bool montgomery_by_rows = false;
#else
inline constexpr bool montgomery_by_rows = E::threads <= 32;
#endif

namespace mont_rows_detail {

/// The word of rank `src`'s register v, in every thread; src == G reads
/// rank 0 (a shuffle of width G wraps).
template <class E>
MPGPU_HD word_t from_rank(const E& env, word_t v, int src) {
  return env.group.broadcast(v, src & (E::threads - 1));
}

}  // namespace mont_rows_detail

/// y = a b / R mod n, or that plus n: y < R and y = a b / R (mod n), for any
/// a, b < R (Montgomery's "almost" product: no comparison with n, so a
/// chain of them, e.g. powm's, stays below R without ever being reduced
/// below n). With `exact`, y < n when a b < n R (e.g. a, b < n). np0 is
/// -n^{-1} mod 2^32; n is odd. y may alias a or b.
template <class E, bool exact = false>
MPGPU_HD void montgomery_mul_rows(const E& env, typename E::Num& y, const typename E::Num& a,
                                  const typename E::Num& b, const typename E::Num& n, word_t np0) {
  static_assert(montgomery_by_rows<E>, "rows need a group of at most a warp");
  constexpr int L = E::per_thread;
  word_t x[L];
#pragma unroll
  for (int j = 0; j < L; ++j) x[j] = 0;
  word_t top = 0;  // delayed carry into word L (the next thread's word 0)
  const int next = env.rank() + 1;
#pragma unroll 1
  for (int s = 0; s < E::threads; ++s) {
#pragma unroll
    for (int k = 0; k < L; ++k) {
      const word_t bi = env.group.broadcast(b.w[k], s);
      word_t top2;  // carry into word L + 1 during the step
      {
        MadChain c;  // x += lo(a b_i), the carry into top
#pragma unroll
        for (int j = 0; j < L; ++j) x[j] = c.mad_lo(a.w[j], bi, x[j]);
        top = c.end(top);
      }
      // Rank 0's word 0 is final for this step now: q goes out while the
      // high halves are added.
      const word_t q = env.group.broadcast(x[0], 0) * np0;
      {
        MadChain c;  // x += hi(a b_i) one word up
#pragma unroll
        for (int j = 0; j + 1 < L; ++j) x[j + 1] = c.mad_hi(a.w[j], bi, x[j + 1]);
        top = c.mad_hi(a.w[L - 1], bi, top);
        top2 = c.end(0);
      }
      word_t above;  // the next thread's word 0 after q n's low halves
      {
        MadChain c;  // x += lo(q n)
#pragma unroll
        for (int j = 0; j < L; ++j) x[j] = c.mad_lo(n.w[j], q, x[j]);
        // Rank 0's word 0 is 0 now, so the top thread, which reads rank 0,
        // shifts in a zero.
        above = mont_rows_detail::from_rank(env, x[0], next);
        top = c.add(top, above);
        top2 = c.end(top2);
      }
      {
        MadChain c;  // x = (x + hi(q n) a word up) / 2^32: the shift
#pragma unroll
        for (int j = 0; j + 1 < L; ++j) x[j] = c.mad_hi(n.w[j], q, x[j + 1]);
        x[L - 1] = c.mad_hi(n.w[L - 1], q, top);
        top = c.end(top2);
      }
    }
  }
  // x + top R-words up, over the group, is (a b + Q n) / R < R + n: resolve
  // the delayed carries; the top thread's `top` is the bit R.
  LazySum<E> sum;
#pragma unroll
  for (int j = 0; j < L; ++j) sum.n.w[j] = x[j];
  sum.hi = top;
  const word_t carry = normalize(env, y, sum);
  const word_t over = carry + env.group.broadcast(top, E::threads - 1);
  typename E::Num d;
  const word_t borrow = sub(env, d, y, n);
  // (over : y) >= n: over != 0, or no borrow. Without `exact`, only when
  // over != 0, which is all that keeps y below R.
  const bool reduce = over != 0 || (exact && borrow == 0);
  swap_if(env, reduce, y, d);
}

}  // namespace mpgpu::batch
