// Division of one instance: by a 32-bit scalar (div_ui32, rem_ui32), by a
// 64-bit one (div_ui64, rem_ui64) and by another instance of the same width
// (divide).
//
// Control flow follows env.cuh's rules: every loop that contains a group
// operation runs a trip count that is the same for every instance that
// synchronizes together (uniform_max), and per-instance choices are made by
// computing both sides and selecting, never by skipping a call.
//
// divide is word-level long division (Knuth's algorithm D): one quotient
// word per step, at most W + 1 steps of O(W/G) work and about six group
// operations each (it replaced restoring division, one step per quotient
// bit).
#pragma once

#include "mpgpu/batch/env.cuh"

namespace mpgpu::batch {

/// Per-instance status of the operations that can fail, in every thread.
enum : word_t {
  status_ok = 0,
  status_zero_divisor = 1,  ///< divide (and invert) by zero
  status_no_inverse = 2,    ///< invert: gcd(a, m) != 1
};

/// r = c ? x : y without a branch (c the same in the group's threads).
template <class E>
MPGPU_HD void select(const E&, typename E::Num& r, bool c, const typename E::Num& x, const typename E::Num& y) {
  const word_t mask = c ? ~word_t{0} : 0u;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = (x.w[i] & mask) | (y.w[i] & ~mask);
}

/// The largest v (>= 0) over every instance that synchronizes with this one
/// (the warp for G <= 32, or only the instance with WarpSync::group; with
/// G > 32 the block holds one instance and v is already the group's), so a
/// loop it bounds keeps every lane on one path.
template <class E>
MPGPU_HD int uniform_max(const E& env, int v) {
  return env.group.uniform_max(v);
}

/// Bits of a (0 for zero), in every thread.
template <class E>
MPGPU_HD int bit_length(const E& env, const typename E::Num& a) {
  return E::words * word_bits - count_leading_zeros(env, a);
}

/// Bit 0 of a, in every thread.
template <class E>
MPGPU_HD word_t low_bit(const E& env, const typename E::Num& a) {
  return env.group.broadcast(a.w[0] & 1u, 0);
}

/// Bit 32W - 1 of a (the two's complement sign), in every thread.
template <class E>
MPGPU_HD word_t top_bit(const E& env, const typename E::Num& a) {
  return env.group.broadcast(a.w[E::per_thread - 1] >> (word_bits - 1), E::threads - 1);
}

/// a |= 2^bit (0 <= bit < 32W) when `set`; no group operation. The unrolled
/// compare keeps a in registers (a run-time index would not).
template <class E>
MPGPU_HD void or_bit(const E& env, typename E::Num& a, int bit, bool set) {
  const int word = bit / word_bits - env.first_word();
  const word_t v = static_cast<word_t>(set) << (bit % word_bits);
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i)
    if (i == word) a.w[i] |= v;
}

namespace divide_detail {
/// (hi:lo) mod d for hi < d.
MPGPU_HD word_t rem_step(word_t hi, word_t lo, word_t d) {
  return static_cast<word_t>(((static_cast<std::uint64_t>(hi) << word_bits) | lo) % d);
}

/// The remainder entering this thread's words from the higher threads': their
/// words mod d (d != 0). Each thread publishes its words mod d in env.work
/// (G words), then folds the higher ones by Horner with B^L mod d, B = 2^32.
/// The fold loops over ranks, but holds no group operation.
template <class E>
MPGPU_HD word_t incoming_remainder(const E& env, const typename E::Num& a, word_t d) {
  if constexpr (E::threads == 1) {
    (void)env, (void)a, (void)d;
    return 0;
  } else {
    word_t mine = 0, beta = 1u % d;
#pragma unroll
    for (int i = E::per_thread - 1; i >= 0; --i) {
      mine = rem_step(mine, a.w[i], d);
      beta = rem_step(beta, 0, d);
    }
    env.group.sync();  // earlier readers of work are done
    env.work[env.rank()] = mine;
    env.group.sync();
    std::uint64_t r = 0;  // r beta + c < d^2 + d < 2^64
    for (int k = E::threads - 1; k > env.rank(); --k) r = (r * beta + env.work[k]) % d;
    return static_cast<word_t>(r);
  }
}
}  // namespace divide_detail

