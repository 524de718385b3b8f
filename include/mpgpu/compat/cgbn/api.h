// CGBN's C-style API: cgbn_add(env, r, a, b) and the rest, each the
// env's method of the same name (env.h), with CGBN's signatures (the env by
// value, as CGBN passes it). Generated from CGBN's function list; every
// function of CGBN's cgbn.h is here or in api_modular.h (docs/cgbn.md has
// the table).
#pragma once

#include "env.h"

template <class env_t, class source_cgbn_t>
MPGPU_HD void cgbn_set(env_t env, typename env_t::cgbn_t &r, const source_cgbn_t &a) {
  env.set(r, a);  // the same width, or another (set_width.h)
}

template <class env_t>
MPGPU_HD void cgbn_swap(env_t env, typename env_t::cgbn_t &r, typename env_t::cgbn_t &a) {
  env.swap(r, a);
}

template <class env_t>
MPGPU_HD int32_t cgbn_add(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  return env.add(r, a, b);
}

template <class env_t>
MPGPU_HD int32_t cgbn_sub(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  return env.sub(r, a, b);
}

template <class env_t>
MPGPU_HD int32_t cgbn_negate(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a) {
  return env.negate(r, a);
}

template <class env_t>
MPGPU_HD void cgbn_mul(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  env.mul(r, a, b);
}

template <class env_t>
MPGPU_HD void cgbn_mul_high(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  env.mul_high(r, a, b);
}

template <class env_t>
MPGPU_HD void cgbn_sqr(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a) {
  env.sqr(r, a);
}

template <class env_t>
MPGPU_HD void cgbn_sqr_high(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a) {
  env.sqr_high(r, a);
}

template <class env_t>
MPGPU_HD void cgbn_div(env_t env, typename env_t::cgbn_t &q, const typename env_t::cgbn_t &num, const typename env_t::cgbn_t &denom) {
  env.div(q, num, denom);
}

template <class env_t>
MPGPU_HD void cgbn_rem(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &num, const typename env_t::cgbn_t &denom) {
  env.rem(r, num, denom);
}

template <class env_t>
MPGPU_HD void cgbn_div_rem(env_t env, typename env_t::cgbn_t &q, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &num, const typename env_t::cgbn_t &denom) {
  env.div_rem(q, r, num, denom);
}

template <class env_t>
MPGPU_HD void cgbn_sqrt(env_t env, typename env_t::cgbn_t &s, const typename env_t::cgbn_t &a) {
  env.sqrt(s, a);
}

template <class env_t>
MPGPU_HD void cgbn_sqrt_rem(env_t env, typename env_t::cgbn_t &s, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a) {
  env.sqrt_rem(s, r, a);
}

template <class env_t>
MPGPU_HD bool cgbn_equals(env_t env, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  return env.equals(a, b);
}

template <class env_t>
MPGPU_HD int32_t cgbn_compare(env_t env, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  return env.compare(a, b);
}

template <class env_t>
MPGPU_HD void cgbn_extract_bits(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t start, const uint32_t len) {
  env.extract_bits(r, a, start, len);
}

