// CGBN's accumulator (cgbn_accumulator_t): a sum of additions and
// subtractions whose carries between the group's threads stay unresolved
// until cgbn_resolve. mpgpu's LazySum (env/arith.cuh) delays carries only;
// this one also delays borrows, as a signed count per thread.
#pragma once

#include "arith.h"

namespace mpgpu::compat::cgbn_detail {

/// Value: sum over ranks t of (n_t + hi_t 2^(32L)) 2^(32 L t), hi_t signed.
/// Each addition or subtraction moves hi by at most 1, so fewer than 2^31
/// of them cannot overflow it. A new accumulator holds 0, as CGBN's
/// (its unit test accumulator_1 adds to one it never set).
template <class E>
struct Accumulator {
  typename E::Num _n{};
  int32_t _carry = 0;
};

template <class E>
MPGPU_HD void acc_set(const E&, Accumulator<E>& acc, const typename E::Num& v) {
  acc._n = v;
  acc._carry = 0;
}

template <class E>
MPGPU_HD void acc_add(const E&, Accumulator<E>& acc, const typename E::Num& v) {
  acc._carry += static_cast<int32_t>(mb::add_words<E::per_thread>(acc._n.w, v.w, acc._n.w));
}

template <class E>
MPGPU_HD void acc_sub(const E&, Accumulator<E>& acc, const typename E::Num& v) {
  acc._carry -= static_cast<int32_t>(mb::sub_words<E::per_thread>(acc._n.w, v.w, acc._n.w));
}

/// sum = the accumulated value mod 2^N; returns floor(value / 2^N) as an
/// int32_t (CGBN: "the sum of all the carry-outs and borrow-outs"). One
/// exchange of the delayed counts up the group, one carry and one borrow
/// resolve.
template <int N, class E>
MPGPU_HD int32_t acc_resolve(const E& env, typename E::Num& sum, const Accumulator<E>& acc) {
  using Num = typename E::Num;
  const auto below = static_cast<int32_t>(env.group.from_previous(static_cast<word_t>(acc._carry)));
  Num plus, minus, t;
  mb::set_zero(env, plus);
  mb::set_zero(env, minus);
  plus.w[0] = below > 0 ? static_cast<word_t>(below) : 0u;
  minus.w[0] = below < 0 ? static_cast<word_t>(-static_cast<int64_t>(below)) : 0u;
  const word_t c = mb::add(env, t, acc._n, plus);
  const word_t b = mb::sub(env, t, t, minus);
  // The top thread's count weighs 2^(32W), as the carry and borrow out.
  const auto top = static_cast<int32_t>(env.group.broadcast(static_cast<word_t>(acc._carry), E::threads - 1));
  const int32_t high = top + static_cast<int32_t>(c) - static_cast<int32_t>(b);
  int32_t result = high;
  if constexpr (padded_v<N, E>) {
    // Bits N .. 32W - 1 of t belong to the result too (two's complement
    // with high above them); an int32_t keeps the low 32 bits of it.
    constexpr int above = 32 * E::words - N;
    word_t v = bits_ui32(env, t, N, 32);
    if constexpr (above < 32) v |= static_cast<word_t>(high) << (above % 32);
    result = static_cast<int32_t>(v);
    fit<N>(env, t);
  }
  sum = t;
  return result;
}

}  // namespace mpgpu::compat::cgbn_detail
