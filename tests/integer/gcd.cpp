// gcd, gcdext, lcm and invert of huge operands against GMP at sizes below,
// at and above kDeviceGcdMinLimbs (integer_crossovers.hpp), 2x and 3x it
// and one of 40000 limbs, so that integer_gcd_gpu_test runs both GMP's path
// and the half-gcd with its products on the device (detail::gcd_by_half_gcd,
// whose parts of at most kHostHalfGcdMaxLimbs limbs are GMP's mpn_hgcd):
// random pairs of equal and unequal sizes, consecutive Fibonacci numbers,
// large common factors, every sign, GMP's special cofactors (a = b,
// |b| = 2g, b | a), b = a + 1, all-ones limbs, powers of two, one operand 1;
// gcdext's g, s and t bit for bit with mpz_gcdext; invert with and without
// an inverse (false leaves the result untouched); results aliasing operands;
// another stream; operands in device memory (make) and left in host memory
// (from_mpz). On the CPU context these are GMP's own functions; the
// half-gcd's algorithm runs on the CPU context in integer_gcd_algorithms_test.
#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "integer_test.hpp"
#include "support/mpz_arith.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

constexpr std::size_t kGcd = mpgpu::kDeviceGcdMinLimbs;

/// Where the operands of a case live on a CUDA context.
enum class Memory { device, host };

class Gcd : public IntegerTest {
 protected:
  /// Another stream: a second context's stream on a CUDA device; the CPU
  /// context has no streams (nullptr).
  mpgpu::Stream other_stream() {
    if (!on_gpu()) return nullptr;
    if (!other_) other_.emplace(mpgpu::Context::cuda(ctx().device()));
    return other_->stream();
  }

  /// The operand in device memory (make) or as from_mpz leaves it (host
  /// memory while it has at most kHostValueMaxLimbs limbs).
  Integer operand(const Mpz& v, Memory where) const {
    if (where == Memory::device) return make(v);
    Integer x = Integer::from_mpz(v, ctx());
    if (on_gpu() && v.limbs() <= mpgpu::kHostValueMaxLimbs && !x.in_host_memory())
      ADD_FAILURE() << "a value of " << v.limbs() << " limbs made by from_mpz is not in host memory";
    return x;
  }

  /// gcd, lcm, gcdext (g, s, t) of (a, b) and invert(a, b) against GMP; the
  /// operands unchanged, an inverse's result untouched when there is none.
  ::testing::AssertionResult calls_match(const Mpz& a, const Mpz& b, Memory where = Memory::device,
                                         mpgpu::Stream stream = nullptr) const {
    Mpz want_g, want_s, want_t, want_l, want_inv;
    mpz_gcdext(want_g, want_s, want_t, a, b);
    mpz_lcm(want_l, a, b);
    const bool invertible = b.sgn() != 0 && mpz_invert(want_inv, a, b) != 0;
    const Integer x = operand(a, where), y = operand(b, where);
    auto fail = [&](const char* what) {
      return ::testing::AssertionFailure() << what << " of (" << a << ", " << b << ")"
                                           << (where == Memory::host ? " in host memory" : "")
                                           << (stream ? " on another stream" : "") << ": ";
    };
    Integer g(ctx()), s(ctx()), t(ctx()), l(ctx());
    mpgpu::gcd(g, x, y, stream);
    if (auto r = matches(g, want_g); !r) return fail("gcd") << r.message();
    mpgpu::lcm(l, x, y, stream);
    if (auto r = matches(l, want_l); !r) return fail("lcm") << r.message();
    g = Integer(ctx());
    mpgpu::gcdext(g, s, t, x, y, stream);
    if (auto r = matches(g, want_g); !r) return fail("gcdext g") << r.message();
    if (auto r = matches(s, want_s); !r) return fail("gcdext s") << r.message();
    if (auto r = matches(t, want_t); !r) return fail("gcdext t") << r.message();
    if (b.sgn() != 0) {
      const Mpz before = Mpz::from_si(-99);
      Integer inv = make(before);
      const bool ok = mpgpu::invert(inv, x, y, stream);
      if (ok != invertible) return fail("invert") << "returned " << ok << ", GMP " << invertible;
      if (auto r = matches(inv, invertible ? want_inv : before); !r)
        return fail(invertible ? "invert" : "invert (no inverse: result changed)") << r.message();
    }
    if (!matches(x, a) || !matches(y, b)) return fail("an operand changed");
    return ::testing::AssertionSuccess();
  }

