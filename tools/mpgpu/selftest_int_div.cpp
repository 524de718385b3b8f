// `mpgpu selftest`: the division family: tdiv/fdiv/cdiv in their qr, q and
// r forms, mod, divexact, divisible_p, congruent_p, the _ui forms, and a
// zero divisor (DivisionByZero, operands untouched), against GMP.
#include "selftest_int_ops.hpp"

namespace mpgpu::cli::selftest {

namespace {

constexpr std::size_t kDivisorMaxLimbs = 2048;  // log-uniform draws; crossovers reach 4098

using QR = void (*)(Integer&, Integer&, const Integer&, const Integer&, Stream);
using MpzQR = void (*)(mpz_ptr, mpz_ptr, mpz_srcptr, mpz_srcptr);

struct QrOp {
  const char* name;
  QR f;
  MpzQR g;
};
const QrOp kQrOps[] = {{"tdiv_qr", tdiv_qr, mpz_tdiv_qr}, {"fdiv_qr", fdiv_qr, mpz_fdiv_qr}, {"cdiv_qr", cdiv_qr, mpz_cdiv_qr}};

struct OneOp {
  const char* name;
  IntBinary f;
  MpzBinary g;
};
const OneOp kOneOps[] = {{"tdiv_q", tdiv_q, mpz_tdiv_q}, {"tdiv_r", tdiv_r, mpz_tdiv_r}, {"fdiv_q", fdiv_q, mpz_fdiv_q},
                         {"fdiv_r", fdiv_r, mpz_fdiv_r}, {"cdiv_q", cdiv_q, mpz_cdiv_q}, {"cdiv_r", cdiv_r, mpz_cdiv_r},
                         {"mod", mod, mpz_mod}};

/// The dividend for a divisor of `dbits` bits: longer by a log-uniform or
/// crossover amount, about twice as long (a quotient as long as the
/// divisor), a little shorter, or a multiple of d plus a small remainder.
Operand dividend_for(CaseEnv& env, const Operand& d, std::uint64_t dbits) {
  switch (env.rng.below(5)) {
    case 0: return random_operand(env.rng, dbits + env.rng.log_uniform(64 * kDivisorMaxLimbs));
    case 1: return random_operand(env.rng, 2 * dbits - std::min<std::uint64_t>(dbits - 1, env.rng.below(130)));
    case 2: return random_operand(env.rng, dbits > 64 ? dbits - env.rng.below(64) : dbits);
    case 3: return random_operand(env.rng, pick_bits(env.rng, Area::division, kDivisorMaxLimbs));
    default: {
      Operand q = random_operand(env.rng, env.rng.log_uniform(64 * kDivisorMaxLimbs));
      Operand n;
      mpz_mul(n.value.get(), d.value.get(), q.value.get());
      if (env.rng.coin()) mpz_add_ui(n.value.get(), n.value.get(), env.rng.below(3));
      if (env.rng.coin()) mpz_neg(n.value.get(), n.value.get());
      n.what = "d * (" + q.what + ") + 0..2";
      return n;
    }
  }
}

void check_qr(CaseEnv& env, CaseOutcome& out, const QrOp& op, const Operand& n, const Operand& d) {
  static const char* const forms[] = {"q, r apart", "q = n, r = d", "q = d, r = n", "r = n"};
  const unsigned form = static_cast<unsigned>(env.rng.below(4));
  out.op = std::string(op.name) + " (" + forms[form] + ")";
  Mpz q, r;
  op.g(q.get(), r.get(), n.value.get(), d.value.get());
  Integer N = make_integer(env, n.value.get()), D = make_integer(env, d.value.get());
  Integer Q = make_destination(env, mpz_sizeinbase(q.get(), 2));
  Integer R = make_destination(env, mpz_sizeinbase(r.get(), 2));
  switch (form) {
    case 0:
      op.f(Q, R, N, D, env.stream);
      expect_equal(out, std::string(op.name) + " q", Q, q.get());
      expect_equal(out, std::string(op.name) + " r", R, r.get());
      expect_equal(out, "operand n after " + std::string(op.name), N, n.value.get());
      expect_equal(out, "operand d after " + std::string(op.name), D, d.value.get());
      break;
    case 1:
      op.f(N, D, N, D, env.stream);
      expect_equal(out, std::string(op.name) + " q", N, q.get());
      expect_equal(out, std::string(op.name) + " r", D, r.get());
      break;
    case 2:
      op.f(D, N, N, D, env.stream);
      expect_equal(out, std::string(op.name) + " q", D, q.get());
      expect_equal(out, std::string(op.name) + " r", N, r.get());
      break;
    default:
      op.f(Q, N, N, D, env.stream);
      expect_equal(out, std::string(op.name) + " q", Q, q.get());
      expect_equal(out, std::string(op.name) + " r", N, r.get());
      expect_equal(out, "operand d after " + std::string(op.name), D, d.value.get());
  }
}

void check_predicates(CaseEnv& env, CaseOutcome& out, const Operand& n, const Operand& d) {
  out.op = "divisible_p, congruent_p";
  Mpz c;
  mpz_set(c.get(), n.value.get());
  if (env.rng.coin()) mpz_addmul_ui(c.get(), d.value.get(), env.rng.below(5));  // congruent
  if (env.rng.coin()) mpz_add_ui(c.get(), c.get(), 1);
  const Integer N = make_integer(env, n.value.get()), D = make_integer(env, d.value.get());
  const Integer C = make_integer(env, c.get());
  expect_equal(out, "divisible_p", divisible_p(N, D, env.stream), mpz_divisible_p(n.value.get(), d.value.get()) != 0);
  expect_equal(out, "congruent_p", congruent_p(N, C, D, env.stream),
               mpz_congruent_p(n.value.get(), c.get(), d.value.get()) != 0);
}

void check_divexact(CaseEnv& env, CaseOutcome& out, const Operand& d) {
  const Operand q = random_operand(env.rng, env.rng.log_uniform(64 * kDivisorMaxLimbs));
  Operand n;
  mpz_mul(n.value.get(), d.value.get(), q.value.get());
  n.what = "d * (" + q.what + ")";
  out.sizes = "n: " + n.what + "; d: " + d.what;
  check_binary(env, out, "divexact", divexact, mpz_divexact, n, d, true);
}

void check_ui(CaseEnv& env, CaseOutcome& out, const Operand& n) {
  static const std::uint64_t edges[] = {1, 2, 3, 1ull << 31, 1ull << 32, 1ull << 63, (1ull << 63) + 1,
                                        ~0ull, ~0ull - 1, 10000000000000000000ull};
  const std::uint64_t d = env.rng.coin() ? edges[env.rng.below(10)] : env.rng.next() >> env.rng.below(64);
  const std::uint64_t dd = d ? d : 7;
  out.op = "tdiv_qr_ui, tdiv_q_ui, tdiv_ui by " + std::to_string(dd);
  out.sizes = "n: " + n.what;
  Mpz q, r;
  const unsigned long want = mpz_tdiv_qr_ui(q.get(), r.get(), n.value.get(), dd);
  const Integer N = make_integer(env, n.value.get());
  Integer Q = make_destination(env, mpz_sizeinbase(q.get(), 2)), R(env.ctx);
  expect_equal(out, "tdiv_qr_ui returned", static_cast<long long>(tdiv_qr_ui(Q, R, N, dd, env.stream)),
               static_cast<long long>(want));
  expect_equal(out, "tdiv_qr_ui q", Q, q.get());
  expect_equal(out, "tdiv_qr_ui r", R, r.get());
  Integer Q2(env.ctx);
  expect_equal(out, "tdiv_q_ui returned", static_cast<long long>(tdiv_q_ui(Q2, N, dd, env.stream)),
               static_cast<long long>(want));
  expect_equal(out, "tdiv_q_ui q", Q2, q.get());
  expect_equal(out, "tdiv_ui", static_cast<long long>(tdiv_ui(N, dd, env.stream)), static_cast<long long>(want));
}

void check_zero_divisor(CaseEnv& env, CaseOutcome& out, const Operand& n) {
  out.op = "tdiv_qr, fdiv_r, mod, divexact, tdiv_q_ui by zero (DivisionByZero)";
  out.sizes = "n: " + n.what;
  const Integer N = make_integer(env, n.value.get()), zero(0, env.ctx);
  Integer Q(env.ctx), R(env.ctx);
  const auto expect_throw = [&](const char* name, auto&& call) {
    try {
      call();
      out.fail(std::string(name) + " by zero did not throw");
    } catch (const DivisionByZero&) {
    }
    expect_equal(out, std::string("operand n after ") + name + " by zero", N, n.value.get());
  };
  expect_throw("tdiv_qr", [&] { tdiv_qr(Q, R, N, zero, env.stream); });
  expect_throw("fdiv_r", [&] { fdiv_r(R, N, zero, env.stream); });
  expect_throw("mod", [&] { mod(R, N, zero, env.stream); });
  expect_throw("divexact", [&] { divexact(Q, N, zero, env.stream); });
  expect_throw("tdiv_q_ui", [&] { tdiv_q_ui(Q, N, 0, env.stream); });
}

}  // namespace

void run_div_case(CaseEnv& env, CaseOutcome& out) {
  const std::uint64_t dbits = pick_bits(env.rng, Area::division, kDivisorMaxLimbs);
  Operand d = random_operand(env.rng, dbits);
  if (mpz_sgn(d.value.get()) == 0) {
    if (env.rng.one_in(4)) return check_zero_divisor(env, out, random_operand(env.rng, dbits));
    mpz_set_ui(d.value.get(), 1);
    d.what = "one";
  }
  const Operand n = dividend_for(env, d, dbits);
  out.sizes = "n: " + n.what + "; d: " + d.what;
  const std::uint64_t r = env.rng.below(16);
  if (r < 6) return check_qr(env, out, kQrOps[r % 3], n, d);
  if (r < 12) {
    const OneOp& op = kOneOps[env.rng.below(7)];
    return check_binary(env, out, op.name, op.f, op.g, n, d, true);
  }
  if (r < 13) return check_predicates(env, out, n, d);
  if (r < 14) return check_divexact(env, out, d);
  return check_ui(env, out, n);
}

}  // namespace mpgpu::cli::selftest
