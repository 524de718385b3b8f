// The Montgomery square a^2 / R mod n by rows, with about half the products
// of a's square (our code). montgomery_mul_rows (rows.cuh) interleaves the
// rows of a b and of q n (CIOS); a square's rows can skip half of a b only
// if every thread skips the same words at each step, or the warp still
// pays for the busiest thread. So the square is separated (SOS):
//
// 1. X = sum_{i<j} a_i a_j B^(i+j) + sum_i floor(a_i^2 / 2) B^(2i), B = 2^32,
//    by rows with no reduction. Each pair {i, j} is computed once, at the
//    step of one of its words, by the owner of the other, chosen so that the
//    words a thread multiplies at a step depend only on the step's index k
//    within its thread, never on the rank: for words w and k that first
//    differ in bit b < log2 M (M the largest power of two dividing L, the
//    words a thread holds), the pair is taken at the step whose index has
//    bit b set. Pairs with w = k (mod M) are taken by the lower word's owner
//    (a runtime select between a_s and 0), and the diagonal, halved, by the
//    step's own thread. Per step a thread multiplies about L/2 + L/M words,
//    against L in a product. The low W words leave the accumulator at the
//    bottom two at a time, as they are final, to the thread that owns them.
// 2. S = 2 X + E = a^2, E = sum_i (a_i & 1) B^(2i) (the halving's dropped bits).
// 3. (S_lo + Q n) / R + S_hi by the rows of q n alone (rows.cuh's second
//    half, the accumulator starting from S_lo), then at most one subtraction
//    of n, as in the product.
//
// 2 W L products a thread for a product become about (3/2) W L + W L / M.
// But a word a step that is not multiplied still takes two additions in the
// carry chain, the halved diagonal a shift and selects, and the two phases
// each shift the accumulator: more integer-pipe instructions than the
// multiply pipe saves. Measured slower than the product by rows (the tuning
// table's kMontgomerySqrRowsMinWordsPerThread, which keeps it off, says
// where), so squares stay products; this form is kept, tested, for the work
// that would make it pay (chains that stop at the last word multiplied,
// with the carry delayed to the shift).
#pragma once

#include "mpgpu/batch/montgomery/rows.cuh"
#include "mpgpu/batch/tuning_table.hpp"

