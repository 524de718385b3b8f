// Additions and subtractions of an Env's numbers: carries resolved across
// the group, or delayed (LazySum), and 32- and 64-bit scalars (env.cuh).
#pragma once

#include "mpgpu/batch/env/io.cuh"

namespace mpgpu::batch {

// ---- add and sub --------------------------------------------------------------------

/// r = a + b + carry_in; returns the carry out of the instance (in every thread).
template <class E>
MPGPU_HD word_t add(const E& env, typename E::Num& r, const typename E::Num& a,
                    const typename E::Num& b, word_t carry_in = 0) {
  const word_t c = add_words<E::per_thread>(a.w, b.w, r.w);
  word_t all_ones = ~word_t{0};
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) all_ones &= r.w[i];
  CarryPair cp = env.group.resolve_carry(c, c == 0 && all_ones == ~word_t{0}, carry_in);
  // Adding the incoming carry: every word absorbs it unless it is all ones.
  add_carry_words<E::per_thread>(r.w, cp.in);
  return cp.out;
}

/// r = a - b - borrow_in; returns the borrow out.
template <class E>
MPGPU_HD word_t sub(const E& env, typename E::Num& r, const typename E::Num& a,
                    const typename E::Num& b, word_t borrow_in = 0) {
  const word_t c = sub_words<E::per_thread>(a.w, b.w, r.w);
  word_t any = 0;
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) any |= r.w[i];
  CarryPair cp = env.group.resolve_carry(c, c == 0 && any == 0, borrow_in);
  sub_borrow_words<E::per_thread>(r.w, cp.in);
  return cp.out;
}

// ---- delayed carries -----------------------------------------------------------------------

/// A sum whose carries between the group's threads are not resolved yet:
/// its value is the sum over ranks t of (n_t + hi_t 2^(32 L)) 2^(32 L t),
/// n_t the thread's L words and hi_t the carries out of them so far. Adding
/// to it (add_lazy) needs no group communication; normalize resolves all
/// the delayed carries at once. A chain of k additions then costs one carry
/// resolve instead of k -- with G > 32 a resolve is a block-wide barrier,
/// which is what bounds a chain of six additions at 2^17 and 2^18 bits
/// (docs/tuning-history.md, "Staged chains"). hi grows by at most a.hi + b.hi
/// + 1 an addition; a word holds it for any chain of fewer than 2^31
/// additions.
template <class E>
struct LazySum {
  typename E::Num n;
  word_t hi = 0;
};

/// r = a as a lazy sum.
template <class E>
MPGPU_HD void to_lazy(const E&, LazySum<E>& r, const typename E::Num& a) {
  r.n = a;
  r.hi = 0;
}

/// r = a + b with the carries between threads delayed (no communication).
template <class E>
MPGPU_HD void add_lazy(const E&, LazySum<E>& r, const LazySum<E>& a, const LazySum<E>& b) {
  r.hi = a.hi + b.hi + add_words<E::per_thread>(a.n.w, b.n.w, r.n.w);
}

/// r = a + b, b a normalized number.
template <class E>
MPGPU_HD void add_lazy(const E&, LazySum<E>& r, const LazySum<E>& a, const typename E::Num& b) {
  r.hi = a.hi + add_words<E::per_thread>(a.n.w, b.w, r.n.w);
}

/// r = a mod 2^(32 W): every thread adds the delayed carries of the thread
/// below (one exchange up the group) and the carries that leaves resolve
/// as in add (one carry resolve). Returns the carry of that resolve out of
/// the instance: with the top thread's own hi (not added here), what a
/// caller needs to extend the sum past W words.
template <class E>
MPGPU_HD word_t normalize(const E& env, typename E::Num& r, const LazySum<E>& a) {
  word_t below[E::per_thread] = {env.group.from_previous(a.hi)};
  const word_t c = add_words<E::per_thread>(a.n.w, below, r.w);
  word_t all_ones = ~word_t{0};
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) all_ones &= r.w[i];
  CarryPair cp = env.group.resolve_carry(c, c == 0 && all_ones == ~word_t{0}, 0);
  add_carry_words<E::per_thread>(r.w, cp.in);
  return cp.out;
}

/// r = a + v for a 32-bit v; returns the carry out.
template <class E>
MPGPU_HD word_t add_ui32(const E& env, typename E::Num& r, const typename E::Num& a, word_t v) {
  typename E::Num t;
  set_ui32(env, t, v);
  return add(env, r, a, t);
}

template <class E>
MPGPU_HD word_t sub_ui32(const E& env, typename E::Num& r, const typename E::Num& a, word_t v) {
  typename E::Num t;
  set_ui32(env, t, v);
  return sub(env, r, a, t);
}

/// r = a + v for a 64-bit v; returns the carry out.
template <class E>
MPGPU_HD word_t add_ui64(const E& env, typename E::Num& r, const typename E::Num& a, std::uint64_t v) {
  typename E::Num t;
  set_ui64(env, t, v);
  return add(env, r, a, t);
}

/// r = a - v for a 64-bit v; returns the borrow out.
template <class E>
MPGPU_HD word_t sub_ui64(const E& env, typename E::Num& r, const typename E::Num& a, std::uint64_t v) {
  typename E::Num t;
  set_ui64(env, t, v);
  return sub(env, r, a, t);
}

}  // namespace mpgpu::batch
