// mul and sqr. The CPU backend calls GMP. The CUDA backend multiplies large
// magnitudes on the device (src/cuda/ntt_mul.cu), products with an operand of
// at most 32 limbs in linear time (src/cuda/mul_short.cu), and small ones
// through GMP on the host, below the crossover kDeviceProductMinLimbs.
#include <algorithm>

#include "integer_internal.hpp"

namespace mpgpu {

using detail::device_operand;
using detail::DeviceResult;
namespace dc = detail::cuda;

namespace {

void mul_device(Integer& r, const Integer& a, const Integer& b, Stream s) {
  const Context& ctx = a.context();
  const int sign = a.sign() * b.sign();
  if (sign == 0) {
    DeviceResult out(ctx, s, 1, &r, {&a, &b});
    out.commit(r, 0, 0);
    return;
  }
  if (a.size() + b.size() < kDeviceProductMinLimbs) {
    // Small: GMP on the host wins even with the copies both ways.
    mpz_t za, zb, zr;
    mpz_init(za);
    mpz_init(zb);
    mpz_init(zr);
    a.to_mpz(za);
    b.to_mpz(zb);
    mpz_mul(zr, za, zb);
    Integer out = Integer::from_mpz(zr, ctx);
    mpz_clear(za);
    mpz_clear(zb);
    mpz_clear(zr);
    r = std::move(out);
    return;
  }
  Stream st = ctx.resolve(s);
  if (std::min(a.size(), b.size()) <= dc::kMulShortMaxLimbs) {
    // Very unbalanced: linear in the long operand, not NTTs of the full length.
    DeviceResult out(ctx, st, a.size() + b.size() + 3, &r, {&a, &b});
    out.commit(r, dc::mul_short(ctx.state(), st, out.get(), device_operand(a), device_operand(b)), sign);
    return;
  }
  DeviceResult out(ctx, st, a.size() + b.size() + 2, &r, {&a, &b});
  out.commit(r, dc::mul_abs(ctx.state(), st, out.get(), device_operand(a), device_operand(b)), sign);
}

}  // namespace

void mul(Integer& r, const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("mul", a, b);
  if (!a.context().is_cuda())
    return detail::on_cpu(r, a.context(), [&](mpz_ptr z) { mpz_mul(z, a.cpu_mpz(), b.cpu_mpz()); });
  mul_device(r, a, b, s);
}

void sqr(Integer& r, const Integer& a, Stream s) {
  if (!a.context().is_cuda())
    return detail::on_cpu(r, a.context(), [&](mpz_ptr z) { mpz_mul(z, a.cpu_mpz(), a.cpu_mpz()); });
  mul_device(r, a, a, s);  // same limbs: the device path transforms once
}

Integer operator*(const Integer& a, const Integer& b) {
  Integer r(a.context());
  mul(r, a, b);
  return r;
}

Integer& Integer::operator*=(const Integer& b) {
  mul(*this, *this, b);
  return *this;
}

}  // namespace mpgpu
