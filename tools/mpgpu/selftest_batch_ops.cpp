// `mpgpu selftest`: the batch families of whole-width arithmetic: linear
// operations (add/sub with carry and borrow, scalar forms, bitwise, shifts,
// rotates, arithmetic shift), products (low, high, wide, square, signed
// high), division (by a word, by a batch, wide) and per-instance answers
// (compare, equals, bit counts, signed compare). One call checks every
// instance against GMP.
#include <algorithm>

#include "selftest_batch_gen.hpp"
#include "selftest_sizes.hpp"

namespace mpgpu::cli::selftest {

namespace {

/// A batch's destination: empty (new storage), already shaped (written in
/// place), or the operand a itself.
struct Destination {
  Batch own;
  Batch* r = &own;
  std::string form = "r apart";
};

void pick_destination(CaseEnv& env, Destination& d, Batch& a, std::size_t count, std::uint64_t bits) {
  switch (env.rng.below(3)) {
    case 0: break;
    case 1:
      d.own = Batch(count, bits, env.ctx);
      // Its zero fill is queued on the context's own stream (docs/batch.md,
      // "Streams"): a case on another stream waits for it, as a user would.
      if (env.stream) env.ctx.synchronize();
      d.form = "r shaped";
      break;
    default:
      d.r = &a;
      d.form = "r = a";
  }
}

std::uint64_t pick_shift(CaseRng& rng, std::uint64_t bits) {
  switch (rng.below(6)) {
    case 0: return rng.below(2) ? bits : bits - 1;
    case 1: return bits + rng.between(1, 70);
    case 2: return 64 * rng.below(bits / 64 + 1);
    case 3: return rng.between(0, 2);
    default: return rng.below(bits);
  }
}

std::uint64_t pick_word(CaseRng& rng) {
  static const std::uint64_t edges[] = {1, 2, 3, 0xffffffffull, 0x100000000ull, 1ull << 63, ~0ull, 10000000000000000000ull};
  return rng.coin() ? edges[rng.below(8)] : rng.next() >> rng.below(64);
}

/// Makes instances of b equal to those of a now and then (compare, sub).
void share_some(CaseRng& rng, HostBatch& b, const HostBatch& a) {
  if (!rng.coin()) return;
  for (std::size_t i = 0; i < a.count; ++i)
    if (rng.one_in(4)) std::copy(a.at(i), a.at(i) + a.limbs, b.at(i));
}

void finish(CaseEnv& env, CaseOutcome& out, std::string_view what, const Batch& r, const HostBatch& want,
            const std::function<std::string(std::size_t)>& describe) {
  env.sync_stream();
  expect_instances(out, what, r.to_limbs(), want.data, want.limbs, describe);
}

}  // namespace

void run_batch_linear_case(CaseEnv& env, CaseOutcome& out) {
  const std::uint64_t bits = pick_batch_bits(env.rng, env.batch_max_bits);
  const std::size_t limbs = (bits + 63) / 64;
  const std::size_t count = pick_count(env, 16.0 + 2.0 * static_cast<double>(limbs));
  const HostBatch a = random_batch(env.rng, bits, count);
  HostBatch b = random_batch(env.rng, bits, count);
  share_some(env.rng, b, a);
  out.sizes = describe_batch(bits, count);
  out.instances = count;
  Batch A = a.upload(env.ctx), B = b.upload(env.ctx);
  Destination d;
  pick_destination(env, d, A, count, bits);
  const std::uint64_t op = env.rng.below(14);
  const std::uint64_t v = pick_word(env.rng), k = pick_shift(env.rng, bits);
  const Stream s = env.stream;
  const auto describe = describe_instances(a, &b);
  if (op < 2) {  // add and sub, with the carry or borrow out
    const bool add_op = op == 0, with_flag = env.rng.coin();
    out.op = std::string(add_op ? "add" : "sub") + (with_flag ? (add_op ? " with carry" : " with borrow") : "") +
             " (" + d.form + ")";
    const HostBatch want = oracle(env, a, &b, bits, [&](mpz_ptr r, mpz_srcptr x, mpz_srcptr y) {
      add_op ? mpz_add(r, x, y) : mpz_sub(r, x, y);
    });
    const HostBatch flag = oracle(env, a, &b, 1, [&](mpz_ptr r, mpz_srcptr x, mpz_srcptr y) {
      if (add_op) {
        mpz_add(r, x, y);
        mpz_fdiv_q_2exp(r, r, bits);
      } else {
        mpz_set_ui(r, mpz_cmp(x, y) < 0);
      }
    });
    Batch carry;
    if (add_op) add(*d.r, A, B, with_flag ? &carry : nullptr, s);
    else sub(*d.r, A, B, with_flag ? &carry : nullptr, s);
    finish(env, out, add_op ? "add" : "sub", *d.r, want, describe);
    if (with_flag) finish(env, out, add_op ? "carry" : "borrow", carry, flag, describe);
    return;
  }
  struct Unary {
    const char* name;
    bool uses_b, uses_v, uses_k;
  };
  static const Unary ops[] = {{"add_ui", 0, 1, 0},      {"sub_ui", 0, 1, 0},      {"mul_ui", 0, 1, 0},
                              {"and_", 1, 0, 0},        {"ior", 1, 0, 0},         {"xor_", 1, 0, 0},
                              {"com", 0, 0, 0},         {"shift_left", 0, 0, 1},  {"shift_right", 0, 0, 1},
                              {"rotate_left", 0, 0, 1}, {"rotate_right", 0, 0, 1}, {"shift_right_arithmetic", 0, 0, 1}};
  const Unary& u = ops[op - 2];
  const auto describe_a = describe_instances(a, u.uses_b ? &b : nullptr);
  out.op = std::string(u.name) + (u.uses_v ? " by " + std::to_string(v) : "") +
           (u.uses_k ? " by " + std::to_string(k) : "") + " (" + d.form + ")";
  const std::uint64_t rot = k % bits;
  const HostBatch want = oracle(env, a, u.uses_b ? &b : nullptr, bits, [&](mpz_ptr r, mpz_srcptr x, mpz_srcptr y) {
    Mpz t;
    switch (op) {
      case 2: mpz_add_ui(r, x, v); break;
      case 3: mpz_sub_ui(r, x, v); break;
      case 4: mpz_mul_ui(r, x, v); break;
      case 5: mpz_and(r, x, y); break;
      case 6: mpz_ior(r, x, y); break;
      case 7: mpz_xor(r, x, y); break;
      case 8: mpz_com(r, x); break;
      case 9: mpz_mul_2exp(r, x, k); break;
      case 10: mpz_fdiv_q_2exp(r, x, k); break;
      case 11:
      case 12: {  // a left rotation by rot is a right one by bits - rot
        const std::uint64_t left = op == 11 ? rot : (bits - rot) % bits;
        mpz_mul_2exp(r, x, left);
        mpz_fdiv_q_2exp(t.get(), x, bits - left);
        mpz_ior(r, r, t.get());
        break;
      }
      default:
        to_signed(t.get(), x, bits);
        mpz_fdiv_q_2exp(r, t.get(), k);
    }
  });
  Batch& r = *d.r;
  switch (op) {
    case 2: add_ui(r, A, v, s); break;
    case 3: sub_ui(r, A, v, s); break;
    case 4: mul_ui(r, A, v, s); break;
    case 5: and_(r, A, B, s); break;
    case 6: ior(r, A, B, s); break;
    case 7: xor_(r, A, B, s); break;
    case 8: com(r, A, s); break;
    case 9: shift_left(r, A, k, s); break;
    case 10: shift_right(r, A, k, s); break;
    case 11: rotate_left(r, A, k, s); break;
    case 12: rotate_right(r, A, k, s); break;
    default: shift_right_arithmetic(r, A, k, s);
  }
  finish(env, out, u.name, r, want, describe_a);
}

void run_batch_mul_case(CaseEnv& env, CaseOutcome& out) {
  const std::uint64_t op = env.rng.below(5);
  const bool wide = op == 2;
  const std::uint64_t bits = pick_batch_bits(env.rng, wide ? std::min<std::uint64_t>(env.batch_max_bits, Batch::max_bits / 2)
                                                            : env.batch_max_bits);
  const double limbs = static_cast<double>((bits + 63) / 64);
  const std::size_t count = pick_count(env, 32.0 + limbs * limbs);
  const HostBatch a = random_batch(env.rng, bits, count), b = random_batch(env.rng, bits, count);
  out.sizes = describe_batch(bits, count);
  out.instances = count;
  Batch A = a.upload(env.ctx), B = b.upload(env.ctx);
  Destination d;
  pick_destination(env, d, A, count, wide ? 2 * bits : bits);
  static const char* const names[] = {"mul", "mul_high", "mul_wide", "sqr", "mul_high_signed"};
  out.op = std::string(names[op]) + " (" + d.form + ")";
  const HostBatch want = oracle(env, a, op == 3 ? nullptr : &b, wide ? 2 * bits : bits,
                                [&](mpz_ptr r, mpz_srcptr x, mpz_srcptr y) {
                                  if (op == 3) return mpz_mul(r, x, x);
                                  if (op == 4) {
                                    Mpz sx, sy;
                                    to_signed(sx.get(), x, bits);
                                    to_signed(sy.get(), y, bits);
                                    mpz_mul(r, sx.get(), sy.get());
                                    return mpz_fdiv_q_2exp(r, r, bits);
                                  }
                                  mpz_mul(r, x, y);
                                  if (op == 1) mpz_fdiv_q_2exp(r, r, bits);
                                });
  Batch& r = *d.r;
  switch (op) {
    case 0: mul(r, A, B, env.stream); break;
    case 1: mul_high(r, A, B, env.stream); break;
    case 2: mul_wide(r, A, B, env.stream); break;
    case 3: sqr(r, A, env.stream); break;
    default: mul_high_signed(r, A, B, env.stream);
  }
  finish(env, out, names[op], r, want, describe_instances(a, op == 3 ? nullptr : &b));
}

void run_batch_div_case(CaseEnv& env, CaseOutcome& out) {
  const std::uint64_t op = env.rng.below(8);
  const bool wide = op >= 5;
  const std::uint64_t bits = pick_batch_bits(env.rng, wide ? std::min<std::uint64_t>(env.batch_max_bits, Batch::max_bits / 2)
                                                            : env.batch_max_bits);
  const double limbs = static_cast<double>((bits + 63) / 64);
  const std::size_t count = pick_count(env, 64.0 + (op < 2 ? 4 * limbs : 2 * limbs * limbs));
  const HostBatch a = random_batch(env.rng, wide ? 2 * bits : bits, count);
  HostBatch b = random_batch(env.rng, bits, count);
  // Divisors: no zero unless this case checks the error; some short ones.
  const bool zero_case = op >= 2 && env.rng.one_in(16);
  for (std::size_t i = 0; i < count; ++i) {
    limb_t* p = b.at(i);
    if (std::all_of(p, p + b.limbs, [](limb_t x) { return x == 0; })) p[0] = 1;
    else if (env.rng.one_in(4)) std::fill(p + 1, p + b.limbs, limb_t{0}), p[0] |= 1;
  }
  const std::size_t zero_at = env.rng.below(count);
  if (zero_case) std::fill(b.at(zero_at), b.at(zero_at) + b.limbs, limb_t{0});
  out.sizes = describe_batch(bits, count) + (wide ? " (a of twice the width)" : "");
  out.instances = count;
  Batch A = a.upload(env.ctx), B = b.upload(env.ctx);
  const Stream s = env.stream;
  const auto describe = describe_instances(a, &b);
  if (op < 2) {  // by a word
    const std::uint64_t v = std::max<std::uint64_t>(1, pick_word(env.rng));
    out.op = std::string(op == 0 ? "div_ui" : "rem_ui") + " by " + std::to_string(v);
    const HostBatch want = oracle(env, a, nullptr, bits, [&](mpz_ptr r, mpz_srcptr x, mpz_srcptr) {
      op == 0 ? (void)mpz_fdiv_q_ui(r, x, v) : (void)mpz_fdiv_r_ui(r, x, v);
    });
    Batch r;
    op == 0 ? div_ui(r, A, v, s) : rem_ui(r, A, v, s);
    return finish(env, out, op == 0 ? "div_ui" : "rem_ui", r, want, describe_instances(a));
  }
  const std::uint64_t form = env.rng.below(3);  // q, r apart / q = a, r = b / q = b, r = a
  static const char* const names[] = {"div_qr", "div", "rem", "div_qr_wide", "div_wide", "rem_wide"};
  const char* name = names[op - 2];
  static const char* const forms[] = {"apart", "into a and b", "into b and a"};
  out.op = std::string(name) + (zero_case ? " with a zero divisor" : "") + " (" + forms[form] + ")";
  Batch q_own, r_own;
  Batch& Q = form == 1 ? A : form == 2 ? B : q_own;
  Batch& R = form == 1 ? B : form == 2 ? A : r_own;
  const bool want_q = op != 4 && op != 7, want_r = op != 3 && op != 6;
  auto divide = [&] {
    switch (op) {
      case 2: div_qr(Q, R, A, B, s); break;
      case 3: div(Q, A, B, s); break;
      case 4: rem(R, A, B, s); break;
      case 5: div_qr_wide(Q, R, A, B, s); break;
      case 6: div_wide(Q, A, B, s); break;
      default: rem_wide(R, A, B, s);
    }
  };
  if (zero_case) {  // InvalidArgument before anything is written
    try {
      divide();
      out.fail(std::string(name) + " with a zero divisor (instance " + std::to_string(zero_at) + ") did not throw");
    } catch (const InvalidArgument&) {
    }
    finish(env, out, "operand a after the error", A, a, describe);
    finish(env, out, "operand b after the error", B, b, describe);
    return;
  }
  const HostBatch qwant = oracle(env, a, &b, a.bits, [](mpz_ptr r, mpz_srcptr x, mpz_srcptr y) { mpz_fdiv_q(r, x, y); });
  const HostBatch rwant = oracle(env, a, &b, bits, [](mpz_ptr r, mpz_srcptr x, mpz_srcptr y) { mpz_fdiv_r(r, x, y); });
  divide();
  if (want_q) finish(env, out, std::string(name) + " q", Q, qwant, describe);
  if (want_r) finish(env, out, std::string(name) + " r", R, rwant, describe);
}

void run_batch_compare_case(CaseEnv& env, CaseOutcome& out) {
  const std::uint64_t bits = pick_batch_bits(env.rng, env.batch_max_bits);
  const std::size_t count = pick_count(env, 16.0 + static_cast<double>((bits + 63) / 64));
  const HostBatch a = random_batch(env.rng, bits, count);
  HostBatch b = random_batch(env.rng, bits, count);
  share_some(env.rng, b, a);
  out.sizes = describe_batch(bits, count);
  out.instances = count;
  const Batch A = a.upload(env.ctx), B = b.upload(env.ctx);
  const auto describe = describe_instances(a, &b);
  const Stream s = env.stream;
  const std::uint64_t op = env.rng.below(6);
  std::vector<int> want_sign(count);
  std::vector<std::uint32_t> want_count(count);
  parallel_instances(count, env.oracle_threads, [&](std::size_t lo, std::size_t hi) {
    __mpz_struct va, vb;
    Mpz sa, sb;
    for (std::size_t i = lo; i < hi; ++i) {
      mpz_srcptr x = a.view(i, va), y = b.view(i, vb);
      switch (op) {
        case 0:
        case 1: want_sign[i] = (mpz_cmp(x, y) > 0) - (mpz_cmp(x, y) < 0); break;
        case 2: want_count[i] = static_cast<std::uint32_t>(mpz_popcount(x)); break;
        case 3:
          want_count[i] = static_cast<std::uint32_t>(mpz_sgn(x) ? bits - mpz_sizeinbase(x, 2) : bits);
          break;
        case 4: want_count[i] = static_cast<std::uint32_t>(mpz_sgn(x) ? mpz_scan1(x, 0) : bits); break;
        default:
          to_signed(sa.get(), x, bits);
          to_signed(sb.get(), y, bits);
          want_sign[i] = (mpz_cmp(sa.get(), sb.get()) > 0) - (mpz_cmp(sa.get(), sb.get()) < 0);
      }
    }
  });
  switch (op) {  // per-instance answers synchronize the stream they ran on
    case 0: out.op = "compare"; expect_answers(out, "compare", compare(A, B, s), want_sign, describe); break;
    case 1: {
      out.op = "equals";
      const std::vector<bool> got = equals(A, B, s);
      std::vector<int> got_int(got.begin(), got.end()), want_eq(count);
      for (std::size_t i = 0; i < count; ++i) want_eq[i] = want_sign[i] == 0;
      expect_answers(out, "equals", got_int, want_eq, describe);
      break;
    }
    case 2: out.op = "popcount"; expect_answers(out, "popcount", popcount(A, s), want_count, describe); break;
    case 3:
      out.op = "count_leading_zeros";
      expect_answers(out, "count_leading_zeros", count_leading_zeros(A, s), want_count, describe);
      break;
    case 4:
      out.op = "count_trailing_zeros";
      expect_answers(out, "count_trailing_zeros", count_trailing_zeros(A, s), want_count, describe);
      break;
    default:
      out.op = "compare_signed";
      expect_answers(out, "compare_signed", compare_signed(A, B, s), want_sign, describe);
  }
}

}  // namespace mpgpu::cli::selftest
