// `mpgpu selftest`: the modular batch families: gcd and invert (also even
// moduli and m = 1; an instance without an inverse throws and leaves r
// alone), Montgomery conversion, products, squares and reduction (R = 2^(64
// x the modulus's class limbs); an even modulus throws), and powm with each
// window method and exponents of their own width.
#include <algorithm>

#include "selftest_batch_gen.hpp"
#include "selftest_sizes.hpp"

namespace mpgpu::cli::selftest {

namespace {

bool is_zero(const limb_t* p, std::size_t n) {
  return std::all_of(p, p + n, [](limb_t x) { return x == 0; });
}

/// Moduli for the Montgomery family and powm: odd and > 1 (bits >= 2).
HostBatch odd_moduli(CaseRng& rng, std::uint64_t bits, std::size_t count) {
  HostBatch m = random_batch(rng, bits, count);
  for (std::size_t i = 0; i < count; ++i) {
    limb_t* p = m.at(i);
    p[0] |= 1;
    if (p[0] == 1 && is_zero(p + 1, m.limbs - 1)) p[0] = 3;
  }
  return m;
}

/// a reduced mod m, instance by instance (montgomery_mul's operands are < m).
HostBatch reduced(const CaseEnv& env, const HostBatch& a, const HostBatch& m) {
  return oracle(env, a, &m, a.bits, [](mpz_ptr r, mpz_srcptr x, mpz_srcptr y) { mpz_mod(r, x, y); });
}

void finish(CaseEnv& env, CaseOutcome& out, std::string_view what, const Batch& r, const HostBatch& want,
            const std::function<std::string(std::size_t)>& describe) {
  env.sync_stream();
  expect_instances(out, what, r.to_limbs(), want.data, want.limbs, describe);
}

}  // namespace

void run_batch_gcd_case(CaseEnv& env, CaseOutcome& out) {
  const std::uint64_t bits = pick_batch_bits(env.rng, env.batch_max_bits);
  const double limbs = static_cast<double>((bits + 63) / 64);
  const std::size_t count = pick_count(env, 128.0 + 8.0 * limbs * limbs);
  HostBatch a = random_batch(env.rng, bits, count), b = random_batch(env.rng, bits, count);
  out.sizes = describe_batch(bits, count);
  out.instances = count;
  const Stream s = env.stream;
  if (env.rng.coin()) {
    out.op = "gcd";
    const HostBatch want = oracle(env, a, &b, bits, [](mpz_ptr r, mpz_srcptr x, mpz_srcptr y) { mpz_gcd(r, x, y); });
    Batch A = a.upload(env.ctx), B = b.upload(env.ctx), r;
    Batch& dst = env.rng.coin() ? r : A;
    gcd(dst, A, B, s);
    return finish(env, out, "gcd", dst, want, describe_instances(a, &b));
  }
  // invert: m > 0 (m = 0 becomes 1, whose inverses are 0); a without an
  // inverse becomes 1, unless this case checks the error.
  const bool error_case = bits >= 2 && env.rng.one_in(12);
  const std::size_t bad = env.rng.below(count);
  parallel_instances(count, env.oracle_threads, [&](std::size_t lo, std::size_t hi) {
    Mpz g;
    __mpz_struct va, vm;
    for (std::size_t i = lo; i < hi; ++i) {
      if (is_zero(b.at(i), b.limbs)) b.at(i)[0] = 1;
      mpz_gcd(g.get(), a.view(i, va), b.view(i, vm));
      if (mpz_cmp_ui(g.get(), 1) != 0) std::fill(a.at(i), a.at(i) + a.limbs, limb_t{0}), a.at(i)[0] = 1;
    }
  });
  if (error_case) {  // a = 0 has no inverse modulo m > 1
    std::fill(a.at(bad), a.at(bad) + a.limbs, limb_t{0});
    if (b.at(bad)[0] == 1 && is_zero(b.at(bad) + 1, b.limbs - 1)) b.at(bad)[0] = 2;
  }
  out.op = error_case ? "invert with an instance without inverse" : "invert";
  const Batch A = a.upload(env.ctx), M = b.upload(env.ctx);
  const auto describe = describe_instances(a, nullptr, &b);
  const HostBatch old = random_batch(env.rng, bits, count);
  Batch r = old.upload(env.ctx);
  if (error_case) {
    try {
      invert(r, A, M, s);
      out.fail("invert did not throw for instance " + std::to_string(bad) + " (a = 0)");
    } catch (const InvalidArgument&) {
    }
    return finish(env, out, "r after a failed invert", r, old, describe);
  }
  const HostBatch want = oracle(env, a, &b, bits, [](mpz_ptr r, mpz_srcptr x, mpz_srcptr m) {
    if (mpz_cmp_ui(m, 1) == 0) return mpz_set_ui(r, 0);
    mpz_invert(r, x, m);
  });
  invert(r, A, M, s);
  finish(env, out, "invert", r, want, describe);
}

void run_batch_montgomery_case(CaseEnv& env, CaseOutcome& out) {
  const std::uint64_t op = env.rng.below(5);
  const bool reduce = op == 4;
  std::uint64_t bits = pick_batch_bits(env.rng, reduce ? std::min<std::uint64_t>(env.batch_max_bits, Batch::max_bits / 2)
                                                        : env.batch_max_bits);
  bits = std::max<std::uint64_t>(bits, 2);
  const double limbs = static_cast<double>((bits + 63) / 64);
  const std::size_t count = pick_count(env, 256.0 + 12.0 * limbs * limbs);
  HostBatch m = odd_moduli(env.rng, bits, count);
  const bool even_case = env.rng.one_in(20);
  if (even_case) m.at(env.rng.below(count))[0] &= ~limb_t{1};
  HostBatch a = random_batch(env.rng, reduce ? 2 * bits : bits, count);
  HostBatch b = random_batch(env.rng, bits, count);
  if (op == 2 || op == 3) {  // operands in Montgomery form are below m
    a = reduced(env, a, m);
    b = reduced(env, b, m);
  }
  static const char* const names[] = {"to_montgomery", "from_montgomery", "montgomery_mul", "montgomery_sqr",
                                      "montgomery_reduce"};
  out.op = std::string(names[op]) + (even_case ? " with an even modulus" : "");
  out.sizes = describe_batch(bits, count) + (reduce ? " (a of twice the width)" : "");
  out.instances = count;
  const Batch A = a.upload(env.ctx), B = b.upload(env.ctx), M = m.upload(env.ctx);
  const auto describe = describe_instances(a, op == 2 ? &b : nullptr, &m);
  Batch r;
  const Stream s = env.stream;
  auto call = [&] {
    switch (op) {
      case 0: return to_montgomery(r, A, M, s);
      case 1: return from_montgomery(r, A, M, s);
      case 2: return montgomery_mul(r, A, B, M, s);
      case 3: return montgomery_sqr(r, A, M, s);
      default: return montgomery_reduce(r, A, M, s);
    }
  };
  if (even_case) {
    try {
      call();
      out.fail(std::string(names[op]) + " accepted an even modulus");
    } catch (const InvalidArgument&) {
    }
    return;
  }
  const std::uint64_t radix_bits = 64 * batch_stride_limbs(bits);  // R = 2^(64 x the class's limbs)
  HostBatch want(bits, count);
  parallel_instances(count, env.oracle_threads, [&](std::size_t lo, std::size_t hi) {
    Mpz t, radix, inverse;
    __mpz_struct va, vb, vm;
    for (std::size_t i = lo; i < hi; ++i) {
      mpz_srcptr x = a.view(i, va), y = b.view(i, vb), mod = m.view(i, vm);
      mpz_set_ui(radix.get(), 0);
      mpz_setbit(radix.get(), radix_bits);
      if (op == 0) {
        mpz_mul(t.get(), x, radix.get());
      } else {
        mpz_invert(inverse.get(), radix.get(), mod);
        if (op == 2) mpz_mul(t.get(), x, y);
        else if (op == 3) mpz_mul(t.get(), x, x);
        else mpz_set(t.get(), x);
        mpz_mul(t.get(), t.get(), inverse.get());
      }
      mpz_mod(t.get(), t.get(), mod);
      store_instance(want.at(i), want.limbs, bits, t.get());
    }
  });
  call();
  finish(env, out, names[op], r, want, describe);
}

void run_batch_powm_case(CaseEnv& env, CaseOutcome& out) {
  const std::uint64_t bits = std::max<std::uint64_t>(2, pick_batch_bits(env.rng, std::min<std::uint64_t>(env.batch_max_bits, 8192)));
  std::uint64_t ebits = bits;
  switch (env.rng.below(4)) {
    case 0: ebits = env.rng.between(1, 64); break;
    case 1: ebits = env.rng.log_uniform(bits); break;
    default: break;
  }
  while (batch_stride_limbs(ebits) > batch_stride_limbs(bits)) ebits /= 2;  // the exponent's class <= m's
  const double limbs = static_cast<double>((bits + 63) / 64);
  while (ebits > 1 && 1.3 * limbs * limbs * static_cast<double>(ebits) > env.batch_budget) ebits /= 2;
  const std::size_t count = pick_count(env, 256.0 + 1.3 * limbs * limbs * static_cast<double>(ebits));
  const HostBatch m = odd_moduli(env.rng, bits, count);
  const HostBatch base = random_batch(env.rng, bits, count), exp = random_batch(env.rng, ebits, count);
  const std::uint64_t window = env.rng.below(3);
  static const char* const windows[] = {"powm", "powm (fixed windows)", "powm (sliding windows)"};
  out.op = windows[window];
  out.sizes = describe_batch(bits, count) + ", exponents of " + std::to_string(ebits) + " bits";
  out.instances = count;
  const Batch B = base.upload(env.ctx), E = exp.upload(env.ctx), M = m.upload(env.ctx);
  HostBatch want(bits, count);
  parallel_instances(count, env.oracle_threads, [&](std::size_t lo, std::size_t hi) {
    Mpz t;
    __mpz_struct vb, ve, vm;
    for (std::size_t i = lo; i < hi; ++i) {
      mpz_powm(t.get(), base.view(i, vb), exp.view(i, ve), m.view(i, vm));
      store_instance(want.at(i), want.limbs, bits, t.get());
    }
  });
  Batch r;
  if (window == 0) powm(r, B, E, M, env.stream);
  else powm(r, B, E, M, window == 1 ? PowmWindow::fixed : PowmWindow::sliding, env.stream);
  finish(env, out, windows[window], r, want, describe_instances(base, &exp, &m));
}

}  // namespace mpgpu::cli::selftest
