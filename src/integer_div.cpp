// Division with GMP's three roundings (tdiv, fdiv, cdiv), mod, divexact,
// divisibility and congruence, and the / and % operators (tdiv, as C and
// gmpxx). Both backends run through GMP on the host in this release
// (integer_host_gmp.hpp); division on the device (a scan for single-limb
// divisors, a Newton reciprocal on the NTT product for large ones) is
// future work.
#include <utility>

#include "integer_host_gmp.hpp"

namespace mpgpu {

using detail::HostOperand;
using detail::HostResult;

namespace {

using QuotientRemainderFn = void (*)(mpz_ptr, mpz_ptr, mpz_srcptr, mpz_srcptr);
using OneResultFn = void (*)(mpz_ptr, mpz_srcptr, mpz_srcptr);

/// Checked before any copy, so a bad call touches nothing.
void require_divisor(const char* op, const Integer& n, const Integer& d) {
  detail::require_same_context(op, n, d);
  if (d.is_zero())
    throw DivisionByZero(std::string("mpgpu::") + op + ": division by zero (the divisor is 0)");
}

void divide_qr(const char* op, QuotientRemainderFn fn, Integer& q, Integer& r, const Integer& n,
               const Integer& d, Stream s) {
  if (&q == &r)
    throw InvalidArgument(std::string("mpgpu::") + op +
                          ": q and r are the same object; pass two different Integers");
  require_divisor(op, n, d);
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

void divide_one(const char* op, OneResultFn fn, Integer& r, const Integer& n, const Integer& d, Stream s) {
  require_divisor(op, n, d);
  const Context& ctx = n.context();
  detail::wait_for_caller_stream(ctx, s);
  HostOperand hn(n), hd(d);
  HostResult z;
  fn(z, hn, hd);
  r = z.take(ctx, s);
}

}  // namespace

void tdiv_qr(Integer& q, Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_qr("tdiv_qr", mpz_tdiv_qr, q, r, n, d, s);
}
void tdiv_q(Integer& q, const Integer& n, const Integer& d, Stream s) {
  divide_one("tdiv_q", mpz_tdiv_q, q, n, d, s);
}
void tdiv_r(Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_one("tdiv_r", mpz_tdiv_r, r, n, d, s);
}
void fdiv_qr(Integer& q, Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_qr("fdiv_qr", mpz_fdiv_qr, q, r, n, d, s);
}
void fdiv_q(Integer& q, const Integer& n, const Integer& d, Stream s) {
  divide_one("fdiv_q", mpz_fdiv_q, q, n, d, s);
}
void fdiv_r(Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_one("fdiv_r", mpz_fdiv_r, r, n, d, s);
}
void cdiv_qr(Integer& q, Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_qr("cdiv_qr", mpz_cdiv_qr, q, r, n, d, s);
}
void cdiv_q(Integer& q, const Integer& n, const Integer& d, Stream s) {
  divide_one("cdiv_q", mpz_cdiv_q, q, n, d, s);
}
void cdiv_r(Integer& r, const Integer& n, const Integer& d, Stream s) {
  divide_one("cdiv_r", mpz_cdiv_r, r, n, d, s);
}
void mod(Integer& r, const Integer& n, const Integer& d, Stream s) { divide_one("mod", mpz_mod, r, n, d, s); }
void divexact(Integer& q, const Integer& n, const Integer& d, Stream s) {
  divide_one("divexact", mpz_divexact, q, n, d, s);
}

bool divisible_p(const Integer& n, const Integer& d, Stream s) {
  detail::require_same_context("divisible_p", n, d);
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
