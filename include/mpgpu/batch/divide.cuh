// Division of one instance: by a 32-bit scalar (div_ui32, rem_ui32) and by
// another instance of the same width (divide).
//
// Control flow follows env.cuh's rules: every loop that contains a group
// operation runs a trip count that is the same for every instance that
// synchronizes together (uniform_max), and per-instance choices are made by
// computing both sides and selecting, never by skipping a call.
//
// divide is bit-serial restoring division: one trial subtraction per
// quotient bit, at most 32W steps of O(W/G) work and a few synchronizations
// each, so O(32 W^2 / G) per thread. A word-level (Knuth D) version would
// need W steps; it is future work.
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
/// (the warp for G <= 32; with G > 32 the block holds one instance and v is
/// already the group's), so a loop it bounds keeps every lane on one path.
template <class E>
MPGPU_HD int uniform_max(const E&, int v) {
#if defined(__CUDA_ARCH__)
  if constexpr (E::threads <= 32) v = static_cast<int>(__reduce_max_sync(0xffffffffu, static_cast<unsigned>(v)));
#endif
  return v;
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

/// q = floor(a / b), r = a mod b. Returns status_ok, or status_zero_divisor
/// for b == 0, which gives q = all ones and r = a (as RISC-V's divu/remu).
/// q and r must be distinct; either may be a or b.
///
/// Restoring division, one quotient bit per step: with s = bits(a) - bits(b),
/// d = b << s, and for j = s .. 0 the trial r - d is kept when it does not
/// borrow (quotient bit j), then d >>= 1. The loop runs the warp's largest
/// s + 1 steps; steps above an instance's own s leave it unchanged.
template <class E>
MPGPU_HD word_t divide(const E& env, typename E::Num& q, typename E::Num& r, const typename E::Num& a,
                       const typename E::Num& b) {
  using Num = typename E::Num;
  const bool zero = is_zero(env, b);
  const int la = bit_length(env, a), lb = bit_length(env, b);
  const int s = (zero || la < lb) ? 0 : la - lb;  // < 32W, so shifts never take their early return
  const int steps = uniform_max(env, s + 1);
  Num d, rem = a, quo;
  shift_left(env, d, b, s);
  set_zero(env, quo);
  for (int j = steps - 1; j >= 0; --j) {
    const bool active = j <= s;
    Num t, h;
    const word_t borrow = sub(env, t, rem, d);
    const bool take = active && borrow == 0;
    select(env, rem, take, t, rem);
    or_bit(env, quo, j, take);
    shift_right(env, h, d, 1);
    select(env, d, active, h, d);
  }
  if (zero) {  // local: no group operation
#pragma unroll
    for (int i = 0; i < E::per_thread; ++i) quo.w[i] = ~word_t{0};
  }
  q = quo;
  r = rem;
  return zero ? status_zero_divisor : status_ok;
}

}  // namespace mpgpu::batch
