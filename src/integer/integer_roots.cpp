// Roots: sqrt, sqrtrem, root, perfect_square_p. The CPU context calls GMP;
// a CUDA context hands radicands of kDeviceSqrtMinLimbs (square roots) or
// kDeviceRootMinLimbs (k >= 3) limbs or more to
// detail::root_newton, whose products and divisions run on the device.
//
// root_newton, for a >= 0 of n bits and a root of R = ceil(n / k) bits:
//   t = floor((R - ceil(log2 k) - 2) / 2), s0 = floor((a >> kt)^(1/k))
//   (recursively), x = (s0 + 1) 2^t. Then a^(1/k) < x <= a^(1/k) + 2^t:
//   a >> kt < (s0 + 1)^k gives a < (s0 + 1)^k 2^(kt), and s0 <= (a /
//   2^(kt))^(1/k) gives the upper bound.
//   One integer Newton step y = floor(((k-1) x + floor(a / x^(k-1))) / k):
//   by the AM-GM inequality y >= floor(a^(1/k)) for every x > 0, and for an
//   error e = x - a^(1/k) the real step lands within (k-1) e^2 / (2 a^(1/k))
//   <= (k-1) 2^(2t) / 2^R <= 1/4 above the root, so y is floor(a^(1/k)) or
//   one more. The sign of a - y^k tells which (the remainder comes with it).
#include <bit>
#include <utility>

#include "integer_host_gmp.hpp"
#include "integer_whole.hpp"

