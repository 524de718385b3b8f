// Batch Montgomery arithmetic (R = 2^(64 * stride_limbs()) of the modulus
// batch) and powm, fixed and sliding windows, against GMP: adversarial moduli
// (all ones, 3, 2^(bits-1)+1, short ones in a wide class), operands >= m,
// m - 1, zero, exponents 0, 1, all ones and 2^(bits-1)+1, exponents of a
// narrower class; on the GPU, every group size the tuning table picks by
// instance count at 1024 .. 8192 bits.
#include <algorithm>
#include <string>

#include "batch_test.hpp"
#include "mpgpu/batch/tuning_table.hpp"

namespace {

using namespace mpgpu_test;

class BatchModular : public BatchTest {
 protected:
  // The bodies of the tests over every width class, run in bands of widths (up to 8192 bits:
  // groups of up to a warp; 16384-32768; then a width a band, a block an instance) so that
  // each band is a test of its own: under racecheck the whole range in one test ran past a
  // device call's time limit (bench/results/2026-11-29-nvidia-h200-x4-c7ce7b9-session14.md).
  void montgomery_form(std::size_t min_bits, std::size_t max_bits);
  void montgomery_reduce_of_double_width(std::size_t min_bits, std::size_t max_bits);
};

constexpr std::size_t kWarpBandMaxBits = 8192, kWideBandMaxBits = 32768;

/// Odd moduli > 1 below 2^bits (bits >= 2): special ones first, then random
/// ones of full or random length.
std::vector<Mpz> make_moduli(Operands& gen, std::size_t bits, std::size_t count) {
  std::vector<Mpz> special = {Mpz::all_ones(bits), Mpz::from_ui(3)};
  Mpz high = Mpz::pow2(bits - 1);
  mpz_add_ui(high, high, 1);
  special.push_back(high);  // 3 at 2 bits
  if (bits > 2) special.push_back(Mpz::all_ones(bits - 1));
  std::vector<Mpz> m;
  for (std::size_t k = 0; k < count; ++k) {
    if (k < special.size() && k < count / 2 + 1) {
      m.push_back(special[k]);
      continue;
    }
    Mpz v = random_below_pow2(gen, bits);
    mpz_setbit(v, 0);
    if (mpz_cmp_ui(v.get(), 1) == 0) mpz_set_ui(v, 3);
    m.push_back(v);
  }
  return m;
}

/// Operands below m: a's own values reduced, with m - 1 and 0 among them.
std::vector<Mpz> below_moduli(const std::vector<Mpz>& a, const std::vector<Mpz>& m) {
  std::vector<Mpz> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (i % 7 == 3) mpz_sub_ui(r[i], m[i], 1);
    else mpz_mod(r[i], a[i], m[i]);
  }
  return r;
}

/// The widths with room for an odd modulus > 1.
std::vector<std::size_t> modular_widths() {
  std::vector<std::size_t> w;
  for (std::size_t bits : batch_widths())
    if (bits >= 2) w.push_back(bits);
  return w;
}

TEST_P(BatchModular, MontgomeryForm) { montgomery_form(0, kWarpBandMaxBits); }
TEST_P(BatchModular, MontgomeryFormWide) { montgomery_form(kWarpBandMaxBits + 1, kWideBandMaxBits); }
// From 65536 bits a width a test (a block an instance; each is long under racecheck).
TEST_P(BatchModular, MontgomeryFormHuge) { montgomery_form(kWideBandMaxBits + 1, 2 * kWideBandMaxBits); }
TEST_P(BatchModular, MontgomeryFormHuger) { montgomery_form(2 * kWideBandMaxBits + 1, 4 * kWideBandMaxBits); }
TEST_P(BatchModular, MontgomeryFormHugest) { montgomery_form(4 * kWideBandMaxBits + 1, Batch::max_bits); }

