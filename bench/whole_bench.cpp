// Whole-number operations on a CUDA context against GMP on one host core:
// pow_ui, sqrt, root (k = 3), fib_ui, lucnum_ui, fac_ui, bin_uiui, the
// exact decimal digit count, gcd and gcdext, and loops of small dependent operations, from a few hundred limbs (where the crossovers
// of include/mpgpu/integer_crossovers.hpp are decided) to 2^28 bits. Each
// row times three ways: GMP alone on the host; the device algorithm forced
// from 64 limbs up (detail:: with a small crossover); and the public call,
// which picks by the crossover. Every result is compared with GMP's.
// Prints a markdown table; wall time of the call until its result is on the
// device (the context is synchronized), median of several runs after a
// warm-up (one run above a second).
//
//   whole_bench [--min-bits N] [--max-bits N] [--ops pow,sqrt,...,gcd,gcdext] [--gcd-host-limbs N]
//
// The gcd rows force the half-gcd with its host base at --gcd-host-limbs
// (1024 unless given) rather than 64 limbs, where it would be launch-bound.
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "integer/integer_whole.hpp"
#include "mpgpu/mpgpu.hpp"

namespace {

using namespace mpgpu;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kForcedHostLimbs = 64;

struct Row {
  std::string op;
  std::string size;
  std::uint64_t result_bits = 0;
  double gmp_s = 0, forced_s = 0, public_s = 0;
  bool verified = false;
};

/// Median wall time of f, synchronizing ctx after each call.
double time_it(const Context& ctx, const std::function<void()>& f) {
  const auto once = [&] {
    ctx.synchronize();
    const auto t0 = Clock::now();
    f();
    ctx.synchronize();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  const double first = once();  // warm-up; also decides the repetitions
  const int reps = first > 1.0 ? 1 : first > 0.1 ? 3 : first > 0.01 ? 7 : 21;
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) t.push_back(once());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double time_host(const std::function<void()>& f) { return time_it(Context::cpu(), f); }

bool equal(const Integer& got, mpz_srcptr want) {
  mpz_t g;
  mpz_init(g);
  got.to_mpz(g);
  const bool same = mpz_cmp(g, want) == 0;
  mpz_clear(g);
  return same;
}

struct Bench {
  Context ctx;
  std::vector<Row> rows;
  std::vector<std::string> ops;
  std::uint64_t max_bits;
  std::uint64_t min_bits = 1 << 14;
  std::size_t gcd_host_limbs = 1024;  // the half-gcd's host base in the forced gcd rows

  bool wants(const std::string& op) const {
    return ops.empty() || std::find(ops.begin(), ops.end(), op) != ops.end();
  }

  /// One row: gmp(z) computes GMP's value; forced(r) and pub(r) compute in ctx.
  void row(const std::string& op, const std::string& size, const std::function<void(mpz_ptr)>& gmp,
           const std::function<void(Integer&)>& forced, const std::function<void(Integer&)>& pub) {
    Row r{op, size};
    mpz_t want;
    mpz_init(want);
    r.gmp_s = time_host([&] { gmp(want); });
    r.result_bits = mpz_sizeinbase(want, 2);
    Integer a(ctx), b(ctx);
    r.forced_s = time_it(ctx, [&] { forced(a); });
    r.public_s = time_it(ctx, [&] { pub(b); });
    r.verified = equal(a, want) && equal(b, want);
    mpz_clear(want);
    rows.push_back(r);
    std::printf("| %s | %s | %llu | %.3g | %.3g | %.3g | %.2fx | %s |\n", r.op.c_str(), r.size.c_str(),
                static_cast<unsigned long long>(r.result_bits), r.gmp_s * 1e3, r.forced_s * 1e3, r.public_s * 1e3,
                r.gmp_s / r.public_s, r.verified ? "yes" : "NO");
    std::fflush(stdout);
  }

  void run() {
    std::printf("| op | size | result bits | GMP ms | device-forced ms | mpgpu ms | speed-up | verified |\n");
    std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    std::vector<std::uint64_t> bit_sizes;
    for (std::uint64_t b = min_bits; b <= max_bits; b *= 2) bit_sizes.push_back(b);
    if (wants("pow_ui"))
      for (std::uint64_t bits : bit_sizes) {
        const std::uint64_t e = static_cast<std::uint64_t>(static_cast<double>(bits) / std::log2(3.0));
        row("pow_ui", "3^" + std::to_string(e), [&](mpz_ptr z) { mpz_ui_pow_ui(z, 3, e); },
            [&](Integer& r) { detail::pow_ui_split(r, Integer(3, ctx), e, kForcedHostLimbs, nullptr); },
            [&](Integer& r) { ui_pow_ui(r, 3, e); });
      }
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    for (const char* op : {"sqrt", "root3"}) {
      if (!wants(op)) continue;
      const std::uint64_t k = std::strcmp(op, "sqrt") == 0 ? 2 : 3;
      for (std::uint64_t bits : bit_sizes) {
        mpz_t x;
        mpz_init(x);
        mpz_urandomb(x, rs, bits);
        mpz_setbit(x, bits - 1);
        const Integer a = Integer::from_mpz(x, ctx);
        row(op, std::to_string(bits) + " bits", [&](mpz_ptr z) { mpz_root(z, x, k); },
            [&](Integer& r) { detail::root_newton(r, nullptr, a, k, kForcedHostLimbs, nullptr); },
            [&](Integer& r) { root(r, a, k); });
        mpz_clear(x);
      }
    }
    gmp_randclear(rs);
    for (const char* op : {"fib_ui", "lucnum_ui"}) {
      if (!wants(op)) continue;
      const bool fib = std::strcmp(op, "fib_ui") == 0;
      for (std::uint64_t bits : bit_sizes) {
        const std::uint64_t n = static_cast<std::uint64_t>(static_cast<double>(bits) / 0.69424);
        row(op, "n = " + std::to_string(n), [&](mpz_ptr z) { fib ? mpz_fib_ui(z, n) : mpz_lucnum_ui(z, n); },
            [&](Integer& r) {
              detail::fib_lucas_doubling(fib ? &r : nullptr, fib ? nullptr : &r, n, kForcedHostLimbs, ctx, nullptr);
            },
            [&](Integer& r) { fib ? fib_ui(r, n) : lucnum_ui(r, n); });
      }
    }
    if (wants("fac_ui"))
      for (std::uint64_t bits : bit_sizes) {
        std::uint64_t n = 16;  // the n whose n! has about `bits` bits
        while (std::lgamma(static_cast<double>(n) + 1) / std::log(2.0) < static_cast<double>(bits)) n += n / 8 + 1;
        row("fac_ui", "n = " + std::to_string(n), [&](mpz_ptr z) { mpz_fac_ui(z, n); },
            [&](Integer& r) { detail::range_product(r, 1, n + 1, kForcedHostLimbs, ctx, nullptr); },
            [&](Integer& r) { fac_ui(r, n); });
      }
    if (wants("bin_uiui"))
      for (std::uint64_t bits : bit_sizes) {
        const std::uint64_t n = bits / 2;  // binomial(2n, n) has about 2n bits
        row("bin_uiui", "(" + std::to_string(2 * n) + ", " + std::to_string(n) + ")",
            [&](mpz_ptr z) { mpz_bin_uiui(z, 2 * n, n); },
            [&](Integer& r) { detail::binomial_by_products(r, 2 * n, n, kForcedHostLimbs, ctx, nullptr); },
            [&](Integer& r) { bin_uiui(r, 2 * n, n); });
      }
    if (wants("loop")) {
      // The end-to-end issue's loop: 10^5 dependent additions, and 10^5
      // dependent products kept below 2^1000 by a mask (x = x y mod 2^1000). "device-forced"
      // places the operands in device memory; "mpgpu" keeps them where they
      // were made (on the host while small).
      mpz_t a0, b0;
      mpz_init(a0);
      mpz_init(b0);
      mpz_ui_pow_ui(a0, 3, 630);  // ~1000 bits
      mpz_ui_pow_ui(b0, 7, 356);
      constexpr int kSteps = 100000;
      for (const bool products : {false, true}) {
        auto gmp_loop = [&](mpz_ptr z) {
          mpz_set(z, a0);
          for (int i = 0; i < kSteps; ++i) {
            if (products) {
              mpz_mul(z, z, b0);
              mpz_tdiv_r_2exp(z, z, 1000);
            } else {
              mpz_add(z, z, b0);
            }
          }
        };
        auto mpgpu_loop = [&](Integer& r, bool on_device) {
          mpz_t m;
          mpz_init(m);
          mpz_setbit(m, 1000);
          mpz_sub_ui(m, m, 1);
          Integer x = Integer::from_mpz(a0, ctx), y = Integer::from_mpz(b0, ctx), mask = Integer::from_mpz(m, ctx);
          mpz_clear(m);
          if (on_device) {
            x.place_on_device();
            y.place_on_device();
            mask.place_on_device();
          }
          for (int i = 0; i < kSteps; ++i) {
            if (products) {
              mul(x, x, y);
              and_(x, x, mask);
            } else {
              add(x, x, y);
            }
          }
          r = std::move(x);
        };
        row(products ? "loop mul+mask" : "loop add", "10^5 x 1000 bits", gmp_loop,
            [&](Integer& r) { mpgpu_loop(r, true); }, [&](Integer& r) { mpgpu_loop(r, false); });
      }
      mpz_clear(a0);
      mpz_clear(b0);
    }
    if (wants("gcd") || wants("gcdext")) {
      // Random operands of `bits` bits; gcdext's row compares the cofactor s.
      gmp_randstate_t gs;
      gmp_randinit_default(gs);
      for (std::uint64_t bits : bit_sizes) {
        mpz_t x, y;
        mpz_inits(x, y, nullptr);
        mpz_urandomb(x, gs, bits);
        mpz_urandomb(y, gs, bits);
        mpz_setbit(x, bits - 1);
        mpz_setbit(y, bits - 2);
        const Integer a = Integer::from_mpz(x, ctx), b = Integer::from_mpz(y, ctx);
        if (wants("gcd"))
          row("gcd", std::to_string(bits) + " bits", [&](mpz_ptr z) { mpz_gcd(z, x, y); },
              [&](Integer& r) { detail::gcd_by_half_gcd(r, nullptr, a, b, gcd_host_limbs); },
              [&](Integer& r) { gcd(r, a, b); });
        if (wants("gcdext")) {
          Integer g(ctx), t(ctx);
          row("gcdext (s)", std::to_string(bits) + " bits",
              [&](mpz_ptr z) {
                mpz_t gg;
                mpz_init(gg);
                mpz_gcdext(gg, z, nullptr, x, y);
                mpz_clear(gg);
              },
              [&](Integer& r) { detail::gcd_by_half_gcd(g, &r, a, b, gcd_host_limbs); },
              [&](Integer& r) { gcdext(g, r, t, a, b); });
        }
        mpz_clears(x, y, nullptr);
      }
      gmp_randclear(gs);
    }
    if (wants("digits"))
      for (std::uint64_t bits : bit_sizes) {
        // 10^d - 1: its log is within 1e-6 of d, so the comparison runs.
        const std::uint64_t d = static_cast<std::uint64_t>(static_cast<double>(bits) * std::log10(2.0));
        mpz_t x;
        mpz_init(x);
        mpz_ui_pow_ui(x, 10, d);
        mpz_sub_ui(x, x, 1);
        const Integer a = Integer::from_mpz(x, ctx);
        std::uint64_t got_forced = 0, got_public = 0;
        row("sizeinbase10", "10^" + std::to_string(d) + " - 1", [&](mpz_ptr z) {
              char* s = mpz_get_str(nullptr, 10, x);  // what an exact count costs with GMP
              mpz_set_ui(z, std::strlen(s));
              free(s);
            },
            [&](Integer& r) { got_forced = detail::digits_by_comparison(a, 10, kForcedHostLimbs, nullptr); r = Integer(got_forced, ctx); },
            [&](Integer& r) { got_public = sizeinbase(a, 10); r = Integer(got_public, ctx); });
        mpz_clear(x);
      }
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t max_bits = std::uint64_t{1} << 26;
  std::uint64_t min_bits = 1 << 14;
  std::size_t gcd_host_limbs = 1024;
  std::vector<std::string> ops;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--max-bits") == 0) max_bits = std::stoull(argv[i + 1]);
    else if (std::strcmp(argv[i], "--min-bits") == 0) min_bits = std::stoull(argv[i + 1]);
    else if (std::strcmp(argv[i], "--gcd-host-limbs") == 0) gcd_host_limbs = std::stoull(argv[i + 1]);
    else if (std::strcmp(argv[i], "--ops") == 0) {
      std::string list = argv[i + 1];
      for (std::size_t p = 0; p <= list.size();) {
        const std::size_t c = std::min(list.find(',', p), list.size());
        ops.push_back(list.substr(p, c - p));
        p = c + 1;
      }
    }
  }
  try {
    Context ctx = Context::cuda_device_count() > 0 ? Context::cuda(0) : Context::cpu();
    std::printf("whole_bench on %s\n\n", ctx.describe().c_str());
    Bench b{ctx, {}, ops, max_bits, min_bits, gcd_host_limbs};
    b.run();
    for (const Row& r : b.rows)
      if (!r.verified) return 1;
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "whole_bench: %s\n", e.what());
    return 3;
  }
}
