// PrimeField32 and PrimeField64 (host branches) against GMP, for every table
// prime that fits the word (the 64-bit field also runs the 32-bit primes):
// operands at 0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2 and uniform random ones;
// Shoup and Montgomery products also with unreduced full-word left operands
// up to the bound each one states.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "mpgpu/field/prime_field32.cuh"
#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/field/primes.hpp"
#include "support/mpz.hpp"
#include "support/operands.hpp"

namespace {

namespace field = mpgpu::field;
using mpgpu_test::Mpz;
using mpgpu_test::Operands;

constexpr int random_pairs = 20000;

template <class Field>
std::vector<std::uint64_t> primes_for() {
  std::vector<std::uint64_t> v;
  field::for_each_ntt_prime([&](const field::NttPrime& q) {
    if (q.p <= std::numeric_limits<typename Field::word>::max()) v.push_back(q.p);
  });
  return v;
}

/// The GMP oracle for one modulus; R = 2^word_bits.
struct Oracle {
  Mpz p, r_inv;
  Oracle(std::uint64_t modulus, int word_bits) : p(Mpz::from_ui(modulus)) {
    mpz_invert(r_inv, Mpz::pow2(word_bits), p);
  }
  std::uint64_t reduce(const Mpz& x) const {
    Mpz r;
    mpz_mod(r, x, p);
    return mpz_get_ui(r);
  }
  std::uint64_t add(std::uint64_t a, std::uint64_t b) const {
    Mpz s = Mpz::from_ui(a);
    mpz_add_ui(s, s, b);
    return reduce(s);
  }
  std::uint64_t sub(std::uint64_t a, std::uint64_t b) const {
    Mpz s = Mpz::from_ui(a);
    mpz_sub_ui(s, s, b);
    return reduce(s);
  }
  std::uint64_t mul(std::uint64_t a, std::uint64_t b) const {
    Mpz s = Mpz::from_ui(a);
    mpz_mul_ui(s, s, b);
    return reduce(s);
  }
  /// a * b / R mod p
  std::uint64_t mont(std::uint64_t a, std::uint64_t b) const {
    Mpz s = Mpz::from_ui(a);
    mpz_mul_ui(s, s, b);
    mpz_mul(s, s, r_inv);
    return reduce(s);
  }
  std::uint64_t pow(std::uint64_t a, std::uint64_t e) const {
    Mpz r;
    mpz_powm(r, Mpz::from_ui(a), Mpz::from_ui(e), p);
    return mpz_get_ui(r);
  }
};

/// Edge residues first, then uniform ones in [0, p).
std::vector<std::uint64_t> residues(std::uint64_t p, Operands& gen, int random_count) {
  std::vector<std::uint64_t> v = {0, 1, 2, p - 1, p - 2, (p - 1) / 2, (p + 1) / 2};
  for (int i = 0; i < random_count; ++i) v.push_back(gen.below(p));
  return v;
}

template <class Field>
class PrimeFieldTest : public ::testing::Test {};
using Fields = ::testing::Types<field::PrimeField32, field::PrimeField64>;
TYPED_TEST_SUITE(PrimeFieldTest, Fields);

TYPED_TEST(PrimeFieldTest, Constants) {
  using Field = TypeParam;
  for (std::uint64_t p : primes_for<Field>()) {
    const Field f = Field::make(static_cast<typename Field::word>(p));
    const Oracle o(p, Field::word_bits);
    EXPECT_EQ(typename Field::word(f.p * f.p_inv), 1u) << p;
    EXPECT_EQ(f.r1, o.reduce(Mpz::pow2(Field::word_bits))) << p;
    EXPECT_EQ(f.r2, o.reduce(Mpz::pow2(2 * Field::word_bits))) << p;
  }
}

TYPED_TEST(PrimeFieldTest, BinaryOperationsMatchGmp) {
  using Field = TypeParam;
  using word = typename Field::word;
  for (std::uint64_t p : primes_for<Field>()) {
    SCOPED_TRACE(p);
    const Field f = Field::make(static_cast<word>(p));
    const Oracle o(p, Field::word_bits);
    Operands gen(p % 1000003);
    const auto edges = residues(p, gen, 0);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
    for (auto a : edges)
      for (auto b : edges) pairs.emplace_back(a, b);
    for (int i = 0; i < random_pairs; ++i) pairs.emplace_back(gen.below(p), gen.below(p));
    for (auto [a64, b64] : pairs) {
      const word a = static_cast<word>(a64), b = static_cast<word>(b64);
      ASSERT_EQ(f.add(a, b), o.add(a, b)) << a << " + " << b;
      ASSERT_EQ(f.sub(a, b), o.sub(a, b)) << a << " - " << b;
      ASSERT_EQ(f.mul(a, b), o.mul(a, b)) << a << " * " << b;
      ASSERT_EQ(f.mont_mul(a, b), o.mont(a, b)) << a << " *R^-1 " << b;
      const word b_shoup = f.shoup(b);
      Mpz q = Mpz::from_ui(b);
      mpz_mul_2exp(q, q, Field::word_bits);
      mpz_fdiv_q(q, q, o.p);
      ASSERT_EQ(b_shoup, mpz_get_ui(q)) << "shoup(" << b << ")";
      ASSERT_EQ(f.mul_shoup(a, b, b_shoup), o.mul(a, b)) << a << " *shoup " << b;
    }
  }
}

// Shoup takes any word on the left, Montgomery any a with a * b < p * R:
// a full word against b < p qualifies.
TYPED_TEST(PrimeFieldTest, UnreducedLeftOperands) {
  using Field = TypeParam;
  using word = typename Field::word;
  constexpr word all_ones = std::numeric_limits<word>::max();
  for (std::uint64_t p : primes_for<Field>()) {
    SCOPED_TRACE(p);
    const Field f = Field::make(static_cast<word>(p));
    const Oracle o(p, Field::word_bits);
    Operands gen(p % 999983);
    std::vector<word> lefts = {all_ones, static_cast<word>(all_ones - 1), static_cast<word>(p),
                               static_cast<word>(p + 1), static_cast<word>(all_ones / 2 + 1)};
    for (int i = 0; i < 2000; ++i) lefts.push_back(static_cast<word>(gen.limb()));
    for (word a : lefts)
      for (std::uint64_t b64 : residues(p, gen, 8)) {
        const word b = static_cast<word>(b64);
        ASSERT_EQ(f.mul_shoup(a, b, f.shoup(b)), o.mul(a, b)) << a << " *shoup " << b;
        ASSERT_EQ(f.mont_mul(a, b), o.mont(a, b)) << a << " *R^-1 " << b;
      }
  }
}

// The lazy Shoup product is in [0, 2p) and congruent to a * w, for primes
// with 2p below the word size (p < 2^31, p < 2^63).
TYPED_TEST(PrimeFieldTest, LazyShoupStaysBelowTwoP) {
  using Field = TypeParam;
  using word = typename Field::word;
  int tested = 0;
  for (std::uint64_t p : primes_for<Field>()) {
    if (p >> (Field::word_bits - 1)) continue;
    ++tested;
    SCOPED_TRACE(p);
    const Field f = Field::make(static_cast<word>(p));
    const Oracle o(p, Field::word_bits);
    Operands gen(p % 999979);
    const auto values = residues(p, gen, 200);
    std::vector<word> lefts = {std::numeric_limits<word>::max()};
    for (auto v : values) lefts.push_back(static_cast<word>(v));
    for (word a : lefts)
      for (std::uint64_t b64 : values) {
        const word b = static_cast<word>(b64);
        const std::uint64_t r = f.mul_shoup_lazy(a, b, f.shoup(b));
        ASSERT_LT(r, 2 * p) << a << " *lazy " << b;
        ASSERT_EQ(r % p, o.mul(a, b)) << a << " *lazy " << b;
      }
  }
  EXPECT_GT(tested, 0);
}

// The lazy Montgomery product of PrimeField32 is in (0, 2p) and congruent to
// a * b / R, for p < 2^30 and left operands up to 4p - 1 (the in-group NTT
// product's butterflies, batch/ntt_mul.cuh).
TEST(PrimeField32Lazy, MontgomeryStaysBelowTwoP) {
  int tested = 0;
  for (std::uint64_t p : primes_for<field::PrimeField32>()) {
    if (p >> 30) continue;
    ++tested;
    SCOPED_TRACE(p);
    const auto f = field::PrimeField32::make(static_cast<std::uint32_t>(p));
    const Oracle o(p, 32);
    Operands gen(p % 999983);
    const auto values = residues(p, gen, 200);
    std::vector<std::uint64_t> lefts = {4 * p - 1, 4 * p - 2, 2 * p, 2 * p - 1, p};
    for (auto v : values) lefts.push_back(v), lefts.push_back(v + 2 * p);
    for (std::uint64_t a : lefts)
      for (std::uint64_t b : values) {
        const std::uint64_t r = f.mont_mul_lazy(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b));
        ASSERT_GT(r, 0u) << a << " *mont-lazy " << b;
        ASSERT_LT(r, 2 * p) << a << " *mont-lazy " << b;
        ASSERT_EQ(r % p, o.mont(a, b)) << a << " *mont-lazy " << b;
      }
  }
  EXPECT_GT(tested, 0);
}

