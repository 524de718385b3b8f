// Division with GMP's three roundings (tdiv, fdiv, cdiv), mod, divexact,
// divisibility and congruence, and the / and % operators (tdiv, as C and
// gmpxx): the checks, and the choice of a path. The CPU backend calls GMP.
// A CUDA context divides on the device by a one-limb divisor (the scan,
// integer_div_limb.cpp) or a large one (Newton, integer_div_newton.cpp), and
// otherwise through GMP on the host (integer_host_gmp.hpp).
#include <algorithm>
#include <utility>

#include "integer_div_paths.hpp"
#include "integer_host_gmp.hpp"

namespace mpgpu {

using detail::HostOperand;
using detail::HostResult;
using detail::Rounding;

namespace {

using QuotientRemainderFn = void (*)(mpz_ptr, mpz_ptr, mpz_srcptr, mpz_srcptr);
using OneResultFn = void (*)(mpz_ptr, mpz_srcptr, mpz_srcptr);

/// Checked before any copy, so a bad call touches nothing.
void require_divisor(const char* op, const Integer& n, const Integer& d) {
  detail::require_same_context(op, n, d);
  if (d.is_zero())
    throw DivisionByZero(std::string("mpgpu::") + op + ": division by zero (the divisor is 0)");
}

/// q and/or r (either may be null) on the device when a device path takes
/// this division (d != 0, CUDA context); false otherwise. d_sign replaces
/// d's sign (mod divides by |d|).
bool divide_on_device(Integer* q, Integer* r, const Integer& n, const Integer& d, int d_sign, Rounding rd,
                      Stream s) {
  if (detail::on_host(kHostValueMaxLimbs, {&n, &d})) return false;  // the CPU context, or host values
  if (d.size() == 1) {
    detail::divide_by_limb(q, r, n, d.to_limbs()[0], d_sign, rd, false, s);
    return true;
  }
  if (detail::newton_division_applies(n, d)) {
    const Context& ctx = n.context();
    // The Newton path queues on the context's stream: order it after the
    // caller's, and the caller's later work after it.
    detail::wait_for_caller_stream(ctx, s);
    detail::divide_newton(q, r, n, d, d_sign, rd, nullptr);
    if (s && s != ctx.stream()) detail::cuda::synchronize(ctx.stream());
    return true;
  }
  return false;
}

/// Rounding away from zero adds 1 to a quotient (GMP's room for it: size(n)
/// - size(d) + 1 limbs) or |d| to a remainder (size(d)) with mpz_add or
/// mpz_sub_ui, which reserve a limb more (mpz_fdiv_q, mpz_fdiv_r, mpz_mod,
/// ...). Truncating results fit in their operands' room.
void require_rounding_room(const char* op, Rounding rd, bool quotient, bool remainder, const Integer& n,
                           const Integer& d) {
  if (rd == Rounding::trunc) return;
  const std::uint64_t nn = n.size(), dn = d.size();
  auto what = [&] { return detail::limbs_of("a dividend and a divisor", nn, dn); };
  if (quotient) detail::require_gmp_room(op, nn - std::min(nn, dn) + 2, what);
  if (remainder) detail::require_gmp_room(op, dn + 1, what);
}

void divide_qr(const char* op, QuotientRemainderFn fn, Rounding rd, Integer& q, Integer& r, const Integer& n,
               const Integer& d, Stream s) {
  if (&q == &r)
    throw InvalidArgument(std::string("mpgpu::") + op +
                          ": q and r are the same object; pass two different Integers");
  require_divisor(op, n, d);
  if (divide_on_device(&q, &r, n, d, d.sign(), rd, s)) return;
  require_rounding_room(op, rd, true, true, n, d);
  const Context& ctx = n.context();
  detail::wait_for_caller_stream(ctx, s);
  HostOperand hn(n), hd(d);
  HostResult zq, zr;
  fn(zq, zr, hn, hd);
  // Both results exist before either destination changes (they may be n or d).
  Integer iq = zq.take(ctx, s);
  Integer ir = zr.take(ctx, s);
  q = std::move(iq);
  r = std::move(ir);
}

/// One result: the quotient (want_q) or the remainder of n / (d_sign |d|).
void divide_one(const char* op, OneResultFn fn, Rounding rd, bool want_q, int d_sign, Integer& r, const Integer& n,
                const Integer& d, Stream s) {
  require_divisor(op, n, d);
  if (divide_on_device(want_q ? &r : nullptr, want_q ? nullptr : &r, n, d, d_sign, rd, s)) return;
  require_rounding_room(op, rd, want_q, !want_q, n, d);
  const Context& ctx = n.context();
  detail::wait_for_caller_stream(ctx, s);
  HostOperand hn(n), hd(d);
  HostResult z;
  fn(z, hn, hd);
  r = z.take(ctx, s);
}

}  // namespace

void tdiv_qr(Integer& q, Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_qr("tdiv_qr", mpz_tdiv_qr, Rounding::trunc, q, r, n, d, s);
}
void tdiv_q(Integer& q, const Integer& n, const Integer& d, Stream s) {
  divide_one("tdiv_q", mpz_tdiv_q, Rounding::trunc, true, d.sign(), q, n, d, s);
}
void tdiv_r(Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_one("tdiv_r", mpz_tdiv_r, Rounding::trunc, false, d.sign(), r, n, d, s);
}
void fdiv_qr(Integer& q, Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_qr("fdiv_qr", mpz_fdiv_qr, Rounding::floor, q, r, n, d, s);
}
void fdiv_q(Integer& q, const Integer& n, const Integer& d, Stream s) {
  divide_one("fdiv_q", mpz_fdiv_q, Rounding::floor, true, d.sign(), q, n, d, s);
}
void fdiv_r(Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_one("fdiv_r", mpz_fdiv_r, Rounding::floor, false, d.sign(), r, n, d, s);
}
void cdiv_qr(Integer& q, Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_qr("cdiv_qr", mpz_cdiv_qr, Rounding::ceil, q, r, n, d, s);
}
void cdiv_q(Integer& q, const Integer& n, const Integer& d, Stream s) {
  divide_one("cdiv_q", mpz_cdiv_q, Rounding::ceil, true, d.sign(), q, n, d, s);
}
void cdiv_r(Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_one("cdiv_r", mpz_cdiv_r, Rounding::ceil, false, d.sign(), r, n, d, s);
}
void mod(Integer& r, const Integer& n, const Integer& d, Stream s) { divide_one("mod", mpz_mod, Rounding::floor, false, 1, r, n, d, s); }
void divexact(Integer& q, const Integer& n, const Integer& d, Stream s) {
  divide_one("divexact", mpz_divexact, Rounding::trunc, true, d.sign(), q, n, d, s);
}

bool divisible_p(const Integer& n, const Integer& d, Stream s) {
  detail::require_same_context("divisible_p", n, d);
  const bool host = detail::on_host(kHostValueMaxLimbs, {&n, &d});
  if (!host && d.size() == 1) return detail::remainder_by_limb(n, d.to_limbs()[0], s) == 0;
  if (!host && !d.is_zero() && detail::newton_division_applies(n, d)) {
    Integer r(n.context());
    divide_on_device(nullptr, &r, n, d, d.sign(), Rounding::trunc, s);
    return r.is_zero();
  }
  detail::wait_for_caller_stream(n.context(), s);
  HostOperand hn(n), hd(d);
  return mpz_divisible_p(hn, hd) != 0;  // d == 0: true only for n == 0, as GMP
}

bool congruent_p(const Integer& n, const Integer& c, const Integer& d, Stream s) {
  detail::require_same_context("congruent_p", n, c);
  detail::require_same_context("congruent_p", n, d);
  detail::wait_for_caller_stream(n.context(), s);
  HostOperand hn(n), hc(c), hd(d);
  return mpz_congruent_p(hn, hc, hd) != 0;  // d == 0: n == c, as GMP
}

std::uint64_t tdiv_qr_ui(Integer& q, Integer& r, const Integer& n, std::uint64_t d, Stream s) {
  if (&q == &r)
    throw InvalidArgument("mpgpu::tdiv_qr_ui: q and r are the same object; pass two different Integers");
  if (d == 0) throw DivisionByZero("mpgpu::tdiv_qr_ui: division by zero (the divisor is 0)");
  const Context& ctx = n.context();
  if (!detail::on_host(kHostValueMaxLimbs, {&n})) return detail::divide_by_limb(&q, &r, n, d, 1, Rounding::trunc, true, s);
  HostResult zq, zr;
  const std::uint64_t rem = mpz_tdiv_qr_ui(zq, zr, detail::IntegerAccess::cpu_mpz(n), d);
  Integer iq = zq.take(ctx, s);
  Integer ir = zr.take(ctx, s);
  q = std::move(iq);
  r = std::move(ir);
  return rem;
}

std::uint64_t tdiv_q_ui(Integer& q, const Integer& n, std::uint64_t d, Stream s) {
  if (d == 0) throw DivisionByZero("mpgpu::tdiv_q_ui: division by zero (the divisor is 0)");
  const Context& ctx = n.context();
  if (!detail::on_host(kHostValueMaxLimbs, {&n}))
    return detail::divide_by_limb(&q, nullptr, n, d, 1, Rounding::trunc, true, s);
  HostResult zq;
  const std::uint64_t rem = mpz_tdiv_q_ui(zq, detail::IntegerAccess::cpu_mpz(n), d);
  q = zq.take(ctx, s);
  return rem;
}

std::uint64_t tdiv_ui(const Integer& n, std::uint64_t d, Stream s) {
  if (d == 0) throw DivisionByZero("mpgpu::tdiv_ui: division by zero (the divisor is 0)");
  if (!detail::on_host(kHostValueMaxLimbs, {&n})) return detail::remainder_by_limb(n, d, s);
  return mpz_tdiv_ui(detail::IntegerAccess::cpu_mpz(n), d);
}

Integer operator/(const Integer& a, const Integer& b) {
  Integer q(a.context());
  tdiv_q(q, a, b);
  return q;
}
Integer operator%(const Integer& a, const Integer& b) {
  Integer r(a.context());
  tdiv_r(r, a, b);
  return r;
}
Integer& Integer::operator/=(const Integer& b) {
  tdiv_q(*this, *this, b);
  return *this;
}
Integer& Integer::operator%=(const Integer& b) {
  tdiv_r(*this, *this, b);
  return *this;
}

}  // namespace mpgpu
