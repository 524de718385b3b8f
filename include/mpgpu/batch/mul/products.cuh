// The products of any group (mul.cuh): the choice among registers, the NTT
// and staged runs (mul_runs, square_runs), and the operations mul, mul_add,
// mul_wide, mul_high, sqr, sqr_wide, mul_ui32 and mul_ui64.
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/mul/staged.cuh"
#include "mpgpu/batch/ntt_mul.cuh"
#include "mpgpu/batch/register_mul.cuh"

namespace mpgpu::batch {

namespace mul_detail {

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

/// The product for any group: in registers for a thread per instance of
/// at most 1024 bits (register_mul.cuh), through the NTT for classes of at
/// least kNttProductMinWords words (ntt_mul.cuh), by staged runs otherwise.
template <class E, bool Wide>
MPGPU_HD void mul_runs(const E& env, typename E::Num& lo, typename E::Num* high,
                       const typename E::Num& a, const typename E::Num& b) {
  if constexpr (E::register_products) {
    word_t product[Wide ? 2 * E::words : E::words];
    // Low halves by columns (one IMAD.WIDE a term, measured faster than
    // rows: docs/tuning-history.md, "Register products"); whole products
    // by rows, whose chains end in the top word.
    if constexpr (Wide) register_product<E::words, true>(a.w, b.w, product);
    else column_product<E::words>(a.w, b.w, product);
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