 private:
  std::optional<mpgpu::Context> other_;
};
MPGPU_INSTANTIATE_ON_BACKEND(Gcd);

/// Sizes in limbs around the crossover: GMP's path, the first device sizes,
/// 2x, 3x (sanitizer-sized: no 3x; 2x already recurses below the top level).
const std::vector<std::size_t>& crossover_sizes() {
  static const std::vector<std::size_t> s =
      sized<std::vector<std::size_t>>({kGcd - 1, kGcd, kGcd + 1, 2 * kGcd, 3 * kGcd}, {kGcd - 1, kGcd, kGcd + 1, 2 * kGcd});
  return s;
}

TEST_P(Gcd, RandomPairsAroundTheCrossover) {
  // Sanitizer-sized: half the second sizes, in turn (each size meets two of
  // the four kinds, each kind two sizes).
  Operands gen(6001);
  int i = 0;
  std::size_t turn = 0;
  for (std::size_t n : crossover_sizes()) {
    const Mpz a = gen.random_bits(64 * n - gen.below(64));
    ++turn;  // shifts the kinds kept from one size to the next
    // Equal sizes, the smaller at 2/3, at half (the outer loop's division
    // step) and below kHostHalfGcdMaxLimbs (one division, then GMP).
    for (std::size_t m : {n, 2 * n / 3, n / 2, std::size_t{100}}) {
      if (!sanitizer_keeps(turn++, 2)) continue;
      const Mpz b = gen.random_bits(64 * m - gen.below(64));
      // Every order and sign in turn.
      const Mpz sa = (i & 1) ? -a : a, sb = (i & 2) ? -b : b;
      if (i & 4) ASSERT_TRUE(calls_match(sb, sa));
      else ASSERT_TRUE(calls_match(sa, sb));
      ++i;
    }
  }
}

TEST_P(Gcd, AllSignsAtTheCrossover) {
  Operands gen(6002);
  // Sanitizer-sized: each sign combination once, the order alternating.
  const Mpz a = gen.uniform(64 * kGcd), b = gen.uniform(64 * (kGcd - 7));
  for (int signs = 0; signs < 4; ++signs) {
    const Mpz sa = (signs & 1) ? -a : a, sb = (signs & 2) ? -b : b;
    if (!sanitizer_sized() || signs % 2 == 0) ASSERT_TRUE(calls_match(sa, sb));
    if (!sanitizer_sized() || signs % 2 == 1) ASSERT_TRUE(calls_match(sb, sa));
  }
}

TEST_P(Gcd, ConsecutiveFibonacciNumbers) {
  // Sanitizer-sized: one of the two pairs at each size, in turn.
  int turn = 0;
  for (std::size_t limbs : {kGcd, 2 * kGcd + 3}) {
    const unsigned long n = fib_index_for_limbs(limbs);
    if (sanitizer_keeps(turn++, 2)) ASSERT_TRUE(calls_match(fib(n + 1), fib(n))) << "F(" << n << ")";
    if (sanitizer_keeps(turn++, 2)) ASSERT_TRUE(calls_match(-fib(n), fib(n + 1))) << "F(" << n << ")";
  }
}

TEST_P(Gcd, LargeCommonFactor) {
  Operands gen(6003);
  // g of about half, most and a few limbs of the operands.
  const std::vector<std::array<std::size_t, 3>> shapes = {
      {kGcd / 2, kGcd / 2 + 10, kGcd / 2 - 3}, {kGcd - 10, 12, 5}, {2 * kGcd, kGcd, 40}, {5, kGcd, kGcd - 1}};
  for (const auto& [ng, nx, ny] : shapes) {
    const Mpz g = gen.random_bits(64 * ng - gen.below(64));
    const Mpz x = gen.random_bits(64 * nx - gen.below(64)), y = gen.random_bits(64 * ny - gen.below(64));
    ASSERT_TRUE(calls_match(product(g, x), -product(g, y))) << ng << " " << nx << " " << ny;
  }
}