/// q = floor(a / d) for a 32-bit d != 0; returns a mod d (in every thread).
/// q may be a. d == 0 is the caller's to rule out (it is one scalar): it
/// gives q = all ones and returns 0, with no division by zero.
/// Scratch: G words of env.work.
template <class E>
MPGPU_HD word_t div_ui32(const E& env, typename E::Num& q, const typename E::Num& a, word_t d) {
  const word_t dd = d ? d : 1u;
  word_t r = divide_detail::incoming_remainder(env, a, dd);
#pragma unroll
  for (int i = E::per_thread - 1; i >= 0; --i) {
    const std::uint64_t cur = (static_cast<std::uint64_t>(r) << word_bits) | a.w[i];
    q.w[i] = static_cast<word_t>(cur / dd);
    r = static_cast<word_t>(cur % dd);
  }
  r = env.group.broadcast(r, 0);  // thread 0's outgoing remainder is the instance's
  if (d == 0) {  // no group operation inside: a per-instance branch is fine
#pragma unroll
    for (int i = 0; i < E::per_thread; ++i) q.w[i] = ~word_t{0};
    r = 0;
  }
  return r;
}

/// a mod d for a 32-bit d (0 for d == 0), in every thread.
template <class E>
MPGPU_HD word_t rem_ui32(const E& env, const typename E::Num& a, word_t d) {
  const word_t dd = d ? d : 1u;
  word_t r = divide_detail::incoming_remainder(env, a, dd);
#pragma unroll
  for (int i = E::per_thread - 1; i >= 0; --i) r = divide_detail::rem_step(r, a.w[i], dd);
  r = env.group.broadcast(r, 0);
  return d ? r : 0u;
}

namespace divide_detail {
/// Word k of a in every thread of the group; 0 for k outside [0, W). The
/// owner picks the word out with an unrolled compare (a stays in registers),
/// then one broadcast: a group operation for every k.
template <class E>
MPGPU_HD word_t word_at(const E& env, const typename E::Num& a, int k) {
  const bool inside = k >= 0 && k < E::words;
  const int owner = inside ? k / E::per_thread : 0, local = inside ? k - owner * E::per_thread : -1;
  word_t v = 0;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i)
    if (i == local) v = a.w[i];
  v = env.group.broadcast(v, owner);
  return inside ? v : 0u;
}

/// Knuth's quotient word estimate (TAOCP 4.3.1, D3): from the window's top
/// words u2:u1:u0 and the divisor's top words v1 (top bit set), v2, a q with
/// q - 2 <= true quotient word <= q, at most one too large after the test.
MPGPU_HD word_t estimate_quotient_word(word_t u2, word_t u1, word_t u0, word_t v1, word_t v2) {
  const std::uint64_t num = (static_cast<std::uint64_t>(u2) << word_bits) | u1;
  std::uint64_t q = num / v1, r = num % v1;
  if (q > 0xffffffffull) {  // u2 == v1: the estimate is capped at B - 1
    q = 0xffffffffull;
    r = num - q * v1;
  }
  while (r <= 0xffffffffull && q * v2 > ((r << word_bits) | u0)) {
    --q;
    r += v1;
  }
  return static_cast<word_t>(q);
}
}  // namespace divide_detail