TYPED_TEST(PrimeFieldTest, UnaryOperationsMatchGmp) {
  using Field = TypeParam;
  using word = typename Field::word;
  for (std::uint64_t p : primes_for<Field>()) {
    SCOPED_TRACE(p);
    const Field f = Field::make(static_cast<word>(p));
    const Oracle o(p, Field::word_bits);
    Operands gen(p % 999961);
    for (std::uint64_t a64 : residues(p, gen, 2000)) {
      const word a = static_cast<word>(a64);
      ASSERT_EQ(f.neg(a), o.sub(0, a)) << "-" << a;
      const word m = f.to_mont(a);
      Mpz want_m = Mpz::from_ui(a);
      mpz_mul_2exp(want_m, want_m, Field::word_bits);
      ASSERT_EQ(m, o.reduce(want_m)) << "to_mont(" << a << ")";
      ASSERT_EQ(f.from_mont(m), a) << "from_mont(to_mont(" << a << "))";
      ASSERT_EQ(f.from_mont(a), o.mont(a, 1)) << "from_mont(" << a << ")";
      const word inv = f.inv(a);
      if (a == 0) {
        ASSERT_EQ(inv, 0u);
      } else {
        ASSERT_EQ(o.mul(a, inv), 1u) << "inv(" << a << ")";
      }
      for (std::uint64_t e : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, p - 2, p - 1,
                              p, ~std::uint64_t{0}, gen.limb()})
        ASSERT_EQ(f.pow(a, e), o.pow(a, e)) << a << "^" << e;
    }
  }
}

}  // namespace