void BatchModular::montgomery_form(std::size_t min_bits, std::size_t max_bits) {
  Operands gen(31);
  for (std::size_t bits : modular_widths()) {
    if (bits < min_bits || bits > max_bits) continue;
    const std::size_t n = instances_for(bits);
    const std::vector<Mpz> m = make_moduli(gen, bits, n);
    const std::vector<Mpz> a = make_operands(gen, bits, n, 0);  // also >= m
    const std::vector<Mpz> x = below_moduli(make_operands(gen, bits, n, 1), m);
    const std::vector<Mpz> y = below_moduli(make_operands(gen, bits, n, 2), m);
    const Mpz R = Mpz::pow2(64 * mpgpu::batch_stride_limbs(bits));
    std::vector<Mpz> to(n), from(n), prod(n), back(n), square(n);
    for (std::size_t i = 0; i < n; ++i) {
      Mpz rinv;
      ASSERT_NE(mpz_invert(rinv, R, m[i]), 0);
      mpz_mul(to[i], a[i], R);
      mpz_mod(to[i], to[i], m[i]);
      mpz_mul(from[i], a[i], rinv);
      mpz_mod(from[i], from[i], m[i]);
      mpz_mul(prod[i], x[i], y[i]);
      mpz_mul(prod[i], prod[i], rinv);
      mpz_mod(prod[i], prod[i], m[i]);
      mpz_mul(square[i], x[i], x[i]);
      mpz_mul(square[i], square[i], rinv);
      mpz_mod(square[i], square[i], m[i]);
      mpz_mod(back[i], a[i], m[i]);
    }
    const Batch M = to_batch(m, bits, ctx()), A = to_batch(a, bits, ctx());
    const Batch X = to_batch(x, bits, ctx()), Y = to_batch(y, bits, ctx());
    const Describe ops_a = operands_of({{"a", &a}, {"m", &m}});
    Batch r;
    mpgpu::to_montgomery(r, A, M);
    ASSERT_TRUE(equals(r, bits, to, "to_montgomery", ops_a));
    mpgpu::from_montgomery(r, r, M);  // in place: back to a mod m
    ASSERT_TRUE(equals(r, bits, back, "from_montgomery(to_montgomery(a))", ops_a));
    mpgpu::from_montgomery(r, A, M);
    ASSERT_TRUE(equals(r, bits, from, "from_montgomery", ops_a));
    mpgpu::montgomery_mul(r, X, Y, M);
    ASSERT_TRUE(equals(r, bits, prod, "montgomery_mul", operands_of({{"a", &x}, {"b", &y}, {"m", &m}})));
    mpgpu::montgomery_sqr(r, X, M);
    ASSERT_TRUE(equals(r, bits, square, "montgomery_sqr", operands_of({{"a", &x}, {"m", &m}})));
  }
}

TEST_P(BatchModular, MontgomeryReduceOfDoubleWidth) { montgomery_reduce_of_double_width(0, kWarpBandMaxBits); }
TEST_P(BatchModular, MontgomeryReduceOfDoubleWidthWide) {
  montgomery_reduce_of_double_width(kWarpBandMaxBits + 1, kWideBandMaxBits);
}
TEST_P(BatchModular, MontgomeryReduceOfDoubleWidthHuge) {
  montgomery_reduce_of_double_width(kWideBandMaxBits + 1, Batch::max_bits);
}

void BatchModular::montgomery_reduce_of_double_width(std::size_t min_bits, std::size_t max_bits) {
  // Any value of twice m's width: 0, all ones (high half >= m), m R - 1 (the
  // largest REDC takes without the high half reduced), (m - 1)^2, m R, then random.
  Operands gen(35);
  for (std::size_t bits : modular_widths()) {
    if (bits < min_bits || bits > max_bits) continue;
    if (2 * bits > Batch::max_bits) break;
    const std::size_t n = instances_for(bits);
    const std::vector<Mpz> m = make_moduli(gen, bits, n);
    const Mpz R = Mpz::pow2(64 * mpgpu::batch_stride_limbs(bits));
    std::vector<Mpz> a = make_operands(gen, 2 * bits, n, 0), want(n);
    for (std::size_t i = 0; i < n; ++i) {
      switch (i % 6) {
        case 0: a[i] = Mpz(); break;
        case 1: a[i] = Mpz::all_ones(2 * bits); break;
        case 2: mpz_mul(a[i], m[i], R); mpz_sub_ui(a[i], a[i], 1); break;
        case 3: mpz_sub_ui(a[i], m[i], 1); mpz_mul(a[i], a[i], a[i]); break;
        case 4: mpz_mul(a[i], m[i], R); break;
        default: break;
      }
      a[i] = mod2exp(a[i], 2 * bits);  // m R can exceed 2^(2 bits) when the class is wider than bits
      Mpz rinv;
      ASSERT_NE(mpz_invert(rinv, R, m[i]), 0);
      mpz_mul(want[i], a[i], rinv);
      mpz_mod(want[i], want[i], m[i]);
    }
    const Batch M = to_batch(m, bits, ctx());
    Batch A = to_batch(a, 2 * bits, ctx());
    Batch r;
    mpgpu::montgomery_reduce(r, A, M);
    ASSERT_EQ(r.bits(), bits);
    ASSERT_TRUE(equals(r, bits, want, "montgomery_reduce", operands_of({{"a", &a}, {"m", &m}})));
    // The usual use: mul_wide of two Montgomery forms, then the reduction.
    const std::vector<Mpz> x = below_moduli(make_operands(gen, bits, n, 1), m);
    const std::vector<Mpz> y = below_moduli(make_operands(gen, bits, n, 2), m);
    std::vector<Mpz> prod(n);
    for (std::size_t i = 0; i < n; ++i) {
      Mpz rinv;
      ASSERT_NE(mpz_invert(rinv, R, m[i]), 0);
      mpz_mul(prod[i], x[i], y[i]);
      mpz_mul(prod[i], prod[i], rinv);
      mpz_mod(prod[i], prod[i], m[i]);
    }
    mpgpu::mul_wide(A, to_batch(x, bits, ctx()), to_batch(y, bits, ctx()));
    mpgpu::montgomery_reduce(r, A, M);
    ASSERT_TRUE(equals(r, bits, prod, "montgomery_reduce(mul_wide(x, y))",
                       operands_of({{"x", &x}, {"y", &y}, {"m", &m}})));
  }
}

