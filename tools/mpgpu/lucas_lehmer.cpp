// Reduction mod M = 2^p - 1 without division: 2^p = 1 (mod M), so
// t = (t & M) + (t >> p) (mod M). s is kept in [0, 2^(p+1)) rather than
// [0, M): no comparison (no wait for the device) inside the loop.
#include "lucas_lehmer.hpp"

#include "mpgpu/error.hpp"

namespace mpgpu::cli {

namespace {

/// t mod M for 0 <= t < 2^(2p+3), into [0, 2^(p+1)): the first fold leaves
/// less than 2^p + 2^(p+3), the second less than 2^p + 16.
void fold_twice(Integer& t, const Integer& mask, std::uint64_t p, Integer& high) {
  for (int i = 0; i < 2; ++i) {
    tdiv_q_2exp(high, t, p);
    and_(t, t, mask);
    add(t, t, high);
  }
}

}  // namespace

bool lucas_lehmer(std::uint64_t p, const Context& ctx, void (*progress)(double, void*), void* progress_arg) {
  if (p < 2) throw InvalidArgument("lucas_lehmer: the exponent must be at least 2");
  if (p == 2) return true;
  // M itself, made on the host (Integer::all_ones would build it on the
  // device): for small p the whole test then stays with GMP on the host.
  Integer mask(1, ctx);
  mul_2exp(mask, mask, p);
  sub(mask, mask, Integer(1, ctx));
  // s^2 - 2 = s^2 + (M - 2) (mod M), which stays non-negative for s = 0 or 1.
  const Integer minus_two = mask - Integer(2, ctx);
  Integer s(4, ctx), high(ctx);
  const std::uint64_t steps = p - 2;
  for (std::uint64_t i = 0; i < steps; ++i) {
    sqr(s, s);            // < 2^(2p+2)
    add(s, s, minus_two);  // < 2^(2p+3)
    fold_twice(s, mask, p, high);
    if (progress && (i & 1023) == 0) progress(static_cast<double>(i) / static_cast<double>(steps), progress_arg);
  }
  // s < 2^(p+1) = 2M + 2: s = 0 mod M means s is 0, M or 2M.
  return s.is_zero() || s == mask || s == mask + mask;
}

}  // namespace mpgpu::cli
