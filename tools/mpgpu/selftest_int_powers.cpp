// `mpgpu selftest`: powers and roots: pow_ui and ui_pow_ui, powm (negative
// exponents and moduli, no inverse, zero modulus), sqrt/sqrtrem/
// perfect_square_p, root, and the sequences fac_ui, fib_ui, lucnum_ui,
// bin_uiui, bin_ui; sizes around their crossovers, against GMP.
#include <algorithm>
#include <bit>
#include <cmath>

#include "selftest_int_ops.hpp"

namespace mpgpu::cli::selftest {

namespace {

constexpr std::size_t kPowerMaxLimbs = 4096;  // results (pow_ui, sequences) and radicands
constexpr std::size_t kPowmMaxLimbs = 512;    // log-uniform moduli; crossovers reach 4098

/// A radicand near a perfect k-th power: x^k - 1, x^k or x^k + 1 (or random).
Operand near_power(CaseEnv& env, std::uint64_t bits, unsigned long k) {
  if (env.rng.one_in(4)) return random_operand(env.rng, bits, false);
  Operand x = random_operand(env.rng, std::max<std::uint64_t>(1, bits / k), false);
  Operand a;
  mpz_pow_ui(a.value.get(), x.value.get(), k);
  const int delta = static_cast<int>(env.rng.below(3)) - 1;
  if (delta < 0 && mpz_sgn(a.value.get()) > 0) mpz_sub_ui(a.value.get(), a.value.get(), 1);
  if (delta > 0) mpz_add_ui(a.value.get(), a.value.get(), 1);
  a.what = "(" + x.what + ")^" + std::to_string(k) + (delta < 0 ? " - 1" : delta > 0 ? " + 1" : "");
  return a;
}

void expect_invalid(CaseOutcome& out, const char* what, auto&& call) {
  try {
    call();
    out.fail(std::string(what) + " did not throw InvalidArgument");
  } catch (const DivisionByZero&) {
    out.fail(std::string(what) + " threw DivisionByZero, not InvalidArgument");
  } catch (const InvalidArgument&) {
  }
}

}  // namespace

void run_pow_case(CaseEnv& env, CaseOutcome& out) {
  const std::uint64_t target = pick_bits(env.rng, Area::power, kPowerMaxLimbs);
  if (env.rng.one_in(4)) {
    const std::uint64_t base = env.rng.coin() ? env.rng.below(20) : env.rng.next() >> env.rng.below(64);
    const std::uint64_t b_bits = std::max<std::uint64_t>(1, 64 - static_cast<std::uint64_t>(std::countl_zero(base)));
    const std::uint64_t e = env.rng.one_in(8) ? env.rng.below(3) : target / b_bits;
    out.op = "ui_pow_ui(" + std::to_string(base) + ", " + std::to_string(e) + ")";
    out.sizes = "result about " + describe_bits(target);
    Mpz want;
    mpz_ui_pow_ui(want.get(), base, e);
    Integer r = make_destination(env, target);
    ui_pow_ui(r, base, e, env.stream);
    expect_equal(out, "ui_pow_ui", r, want.get());
    return;
  }
  const std::uint64_t bbits = env.rng.coin() ? env.rng.between(1, 64) : env.rng.log_uniform(std::max<std::uint64_t>(1, target / 2));
  const Operand base = random_operand(env.rng, bbits);
  const std::uint64_t e = env.rng.one_in(8) ? env.rng.below(3) : std::max<std::uint64_t>(1, target / bbits);
  const bool in_place = env.rng.coin();
  out.op = "pow_ui(base, " + std::to_string(e) + ")" + (in_place ? " (r = base)" : " (r apart)");
  out.sizes = "base: " + base.what;
  Mpz want;
  mpz_pow_ui(want.get(), base.value.get(), e);
  Integer B = make_integer(env, base.value.get());
  if (in_place) {
    pow_ui(B, B, e, env.stream);
    expect_equal(out, "pow_ui", B, want.get());
  } else {
    Integer r = make_destination(env, target);
    pow_ui(r, B, e, env.stream);
    expect_equal(out, "pow_ui", r, want.get());
    expect_equal(out, "operand base after pow_ui", B, base.value.get());
  }
}

void run_powm_case(CaseEnv& env, CaseOutcome& out) {
  Operand m = random_operand(env.rng, pick_bits(env.rng, Area::division, kPowmMaxLimbs));
  const std::uint64_t mbits = std::max<std::uint64_t>(1, mpz_sizeinbase(m.value.get(), 2));
  const std::uint64_t mlimbs = (mbits + 63) / 64;
  const Operand base = random_operand(env.rng, env.rng.log_uniform(2 * mbits + 64));
  // GMP's time grows with exponent bits x limbs^1.6 or so: keep a case near a millisecond or two.
  const std::uint64_t max_ebits = std::clamp<std::uint64_t>((std::uint64_t{1} << 22) / (mlimbs * mlimbs), 32, 64 * mlimbs + 64);
  Operand e = random_operand(env.rng, env.rng.one_in(8) ? env.rng.below(3) : env.rng.log_uniform(max_ebits), env.rng.one_in(6));
  out.op = "powm";
  out.sizes = "base: " + base.what + "; exp: " + e.what + "; m: " + m.what;
  const Integer B = make_integer(env, base.value.get()), E = make_integer(env, e.value.get());
  const Integer M = make_integer(env, m.value.get());
  Integer r = make_destination(env, mbits);
  if (mpz_sgn(m.value.get()) == 0) {
    try {
      powm(r, B, E, M, env.stream);
      out.fail("powm with m = 0 did not throw DivisionByZero");
    } catch (const DivisionByZero&) {
    }
    return;
  }
  Mpz want;
  if (mpz_sgn(e.value.get()) < 0 && mpz_invert(want.get(), base.value.get(), m.value.get()) == 0) {
    out.op = "powm (negative exponent, no inverse)";
    expect_invalid(out, "powm with no inverse", [&] { powm(r, B, E, M, env.stream); });
    return;
  }
  mpz_powm(want.get(), base.value.get(), e.value.get(), m.value.get());
  powm(r, B, E, M, env.stream);
  expect_equal(out, "powm", r, want.get());
  expect_equal(out, "operand base after powm", B, base.value.get());
}

void run_sqrt_case(CaseEnv& env, CaseOutcome& out) {
  const Operand a = near_power(env, pick_bits(env.rng, Area::sqrt, kPowerMaxLimbs), 2);
  out.sizes = "a: " + a.what;
  Integer A = make_integer(env, a.value.get());
  if (env.rng.one_in(30) && mpz_sgn(a.value.get()) > 0) {
    out.op = "sqrt of a negative number";
    Integer neg_a(env.ctx), r(env.ctx);
    neg(neg_a, A, env.stream);
    expect_invalid(out, "sqrt(-a)", [&] { sqrt(r, neg_a, env.stream); });
    return;
  }
  Mpz s, rem;
  mpz_sqrtrem(s.get(), rem.get(), a.value.get());
  switch (env.rng.below(4)) {
    case 0: {
      out.op = "sqrt (r apart)";
      Integer r = make_destination(env, mpz_sizeinbase(s.get(), 2));
      sqrt(r, A, env.stream);
      expect_equal(out, "sqrt", r, s.get());
      expect_equal(out, "operand a after sqrt", A, a.value.get());
      break;
    }
    case 1:
      out.op = "sqrt (r = a)";
      sqrt(A, A, env.stream);
      expect_equal(out, "sqrt", A, s.get());
      break;
    case 2: {
      const bool rem_is_a = env.rng.coin();
      out.op = rem_is_a ? "sqrtrem (rem = a)" : "sqrtrem (apart)";
      Integer root(env.ctx), other(env.ctx);
      Integer& r = rem_is_a ? A : other;
      sqrtrem(root, r, A, env.stream);
      expect_equal(out, "sqrtrem root", root, s.get());
      expect_equal(out, "sqrtrem rem", r, rem.get());
      break;
    }
    default:
      out.op = "perfect_square_p";
      expect_equal(out, "perfect_square_p", perfect_square_p(A, env.stream), mpz_perfect_square_p(a.value.get()) != 0);
  }
}

void run_root_case(CaseEnv& env, CaseOutcome& out) {
  static const unsigned long ks[] = {3, 3, 4, 5, 7, 8, 13, 64, 65};
  unsigned long k = env.rng.one_in(10) ? env.rng.between(66, 5000) : ks[env.rng.below(9)];
  const std::uint64_t bits = pick_bits(env.rng, Area::root, kPowerMaxLimbs);
  Operand a = near_power(env, bits, k);
  const bool negative = k % 2 == 1 && env.rng.coin();
  if (negative) {
    mpz_neg(a.value.get(), a.value.get());
    a.what += ", negated";
  }
  out.sizes = "a: " + a.what;
  Integer A = make_integer(env, a.value.get());
  Integer r = make_destination(env, bits / k + 1);
  if (env.rng.one_in(40)) {
    const bool zero = env.rng.coin() || mpz_sgn(a.value.get()) == 0;
    out.op = zero ? "root(a, 0)" : "root(-|a|, 2)";
    Integer neg_a(env.ctx);
    mpgpu::abs(neg_a, A, env.stream);
    neg(neg_a, neg_a, env.stream);
    expect_invalid(out, out.op.c_str(), [&] { root(r, zero ? A : neg_a, zero ? 0 : 2, env.stream); });
    return;
  }
  out.op = "root(a, " + std::to_string(k) + ")";
  Mpz want;
  const bool exact = mpz_root(want.get(), a.value.get(), k) != 0;
  const bool in_place = env.rng.coin();
  Integer& dst = in_place ? A : r;
  expect_equal(out, "root exact", root(dst, A, k, env.stream), exact);
  expect_equal(out, "root", dst, want.get());
}

void run_sequence_case(CaseEnv& env, CaseOutcome& out) {
  const std::uint64_t target = pick_bits(env.rng, Area::sequence, kPowerMaxLimbs);
  Mpz want;
  Integer r = make_destination(env, target);
  switch (env.rng.below(5)) {
    case 0: {  // bits of n! = lgamma(n + 1) / ln 2
      std::uint64_t n = 1;
      while (std::lgamma(static_cast<double>(n) + 1) / std::log(2.0) < static_cast<double>(target)) n += 1 + n / 16;
      n -= env.rng.below(std::min<std::uint64_t>(n, 3));
      out.op = "fac_ui(" + std::to_string(n) + ")";
      mpz_fac_ui(want.get(), n);
      fac_ui(r, n, env.stream);
      break;
    }
    case 1:
    case 2: {  // F(n) has about 0.694 n bits
      const bool lucas = env.rng.coin();
      const std::uint64_t n = static_cast<std::uint64_t>(static_cast<double>(target) / 0.6942) + env.rng.below(3);
      out.op = std::string(lucas ? "lucnum_ui(" : "fib_ui(") + std::to_string(n) + ")";
      if (lucas) {
        mpz_lucnum_ui(want.get(), n);
        lucnum_ui(r, n, env.stream);
      } else {
        mpz_fib_ui(want.get(), n);
        fib_ui(r, n, env.stream);
      }
      break;
    }
    case 3: {  // binomial(n, n/2) has about n bits
      const std::uint64_t n = target + env.rng.below(3);
      const std::uint64_t k = env.rng.coin() ? n / 2 + env.rng.below(3) : env.rng.below(n + 3);
      out.op = "bin_uiui(" + std::to_string(n) + ", " + std::to_string(k) + ")";
      mpz_bin_uiui(want.get(), n, k);
      bin_uiui(r, n, k, env.stream);
      break;
    }
    default: {
      const Operand n = random_operand(env.rng, env.rng.between(1, 40));
      const std::uint64_t k = env.rng.below(std::min<std::uint64_t>(target / 8 + 2, 3000));
      out.op = "bin_ui(n, " + std::to_string(k) + ")";
      out.sizes = "n: " + n.what;
      mpz_bin_ui(want.get(), n.value.get(), k);
      bin_ui(r, make_integer(env, n.value.get()), k, env.stream);
      expect_equal(out, "bin_ui", r, want.get());
      return;
    }
  }
  out.sizes = "result " + describe_bits(mpz_sizeinbase(want.get(), 2));
  expect_equal(out, out.op, r, want.get());
}

}  // namespace mpgpu::cli::selftest