TEST_P(BatchModular, MontgomeryMulChainsAsMultiplication) {
  // x y mod m through the Montgomery domain: to, mul, from.
  Operands gen(32);
  for (std::size_t bits : {std::size_t{64}, std::size_t{100}, std::size_t{1024}, std::size_t{3072}}) {
    const std::size_t n = 24;
    const std::vector<Mpz> m = make_moduli(gen, bits, n);
    const std::vector<Mpz> x = below_moduli(make_operands(gen, bits, n, 0), m);
    const std::vector<Mpz> y = below_moduli(make_operands(gen, bits, n, 1), m);
    std::vector<Mpz> want(n);
    for (std::size_t i = 0; i < n; ++i) {
      mpz_mul(want[i], x[i], y[i]);
      mpz_mod(want[i], want[i], m[i]);
    }
    const Batch M = to_batch(m, bits, ctx());
    Batch X, Y, P;
    mpgpu::to_montgomery(X, to_batch(x, bits, ctx()), M);
    mpgpu::to_montgomery(Y, to_batch(y, bits, ctx()), M);
    mpgpu::montgomery_mul(P, X, Y, M);
    mpgpu::from_montgomery(P, P, M);
    ASSERT_TRUE(equals(P, bits, want, "from(mul(to(x), to(y)))", operands_of({{"x", &x}, {"y", &y}, {"m", &m}})));
  }
}

/// Exponents: 0, 1, all ones, 2, 2^(bits-1) + 1 (one window, then a run of
/// zeros as long as the exponent), then random.
std::vector<Mpz> make_exponents(Operands& gen, std::size_t bits, std::size_t count) {
  std::vector<Mpz> e;
  Mpz ends = Mpz::pow2(bits - 1);
  mpz_setbit(ends, 0);
  const std::vector<Mpz> special = {Mpz(), Mpz::from_ui(1), Mpz::all_ones(bits), Mpz::from_ui(2), ends};
  for (std::size_t k = 0; k < count; ++k)
    e.push_back(k < special.size() ? mod2exp(special[k], bits) : random_below_pow2(gen, bits));
  return e;
}

/// Bases: 0, 1, m - 1, all ones (>= m for most moduli), then random (also >= m).
std::vector<Mpz> make_bases(Operands& gen, std::size_t bits, const std::vector<Mpz>& m) {
  std::vector<Mpz> b;
  for (std::size_t k = 0; k < m.size(); ++k) {
    Mpz v;
    switch (k % 5) {
      case 0: break;
      case 1: mpz_set_ui(v, 1); break;
      case 2: mpz_sub_ui(v, m[k], 1); break;
      case 3: v = Mpz::all_ones(bits); break;
      default: v = random_below_pow2(gen, bits);
    }
    b.push_back(v);
  }
  return b;
}

