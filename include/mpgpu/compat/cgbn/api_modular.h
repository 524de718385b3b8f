// CGBN's C-style API, second part (api.h has the first): the accumulators,
// binary and modular inverses, gcd, modular power, Montgomery and Barrett
// functions, each the env's method of the same name (env.h), with CGBN's
// signatures; and the loads and stores of cgbn_local_t.
#pragma once

#include "env.h"

template <class env_t>
MPGPU_HD int32_t cgbn_resolve(env_t env, typename env_t::cgbn_t &sum, const typename env_t::cgbn_accumulator_t &accumulator) {
  return env.resolve(sum, accumulator);
}

template <class env_t>
MPGPU_HD void cgbn_set(env_t env, typename env_t::cgbn_accumulator_t &accumulator, const typename env_t::cgbn_t &value) {
  env.set(accumulator, value);
}

template <class env_t>
MPGPU_HD void cgbn_add(env_t env, typename env_t::cgbn_accumulator_t &accumulator, const typename env_t::cgbn_t &value) {
  env.add(accumulator, value);
}

template <class env_t>
MPGPU_HD void cgbn_sub(env_t env, typename env_t::cgbn_accumulator_t &accumulator, const typename env_t::cgbn_t &value) {
  env.sub(accumulator, value);
}

template <class env_t>
MPGPU_HD void cgbn_set_ui32(env_t env, typename env_t::cgbn_accumulator_t &accumulator, const uint32_t value) {
  env.set_ui32(accumulator, value);
}

template <class env_t>
MPGPU_HD void cgbn_add_ui32(env_t env, typename env_t::cgbn_accumulator_t &accumulator, const uint32_t value) {
  env.add_ui32(accumulator, value);
}

template <class env_t>
MPGPU_HD void cgbn_sub_ui32(env_t env, typename env_t::cgbn_accumulator_t &accumulator, const uint32_t value) {
  env.sub_ui32(accumulator, value);
}

template <class env_t>
MPGPU_HD void cgbn_binary_inverse(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &x) {
  env.binary_inverse(r, x);
}

template <class env_t>
MPGPU_HD void cgbn_gcd(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b) {
  env.gcd(r, a, b);
}

template <class env_t>
MPGPU_HD bool cgbn_modular_inverse(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &x, const typename env_t::cgbn_t &modulus) {
  return env.modular_inverse(r, x, modulus);
}

template <class env_t>
MPGPU_HD void cgbn_modular_power(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &x, const typename env_t::cgbn_t &exponent, const typename env_t::cgbn_t &modulus) {
  env.modular_power(r, x, exponent, modulus);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_bn2mont(env_t env, typename env_t::cgbn_t &mont, const typename env_t::cgbn_t &bn, const typename env_t::cgbn_t &n) {
  return env.bn2mont(mont, bn, n);
}

template <class env_t>
MPGPU_HD void cgbn_mont2bn(env_t env, typename env_t::cgbn_t &bn, const typename env_t::cgbn_t &mont, const typename env_t::cgbn_t &n, const uint32_t np0) {
  env.mont2bn(bn, mont, n, np0);
}

template <class env_t>
MPGPU_HD void cgbn_mont_mul(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &b, const typename env_t::cgbn_t &n, const uint32_t np0) {
  env.mont_mul(r, a, b, n, np0);
}

template <class env_t>
MPGPU_HD void cgbn_mont_sqr(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &a, const typename env_t::cgbn_t &n, const uint32_t np0) {
  env.mont_sqr(r, a, n, np0);
}

template <class env_t>
MPGPU_HD void cgbn_mont_reduce_wide(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_wide_t &a, const typename env_t::cgbn_t &n, const uint32_t np0) {
  env.mont_reduce_wide(r, a, n, np0);
}

template <class env_t>
MPGPU_HD uint32_t cgbn_barrett_approximation(env_t env, typename env_t::cgbn_t &approx, const typename env_t::cgbn_t &denom) {
  return env.barrett_approximation(approx, denom);
}

template <class env_t>
MPGPU_HD void cgbn_barrett_div(env_t env, typename env_t::cgbn_t &q, const typename env_t::cgbn_t &num, const typename env_t::cgbn_t &denom, const typename env_t::cgbn_t &approx, const uint32_t denom_clz) {
  env.barrett_div(q, num, denom, approx, denom_clz);
}

template <class env_t>
MPGPU_HD void cgbn_barrett_rem(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &num, const typename env_t::cgbn_t &denom, const typename env_t::cgbn_t &approx, const uint32_t denom_clz) {
  env.barrett_rem(r, num, denom, approx, denom_clz);
}

template <class env_t>
MPGPU_HD void cgbn_barrett_div_rem(env_t env, typename env_t::cgbn_t &q, typename env_t::cgbn_t &r, const typename env_t::cgbn_t &num, const typename env_t::cgbn_t &denom, const typename env_t::cgbn_t &approx, const uint32_t denom_clz) {
  env.barrett_div_rem(q, r, num, denom, approx, denom_clz);
}

template <class env_t>
MPGPU_HD void cgbn_barrett_div_wide(env_t env, typename env_t::cgbn_t &q, const typename env_t::cgbn_wide_t &num, const typename env_t::cgbn_t &denom, const typename env_t::cgbn_t &approx, const uint32_t denom_clz) {
  env.barrett_div_wide(q, num, denom, approx, denom_clz);
}

template <class env_t>
MPGPU_HD void cgbn_barrett_rem_wide(env_t env, typename env_t::cgbn_t &r, const typename env_t::cgbn_wide_t &num, const typename env_t::cgbn_t &denom, const typename env_t::cgbn_t &approx, const uint32_t denom_clz) {
  env.barrett_rem_wide(r, num, denom, approx, denom_clz);
}

template <class env_t>
MPGPU_HD void cgbn_barrett_div_rem_wide(env_t env, typename env_t::cgbn_t &q, typename env_t::cgbn_t &r, const typename env_t::cgbn_wide_t &num, const typename env_t::cgbn_t &denom, const typename env_t::cgbn_t &approx, const uint32_t denom_clz) {
  env.barrett_div_rem_wide(q, r, num, denom, approx, denom_clz);
}

template <class env_t>
MPGPU_HD void cgbn_load(env_t env, typename env_t::cgbn_t &r, cgbn_mem_t<env_t::BITS> *const address) {
  env.load(r, address);
}

template <class env_t>
MPGPU_HD void cgbn_store(env_t env, cgbn_mem_t<env_t::BITS> *address, const typename env_t::cgbn_t &a) {
  env.store(address, a);
}

template <class env_t>
MPGPU_HD void cgbn_load(env_t env, typename env_t::cgbn_t &r, typename env_t::cgbn_local_t *const address) {
  env.load(r, address);
}

template <class env_t>
MPGPU_HD void cgbn_store(env_t env, typename env_t::cgbn_local_t *address, const typename env_t::cgbn_t &a) {
  env.store(address, a);
}
