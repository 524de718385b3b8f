// The Montgomery product a b / R mod n by interleaved rows, in registers,
// for groups of up to a warp (G <= 32): the operand-scanning form (CIOS)
// spread over the group as CGBN spreads it (our code). Thread `rank` owns
// words [rank L, rank L + L) of a, n and the accumulator; each of the W/2
// steps
//   - broadcasts two words b0, b1 of b (shuffles) and adds (b0 + b1 2^32) a,
//   - takes q0, then q1 = (position 0, then 1) (-n^{-1}) mod 2^32 from
//     rank 0 (shuffles) and adds (q0 + q1 2^32) n, which zeroes positions
//     0 and 1,
//   - hands its positions 0 and 1 to the thread below (shuffles): the
//     accumulator moves two words down.
// The low and high halves of each 32x32 product are adjacent links of one
// carry chain, so ptxas makes each product one IMAD.WIDE, which holds the
// multiply pipe 4 cycles a warp against 2 + 4 for IMAD + IMAD.HI (the
// measured difference: docs/batch.md, "Montgomery products"). For that the
// accumulator is two arrays: `al`, word k at position k, takes the
// products that start on an even position, `un`, word k at position k + 1,
// those that start on an odd one (CGBN's "wmad" layout).
//
// A product costs 2 W L 32x32 products a thread and 3 W shuffles, with no
// shared memory and no synchronization beyond the shuffles -- against
// three whole products staged through shared memory for REDC
// (montgomery.cuh, redc). Carries between threads are never resolved in
// the loop: each thread keeps its carries out past position L - 1 as a
// delayed carry into the next thread (the representation of LazySum,
// env/arith.cuh); rank 0's positions 0 and 1, which q comes from, get no
// delayed carry, so they are exact at every step. One normalize at the end
// resolves them.
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/mad_chain.cuh"

namespace mpgpu::batch {

/// Group sizes that multiply Montgomery products by rows: the shuffles of
/// one warp. (Larger groups would exchange through shared memory with a
/// block barrier at each step; they keep REDC by whole products.)
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
  constexpr int L = E::per_thread;  // even (Env)
  word_t al[L + 2], un[L + 1];
#pragma unroll
  for (int j = 0; j < L + 2; ++j) al[j] = 0;
#pragma unroll
  for (int j = 0; j < L + 1; ++j) un[j] = 0;
  word_t top = 0;  // position L + 2
  const int next = env.rank() + 1;
  // a_odd * f into `un` (positions 2p+1, 2p+2), or a_even * f (the same positions): pairs p.
  auto into_un = [&](const word_t* x, int first, word_t f, MadChain& c) {
#pragma unroll
    for (int p = 0; p < L / 2; ++p) {
      un[2 * p] = c.mad_lo(x[2 * p + first], f, un[2 * p]);
      un[2 * p + 1] = c.mad_hi(x[2 * p + first], f, un[2 * p + 1]);
    }
    un[L] = c.end(un[L]);
  };
  // x_even * f into `al` at positions (2p, 2p+1).
  auto into_al_even = [&](const word_t* x, word_t f) {
    MadChain c;
#pragma unroll
    for (int p = 0; p < L / 2; ++p) {
      al[2 * p] = c.mad_lo(x[2 * p], f, al[2 * p]);
      al[2 * p + 1] = c.mad_hi(x[2 * p], f, al[2 * p + 1]);
    }
    al[L] = c.add(al[L], 0);
    al[L + 1] = c.add(al[L + 1], 0);
    top = c.end(top);
  };
  // x_odd * f into `al` at positions (2p+2, 2p+3).
  auto into_al_odd = [&](const word_t* x, word_t f) {
    MadChain c;
#pragma unroll
    for (int p = 0; p < L / 2; ++p) {
      al[2 * p + 2] = c.mad_lo(x[2 * p + 1], f, al[2 * p + 2]);
      al[2 * p + 3] = c.mad_hi(x[2 * p + 1], f, al[2 * p + 3]);
    }
    top = c.end(top);
  };
#pragma unroll 1
  for (int s = 0; s < E::threads; ++s) {
#pragma unroll
    for (int k = 0; k < L; k += 2) {
      const word_t b0 = env.group.broadcast(b.w[k], s);
      const word_t b1 = env.group.broadcast(b.w[k + 1], s);
      {
        MadChain c;
        into_un(a.w, 1, b0, c);
      }
      into_al_even(a.w, b0);
      const word_t q0 = env.group.broadcast(al[0], 0) * np0;  // position 0 is final
      {
        MadChain c;
        into_un(a.w, 0, b1, c);
      }
      into_al_odd(a.w, b1);
      into_al_even(n.w, q0);
      {
        MadChain c;
        into_un(n.w, 1, q0, c);
      }
      // Position 0 is 0 in rank 0; position 1 is al[1] + un[0] there.
      const word_t q1 = env.group.broadcast(al[1] + un[0], 0) * np0;
      {
        MadChain c;
        into_un(n.w, 0, q1, c);
      }
      into_al_odd(n.w, q1);
      // Merge `un` into `al` at positions 1 and 2 (the words that leave
      // `un` with the shift; the carry runs up `al`, on the integer pipe,
      // which the products leave idle), and hand positions 0 and 1 to the
      // thread below, as its positions L and L + 1; rank 0's are 0, which
      // the top thread shifts in.
      word_t s0 = al[0], s1;
      {
        MadChain c;
        s1 = c.add(al[1], un[0]);
        al[2] = c.add(al[2], un[1]);
#pragma unroll
        for (int j = 3; j < L + 2; ++j) al[j] = c.add(al[j], 0);
        top = c.end(top);
      }
      s0 = mont_rows_detail::from_rank(env, s0, next);
      s1 = mont_rows_detail::from_rank(env, s1, next);
#pragma unroll
      for (int j = 0; j + 2 < L; ++j) al[j] = al[j + 2];
      {
        MadChain c;
        al[L - 2] = c.add(al[L], s0);
        al[L - 1] = c.add(al[L + 1], s1);
        al[L] = c.end(top);
      }
      al[L + 1] = 0;
      top = 0;
#pragma unroll
      for (int j = 0; j + 2 <= L; ++j) un[j] = un[j + 2];
      un[L - 1] = 0;
      un[L] = 0;
    }
  }
  // The thread's value: al + un a word up, with al[L] (position L) as the
  // delayed carry into the next thread (un[L-1], un[L] and al[L+1] are 0
  // after the last shift).
  LazySum<E> sum;
  {
    MadChain c;
    sum.n.w[0] = al[0];
#pragma unroll
    for (int j = 1; j < L; ++j) sum.n.w[j] = c.add(al[j], un[j - 1]);  // the chain starts at j = 1
    sum.hi = c.end(al[L]);
  }
  const word_t over_low = normalize(env, y, sum);
  const word_t over = over_low + env.group.broadcast(sum.hi, E::threads - 1);
  typename E::Num d;
  const word_t borrow = sub(env, d, y, n);
  const bool reduce = over != 0 || (exact && borrow == 0);
  swap_if(env, reduce, y, d);
}

}  // namespace mpgpu::batch
