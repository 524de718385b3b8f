// Greatest common divisor and modular inverse of one instance by Bernstein
// and Yang's divsteps ("Fast constant-time gcd computation and modular
// inversion", 2019): 30 divsteps at a time on the low words alone, as a
// 2x2 matrix of integers below 2^30 in absolute value, then applied to the
// whole numbers with four products by one word each. A binary gcd step
// costs a few whole-number operations per bit; 30 divsteps cost the same
// whole-number work once, plus scalar work that every thread of the group
// repeats (it needs no communication).
//
// A divstep maps (delta, f, g), f odd, to
//   (1 - delta, g, (g - f) / 2)   if delta > 0 and g is odd,
//   (1 + delta, f, (g + f) / 2)   if g is odd,
//   (1 + delta, f, g / 2)         otherwise,
// keeps gcd(f, g) up to sign and never raises max(|f|, |g|); g reaches 0 (and
// f = +-gcd) within (49 d + 80) / 17 divsteps for |f|, |g| < 2^d (the paper's
// bound), so f and g stay in (-2^(32W), 2^(32W)): W words and a sign. The
// loop stops early once g = 0 in every instance of the warp, which for
// random inputs comes well before the bound. Divsteps on g = 0 change nothing,
// so an instance that is done early rides along unchanged.
//
// The 30 divsteps of a batch run in variable time per instance (zeros of g
// removed at once, up to 8 low bits of g cancelled with one product), with
// no group operation inside, so instances in one warp may take different
// paths there and meet again at the whole-number step.
#pragma once

#include <cstdint>

#include "mpgpu/batch/divide.cuh"  // uniform_max
#include "mpgpu/batch/mad_chain.cuh"

