#include "selftest_int_ops.hpp"

namespace mpgpu::cli::selftest {

Integer make_destination(CaseEnv& env, std::uint64_t bits) {
  if (env.rng.coin()) return Integer(env.ctx);
  const Operand old = random_operand(env.rng, std::max<std::uint64_t>(1, bits));
  return make_integer(env, old.value.get());
}

Operand operand_in(CaseEnv& env, Area area, std::size_t max_limbs, bool allow_negative) {
  return random_operand(env.rng, pick_bits(env.rng, area, max_limbs), allow_negative);
}

void check_binary(CaseEnv& env, CaseOutcome& out, std::string_view name, IntBinary f, MpzBinary g,
                  const Operand& a, const Operand& b, bool distinct) {
  static const char* const forms[] = {"r apart", "r = a", "r = b", "a = b", "r = a = b"};
  const unsigned form = static_cast<unsigned>(env.rng.below(distinct ? 3 : 5));
  const bool same = form >= 3;
  out.op = std::string(name) + " (" + forms[form] + ")";
  out.sizes = "a: " + a.what + (same ? "" : "; b: " + b.what);
  mpz_srcptr bv = same ? a.value.get() : b.value.get();
  Mpz want;
  g(want.get(), a.value.get(), bv);
  const std::string what(name);
  Integer A = make_integer(env, a.value.get());
  switch (form) {
    case 0: {
      Integer B = make_integer(env, bv);
      Integer R = make_destination(env, mpz_sizeinbase(want.get(), 2));
      f(R, A, B, env.stream);
      expect_equal(out, what, R, want.get());
      expect_equal(out, "operand a after " + what, A, a.value.get());
      expect_equal(out, "operand b after " + what, B, bv);
      break;
    }
    case 1: {
      Integer B = make_integer(env, bv);
      f(A, A, B, env.stream);
      expect_equal(out, what, A, want.get());
      expect_equal(out, "operand b after " + what, B, bv);
      break;
    }
    case 2: {
      Integer B = make_integer(env, bv);
      f(B, A, B, env.stream);
      expect_equal(out, what, B, want.get());
      expect_equal(out, "operand a after " + what, A, a.value.get());
      break;
    }
    case 3: {
      Integer R = make_destination(env, mpz_sizeinbase(want.get(), 2));
      f(R, A, A, env.stream);
      expect_equal(out, what, R, want.get());
      expect_equal(out, "operand a after " + what, A, a.value.get());
      break;
    }
    default:
      f(A, A, A, env.stream);
      expect_equal(out, what, A, want.get());
  }
}

void check_unary(CaseEnv& env, CaseOutcome& out, std::string_view name, IntUnary f, MpzUnary g,
                 const Operand& a) {
  const bool in_place = env.rng.coin();
  out.op = std::string(name) + (in_place ? " (r = a)" : " (r apart)");
  out.sizes = "a: " + a.what;
  Mpz want;
  g(want.get(), a.value.get());
  const std::string what(name);
  Integer A = make_integer(env, a.value.get());
  if (in_place) {
    f(A, A, env.stream);
    expect_equal(out, what, A, want.get());
  } else {
    Integer R = make_destination(env, mpz_sizeinbase(want.get(), 2));
    f(R, A, env.stream);
    expect_equal(out, what, R, want.get());
    expect_equal(out, "operand a after " + what, A, a.value.get());
  }
}

}  // namespace mpgpu::cli::selftest