::testing::AssertionResult check_powm(const mpgpu::Context& ctx, Operands& gen, std::size_t bits, std::size_t n,
                                      std::size_t exp_bits) {
  const char* names[] = {"fixed", "sliding"};
  const std::vector<Mpz> m = make_moduli(gen, bits, n);
  const std::vector<Mpz> base = make_bases(gen, bits, m);
  std::vector<Mpz> e = make_exponents(gen, exp_bits, n);
  std::rotate(e.begin(), e.begin() + static_cast<std::ptrdiff_t>((bits / 64) % n), e.end());  // vary the pairs
  std::vector<Mpz> want(n);
  for (std::size_t i = 0; i < n; ++i) mpz_powm(want[i], base[i], e[i], m[i]);
  const Batch B = to_batch(base, bits, ctx), E = to_batch(e, exp_bits, ctx), M = to_batch(m, bits, ctx);
  for (mpgpu::PowmWindow window : {mpgpu::PowmWindow::fixed, mpgpu::PowmWindow::sliding}) {
    Batch r;
    mpgpu::powm(r, B, E, M, window);
    auto ok = equals(r, bits, want,
                     "powm (" + std::string(names[int(window)]) + " windows) with " + std::to_string(exp_bits) +
                         "-bit exponents",
                     operands_of({{"base", &base}, {"exp", &e}, {"m", &m}}));
    if (!ok) return ok;
  }
  return ::testing::AssertionSuccess();
}

TEST_P(BatchModular, Powm) {
  // Sanitizer-sized: exponents of at most 1024 bits (a powm's steps grow
  // with the exponent; its kernel, windows and G come from the modulus's
  // width and the instance count), so above 1024 bits the exponent's class
  // is narrower than the modulus's in both calls.
  Operands gen(33);
  const std::size_t max_exp_bits = sized<std::size_t>(Batch::max_bits, 1024);
  for (std::size_t bits : modular_widths()) {
    if (bits > 4096) break;
    const std::size_t n = bits <= 1024 ? 10 : 4;
    ASSERT_TRUE(check_powm(ctx(), gen, bits, n, std::min(bits, max_exp_bits)));
    // A narrower exponent class than the modulus's.
    if (bits >= 256) {
      ASSERT_TRUE(check_powm(ctx(), gen, bits, n, 64));
    }
  }
  ASSERT_TRUE(check_powm(ctx(), gen, 8192, 1, std::min<std::size_t>(8192, max_exp_bits)));
}

TEST_P(BatchModular, PowmInPlace) {
  Operands gen(34);
  const std::size_t bits = 512, n = 8;
  const std::vector<Mpz> m = make_moduli(gen, bits, n);
  const std::vector<Mpz> base = make_bases(gen, bits, m), e = make_exponents(gen, bits, n);
  std::vector<Mpz> want(n);
  for (std::size_t i = 0; i < n; ++i) mpz_powm(want[i], base[i], e[i], m[i]);
  const Describe ops = operands_of({{"base", &base}, {"exp", &e}, {"m", &m}});
  Batch B = to_batch(base, bits, ctx());
  const Batch E = to_batch(e, bits, ctx()), M = to_batch(m, bits, ctx());
  mpgpu::powm(B, B, E, M);
  ASSERT_TRUE(equals(B, bits, want, "powm(base, base, exp, m)", ops));
  Batch E2 = E.clone();
  mpgpu::powm(E2, to_batch(base, bits, ctx()), E2, M);
  ASSERT_TRUE(equals(E2, bits, want, "powm(exp, base, exp, m)", ops));
  Batch B2 = to_batch(base, bits, ctx());
  mpgpu::powm(B2, B2, E, M, mpgpu::PowmWindow::sliding);
  ASSERT_TRUE(equals(B2, bits, want, "powm(base, base, exp, m, sliding)", ops));
}

/// v[i % v.size()] for i < n.
std::vector<Mpz> tile(const std::vector<Mpz>& v, std::size_t n) {
  std::vector<Mpz> r;
  r.reserve(n);
  for (std::size_t i = 0; i < n; ++i) r.push_back(v[i % v.size()]);
  return r;
}

/// The fewest instances for which the modular table gives G at `words`
/// (0 for a width without rows: every count takes its one G).
std::size_t first_count_of(int words, int g) {
  std::size_t n = 0;
  bool found = false;
  for (const auto& row : mpgpu::tuning::table::kModularGroupRows)
    if (row.words == words && row.group_size == g && (!found || row.min_instances < n)) {
      n = row.min_instances;
      found = true;
    }
  return n;
}

