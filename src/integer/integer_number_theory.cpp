// powm and number theory (gcd, gcdext, lcm, invert). Both backends run
// through GMP on the host (integer_host_gmp.hpp), except on a CUDA context
// powm with a huge modulus (detail::powm_barrett) and the gcds of huge
// operands (detail::gcd_by_half_gcd). Powers,
// roots and sequences are in integer_powers.cpp, integer_roots.cpp and
// integer_sequences.cpp. Every
// argument GMP would abort on or leave undefined (a zero modulus, a negative
// radicand, a result beyond mpz's size) is refused here with an exception
// before any work starts.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "integer_div_paths.hpp"
#include "integer_host_gmp.hpp"
#include "integer_whole.hpp"

namespace mpgpu {

using detail::HostOperand;
using detail::HostResult;

namespace {

std::string where(const char* op) { return std::string("mpgpu::") + op + ": "; }

void require_distinct(const char* op, const Integer& a, const Integer& b, const char* names) {
  if (&a == &b)
    throw InvalidArgument(where(op) + names + " are the same object; pass different Integers");
}

/// powm on the device, for a modulus of kDeviceDivisionMinLimbs limbs or
/// more on a CUDA context and exp >= 0: Barrett reduction with the Newton
/// reciprocal of |m| made once (a NewtonDivisor: two products and a few
/// comparisons a reduction, all on the device), left to right over the
/// exponent with a fixed window of 4 bits (15 table entries) when it has
/// more than 64 bits, binary otherwise. A 4-bit window costs 1.25 products
/// and 1.25 reductions per exponent bit, against 1.5 and 1.5 for binary.
/// Only the exponent's bits come to the host.
bool powm_on_device(const Integer& exp, const Integer& m) {
  return m.context().is_cuda() && exp.sign() >= 0 && m.size() >= kDeviceDivisionMinLimbs;
}

/// mpz_invert keeps its gcd in a temporary of the larger size + 1 limbs
/// (whose int allocation would wrap), and adds m to a negative cofactor.
void require_invert_room(const char* op, const Integer& a, const Integer& m) {
  detail::require_gmp_room(op, std::max(a.size(), m.size()) + 1,
                           [&] { return detail::limbs_of("a value and a modulus", a.size(), m.size()); });
}

}  // namespace

namespace detail {

void powm_barrett(Integer& r, const Integer& base, const Integer& exp, const Integer& m, Stream s) {
  const Context& ctx = base.context();
  const std::uint64_t k = sizeinbase2(m, s);
  const NewtonDivisor divisor(m, 2 * k, s);  // products of two residues: < 2^(2k)
  HostOperand he(exp);
  const std::size_t ebits = exp.sign() == 0 ? 0 : mpz_sizeinbase(he, 2);
  if (ebits == 0) {  // |m| > 1 here: base^0 mod |m| = 1
    r = Integer(1, ctx);
    return;
  }
  Integer t(ctx);
  auto reduce = [&](Integer& x) {  // x = x mod |m|
    divisor.divide(nullptr, t, x, s);
    std::swap(x, t);
  };
  const int w = ebits > 64 ? 4 : 1;
  std::vector<Integer> table;  // table[i] = base^(i+1) mod |m|
  table.emplace_back(ctx);
  mod(table[0], base, m, s);
  for (int i = 1; i < (1 << w) - 1; ++i) {
    table.emplace_back(ctx);
    mul(table[i], table[i - 1], table[0], s);
    reduce(table[i]);
  }
  auto digit = [&](std::size_t low) {  // exponent bits low .. low + w - 1
    unsigned d = 0;
    for (int b = w - 1; b >= 0; --b) d = 2 * d + (low + b < ebits && mpz_tstbit(he, low + b));
    return d;
  };
  std::size_t low = (ebits - 1) / w * w;  // the top digit is nonzero
  Integer acc = table[digit(low) - 1];
  while (low > 0) {
    low -= w;
    for (int i = 0; i < w; ++i) {
      sqr(acc, acc, s);
      reduce(acc);
    }
    if (const unsigned d = digit(low)) {
      mul(acc, acc, table[d - 1], s);
      reduce(acc);
    }
  }
  r = std::move(acc);
}

}  // namespace detail

// ---- powers modulo m ------------------------------------------------------------------

void powm(Integer& r, const Integer& base, const Integer& exp, const Integer& m, Stream s) {
  detail::require_same_context("powm", base, exp);
  detail::require_same_context("powm", base, m);
  if (m.is_zero()) throw DivisionByZero(where("powm") + "the modulus is 0");
  const Context& ctx = base.context();
  if (powm_on_device(exp, m)) return detail::powm_barrett(r, base, exp, m, s);
  if (exp.sign() < 0) require_invert_room("powm", base, m);
  detail::wait_for_caller_stream(ctx, s);
  HostOperand hb(base), he(exp), hm(m);
  HostResult z;
  if (exp.sign() < 0) {
    // GMP would raise SIGFPE for a base with no inverse; say why instead.
    HostResult inverse, positive_exp;
    if (!mpz_invert(inverse, hb, hm))
      throw InvalidArgument(where("powm") +
                            "the exponent is negative and the base has no inverse modulo m "
                            "(gcd(base, m) != 1, or |m| = 1)");
    mpz_neg(positive_exp, he);
    mpz_powm(z, inverse, positive_exp, hm);
  } else {
    mpz_powm(z, hb, he, hm);
  }
  r = z.take(ctx, s);
}

// ---- number theory ---------------------------------------------------------------------

// A CUDA context takes the gcds of huge operands through the half-gcd
// (detail::gcd_by_half_gcd, integer_gcd.cpp), everything on the context's
// stream after the caller's; GMP on the host otherwise, and also when that
// path declines (a libgmp without its half-gcd, a failed check).

namespace {

bool gcd_on_device(const Integer& a, const Integer& b) {
  return a.context().is_cuda() && !a.is_zero() && !b.is_zero() &&
         std::max(a.size(), b.size()) >= kDeviceGcdMinLimbs;
}

}  // namespace

void gcd(Integer& g, const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("gcd", a, b);
  const Context& ctx = a.context();
  detail::wait_for_caller_stream(ctx, s);
  if (gcd_on_device(a, b) && detail::gcd_by_half_gcd(g, nullptr, a, b, kHostHalfGcdMaxLimbs)) return;
  HostOperand ha(a), hb(b);
  HostResult z;
  mpz_gcd(z, ha, hb);
  g = z.take(ctx, s);
}

void gcdext(Integer& g, Integer& s, Integer& t, const Integer& a, const Integer& b, Stream stream) {
  require_distinct("gcdext", g, s, "g and s");
  require_distinct("gcdext", g, t, "g and t");
  require_distinct("gcdext", s, t, "s and t");
  detail::require_same_context("gcdext", a, b);
  const Context& ctx = a.context();
  detail::wait_for_caller_stream(ctx, stream);
  Integer dg(ctx), ds(ctx);
  if (gcd_on_device(a, b) && detail::gcd_by_half_gcd(dg, &ds, a, b, kHostHalfGcdMaxLimbs)) {
    Integer dt(ctx);  // t = (g - a s) / b, exact
    mul(dt, a, ds);
    sub(dt, dg, dt);
    divexact(dt, dt, b);
    g = std::move(dg);
    s = std::move(ds);
    t = std::move(dt);
    return;
  }
  // mpz_gcdext computes t through a product whose room (an int) is
  // size(s) + size(a) + 1 <= size(a) + size(b) + 1.
  detail::require_gmp_room("gcdext", std::uint64_t{a.size()} + b.size() + 1,
                           [&] { return detail::limbs_of("operands", a.size(), b.size()); });
  HostOperand ha(a), hb(b);
  HostResult zg, zs, zt;
  mpz_gcdext(zg, zs, zt, ha, hb);
  Integer ig = zg.take(ctx, stream);
  Integer is = zs.take(ctx, stream);
  Integer it = zt.take(ctx, stream);
  g = std::move(ig);
  s = std::move(is);
  t = std::move(it);
}

void lcm(Integer& r, const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("lcm", a, b);
  const Context& ctx = a.context();
  detail::wait_for_caller_stream(ctx, s);
  Integer g(ctx);
  if (gcd_on_device(a, b) && detail::gcd_by_half_gcd(g, nullptr, a, b, kHostHalfGcdMaxLimbs)) {
    Integer out(ctx), absb(ctx);  // |a| / g * |b|
    abs(out, a);
    divexact(out, out, g);
    abs(absb, b);
    mul(out, out, absb);
    r = std::move(out);
    return;
  }
  // mpz_lcm's product |a| / gcd * |b| reserves up to the sum of the sizes.
  detail::require_gmp_room("lcm", std::uint64_t{a.size()} + b.size(),
                           [&] { return detail::limbs_of("operands", a.size(), b.size()); });
  HostOperand ha(a), hb(b);
  HostResult z;
  mpz_lcm(z, ha, hb);
  r = z.take(ctx, s);
}

bool invert(Integer& r, const Integer& a, const Integer& m, Stream s) {
  detail::require_same_context("invert", a, m);
  if (m.is_zero()) throw DivisionByZero(where("invert") + "the modulus is 0");
  const Context& ctx = a.context();
  detail::wait_for_caller_stream(ctx, s);
  if (ctx.is_cuda() && m.size() >= kDeviceGcdMinLimbs) {
    // a^-1 mod |m| = the cofactor of (a mod |m|) in its gcd with |m|, when that gcd is 1.
    Integer am(ctx), absm(ctx), g(ctx), cof(ctx);
    abs(absm, m);
    fdiv_r(am, a, absm);
    if (am.is_zero()) return false;  // |m| > 1 here
    if (detail::gcd_by_half_gcd(g, &cof, am, absm, kHostHalfGcdMaxLimbs)) {
      if (cmp(g, Integer(1, ctx)) != 0) return false;  // r untouched
      fdiv_r(cof, cof, absm);
      r = std::move(cof);
      return true;
    }
  }
  require_invert_room("invert", a, m);
  HostOperand ha(a), hm(m);
  HostResult z;
  if (!mpz_invert(z, ha, hm)) return false;  // r untouched
  r = z.take(ctx, s);
  return true;
}

}  // namespace mpgpu
