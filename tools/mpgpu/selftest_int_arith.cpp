// `mpgpu selftest`: the linear Integer families (add, shift, bitwise) and
// the products (mul), each against GMP.
#include <span>
#include <vector>

#include "selftest_int_ops.hpp"

namespace mpgpu::cli::selftest {

namespace {

constexpr std::size_t kLinearMaxLimbs = 4096;   // log-uniform draws; crossovers reach 2^14 + 2
constexpr std::size_t kProductMaxLimbs = 2048;  // crossovers reach 16386 limbs

int sign_of(int c) { return (c > 0) - (c < 0); }

/// `sum` of 0..8 terms, some repeated, mixed signs and sizes.
void check_sum(CaseEnv& env, CaseOutcome& out) {
  const std::size_t k = env.rng.below(9);
  std::vector<Operand> ops;
  std::vector<Integer> terms;
  Mpz want;
  for (std::size_t i = 0; i < k; ++i) {
    if (i > 0 && env.rng.one_in(6)) {  // the same value again (a separate Integer)
      Operand copy;
      mpz_set(copy.value.get(), ops.back().value.get());
      copy.what = ops.back().what;
      ops.push_back(std::move(copy));
    } else {
      ops.push_back(operand_in(env, Area::linear, kLinearMaxLimbs));
    }
    terms.push_back(make_integer(env, ops.back().value.get()));
    mpz_add(want.get(), want.get(), ops.back().value.get());
  }
  out.op = "sum of " + std::to_string(k) + " terms";
  for (std::size_t i = 0; i < k; ++i) out.sizes += (i ? "; " : "") + ops[i].what;
  Integer r = make_destination(env, mpz_sizeinbase(want.get(), 2));
  sum(r, std::span<const Integer>(terms), env.stream);
  expect_equal(out, "sum", r, want.get());
}

void check_compare(CaseEnv& env, CaseOutcome& out, const Operand& a, const Operand& b) {
  out.op = "cmp, cmpabs, <=>, ==";
  out.sizes = "a: " + a.what + "; b: " + b.what;
  const Integer A = make_integer(env, a.value.get()), B = make_integer(env, b.value.get());
  const int want = sign_of(mpz_cmp(a.value.get(), b.value.get()));
  expect_equal(out, "cmp", cmp(A, B, env.stream), want);
  expect_equal(out, "cmpabs", cmpabs(A, B, env.stream), sign_of(mpz_cmpabs(a.value.get(), b.value.get())));
  const auto order = A <=> B;
  expect_equal(out, "<=>", order < 0 ? -1 : order > 0 ? 1 : 0, want);
  expect_equal(out, "==", A == B, want == 0);
  expect_equal(out, "sgn", sgn(A), mpz_sgn(a.value.get()));
}

}  // namespace

void run_add_case(CaseEnv& env, CaseOutcome& out) {
  const Operand a = operand_in(env, Area::linear, kLinearMaxLimbs);
  Operand b = operand_in(env, Area::linear, kLinearMaxLimbs);
  if (env.rng.one_in(8)) {  // |b| = |a|: cancellation to zero, or a doubled carry chain
    mpz_set(b.value.get(), a.value.get());
    if (env.rng.coin()) mpz_neg(b.value.get(), b.value.get());
    b.what = "a or -a";
  }
  switch (env.rng.below(8)) {
    case 0: case 1: case 2: return check_binary(env, out, "add", add, mpz_add, a, b);
    case 3: case 4: return check_binary(env, out, "sub", sub, mpz_sub, a, b);
    case 5: return env.rng.coin() ? check_unary(env, out, "neg", neg, mpz_neg, a)
                                  : check_unary(env, out, "abs", abs, mpz_abs, a);
    case 6: return check_compare(env, out, a, b);
    default: return check_sum(env, out);
  }
}

void run_mul_case(CaseEnv& env, CaseOutcome& out) {
  const Operand a = operand_in(env, Area::product, kProductMaxLimbs);
  Operand b;
  switch (env.rng.below(3)) {
    case 0: b = operand_in(env, Area::product, kProductMaxLimbs); break;
    case 1: b = random_operand(env.rng, env.rng.between(1, 64 * 40)); break;  // unbalanced, short columns
    default: b = random_operand(env.rng, mpz_sizeinbase(a.value.get(), 2));     // balanced
  }
  if (env.rng.one_in(4)) return check_unary(env, out, "sqr", sqr, [](mpz_ptr r, mpz_srcptr x) { mpz_mul(r, x, x); }, a);
  check_binary(env, out, "mul", mul, mpz_mul, a, b);
}

void run_shift_case(CaseEnv& env, CaseOutcome& out) {
  const Operand a = operand_in(env, Area::linear, kLinearMaxLimbs);
  const std::uint64_t bits = mpz_sizeinbase(a.value.get(), 2);
  std::uint64_t count = 0;
  switch (env.rng.below(5)) {
    case 0: count = env.rng.below(3) == 0 ? 0 : 64 * env.rng.between(1, 4) + env.rng.below(3) - 1; break;
    case 1: count = env.rng.below(64); break;
    case 2: count = env.rng.below(bits + 1); break;
    case 3: count = bits + env.rng.below(130) - 1; break;  // about all of a's bits
    default: count = env.rng.log_uniform(64 * (kLinearMaxLimbs + 64)); break;
  }
  using Shift = void (*)(Integer&, const Integer&, std::uint64_t, Stream);
  using MpzShift = void (*)(mpz_ptr, mpz_srcptr, mp_bitcnt_t);
  static const struct {
    const char* name;
    Shift f;
    MpzShift g;
  } ops[] = {{"mul_2exp", mul_2exp, mpz_mul_2exp},
             {"tdiv_q_2exp", tdiv_q_2exp, mpz_tdiv_q_2exp},
             {"fdiv_q_2exp", fdiv_q_2exp, mpz_fdiv_q_2exp}};
  const auto& op = ops[env.rng.below(3)];
  const bool in_place = env.rng.coin();
  out.op = std::string(op.name) + " by " + std::to_string(count) + (in_place ? " (r = a)" : " (r apart)");
  out.sizes = "a: " + a.what;
  Mpz want;
  op.g(want.get(), a.value.get(), count);
  Integer A = make_integer(env, a.value.get());
  if (in_place) {
    op.f(A, A, count, env.stream);
    expect_equal(out, op.name, A, want.get());
  } else {
    Integer R = make_destination(env, mpz_sizeinbase(want.get(), 2));
    op.f(R, A, count, env.stream);
    expect_equal(out, op.name, R, want.get());
    expect_equal(out, std::string("operand a after ") + op.name, A, a.value.get());
  }
}

void run_bitwise_case(CaseEnv& env, CaseOutcome& out) {
  const Operand a = operand_in(env, Area::linear, kLinearMaxLimbs);
  const Operand b = operand_in(env, Area::linear, kLinearMaxLimbs);
  const std::uint64_t r = env.rng.below(10);
  if (r < 2) return check_binary(env, out, "and_", and_, mpz_and, a, b);
  if (r < 4) return check_binary(env, out, "ior", ior, mpz_ior, a, b);
  if (r < 6) return check_binary(env, out, "xor_", xor_, mpz_xor, a, b);
  if (r < 7) return check_unary(env, out, "com", com, mpz_com, a);
  const std::uint64_t bits = mpz_sizeinbase(a.value.get(), 2);
  const std::uint64_t index = env.rng.coin() ? env.rng.below(bits + 130) : env.rng.below(bits + 1);
  out.sizes = "a: " + a.what;
  Integer A = make_integer(env, a.value.get());
  if (r < 8) {
    out.op = "popcount, sizeinbase2, tstbit(" + std::to_string(index) + ")";
    const std::uint64_t pop = popcount(A, env.stream);
    expect_true(out, "popcount: got " + std::to_string(pop) + ", want " +
                         std::to_string(mpz_popcount(a.value.get())),
                pop == mpz_popcount(a.value.get()));
    expect_equal(out, "sizeinbase2", static_cast<long long>(sizeinbase2(A, env.stream)),
                 static_cast<long long>(bits));
    expect_equal(out, "tstbit", tstbit(A, index, env.stream), mpz_tstbit(a.value.get(), index));
    return;
  }
  const bool set = r == 8;
  out.op = std::string(set ? "setbit(" : "clrbit(") + std::to_string(index) + ")";
  Mpz want;
  mpz_set(want.get(), a.value.get());
  if (set) {
    setbit(A, index, env.stream);
    mpz_setbit(want.get(), index);
  } else {
    clrbit(A, index, env.stream);
    mpz_clrbit(want.get(), index);
  }
  expect_equal(out, set ? "setbit" : "clrbit", A, want.get());
}

}  // namespace mpgpu::cli::selftest