TEST_P(BatchModular, EveryGroupSizeOfAWidth) {
  // The CUDA backend takes the modular family's G by width and instance
  // count (tuned_modular_group_size(W, n)): a batch at the fewest instances
  // of each G the table gives at a width runs each of the width's modular
  // kernels. Large batches repeat `period` distinct instances (a period
  // prime to every group and block size), so GMP computes that many
  // results; the CPU backend has no G and runs `period` instances only.
  Operands gen(35);
  const std::size_t period = 61;
  for (std::size_t bits : {std::size_t{1024}, std::size_t{2048}, std::size_t{3072}, std::size_t{4096},
                           std::size_t{8192}}) {
    const int words = static_cast<int>(2 * mpgpu::batch_stride_limbs(bits));
    const std::vector<Mpz> m = make_moduli(gen, bits, period);
    const std::vector<Mpz> a = make_operands(gen, bits, period, 0);  // also >= m
    const std::vector<Mpz> x = below_moduli(make_operands(gen, bits, period, 1), m);
    const std::vector<Mpz> y = below_moduli(make_operands(gen, bits, period, 2), m);
    const std::vector<Mpz> base = make_bases(gen, bits, m), e = make_exponents(gen, 64, period);
    const Mpz R = Mpz::pow2(64 * mpgpu::batch_stride_limbs(bits));
    std::vector<Mpz> to(period), prod(period), square(period), reduced(period), power(period);
    for (std::size_t i = 0; i < period; ++i) {
      Mpz rinv;
      ASSERT_NE(mpz_invert(rinv, R, m[i]), 0);
      mpz_mul(to[i], a[i], R);
      mpz_mod(to[i], to[i], m[i]);
      mpz_mul(prod[i], x[i], y[i]);
      mpz_mul(reduced[i], prod[i], rinv);
      mpz_mod(reduced[i], reduced[i], m[i]);
      mpz_mod(prod[i], prod[i], m[i]);
      mpz_mul(square[i], x[i], x[i]);
      mpz_mod(square[i], square[i], m[i]);
      mpz_powm(power[i], base[i], e[i], m[i]);
    }
    const mpgpu::batch::ModularGroups groups = mpgpu::batch::modular_groups(words);
    for (int k = 0; k < groups.count; ++k) {
      const int g = groups.sizes[k];
      const std::size_t n = on_gpu() ? std::max(first_count_of(words, g), period) : period;
      if (on_gpu()) {
        ASSERT_EQ(mpgpu::batch::tuned_modular_group_size(words, n), g) << bits << " bits, " << n;
      }
      const std::string at = " (" + std::to_string(n) + " instances, G " + std::to_string(g) + ")";
      const std::vector<Mpz> mn = tile(m, n), an = tile(a, n), xn = tile(x, n), yn = tile(y, n);
      const std::vector<Mpz> basen = tile(base, n), en = tile(e, n);
      const Batch M = to_batch(mn, bits, ctx()), X = to_batch(xn, bits, ctx()), Y = to_batch(yn, bits, ctx());
      Batch r, XR, YR;
      mpgpu::to_montgomery(r, to_batch(an, bits, ctx()), M);
      ASSERT_TRUE(equals(r, bits, tile(to, n), "to_montgomery" + at, operands_of({{"a", &an}, {"m", &mn}})));
      mpgpu::to_montgomery(XR, X, M);
      mpgpu::to_montgomery(YR, Y, M);
      const Describe xym = operands_of({{"x", &xn}, {"y", &yn}, {"m", &mn}});
      mpgpu::montgomery_mul(r, XR, YR, M);
      mpgpu::from_montgomery(r, r, M);
      ASSERT_TRUE(equals(r, bits, tile(prod, n), "from(mul(to(x), to(y)))" + at, xym));
      mpgpu::montgomery_sqr(r, XR, M);
      mpgpu::from_montgomery(r, r, M);
      ASSERT_TRUE(equals(r, bits, tile(square, n), "from(sqr(to(x)))" + at, xym));
      Batch wide;
      mpgpu::mul_wide(wide, X, Y);
      mpgpu::montgomery_reduce(r, wide, M);
      ASSERT_TRUE(equals(r, bits, tile(reduced, n), "montgomery_reduce(mul_wide(x, y))" + at, xym));
      const Batch B = to_batch(basen, bits, ctx()), E = to_batch(en, 64, ctx());
      const Describe bem = operands_of({{"base", &basen}, {"exp", &en}, {"m", &mn}});
      mpgpu::powm(r, B, E, M);  // the window the G chosen asks for
      ASSERT_TRUE(equals(r, bits, tile(power, n), "powm" + at, bem));
      mpgpu::powm(r, B, E, M, mpgpu::PowmWindow::fixed);
      ASSERT_TRUE(equals(r, bits, tile(power, n), "powm (fixed windows)" + at, bem));
      mpgpu::powm(r, B, E, M, mpgpu::PowmWindow::sliding);
      ASSERT_TRUE(equals(r, bits, tile(power, n), "powm (sliding windows)" + at, bem));
    }
  }
}

MPGPU_INSTANTIATE_ON_BACKEND(BatchModular);

}  // namespace