namespace mpgpu::batch {

/// Whether Montgomery squares of E take montgomery_sqr_rows (else a product
/// by rows): tuning_table.hpp's tuned_montgomery_sqr_by_rows(W, G).
template <class E>
inline constexpr bool montgomery_sqr_by_rows = montgomery_by_rows<E> && tuned_montgomery_sqr_by_rows(E::words, E::threads);

namespace mont_sqr_detail {

/// How word w is multiplied at the step of index k (0 <= w, k < L) in
/// phase 1: not at all, by a_s always (the pair's first differing bit b
/// below log2 M is set in k), or by a runtime factor (w = k mod M: the
/// pairs between threads, and the diagonal).
enum class Take { none, always, runtime };

template <int L>
MPGPU_HD constexpr Take take(int w, int k) {
  constexpr int M = L & -L;
  if ((w - k) % M == 0) return Take::runtime;
  int b = 0;  // the lowest bit where w and k differ (below log2 M)
  while ((((w ^ k) >> b) & 1) == 0) ++b;
  return (k >> b) & 1 ? Take::always : Take::none;
}

}  // namespace mont_sqr_detail

/// y = a^2 / R mod n, or that plus n: y < R, for any a < R (the "almost"
/// square, as montgomery_mul_rows<E, false>). With `exact`, y < n when
/// a < n. np0 = -n^{-1} mod 2^32; n odd. y may alias a.
template <class E, bool exact = false>
MPGPU_HD void montgomery_sqr_rows(const E& env, typename E::Num& y, const typename E::Num& a,
                                  const typename E::Num& n, word_t np0) {
  static_assert(montgomery_by_rows<E>, "rows need a group of at most a warp");
  static_assert(E::per_thread <= 32, "phase 2 packs a thread's low bits of a into one word");
  using mont_sqr_detail::Take;
  constexpr int L = E::per_thread;  // even (Env)
  constexpr int G = E::threads;
  const int rank = env.rank();
  const int next = rank + 1;
  word_t al[L + 2], un[L + 1];
  word_t top = 0;
  typename E::Num x_lo;  // phase 1's final low words
#pragma unroll
  for (int j = 0; j < L + 2; ++j) al[j] = 0;
#pragma unroll
  for (int j = 0; j < L + 1; ++j) un[j] = 0;
#pragma unroll
  for (int j = 0; j < L; ++j) x_lo.w[j] = 0;

  // ---- phase 1: X by rows -------------------------------------------------------------
  // The factor of word w at the step (src, k) of broadcast word as: a_s, 0, or
  // for the runtime words a_s or 0 by the order of the global indices
  // (rank L + w against src L + k), the diagonal (w = k in rank src) halved
  // apart: `diag` says whether this thread adds it.
  auto factor = [&](int w, int k, int src, word_t as) -> word_t {
    const Take t = mont_sqr_detail::take<L>(w, k);
    if (t == Take::none) return 0;
    if (t == Take::always) return as;
    const bool below = w < k ? rank <= src : rank < src;  // w == k: rank == src is the diagonal, not here
    return below ? as : 0;
  };
  // Adds the step's products of a's words of parity `odd` into the arrays:
  // the step's products land at position w + shift (shift 0 for the pair's
  // first step, 1 for its second); a product starting at an even position
  // goes to `al`, at an odd one to `un` (word j of un is position j + 1).
  // The diagonal of rank src (w = k) is the halved square, added as a value.
  auto pass = [&](bool odd, int shift, int k, int src, word_t as) {
    const bool into_al = ((odd ? 1 : 0) + shift) % 2 == 0;
    MadChain c;
    if (into_al) {
      // words w = 2p + odd at positions w + shift = 2p + odd + shift (even)
      const int base = odd + shift;  // 0 or 2
      bool started = false;  // the chain opens at the first word taken (constant after unrolling)
#pragma unroll
      for (int p = 0; p < L / 2; ++p) {
        const int w = 2 * p + (odd ? 1 : 0);
        const int pos = 2 * p + base;
        const bool none = mont_sqr_detail::take<L>(w, k) == Take::none;
        if (!started && none) continue;
        started = true;
        if (w == k) {
          const std::uint64_t prod = std::uint64_t{a.w[w]} * (rank <= src ? as : 0u);
          const std::uint64_t v = rank == src ? prod >> 1 : prod;
          al[pos] = c.add(al[pos], static_cast<word_t>(v));
          al[pos + 1] = c.add(al[pos + 1], static_cast<word_t>(v >> 32));
        } else if (none) {
          al[pos] = c.add(al[pos], 0);
          al[pos + 1] = c.add(al[pos + 1], 0);
        } else {
          const word_t f = factor(w, k, src, as);
          al[pos] = c.mad_lo(a.w[w], f, al[pos]);
          al[pos + 1] = c.mad_hi(a.w[w], f, al[pos + 1]);
        }
      }
      if (!started) return;  // no word of this parity at this step
      if (base == 0) {
        al[L] = c.add(al[L], 0);
        al[L + 1] = c.add(al[L + 1], 0);
      }
      top = c.end(top);
    } else {
      // words w = 2p + odd at positions w + shift = 2p + 1 (odd): un[2p], un[2p + 1]
      bool started = false;
#pragma unroll
      for (int p = 0; p < L / 2; ++p) {
        const int w = 2 * p + (odd ? 1 : 0);
        const bool none = mont_sqr_detail::take<L>(w, k) == Take::none;
        if (!started && none) continue;
        started = true;
        if (w == k) {
          const std::uint64_t prod = std::uint64_t{a.w[w]} * (rank <= src ? as : 0u);
          const std::uint64_t v = rank == src ? prod >> 1 : prod;
          un[2 * p] = c.add(un[2 * p], static_cast<word_t>(v));
          un[2 * p + 1] = c.add(un[2 * p + 1], static_cast<word_t>(v >> 32));
        } else if (none) {
          un[2 * p] = c.add(un[2 * p], 0);
          un[2 * p + 1] = c.add(un[2 * p + 1], 0);
        } else {
          const word_t f = factor(w, k, src, as);
          un[2 * p] = c.mad_lo(a.w[w], f, un[2 * p]);
          un[2 * p + 1] = c.mad_hi(a.w[w], f, un[2 * p + 1]);
        }
      }
      if (started) un[L] = c.end(un[L]);
    }
  };
  // Moves the accumulator two words down: positions 0 and 1 (with `un`
  // merged into them) go to the thread below and the top thread takes 0.
  // Rank 0's are final: with `store` (phase 1) they go to x_lo of their
  // owner (rank src, words k and k + 1); in phase 3 they are 0.
  // The accumulator's value: al + un a word up, al[L] the delayed carry into
  // the next thread (un[L - 1], un[L] and al[L + 1] are 0 after a shift).
  auto accumulated = [&] {
    LazySum<E> sum;
    MadChain c;
    sum.n.w[0] = al[0];
#pragma unroll
    for (int j = 1; j < L; ++j) sum.n.w[j] = c.add(al[j], un[j - 1]);
    sum.hi = c.end(al[L]);
    return sum;
  };
  auto shift_down = [&](int k, int src, bool store) {
    word_t s0 = al[0], s1;
    {
      MadChain c;
      s1 = c.add(al[1], un[0]);
      al[2] = c.add(al[2], un[1]);
#pragma unroll
      for (int j = 3; j < L + 2; ++j) al[j] = c.add(al[j], 0);
      top = c.end(top);
    }
    if (store) {
      const word_t f0 = env.group.broadcast(s0, 0), f1 = env.group.broadcast(s1, 0);
      if (rank == src) {
        x_lo.w[k] = f0;
        x_lo.w[k + 1] = f1;
      }
    }
    s0 = mont_rows_detail::from_rank(env, s0, next);
    s1 = mont_rows_detail::from_rank(env, s1, next);
    if (rank == G - 1) s0 = s1 = 0;
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
  };
#pragma unroll 1
  for (int src = 0; src < G; ++src) {
#pragma unroll
    for (int k = 0; k < L; k += 2) {
      const word_t a0 = env.group.broadcast(a.w[k], src);
      const word_t a1 = env.group.broadcast(a.w[k + 1], src);
      pass(false, 0, k, src, a0);
      pass(true, 0, k, src, a0);
      pass(false, 1, k + 1, src, a1);
      pass(true, 1, k + 1, src, a1);
      shift_down(k, src, true);
    }
  }
  // The high half of X.
  typename E::Num x_hi;
  normalize(env, x_hi, accumulated());  // X < R^2 / 2: nothing leaves the top

  // ---- phase 2: S = 2 X + E -----------------------------------------------------------
  typename E::Num s_lo, s_hi;
  {
    // Bit j of `bits` in rank t is a_(t L + j) & 1 (L <= 32 words a thread).
    word_t bits = 0;
#pragma unroll
    for (int j = 0; j < L; ++j) bits |= (a.w[j] & 1u) << j;
    // E's words of block b = half G + rank (positions b L .. b L + L - 1):
    // word j even is position 2i, i = b L / 2 + j / 2, bit (b odd ? L / 2 : 0)
    // + j / 2 of rank b / 2's bits.
    auto e_of = [&](int half) {
      const int b = half * G + rank;
      const word_t src_bits = env.group.broadcast(bits, b >> 1);
      const int off = (b & 1) ? L / 2 : 0;
      typename E::Num e;
#pragma unroll
      for (int j = 0; j < L; ++j) e.w[j] = j % 2 == 0 ? (src_bits >> (off + j / 2)) & 1u : 0u;
      return e;
    };
    // x << 1 with `in` as its new bit 0.
    auto doubled = [&](const typename E::Num& x, word_t in) {
      typename E::Num d;
#pragma unroll
      for (int j = L - 1; j > 0; --j) d.w[j] = (x.w[j] << 1) | (x.w[j - 1] >> 31);
      d.w[0] = (x.w[0] << 1) | in;
      return d;
    };
    const word_t lo_top = env.group.broadcast(x_lo.w[L - 1], G - 1) >> 31;
    const word_t lo_prev = env.group.from_previous(x_lo.w[L - 1]) >> 31;
    const word_t hi_prev = env.group.from_previous(x_hi.w[L - 1]) >> 31;
    const word_t carry = add(env, s_lo, doubled(x_lo, lo_prev), e_of(0));
    add(env, s_hi, doubled(x_hi, rank == 0 ? lo_top : hi_prev), e_of(1), carry);  // S = a^2 < R^2
  }

  // ---- phase 3: (S_lo + Q n) / R by the rows of q n, plus S_hi ---------------------------
#pragma unroll
  for (int j = 0; j < L; ++j) al[j] = s_lo.w[j];
  al[L] = al[L + 1] = 0;
#pragma unroll
  for (int j = 0; j < L + 1; ++j) un[j] = 0;
  top = 0;
  // As montgomery_mul_rows: n_odd * f into `un` (first 1), n_even * f into
  // `un` a word up (first 0), n_even * f and n_odd * f into `al`.
  auto into_un = [&](int first, word_t f) {
    MadChain c;
#pragma unroll
    for (int p = 0; p < L / 2; ++p) {
      un[2 * p] = c.mad_lo(n.w[2 * p + first], f, un[2 * p]);
      un[2 * p + 1] = c.mad_hi(n.w[2 * p + first], f, un[2 * p + 1]);
    }
    un[L] = c.end(un[L]);
  };
  auto into_al_even = [&](word_t f) {
    MadChain c;
#pragma unroll
    for (int p = 0; p < L / 2; ++p) {
      al[2 * p] = c.mad_lo(n.w[2 * p], f, al[2 * p]);
      al[2 * p + 1] = c.mad_hi(n.w[2 * p], f, al[2 * p + 1]);
    }
    al[L] = c.add(al[L], 0);
    al[L + 1] = c.add(al[L + 1], 0);
    top = c.end(top);
  };
  auto into_al_odd = [&](word_t f) {
    MadChain c;
#pragma unroll
    for (int p = 0; p < L / 2; ++p) {
      al[2 * p + 2] = c.mad_lo(n.w[2 * p + 1], f, al[2 * p + 2]);
      al[2 * p + 3] = c.mad_hi(n.w[2 * p + 1], f, al[2 * p + 3]);
    }
    top = c.end(top);
  };
#pragma unroll 1
  for (int src = 0; src < G; ++src) {
#pragma unroll
    for (int k = 0; k < L; k += 2) {
      const word_t q0 = env.group.broadcast(al[0], 0) * np0;  // position 0 is exact in rank 0
      into_al_even(q0);
      into_un(1, q0);
      const word_t q1 = env.group.broadcast(al[1] + un[0], 0) * np0;
      into_un(0, q1);
      into_al_odd(q1);
      shift_down(k, src, false);  // rank 0's positions 0 and 1 are 0 now
    }
  }
  const LazySum<E> sum = accumulated();
  const word_t over_low = normalize(env, y, sum);
  // (S_lo + Q n) / R <= n and S_hi < R: the total is below 2 R.
  const word_t carry = add(env, y, y, s_hi);
  const word_t over = over_low + env.group.broadcast(sum.hi, G - 1) + carry;
  typename E::Num d;
  const word_t borrow = sub(env, d, y, n);
  const bool reduce = over != 0 || (exact && borrow == 0);
  swap_if(env, reduce, y, d);
}

}  // namespace mpgpu::batch
