// mul and sqr. The CPU backend calls GMP. The CUDA backend multiplies on the
// device: by columns (src/cuda/mul_short.cu; a thread per column for an
// operand of at most 32 limbs, linear in the other; a warp per column up to
// 8192 limbs while na * nb stays below schoolbook_max_work()), else through
// three-prime NTTs (src/cuda/ntt_mul.cu). Nothing goes through the host.
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "env_knob.hpp"
#include "integer_internal.hpp"

namespace mpgpu {

using detail::device_operand;
using detail::DeviceResult;
namespace dc = detail::cuda;

namespace {

/// Largest na * nb (limb products) multiplied by columns rather than by
/// NTTs, when the shorter operand has at most dc::kMulSchoolbookMaxLimbs
/// limbs. Measured on the H100 (docs/integer.md, "Where products run"):
/// columns take ~2 us per 2^20 limb products against 190-380 us for the NTT
/// product of such operands, so the lines cross near 2^27 (2^26: columns
/// 134 us, NTT 273 us; 2^30: 1.60 ms against 375 us).
/// MPGPU_SCHOOLBOOK_MAX_WORK overrides it, for tuning runs.
std::uint64_t schoolbook_max_work() {
  static const std::uint64_t work = detail::env_knob("MPGPU_SCHOOLBOOK_MAX_WORK", std::uint64_t{1} << 27);
  return work;
}

void mul_device(Integer& r, const Integer& a, const Integer& b, Stream s) {
  const Context& ctx = a.context();
  const int sign = a.sign() * b.sign();
  if (sign == 0) {
    DeviceResult out(ctx, s, 1, &r, {&a, &b});
    out.commit(r, 0, 0);
    return;
  }
  Stream st = ctx.resolve(s);
  const std::size_t shorter = std::min(a.size(), b.size());
  if (shorter <= dc::kMulShortMaxLimbs ||
      (shorter <= dc::kMulSchoolbookMaxLimbs &&
       static_cast<std::uint64_t>(a.size()) * b.size() <= schoolbook_max_work())) {
    DeviceResult out(ctx, st, a.size() + b.size() + 3, &r, {&a, &b});
    out.commit(r, dc::mul_columns(ctx.state(), st, out.get(), device_operand(a), device_operand(b)), sign);
    return;
  }
  DeviceResult out(ctx, st, a.size() + b.size() + 2, &r, {&a, &b});
  out.commit(r, dc::mul_abs(ctx.state(), st, out.get(), device_operand(a), device_operand(b)), sign);
}

/// GMP multiplies on the CPU context, and on a CUDA context when both
/// operands are in host memory and the product is small (kHostProductMaxLimbs).
bool product_on_host(const Integer& a, const Integer& b) {
  if (!a.context().is_cuda()) return true;
  return a.host_valid() && b.host_valid() && a.size() + b.size() <= kHostProductMaxLimbs;
}

/// mpz_mul reserves the sum of the sizes.
void require_product_room(const char* op, const Integer& a, const Integer& b) {
  detail::require_gmp_room(op, std::uint64_t{a.size()} + b.size(),
                           [&] { return detail::limbs_of("a product of operands", a.size(), b.size()); });
}

}  // namespace

// Small host products are inline (mpgpu/integer_inline.hpp); this takes
// every other case.
void detail::mul_general(Integer& r, const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("mul", a, b);
  if (product_on_host(a, b)) {
    require_product_room("mul", a, b);
    return detail::on_cpu(r, a.context(), [&](mpz_ptr z) { mpz_mul(z, a.cpu_mpz(), b.cpu_mpz()); });
  }
  mul_device(r, a, b, s);
}

void sqr(Integer& r, const Integer& a, Stream s) {
  if (product_on_host(a, a)) {
    require_product_room("sqr", a, a);
    return detail::on_cpu(r, a.context(), [&](mpz_ptr z) { mpz_mul(z, a.cpu_mpz(), a.cpu_mpz()); });
  }
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