/// q = floor(a / b), r = a mod b. Returns status_ok, or status_zero_divisor
/// for b == 0, which gives q = all ones and r = a (as RISC-V's divu/remu).
/// q and r must be distinct; either may be a or b.
///
/// Word-level long division (Knuth's algorithm D, TAOCP 4.3.1): b is
/// shifted left until its top word's top bit is set (d = b << s, n words),
/// a by the same s into W + 1 words u (the word above the class width is a
/// scalar every thread holds). For each quotient word j, top down, the
/// estimate q from u's three top window words and d's two top words is the
/// true word or one more (D3's test); u -= q d B^j by two group subtractions
/// (the low and the high halves of the 32x32 products, so no carry runs
/// along a thread's words), and if that went negative d B^j is added back
/// and q decreases. r = u >> s. The divisor is staged once in env.work (W
/// words), and each step broadcasts three words of u: about six group
/// operations a quotient word, against a few per quotient bit for restoring
/// division. The loop runs the warp's largest quotient length; steps above an
/// instance's own leave it unchanged.
template <class E>
MPGPU_HD word_t divide(const E& env, typename E::Num& q, typename E::Num& r, const typename E::Num& a,
                       const typename E::Num& b) {
  using Num = typename E::Num;
  constexpr int W = E::words, L = E::per_thread;
  const bool zero = is_zero(env, b);
  const int la = bit_length(env, a), lb = bit_length(env, b);
  const int n = zero ? 1 : (lb + word_bits - 1) / word_bits;  // words of b
  const int s = zero ? 0 : (word_bits - lb % word_bits) % word_bits;
  Num d, u;
  shift_left(env, d, b, s);
  shift_left(env, u, a, s);
  const word_t a_top = env.group.broadcast(a.w[L - 1], E::threads - 1);
  word_t u_top = s ? a_top >> (word_bits - s) : 0u;  // word W of a << s
  const int na = (la + s + word_bits - 1) / word_bits;  // words of a << s
  const int m = (zero || na < n) ? -1 : na - n;          // top quotient word; -1: none
  const int steps = uniform_max(env, m + 1);
  // d for the shifted reads; the words past W read as 0.
  env.group.sync();  // earlier readers of work are done
#pragma unroll
  for (int i = 0; i < L; ++i) env.work[env.first_word() + i] = d.w[i];
  env.group.sync();
  auto d_word = [&](int k) { return (k >= 0 && k < W) ? env.work[k] : 0u; };
  const word_t v1 = zero ? 1u : d_word(n - 1), v2 = d_word(n - 2);
  Num quo;
  set_zero(env, quo);
  for (int j = steps - 1; j >= 0; --j) {
    const bool active = j <= m;
    // u's window top words: u[j + n], u[j + n - 1], u[j + n - 2] (u[W] is
    // u_top, u[W + 1] is 0).
    const word_t w2 = divide_detail::word_at(env, u, j + n), w1 = divide_detail::word_at(env, u, j + n - 1),
                 w0 = divide_detail::word_at(env, u, j + n - 2);
    const word_t u2 = j + n == W ? u_top : w2, u1 = j + n - 1 == W ? u_top : w1;
    word_t qw = divide_detail::estimate_quotient_word(u2, u1, w0, v1, v2);
    // u - qw d B^j: lo[k] = low(qw d[k - j]), hi[k] = high(qw d[k - j - 1]).
    Num lo, hi, t, back;
#pragma unroll
    for (int i = 0; i < L; ++i) {
      const int k = env.first_word() + i;
      lo.w[i] = qw * d_word(k - j);
      hi.w[i] = static_cast<word_t>((static_cast<std::uint64_t>(qw) * d_word(k - j - 1)) >> word_bits);
    }
    const word_t b1 = sub(env, t, u, lo);
    const word_t b2 = sub(env, t, t, hi);
    // Words W and W + 1 of the difference, modulo 2^64; the true value of
    // (u - qw d B^j) >> 32W lies in [-B, B), so the wrapped one tells the sign.
    const std::uint64_t p_w = static_cast<std::uint64_t>(qw * d_word(W - j)) +
                              ((static_cast<std::uint64_t>(qw) * d_word(W - j - 1)) >> word_bits);
    const std::uint64_t p_w1 = static_cast<std::uint64_t>(qw * d_word(W + 1 - j)) +
                               ((static_cast<std::uint64_t>(qw) * d_word(W - j)) >> word_bits);
    const std::uint64_t top = static_cast<std::uint64_t>(u_top) - p_w - b1 - b2 - (p_w1 << word_bits);
    const bool negative = static_cast<std::int64_t>(top) < 0;
    // The add-back (D6), computed by every instance, kept by the negative ones.
#pragma unroll
    for (int i = 0; i < L; ++i) lo.w[i] = d_word(env.first_word() + i - j);
    const word_t c = add(env, back, t, lo);
    const std::uint64_t top_back = top + d_word(W - j) + c;  // word W + 1 becomes 0
    select(env, t, negative, back, t);
    select(env, u, active, t, u);
    u_top = active ? static_cast<word_t>(negative ? top_back : top) : u_top;
    qw -= negative ? 1u : 0u;
    // Quotient word j (j < W whenever it can be nonzero).
#pragma unroll
    for (int i = 0; i < L; ++i)
      if (active && env.first_word() + i == j) quo.w[i] = qw;
  }
  shift_right(env, r, u, s);
  if (zero) {  // local: no group operation
#pragma unroll
    for (int i = 0; i < L; ++i) quo.w[i] = ~word_t{0};
  }
  q = quo;  // (b == 0: s = 0 and no step ran, so r = u = a)
  return zero ? status_zero_divisor : status_ok;
}

/// q = floor(a / d) for a 64-bit d; returns a mod d (in every thread). A
/// whole `divide` by d as an instance (its scratch and steps), so where d
/// fits 32 bits div_ui32 is much cheaper; a kernel whose d is the same for
/// every instance can choose between them (the host API does). d == 0 as
/// div_ui32: q = all ones, returns 0.
template <class E>
MPGPU_HD std::uint64_t div_ui64(const E& env, typename E::Num& q, const typename E::Num& a, std::uint64_t d) {
  typename E::Num dn, r;
  set_ui64(env, dn, d);
  divide(env, q, r, a, dn);
  const word_t r0 = env.group.broadcast(r.w[0], 0), r1 = env.group.broadcast(r.w[1], 0);
  return d ? (static_cast<std::uint64_t>(r1) << word_bits) | r0 : 0u;
}

/// a mod d for a 64-bit d (0 for d == 0), in every thread; as div_ui64.
template <class E>
MPGPU_HD std::uint64_t rem_ui64(const E& env, const typename E::Num& a, std::uint64_t d) {
  typename E::Num q;
  return div_ui64(env, q, a, d);
}

}  // namespace mpgpu::batch