template <class env_t>
MPGPU_HD void cgbn_insert_bits(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t start, const uint32_t len, const typename env_t::cgbn_t &value) {
  env.insert_bits(r, a, start, len, value);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_get_ui32(env_t env, const typename env_t::cgbn_t &a) {
  return env.get_ui32(a);
}

template <class env_t>
MPGPU_HD void cgbn_set_ui32(env_t env, typename env_t::cgbn_t &r, const uint32_t value) {
  env.set_ui32(r, value);
}

template <class env_t>
MPGPU_HD int32_t cgbn_add_ui32(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t add) {
  return env.add_ui32(r, a, add);
}

template <class env_t>
MPGPU_HD int32_t cgbn_sub_ui32(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t sub) {
  return env.sub_ui32(r, a, sub);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_mul_ui32(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t mul) {
  return env.mul_ui32(r, a, mul);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_div_ui32(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t div) {
  return env.div_ui32(r, a, div);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_rem_ui32(env_t env, const typename env_t::cgbn_t &a, const uint32_t div) {
  return env.rem_ui32(a, div);
}

template <class env_t>
MPGPU_HD bool cgbn_equals_ui32(env_t env, const typename env_t::cgbn_t &a, const uint32_t value) {
  return env.equals_ui32(a, value);
}

template <class env_t>
MPGPU_HD int32_t cgbn_compare_ui32(env_t env, const typename env_t::cgbn_t &a, const uint32_t value) {
  return env.compare_ui32(a, value);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_extract_bits_ui32(env_t env, const typename env_t::cgbn_t &a, const uint32_t start, const uint32_t len) {
  return env.extract_bits_ui32(a, start, len);
}

template <class env_t>
MPGPU_HD void cgbn_insert_bits_ui32(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t start, const uint32_t len, const uint32_t value) {
  env.insert_bits_ui32(r, a, start, len, value);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_binary_inverse_ui32(env_t env, const uint32_t n0) {
  return env.binary_inverse_ui32(n0);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_gcd_ui32(env_t env, const typename env_t::cgbn_t &a, const uint32_t value) {
  return env.gcd_ui32(a, value);
}

template <class env_t>
MPGPU_HD void cgbn_mul_wide(env_t env, typename env_t::cgbn_wide_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  env.mul_wide(r, a, b);
}

template <class env_t>
MPGPU_HD void cgbn_sqr_wide(env_t env, typename env_t::cgbn_wide_t &r, const typename env_t::cgbn_t &a) {
  env.sqr_wide(r, a);
}

template <class env_t>
MPGPU_HD void cgbn_div_wide(env_t env, typename env_t::cgbn_t &q, const typename env_t::cgbn_wide_t &num, const typename env_t::cgbn_t &denom) {
  env.div_wide(q, num, denom);
}

template <class env_t>
MPGPU_HD void cgbn_rem_wide(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_wide_t &num, const typename env_t::cgbn_t &denom) {
  env.rem_wide(r, num, denom);
}

template <class env_t>
MPGPU_HD void cgbn_div_rem_wide(env_t env, typename env_t::cgbn_t &q, typename env_t::cgbn_t &r, const typename env_t::cgbn_wide_t &num, const typename env_t::cgbn_t &denom) {
  env.div_rem_wide(q, r, num, denom);
}

template <class env_t>
MPGPU_HD void cgbn_sqrt_wide(env_t env, typename env_t::cgbn_t &s, const typename env_t::cgbn_wide_t &a) {
  env.sqrt_wide(s, a);
}

template <class env_t>
MPGPU_HD void cgbn_sqrt_rem_wide(env_t env, typename env_t::cgbn_t &s, typename env_t::cgbn_wide_t &r, const typename env_t::cgbn_wide_t &a) {
  env.sqrt_rem_wide(s, r, a);
}

template <class env_t>
MPGPU_HD void cgbn_bitwise_and(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  env.bitwise_and(r, a, b);
}

template <class env_t>
MPGPU_HD void cgbn_bitwise_ior(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  env.bitwise_ior(r, a, b);
}

template <class env_t>
MPGPU_HD void cgbn_bitwise_xor(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  env.bitwise_xor(r, a, b);
}

template <class env_t>
MPGPU_HD void cgbn_bitwise_complement(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a) {
  env.bitwise_complement(r, a);
}

template <class env_t>
MPGPU_HD void cgbn_bitwise_select(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &clear, const typename env_t::cgbn_t &set, const typename env_t::cgbn_t &select) {
  env.bitwise_select(r, clear, set, select);
}

template <class env_t>
MPGPU_HD void cgbn_bitwise_mask_copy(env_t env, typename env_t::cgbn_t &r, const int32_t numbits) {
  env.bitwise_mask_copy(r, numbits);
}

template <class env_t>
MPGPU_HD void cgbn_bitwise_mask_and(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const int32_t numbits) {
  env.bitwise_mask_and(r, a, numbits);
}

template <class env_t>
MPGPU_HD void cgbn_bitwise_mask_ior(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const int32_t numbits) {
  env.bitwise_mask_ior(r, a, numbits);
}

template <class env_t>
MPGPU_HD void cgbn_bitwise_mask_xor(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const int32_t numbits) {
  env.bitwise_mask_xor(r, a, numbits);
}

template <class env_t>
MPGPU_HD void cgbn_bitwise_mask_select(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &clear, const typename env_t::cgbn_t &set, int32_t numbits) {
  env.bitwise_mask_select(r, clear, set, numbits);
}

template <class env_t>
MPGPU_HD void cgbn_shift_left(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t numbits) {
  env.shift_left(r, a, numbits);
}

template <class env_t>
MPGPU_HD void cgbn_shift_right(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t numbits) {
  env.shift_right(r, a, numbits);
}

template <class env_t>
MPGPU_HD void cgbn_rotate_left(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t numbits) {
  env.rotate_left(r, a, numbits);
}

template <class env_t>
MPGPU_HD void cgbn_rotate_right(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const uint32_t numbits) {
  env.rotate_right(r, a, numbits);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_pop_count(env_t env, const typename env_t::cgbn_t &a) {
  return env.pop_count(a);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_clz(env_t env, const typename env_t::cgbn_t &a) {
  return env.clz(a);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_ctz(env_t env, const typename env_t::cgbn_t &a) {
  return env.ctz(a);
}