namespace mpgpu::batch {

namespace divsteps_detail {

inline constexpr int kBatch = 30;  ///< divsteps per matrix: its entries stay within 2^30
inline constexpr word_t kBatchMask = (word_t{1} << kBatch) - 1u;

/// 2^30 (f', g') = (u f + v g, q f + r g) after a batch.
struct Matrix {
  std::int32_t u, v, q, r;
};

/// -f^{-1} mod 2^8 for odd f (Newton from x = f, right mod 8: each step
/// doubles the correct low bits, 6 then 12).
MPGPU_HD word_t negated_inverse8(word_t f) {
  word_t x = f;
  x *= 2u - f * x;
  x *= 2u - f * x;
  return 0u - x;
}

/// 30 divsteps on the low words f (odd) and g, from eta = -delta; returns
/// eta after them. Matrix entries are kept scaled so that after s steps
/// f_s 2^s = u f + v g and g_s 2^s = q f + r g (halving g doubles u and v).
MPGPU_HD int divsteps30(int eta, word_t f, word_t g, Matrix& m) {
  // Valid inputs have f odd; an invalid instance (its result is thrown
  // away) must still end: with f even, g would stay odd for ever.
  f |= 1u;
  word_t u = 1, v = 0, q = 0, r = 1;
  int left = kBatch;
  for (;;) {
    // A sentinel bit at `left` stops the count of g's zeros there.
    const int zeros = ctz_word(g | (~word_t{0} << left));
    g >>= zeros;
    u <<= zeros;
    v <<= zeros;
    eta -= zeros;
    left -= zeros;
    if (left == 0) break;
    // g is odd. delta > 0: swap, (f, g) <- (g, -f), so that g + f below is
    // the divstep's g - f.
    if (eta < 0) {
      eta = -eta;
      const word_t tf = f, tu = u, tv = v;
      f = g, u = q, v = r;
      g = 0u - tf, q = 0u - tu, r = 0u - tv;
    }
    // The next divsteps add f to g while g is odd and halve it: as many as
    // neither swap again (eta + 1) nor pass the batch (left), at most 8 (the
    // inverse's precision), at once: g + w f with w making them zero.
    const int limit = eta + 1 < left ? eta + 1 : left;
    const word_t mask = (~word_t{0} >> (32 - limit)) & 255u;
    const word_t w = (g * negated_inverse8(f)) & mask;
    g += f * w;
    q += u * w;
    r += v * w;
  }
  m = {static_cast<std::int32_t>(u), static_cast<std::int32_t>(v), static_cast<std::int32_t>(q),
       static_cast<std::int32_t>(r)};
  return eta;
}

/// (even, odd) += c (x ^ mask): one row of products by the word c, the
/// products of even words into `even` (positions i, i + 1; carry out at L),
/// those of odd words into `odd` (positions i, i + 1 up to L). Each
/// product's halves are adjacent links of one carry chain, which ptxas
/// makes one IMAD.WIDE (as montgomery/rows.cuh does). odd's carry out past
/// position L is dropped: the caller's sum is below 2^32 at positions L and
/// up, so it is exact mod 2^32 there.
template <int L>
MPGPU_HD void mad_row(word_t (&even)[L + 1], word_t (&odd)[L + 1], const word_t (&x)[L], word_t c, word_t mask) {
  {
    MadChain chain;
#pragma unroll
    for (int i = 0; i < L; i += 2) {
      even[i] = chain.mad_lo(x[i] ^ mask, c, even[i]);
      even[i + 1] = chain.mad_hi(x[i] ^ mask, c, even[i + 1]);
    }
    even[L] = chain.end(even[L]);
  }
  MadChain chain;
#pragma unroll
  for (int i = 1; i < L; i += 2) {
    odd[i] = chain.mad_lo(x[i] ^ mask, c, odd[i]);
    odd[i + 1] = chain.mad_hi(x[i] ^ mask, c, odd[i + 1]);
  }
}

/// The word v of rank + 1, in rank G - 1 `top` (G <= 32: a shuffle).
template <class E>
MPGPU_HD word_t word_from_next(const E& env, word_t v, word_t top) {
  const word_t next = env.group.broadcast(v, (env.rank() + 1) & (E::threads - 1));
  return env.rank() == E::threads - 1 ? top : next;
}

/// r + h 2^(32W) = (sum_k c[k] x[k]) / 2^30 for signed x[k] (W words, two's
/// complement, less 2^(32W) when negative[k]) and |c[k]| <= 2^30 with sum
/// |c[k]| <= 2^31; the sum must be a multiple of 2^30 (and is below 2^31
/// 2^(32W) in absolute value: it is taken mod 2^(32(W+1))). Returns h, in
/// [-2, 1]: -1 or 0 (the sign) for a quotient in (-2^(32W), 2^(32W)).
///
/// Everything is computed mod 2^(32(W+1)) with unsigned products: c x for
/// c < 0 is |c| (~x + 1) over W + 1 words, so each term is |c| times the W
/// words of x or ~x, plus |c| at word 0 for the +1, plus |c| times the term's
/// sign word (0 or ~0) at word W. Each thread's part of the sum at its
/// positions L and up (its delayed carry) stays below 2^32 (the tops of the
/// rows are below |c[k]|, plus a carry each), so one normalize resolves the
/// whole sum.
template <class E, int K>
MPGPU_HD int combine_shift30(const E& env, typename E::Num& r, const typename E::Num* const (&x)[K],
                              const bool (&negative)[K], const std::int32_t (&c)[K]) {
  constexpr int L = E::per_thread;
  word_t plus_one = 0, top = 0;  // the +1s at word 0; word W of the terms
  word_t a[K], mask[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const bool minus = c[k] < 0;
    a[k] = minus ? 0u - static_cast<word_t>(c[k]) : static_cast<word_t>(c[k]);
    mask[k] = minus ? ~word_t{0} : 0u;
    if (minus) plus_one += a[k];
    if (minus != negative[k]) top -= a[k];  // |c| times the sign word ~0
  }
  word_t even[L + 1], odd[L + 1];
#pragma unroll
  for (int i = 0; i <= L; ++i) even[i] = 0, odd[i] = 0;
  if (env.rank() == 0) even[0] = plus_one;
#pragma unroll
  for (int k = 0; k < K; ++k) mad_row<L>(even, odd, x[k]->w, a[k], mask[k]);
  LazySum<E> sum;
  {
    MadChain chain;
    sum.n.w[0] = even[0];
#pragma unroll
    for (int i = 1; i < L; ++i) sum.n.w[i] = chain.add(even[i], odd[i]);
    sum.hi = chain.end(even[L], odd[L]);
  }
  typename E::Num t;
  top += normalize(env, t, sum) + env.group.broadcast(sum.hi, E::threads - 1);
  // t + top 2^(32W) is the sum; its quotient by 2^30 keeps top's low 30 bits.
  if constexpr (E::threads <= 32) {
    const word_t next = word_from_next(env, t.w[0], top);
#pragma unroll
    for (int i = 0; i + 1 < L; ++i) r.w[i] = (t.w[i] >> kBatch) | (t.w[i + 1] << (32 - kBatch));
    r.w[L - 1] = (t.w[L - 1] >> kBatch) | (next << (32 - kBatch));
  } else {
    shift_right(env, r, t, kBatch);
    if (env.rank() == E::threads - 1) r.w[L - 1] |= top << (32 - kBatch);
  }
  return static_cast<std::int32_t>(top) >> kBatch;
}

/// y in [0, n) from y + h 2^(32W) in (-n, 2n) (n may be as large as
/// 2^(32W) - 1, so 2n needs the word h): y + n when h < 0, else y - n
/// (y + ~n + 1) unless that borrows with h = 0. One carry resolve.
template <class E>
MPGPU_HD void reduce_once(const E& env, typename E::Num& y, int h, const typename E::Num& n) {
  typename E::Num t;
  const word_t mask = h < 0 ? 0u : ~word_t{0};
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) t.w[i] = n.w[i] ^ mask;
  const word_t carry = add(env, t, y, t, h < 0 ? 0u : 1u);
  select(env, y, h != 0 || carry != 0, t, y);
}

}  // namespace divsteps_detail