TEST_P(Gcd, SpecialPairs) {
  Operands gen(6004);
  const Mpz a = gen.uniform(64 * kGcd), g = gen.uniform(64 * (kGcd - 1));
  const std::vector<std::pair<Mpz, Mpz>> pairs = {
      {a, a},                                        // s = 0, t = sgn(b)
      {a, -a},
      {g, times_ui(g, 2)},                           // |b| = 2g: s = sgn(a)
      {times_ui(g, 2), -times_ui(g, 3)},             // |a| = 2g: t = sgn(b)
      {product(a, gen.uniform(64 * 3)), a},          // b | a: s = 0
      {a, plus(a, 1)},                               // b = a + 1
      {-a, Mpz::from_ui(1)},                         // one operand 1
      {Mpz::from_si(-1), a},
      {Mpz::all_ones(64 * kGcd), Mpz::all_ones(64 * (kGcd - 100) + 3)},  // 2^k - 1, 2^j - 1
      {Mpz::all_ones(64 * 2 * kGcd), Mpz::all_ones(64 * kGcd)},
      {Mpz::pow2(64 * kGcd + 5), product(Mpz::pow2(64 * 1000), plus(times_ui(g, 2), 1))},  // 2^k, 2^j * odd
      {product(g, Mpz::pow2(64 * 10 + 1)), product(a, Mpz::pow2(7))}};
  for (const auto& [x, y] : pairs) ASSERT_TRUE(calls_match(x, y));
}

// Kept whole when sanitizer-sized: the one case whose half-gcd matrices
// (about 10^4 limbs) multiply by NTTs; each of the four calls is a path.
TEST_P(Gcd, FortyThousandLimbs) {
  Operands gen(6005);
  const Mpz a = gen.uniform(64 * 40000), b = gen.uniform(64 * 39990 + 17);
  ASSERT_TRUE(calls_match(a, -b));
}

TEST_P(Gcd, OperandsInHostMemory) {
  Operands gen(6006);
  for (std::size_t n : sized<std::vector<std::size_t>>({kGcd, 3 * kGcd}, {kGcd})) {
    const Mpz a = gen.uniform(64 * n), b = gen.uniform(64 * (n - 5));
    ASSERT_TRUE(calls_match(a, -b, Memory::host));
  }
  const unsigned long k = fib_index_for_limbs(kGcd + 1);
  ASSERT_TRUE(calls_match(fib(k), fib(k + 1), Memory::host));
}

TEST_P(Gcd, OnAnotherStream) {
  Operands gen(6007);
  const mpgpu::Stream s = other_stream();
  const Mpz g = gen.uniform(64 * 1500);
  const Mpz a = product(g, gen.uniform(64 * (kGcd - 1000))), b = product(g, gen.uniform(64 * (kGcd - 1200)));
  ASSERT_TRUE(calls_match(a, b, Memory::device, s));
  ASSERT_TRUE(calls_match(gen.uniform(64 * 2 * kGcd), gen.uniform(64 * 2 * kGcd), Memory::host, s));
}

TEST_P(Gcd, Invert) {
  // Sanitizer-sized: no kGcd - 1 (GMP's own invert, which
  // RandomPairsAroundTheCrossover also calls there).
  Operands gen(6008);
  for (std::size_t n : sized<std::vector<std::size_t>>({kGcd - 1, kGcd, 2 * kGcd}, {kGcd, 2 * kGcd})) {
    Mpz m = gen.uniform(64 * n);
    mpz_setbit(m, 64 * n - 1);
    mpz_setbit(m, 0);  // odd: 2 is invertible
    // An invertible a of each kind: the first that is.
    Mpz a = gen.uniform(64 * n), inverse;
    while (!mpz_invert(inverse, a, m)) a = gen.uniform(64 * n);
    Mpz a_wide = a;  // a + m * (n + 3 limbs): reduced mod m first
    mpz_addmul(a_wide, m, gen.uniform(64 * (n + 3)));
    for (const auto& [x, y] : std::vector<std::pair<Mpz, Mpz>>{
             {a, m}, {-a, m}, {a, -m}, {Mpz::from_ui(2), m}, {Mpz::from_si(-3), m}, {a_wide, m}}) {
      Mpz want;
      const bool want_ok = mpz_invert(want, x, y) != 0;
      Integer r = make(Mpz::from_si(-99));
      ASSERT_EQ(mpgpu::invert(r, make(x), make(y)), want_ok) << x << " mod " << y;
      ASSERT_TRUE(matches(r, want_ok ? want : Mpz::from_si(-99))) << x << " mod " << y;
    }
    // No inverse: a common factor of many limbs, the factor 2, a multiple of m.
    const Mpz p = gen.uniform(64 * (n / 2));
    const Mpz even_m = times_ui(m, 2);
    for (const auto& [x, y] : std::vector<std::pair<Mpz, Mpz>>{
             {product(p, gen.uniform(64 * (n / 2 + 1))), product(p, gen.uniform(64 * (n / 2 + 2)))},
             {times_ui(a, 2), even_m},
             {times_ui(m, 5), m},
             {-m, m}}) {
      Mpz want;
      ASSERT_FALSE(mpz_invert(want, x, y)) << "the case itself";
      const Mpz before = Mpz::from_si(-99);
      Integer r = make(before);
      ASSERT_FALSE(mpgpu::invert(r, make(x), make(y))) << x << " mod " << y;
      ASSERT_TRUE(matches(r, before)) << "result changed for " << x << " mod " << y;
    }
    // Fibonacci: F(k) is invertible mod F(k + 1) (consecutive ones are coprime).
    const unsigned long k = fib_index_for_limbs(n);
    ASSERT_TRUE(calls_match(fib(k), fib(k + 1)));
  }
}