namespace mpgpu {

using detail::HostOperand;
using detail::HostResult;

namespace {

std::string where(const char* op) { return std::string("mpgpu::") + op + ": "; }

/// Whether a CUDA context takes the k-th root of a on the device.
bool root_on_device(const Integer& a, std::uint64_t k) {
  return a.context().is_cuda() && a.size() >= (k == 2 ? kDeviceSqrtMinLimbs : kDeviceRootMinLimbs);
}

/// floor(a^(1/k)) (and a - r^k) by GMP (a copy of an operand in device
/// memory). Without a remainder mpz_root, which costs less than rootrem.
bool host_rootrem(Integer& r, Integer* rem, const Integer& a, std::uint64_t k, Stream s) {
  const Context& ctx = a.context();
  HostOperand ha(a);
  HostResult zr, zrem;
  bool exact = false;
  if (rem) {
    mpz_rootrem(zr, zrem, ha, k);
    exact = mpz_sgn(zrem.get()) == 0;
  } else {
    exact = mpz_root(zr, ha, k) != 0;
  }
  Integer root = zr.take(ctx, s);
  if (rem) *rem = zrem.take(ctx, s);
  r = std::move(root);
  return exact;
}

}  // namespace

namespace detail {

bool root_newton(Integer& r, Integer* rem, const Integer& a, std::uint64_t k, std::size_t host_max_limbs,
                 Stream s) {
  const Context& ctx = a.context();
  const std::uint64_t n = a.is_zero() ? 0 : sizeinbase2(a, s);
  const std::uint64_t root_bits = (n + k - 1) / k;
  const std::uint64_t log2_k = std::bit_width(k - 1);  // ceil(log2 k)
  if (k == 1 || a.size() < host_max_limbs || root_bits < log2_k + 2 + 2 * 64)
    return host_rootrem(r, rem, a, k, s);
  const std::uint64_t t = (root_bits - log2_k - 2) / 2;
  Integer x(ctx);
  tdiv_q_2exp(x, a, k * t, s);
  root_newton(x, nullptr, x, k, host_max_limbs, s);
  add(x, x, Integer(1, ctx), s);
  mul_2exp(x, x, t, s);
  // The Newton step.
  Integer divisor(ctx), q(ctx);
  if (k == 2) divisor = x;
  else pow_ui(divisor, x, k - 1, s);
  tdiv_q(q, a, divisor, s);
  if (k > 2) mul(x, x, Integer(k - 1, ctx), s);
  add(x, x, q, s);
  if (k == 2) fdiv_q_2exp(x, x, 1, s);
  else tdiv_q(x, x, Integer(k, ctx), s);
  // x is the root or one more: the remainder a - x^k decides.
  Integer power(ctx), diff(ctx);
  pow_ui(power, x, k, s);
  sub(diff, a, power, s);
  if (diff.sign() < 0) {
    sub(x, x, Integer(1, ctx), s);
    if (k == 2) {  // a - (x-1)^2 = diff + 2x - 1 with x the old root: 2 x_new + 1
      add(diff, diff, x, s);
      add(diff, diff, x, s);
      add(diff, diff, Integer(1, ctx), s);
    } else {
      pow_ui(power, x, k, s);
      sub(diff, a, power, s);
    }
  }
  const bool exact = diff.is_zero();
  if (rem) *rem = std::move(diff);
  r = std::move(x);
  return exact;
}

}  // namespace detail

void sqrt(Integer& r, const Integer& a, Stream s) {
  if (a.sign() < 0) throw InvalidArgument(where("sqrt") + "square root of a negative number");
  detail::wait_for_caller_stream(a.context(), s);
  if (root_on_device(a, 2)) {
    detail::root_newton(r, nullptr, a, 2, kDeviceSqrtMinLimbs, s);
    return;
  }
  HostOperand ha(a);  // mpz_sqrt: the fastest of GMP's roots when exactness is not asked
  HostResult z;
  mpz_sqrt(z, ha);
  r = z.take(a.context(), s);
}

void sqrtrem(Integer& root, Integer& rem, const Integer& a, Stream s) {
  if (&root == &rem)
    throw InvalidArgument(where("sqrtrem") + "root and rem are the same object; pass different Integers");
  if (a.sign() < 0) throw InvalidArgument(where("sqrtrem") + "square root of a negative number");
  detail::wait_for_caller_stream(a.context(), s);
  Integer x(a.context()), y(a.context());  // a may alias root or rem
  if (root_on_device(a, 2)) detail::root_newton(x, &y, a, 2, kDeviceSqrtMinLimbs, s);
  else host_rootrem(x, &y, a, 2, s);
  root = std::move(x);
  rem = std::move(y);
}

bool root(Integer& r, const Integer& a, std::uint64_t k, Stream s) {
  if (k == 0) throw InvalidArgument(where("root") + "the 0th root is undefined (k must be >= 1)");
  if (a.sign() < 0 && k % 2 == 0)
    throw InvalidArgument(where("root") + "even root (k = " + std::to_string(k) + ") of a negative number");
  detail::wait_for_caller_stream(a.context(), s);
  if (!root_on_device(a, k)) return host_rootrem(r, nullptr, a, k, s);
  // An odd root of a negative number is minus the root of its magnitude
  // (truncation toward zero, as mpz_root).
  Integer magnitude(a.context());
  abs(magnitude, a, s);
  const bool negative = a.sign() < 0;
  const bool exact = detail::root_newton(r, nullptr, magnitude, k, kDeviceRootMinLimbs, s);
  if (negative) r.negate();
  return exact;
}

bool perfect_square_p(const Integer& a, Stream s) {
  detail::wait_for_caller_stream(a.context(), s);
  if (a.sign() < 0) return false;
  if (!root_on_device(a, 2)) {
    HostOperand ha(a);
    return mpz_perfect_square_p(ha) != 0;
  }
  // Squares are 0, 1, 4 or 9 mod 16: three numbers in four fail here
  // without a root (bits 1..3 of a must match one of those).
  const unsigned low = (tstbit(a, 0, s) ? 1u : 0u) | (tstbit(a, 1, s) ? 2u : 0u) | (tstbit(a, 2, s) ? 4u : 0u) |
                       (tstbit(a, 3, s) ? 8u : 0u);
  if (low != 0 && low != 1 && low != 4 && low != 9) return false;
  Integer r(a.context());
  return detail::root_newton(r, nullptr, a, 2, kDeviceSqrtMinLimbs, s);
}

}  // namespace mpgpu