/// Runs divsteps on (f, g), f odd, until g = 0 in every instance of the
/// warp; f then holds +-gcd(f, g) (f_negative its sign). With Extended, d
/// and e follow with f = d x, g = e x (mod n) for the caller's x, starting
/// from d, e in [0, n) (n odd, np0 = -n^{-1} mod 2^32) and staying there.
template <bool Extended, class E>
MPGPU_HD void run_divsteps(const E& env, typename E::Num& f, bool& f_negative, typename E::Num& g,
                           typename E::Num& d, typename E::Num& e, const typename E::Num& n, word_t np0) {
  using namespace divsteps_detail;
  using Num = typename E::Num;
  constexpr int bits = E::words * word_bits;
  constexpr int batches = ((49 * bits + 80) / 17 + kBatch - 1) / kBatch;
  bool g_negative = false;
  f_negative = false;
  int eta = -1;  // delta = 1
  for (int b = 0; b < batches; ++b) {
    if (uniform_max(env, is_zero(env, g) ? 0 : 1) == 0) break;
    Matrix m;
    eta = divsteps30(eta, env.group.broadcast(f.w[0], 0), env.group.broadcast(g.w[0], 0), m);
    Num nf, ng;
    const Num* const fg[2] = {&f, &g};
    const bool signs[2] = {f_negative, g_negative};
    f_negative = combine_shift30<E, 2>(env, nf, fg, signs, {m.u, m.v}) < 0;
    g_negative = combine_shift30<E, 2>(env, ng, fg, signs, {m.q, m.r}) < 0;
    f = nf;
    g = ng;
    if constexpr (Extended) {
      // (u d + v e + k n) / 2^30 with k making the sum a multiple of 2^30:
      // in (-n, 2n) for d, e in [0, n), brought back to [0, n).
      const word_t d0 = env.group.broadcast(d.w[0], 0), e0 = env.group.broadcast(e.w[0], 0);
      const auto k_of = [&](std::int32_t cd, std::int32_t ce) {
        return static_cast<std::int32_t>(((static_cast<word_t>(cd) * d0 + static_cast<word_t>(ce) * e0) * np0) &
                                         kBatchMask);
      };
      const Num* const den[3] = {&d, &e, &n};
      const bool nonnegative[3] = {false, false, false};
      Num nd, ne;
      const int d_high = combine_shift30<E, 3>(env, nd, den, nonnegative, {m.u, m.v, k_of(m.u, m.v)});
      const int e_high = combine_shift30<E, 3>(env, ne, den, nonnegative, {m.q, m.r, k_of(m.q, m.r)});
      reduce_once(env, nd, d_high, n);
      reduce_once(env, ne, e_high, n);
      d = nd;
      e = ne;
    }
  }
}

}  // namespace mpgpu::batch