TEST_P(Gcd, ResultsAliasingOperands) {
  Operands gen(6009);
  const Mpz a = gen.uniform(64 * (kGcd + 50)), b = -gen.uniform(64 * (kGcd + 10));
  Mpz want_g, want_s, want_t, want_l, want_inv;
  mpz_gcdext(want_g, want_s, want_t, a, b);
  mpz_lcm(want_l, a, b);
  const bool invertible = mpz_invert(want_inv, a, b) != 0;
  {
    Integer x = make(a), y = make(b);
    mpgpu::gcd(x, x, y);  // g aliases a
    ASSERT_TRUE(matches(x, want_g));
    x = make(a);
    mpgpu::gcd(y, x, y);  // g aliases b
    ASSERT_TRUE(matches(y, want_g));
  }
  {
    Integer x = make(a), y = make(b);
    mpgpu::lcm(x, x, y);
    ASSERT_TRUE(matches(x, want_l));
    x = make(a);
    mpgpu::lcm(y, x, y);
    ASSERT_TRUE(matches(y, want_l));
  }
  {
    Integer x = make(a), y = make(b), t(ctx());
    mpgpu::gcdext(x, y, t, x, y);  // g aliases a, s aliases b
    ASSERT_TRUE(matches(x, want_g));
    ASSERT_TRUE(matches(y, want_s));
    ASSERT_TRUE(matches(t, want_t));
  }
  {
    Integer x = make(a), y = make(b), g(ctx());
    mpgpu::gcdext(g, x, y, x, y);  // s aliases a, t aliases b
    ASSERT_TRUE(matches(g, want_g));
    ASSERT_TRUE(matches(x, want_s));
    ASSERT_TRUE(matches(y, want_t));
  }
  {
    Integer x = make(a), y = make(b), s(ctx());
    mpgpu::gcdext(y, s, x, x, y);  // g aliases b, t aliases a
    ASSERT_TRUE(matches(y, want_g));
    ASSERT_TRUE(matches(s, want_s));
    ASSERT_TRUE(matches(x, want_t));
  }
  {
    Integer x = make(a), y = make(b);
    ASSERT_EQ(mpgpu::invert(x, x, y), invertible);  // r aliases a
    ASSERT_TRUE(matches(x, invertible ? want_inv : a));
    x = make(a);
    ASSERT_EQ(mpgpu::invert(y, x, y), invertible);  // r aliases m
    ASSERT_TRUE(matches(y, invertible ? want_inv : b));
  }
  {
    // No inverse, r aliasing each operand: both untouched.
    const Mpz m = times_ui(a, 6), c = times_ui(a, 4);
    Integer x = make(c), y = make(m);
    ASSERT_FALSE(mpgpu::invert(x, x, y));
    ASSERT_TRUE(matches(x, c));
    ASSERT_FALSE(mpgpu::invert(y, x, y));
    ASSERT_TRUE(matches(y, m));
  }
}

}  // namespace
