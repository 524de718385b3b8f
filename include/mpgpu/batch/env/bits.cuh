// Comparisons, bitwise operations, bit counts, shifts and rotations within
// the class width, copies and swaps of an Env's numbers (env.cuh).
#pragma once

#include "mpgpu/batch/env/io.cuh"

namespace mpgpu::batch {

// ---- comparisons -----------------------------------------------------------------------

/// Sign of a - b (unsigned), in every thread.
template <class E>
MPGPU_HD int compare(const E& env, const typename E::Num& a, const typename E::Num& b) {
  // From the top, the first differing word decides. (Written without a
  // conditional "last write wins" store: g++ 12 at -O3 vectorized that form
  // wrongly on the host, where G == 1 runs in tests.)
  int local = 0;
#pragma unroll
  for (int i = E::per_thread - 1; i >= 0; --i) {
    const int d = static_cast<int>(a.w[i] > b.w[i]) - static_cast<int>(a.w[i] < b.w[i]);
    local = local != 0 ? local : d;
  }
  // Shuffles run in every lane (instances sharing a warp may differ in
  // whether any word differs), so broadcast first, decide after.
  int top = env.group.highest_flag(local != 0);
  int sign = static_cast<int>(env.group.broadcast(static_cast<word_t>(local), top < 0 ? 0 : top));
  return top < 0 ? 0 : sign;
}

template <class E>
MPGPU_HD bool equals(const E& env, const typename E::Num& a, const typename E::Num& b) {
  return compare(env, a, b) == 0;
}

template <class E>
MPGPU_HD bool is_zero(const E& env, const typename E::Num& a) {
  word_t any = 0;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) any |= a.w[i];
  return env.group.highest_flag(any != 0) < 0;
}

// ---- bitwise -------------------------------------------------------------------------

template <class E>
MPGPU_HD void bit_and(const E&, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = a.w[i] & b.w[i];
}
template <class E>
MPGPU_HD void bit_or(const E&, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = a.w[i] | b.w[i];
}
template <class E>
MPGPU_HD void bit_xor(const E&, typename E::Num& r, const typename E::Num& a, const typename E::Num& b) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = a.w[i] ^ b.w[i];
}
template <class E>
MPGPU_HD void bit_not(const E&, typename E::Num& r, const typename E::Num& a) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = ~a.w[i];
}

// ---- bit counts (in every thread) ------------------------------------------------------

template <class E>
MPGPU_HD int popcount(const E& env, const typename E::Num& a) {
  word_t n = 0;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) n += popcount_word(a.w[i]);
  return static_cast<int>(env.group.sum(n));
}

/// Leading zeros within the class width 32*W.
template <class E>
MPGPU_HD int count_leading_zeros(const E& env, const typename E::Num& a) {
  int local = -1;  // index in the instance of the highest set bit
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i)
    if (a.w[i] != 0) local = (env.first_word() + i) * word_bits + 31 - clz_word(a.w[i]);
  int top = env.group.highest_flag(local >= 0);
  int bit = static_cast<int>(env.group.broadcast(static_cast<word_t>(local), top < 0 ? 0 : top));
  return top < 0 ? E::words * word_bits : E::words * word_bits - 1 - bit;
}

template <class E>
MPGPU_HD int count_trailing_zeros(const E& env, const typename E::Num& a) {
  int local = -1;
#pragma unroll
  for (int i = E::per_thread - 1; i >= 0; --i)
    if (a.w[i] != 0) local = (env.first_word() + i) * word_bits + ctz_word(a.w[i]);
  int low = env.group.lowest_flag(local >= 0);
  int bit = static_cast<int>(env.group.broadcast(static_cast<word_t>(local), low < 0 ? 0 : low));
  return low < 0 ? E::words * word_bits : bit;
}

// ---- shifts within the class width (through shared memory) ----------------------------

namespace env_detail {
/// Stages a in env.work so any thread can read any word; call read_word after.
template <class E>
MPGPU_HD void stage(const E& env, const typename E::Num& a) {
  env.group.sync();  // earlier readers of work are done
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) env.work[env.first_word() + i] = a.w[i];
  env.group.sync();
}
/// Word j of the staged value; 0 outside [0, W) unless rotating (then mod W).
template <class E>
MPGPU_HD word_t staged_word(const E& env, int j, bool wrap) {
  if (wrap) return env.work[((j % E::words) + E::words) % E::words];
  return (j >= 0 && j < E::words) ? env.work[j] : 0u;
}
template <class E>
MPGPU_HD void shift_words(const E& env, typename E::Num& r, const typename E::Num& a, int up, bool wrap) {
  // r = a * 2^up (up may be negative: a right shift), within 32*W bits.
  stage(env, a);
  const int words = up >= 0 ? up / word_bits : -((-up + word_bits - 1) / word_bits);
  const int bits = up - words * word_bits;  // 0..31
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) {
    int j = env.first_word() + i - words;
    word_t hi = staged_word(env, j, wrap);
    word_t lo = staged_word(env, j - 1, wrap);
    r.w[i] = bits == 0 ? hi : (hi << bits) | (lo >> (word_bits - bits));
  }
}
}  // namespace env_detail

/// r = a << n (n >= 0, bits shifted past 32*W are lost).
template <class E>
MPGPU_HD void shift_left(const E& env, typename E::Num& r, const typename E::Num& a, int n) {
  if (n >= E::words * word_bits) return set_zero(env, r);
  env_detail::shift_words(env, r, a, n, false);
}
/// r = a >> n.
template <class E>
MPGPU_HD void shift_right(const E& env, typename E::Num& r, const typename E::Num& a, int n) {
  if (n >= E::words * word_bits) return set_zero(env, r);
  env_detail::shift_words(env, r, a, -n, false);
}
/// Rotations within the class width 32*W.
template <class E>
MPGPU_HD void rotate_left(const E& env, typename E::Num& r, const typename E::Num& a, int n) {
  n %= E::words * word_bits;
  env_detail::shift_words(env, r, a, n, true);
}
template <class E>
MPGPU_HD void rotate_right(const E& env, typename E::Num& r, const typename E::Num& a, int n) {
  n %= E::words * word_bits;
  env_detail::shift_words(env, r, a, n == 0 ? 0 : E::words * word_bits - n, true);
}

/// Copies a into r (for symmetry with the other operations).
template <class E>
MPGPU_HD void set(const E&, typename E::Num& r, const typename E::Num& a) {
  r = a;
}

/// Swaps two numbers (each thread its own words: no communication).
template <class E>
MPGPU_HD void swap(const E&, typename E::Num& a, typename E::Num& b) {
  const typename E::Num t = a;
  a = b;
  b = t;
}

/// Swaps two numbers when `condition` (same in all threads of the instance).
template <class E>
MPGPU_HD void swap_if(const E&, bool condition, typename E::Num& a, typename E::Num& b) {
  word_t mask = condition ? ~word_t{0} : 0u;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) {
    word_t d = (a.w[i] ^ b.w[i]) & mask;
    a.w[i] ^= d;
    b.w[i] ^= d;
  }
}

}  // namespace mpgpu::batch
