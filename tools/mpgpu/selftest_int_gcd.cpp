// `mpgpu selftest`: gcd and lcm, gcdext (GMP's own cofactors, exactly),
// and invert (false leaves the result alone; m = 0 throws), on operands
// around the half-gcd crossovers, often with a large common factor.
#include "selftest_int_ops.hpp"

namespace mpgpu::cli::selftest {

namespace {

constexpr std::size_t kGcdMaxLimbs = 1024;  // log-uniform draws; crossovers reach 4098

/// Two operands in the gcd area; a third of the pairs share a factor of up
/// to half their size (so the gcd is not 1 and the half-gcd runs long).
void gcd_pair(CaseEnv& env, Operand& a, Operand& b) {
  a = operand_in(env, Area::gcd, kGcdMaxLimbs);
  const std::uint64_t abits = mpz_sizeinbase(a.value.get(), 2);
  b = env.rng.coin() ? operand_in(env, Area::gcd, kGcdMaxLimbs)
                     : random_operand(env.rng, abits > 64 ? abits - env.rng.below(64) : abits);
  if (env.rng.below(3) == 0) {
    const std::uint64_t bits = mpz_sizeinbase(a.value.get(), 2);
    const Operand g = random_operand(env.rng, env.rng.log_uniform(bits / 2 + 1), false);
    mpz_mul(a.value.get(), a.value.get(), g.value.get());
    mpz_mul(b.value.get(), b.value.get(), g.value.get());
    a.what += " times g";
    b.what += " times g (" + g.what + ")";
  }
}

}  // namespace

void run_gcd_case(CaseEnv& env, CaseOutcome& out) {
  Operand a, b;
  gcd_pair(env, a, b);
  if (env.rng.below(4) == 0) return check_binary(env, out, "lcm", lcm, mpz_lcm, a, b);
  check_binary(env, out, "gcd", gcd, mpz_gcd, a, b);
}

void run_gcdext_case(CaseEnv& env, CaseOutcome& out) {
  Operand a, b;
  gcd_pair(env, a, b);
  static const char* const forms[] = {"g, s, t apart", "g = a, s = b", "s = a, t = b", "a = b"};
  const unsigned form = static_cast<unsigned>(env.rng.below(4));
  out.op = std::string("gcdext (") + forms[form] + ")";
  out.sizes = "a: " + a.what + (form == 3 ? "" : "; b: " + b.what);
  mpz_srcptr bv = form == 3 ? a.value.get() : b.value.get();
  Mpz g, s, t;
  mpz_gcdext(g.get(), s.get(), t.get(), a.value.get(), bv);
  Integer A = make_integer(env, a.value.get()), B = make_integer(env, bv);
  Integer G = make_destination(env, 64), S(env.ctx), T(env.ctx);
  switch (form) {
    case 0:
      gcdext(G, S, T, A, B, env.stream);
      expect_equal(out, "gcdext g", G, g.get());
      expect_equal(out, "gcdext s", S, s.get());
      expect_equal(out, "gcdext t", T, t.get());
      expect_equal(out, "operand a after gcdext", A, a.value.get());
      expect_equal(out, "operand b after gcdext", B, bv);
      break;
    case 1:
      gcdext(A, B, T, A, B, env.stream);
      expect_equal(out, "gcdext g", A, g.get());
      expect_equal(out, "gcdext s", B, s.get());
      expect_equal(out, "gcdext t", T, t.get());
      break;
    case 2:
      gcdext(G, A, B, A, B, env.stream);
      expect_equal(out, "gcdext g", G, g.get());
      expect_equal(out, "gcdext s", A, s.get());
      expect_equal(out, "gcdext t", B, t.get());
      break;
    default:
      gcdext(G, S, T, A, A, env.stream);
      expect_equal(out, "gcdext g", G, g.get());
      expect_equal(out, "gcdext s", S, s.get());
      expect_equal(out, "gcdext t", T, t.get());
  }
}

void run_invert_case(CaseEnv& env, CaseOutcome& out) {
  Operand a, m;
  gcd_pair(env, m, a);  // a about as long as m, or longer when they share g
  if (env.rng.coin()) {
    const Operand small = random_operand(env.rng, env.rng.between(1, 128));
    mpz_set(a.value.get(), small.value.get());
    a.what = small.what;
  }
  out.op = "invert";
  out.sizes = "a: " + a.what + "; m: " + m.what;
  const Integer A = make_integer(env, a.value.get()), M = make_integer(env, m.value.get());
  Mpz old;
  const Operand previous = random_operand(env.rng, 64);
  mpz_set(old.get(), previous.value.get());
  Integer r = make_integer(env, old.get());
  if (mpz_sgn(m.value.get()) == 0) {
    out.op = "invert modulo 0";
    try {
      invert(r, A, M, env.stream);
      out.fail("invert with m = 0 did not throw DivisionByZero");
    } catch (const DivisionByZero&) {
    }
    return;
  }
  Mpz want;
  const bool exists = mpz_invert(want.get(), a.value.get(), m.value.get()) != 0;
  expect_equal(out, "invert returned", invert(r, A, M, env.stream), exists);
  expect_equal(out, exists ? "invert" : "invert's result when there is no inverse (untouched)", r,
               exists ? want.get() : old.get());
  expect_equal(out, "operand a after invert", A, a.value.get());
}

}  // namespace mpgpu::cli::selftest
