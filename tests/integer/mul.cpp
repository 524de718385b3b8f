// mul and sqr against GMP's mpz_mul: every sign, zero, the adversarial set,
// all-ones operands (the largest product coefficients, i.e. the CRT bound),
// sparse and unbalanced operands, aliasing, and sizes on both sides of the
// device's thresholds (thread and warp columns, NTT) and of powers of two.
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "integer_test.hpp"

namespace {

using mpgpu::Integer;
using namespace mpgpu_test;

class Mul : public IntegerTest {
 protected:
  ::testing::AssertionResult check(const Mpz& a, const Mpz& b) const {
    const Integer x = make(a), y = make(b);
    Mpz want;
    mpz_mul(want, a, b);
    Integer r(ctx());
    mpgpu::mul(r, x, y);
    if (auto m = matches(r, want); !m) return m << " in " << a << " * " << b;
    mpgpu::mul(r, y, x);
    if (auto m = matches(r, want); !m) return m << " in " << b << " * " << a;
    if (!matches(x, a) || !matches(y, b)) return ::testing::AssertionFailure() << "an operand changed";
    return ::testing::AssertionSuccess();
  }
  ::testing::AssertionResult check_sqr(const Mpz& a) const {
    Mpz want;
    mpz_mul(want, a, a);
    Integer r(ctx());
    mpgpu::sqr(r, make(a));
    if (auto m = matches(r, want); !m) return m << " in sqr " << a;
    Integer x = make(a);
    mpgpu::mul(x, x, x);  // aliasing: the destination is both operands
    if (auto m = matches(x, want); !m) return m << " in mul(x, x, x) " << a;
    return ::testing::AssertionSuccess();
  }
};

TEST_P(Mul, SignsZeroAndEdgeValues) {
  // Sanitizer-sized: every a, against one b in three in rotation (each b
  // still meets a third of the a's; check() multiplies both ways).
  const std::vector<Mpz> values = edge_pair_values();
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t j = 0; j < values.size(); ++j)
      if (sanitizer_keeps(i + j, 3)) {
        ASSERT_TRUE(check(values[i], values[j]));
      }
}

TEST_P(Mul, AroundTheDeviceCrossover) {
  Operands gen;
  const std::size_t t = mpgpu::kDeviceProductMinLimbs;
  for (std::size_t na : {t / 2 - 1, t / 2, t / 2 + 1, t - 1, t, t + 1}) {
    const std::size_t nb = t - na + (na % 3);  // na + nb straddles t
    Mpz a = gen.random_bits(64 * na), b = gen.random_bits(64 * nb);
    if (gen.coin()) mpz_neg(a, a);
    ASSERT_TRUE(check(a, b)) << na << " x " << nb << " limbs";
  }
}

// Both sides of the column products' limits (a warp per column for a shorter
// operand of 33 to 8192 limbs while na * nb <= 3 * 2^24 by default, the NTT
// product beyond), with all-ones operands: every column at its maximum.
// Sanitizer-sized: both sides of the work limit (7000 x 7190 and 7191) and
// of the shorter operand's (8192 x 8193 against 8193 x 8193, both NTT
// products under the default work limit) kept; the further shapes at and
// past the work limit with a shorter operand of 2048 to 8192 limbs (NTT
// products of up to 67000 limbs, the same transforms) dropped.
TEST_P(Mul, AroundTheColumnProductLimits) {
  Operands gen;
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes =
      sized<std::vector<std::pair<std::uint64_t, std::uint64_t>>>(
          {{33, 33},       {33, 200000},  {100, 5000},    {4095, 4097},   {6144, 6145},   {8191, 8193},
           {8192, 8192},   {8192, 8193},  {8193, 8193},   {8192, 16384},  {8192, 16385},  {4096, 32768},
           {4096, 32769},  {2048, 65536}, {2048, 65537},  {7000, 7190},   {7000, 7191}},
          {{33, 33}, {33, 200000}, {100, 5000}, {4095, 4097}, {6144, 6145}, {8192, 8193}, {8193, 8193},
           {7000, 7190}, {7000, 7191}});
  for (const auto& [na, nb] : shapes) {
    ASSERT_TRUE(check(Mpz::all_ones(64 * na), Mpz::all_ones(64 * nb))) << na << " x " << nb << " limbs, all ones";
    ASSERT_TRUE(check(gen.random_bits(64 * na), -gen.random_bits(64 * nb))) << na << " x " << nb << " limbs";
  }
}

TEST_P(Mul, AllOnesGiveTheLargestCoefficients) {
  // (2^n - 1)^2: every product coefficient is at its maximum.
  // Sanitizer-sized: 20000 limbs (an NTT product, as other tests' are) dropped.
  for (std::uint64_t limbs : sized<std::vector<std::uint64_t>>({1, 2, 63, 64, 1000, 2048, 2049, 4096, 8191, 8192, 20000},
                                                               {1, 2, 63, 64, 1000, 2048, 2049, 4096, 8191, 8192}))
    ASSERT_TRUE(check(Mpz::all_ones(64 * limbs), Mpz::all_ones(64 * limbs))) << limbs << " limbs";
  ASSERT_TRUE(check(Mpz::all_ones(64 * 5000), Mpz::all_ones(64 * 3)));
}

TEST_P(Mul, RandomSparseAndUnbalanced) {
  Operands gen;
  for (int i = 0; i < sized(12, 3); ++i) {
    const std::size_t na = 1 + gen.below(12000), nb = 1 + gen.below(12000);
    ASSERT_TRUE(check(gen.random_bits(64 * na), gen.random_bits(64 * nb))) << na << " x " << nb;
  }
  ASSERT_TRUE(check(gen.sparse(64 * 9000, 5), gen.sparse(64 * 7000, 3)));
  ASSERT_TRUE(check(gen.random_bits(64), gen.random_bits(64 * 30000)));        // 1 x 30000 limbs
  ASSERT_TRUE(check(gen.random_bits(64 * 100), gen.random_bits(64 * 50000)));  // 100 x 50000
  ASSERT_TRUE(check(Mpz::pow2(64 * 6000 - 1), Mpz::pow2(64 * 3000)));
}

// An operand of at most 32 limbs against a long one: the device's
// linear-time path (no NTT of the full length). All-ones operands give the
// largest columns (32 products of (2^64-1)^2 each).
// Moderately unbalanced products: on a CUDA context the long operand is cut
// into chunks, each chunk times the short one a batched transform, and the
// chunk products overlap-added (src/cuda/ntt_mul.cu, mul_abs_chunked). All-ones
// operands give the largest coefficients; the lengths leave a partial last
// chunk, an exact multiple, and chunk tails reaching past the long operand.
TEST_P(Mul, ChunkedUnbalancedProducts) {
  Operands gen;
  // Sanitizer-sized: the shapes of up to 100000 x 1500 limbs (the partial
  // last chunk, the exact multiple, short and long chunks); the 200003 x
  // 4097 and 300000 x 20000 limb ones (more and larger chunks of the same
  // transforms) dropped.
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = sized<std::vector<std::pair<std::size_t, std::size_t>>>(
      {{5000, 34}, {5000, 100}, {65539, 100}, {65536, 1000}, {100000, 1500}, {200003, 4097}, {300000, 20000}, {40000, 3000}},
      {{5000, 34}, {5000, 100}, {65539, 100}, {65536, 1000}, {100000, 1500}, {40000, 3000}});
  for (const auto& [na, nb] : shapes) {
    const Mpz ones_a = Mpz::all_ones(64 * na), ones_b = Mpz::all_ones(64 * nb);
    ASSERT_TRUE(check(ones_a, ones_b)) << na << " x " << nb << " limbs, all ones";
    ASSERT_TRUE(check(ones_b, ones_a)) << nb << " x " << na << " limbs, all ones";
    ASSERT_TRUE(check(gen.uniform(64 * na), -gen.uniform(64 * nb))) << na << " x " << nb << " limbs";
    ASSERT_TRUE(check(gen.runs(64 * nb - 7), gen.runs(64 * na - 3))) << nb << " x " << na << " limbs, runs";
  }
}

// Sanitizer-sized: a long operand of 20000 limbs instead of 70000 (still
// far past the 4097 limbs where a transform of the full length would be
// taken otherwise).
TEST_P(Mul, ShortOperandAgainstALongOne) {
  Operands gen;
  for (std::size_t nb : {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{32}, std::size_t{33}})
    for (std::size_t na : sized<std::vector<std::size_t>>({4096, 4097, 70000}, {4096, 4097, 20000})) {
      ASSERT_TRUE(check(Mpz::all_ones(64 * na), Mpz::all_ones(64 * nb))) << na << " x " << nb << " limbs, all ones";
      ASSERT_TRUE(check(-gen.runs(64 * na), gen.uniform(64 * nb))) << na << " x " << nb << " limbs";
    }
}

// Products whose NTT points are digits of 2 or 4 limbs with 5 or 9 primes
// (src/cuda/ntt_mul_digits.cu; chosen on their own for large balanced
// operands), forced by the context's TuningParams::ntt_digit_limbs:
// all-ones operands (every coefficient at the CRT bound), random and sparse
// ones, lengths that are not multiples of the digit, squares; and 1 (the
// 64-bit digits) for the sizes where the choice would take larger digits.
TEST_P(Mul, DigitsOfSeveralLimbs) {
  Operands gen;
  for (int digits : {2, 4, 1}) {
    mpgpu::TuningParams params = ctx().tuning();
    params.ntt_digit_limbs = digits;
    use_tuning(params);
    // Sanitizer-sized: the 65536 and 70001 limb shapes dropped (the same
    // digits and passes on longer transforms), the sparse product and the
    // squares at a third of their sizes, still not multiples of the digit.
    const std::vector<std::pair<std::size_t, std::size_t>> shapes = sized<std::vector<std::pair<std::size_t, std::size_t>>>(
        {{9000, 9000}, {20001, 16383}, {12347, 9001}, {65536, 65536}, {70001, 69999}},
        {{9000, 9000}, {20001, 16383}, {12347, 9001}});
    for (const auto& [na, nb] : shapes) {
      ASSERT_TRUE(check(Mpz::all_ones(64 * na), Mpz::all_ones(64 * nb))) << na << " x " << nb << ", " << digits;
      ASSERT_TRUE(check(gen.random_bits(64 * na), -gen.uniform(64 * nb))) << na << " x " << nb << ", " << digits;
    }
    ASSERT_TRUE(check(gen.sparse(64 * sized(30001, 10001), 5), gen.runs(64 * sized(29999, 9999)))) << digits;
    ASSERT_TRUE(check_sqr(Mpz::all_ones(64 * sized(40003, 13335)))) << digits;
    ASSERT_TRUE(check_sqr(gen.random_bits(64 * sized(50000, 16667)))) << digits;
  }
}

TEST_P(Mul, SquaresAndAliasing) {
  Operands gen;
  for (std::size_t limbs : {1u, 100u, 2047u, 2048u, 2049u, 6000u}) {
    ASSERT_TRUE(check_sqr(gen.random_bits(64 * limbs))) << limbs;
    ASSERT_TRUE(check_sqr(Mpz::all_ones(64 * limbs))) << limbs;
  }
  Mpz a = gen.random_bits(64 * 5000), b = gen.random_bits(64 * 3000);
  Integer x = make(a);
  x *= make(b);
  Mpz want;
  mpz_mul(want, a, b);
  EXPECT_TRUE(matches(x, want));
  EXPECT_TRUE(matches(make(a) * make(b), want));
}

// mul_each: independent products at once (side by side on a CUDA context),
// against GMP one by one: sizes on both sides of the column limits and of
// the side-by-side primes' bound, every sign, zeros, small host values,
// results that are their own operands (a binary splitting's merge), squares
// through shared operands; operands not written unchanged.
TEST_P(Mul, EachProductAtOnce) {
  Operands gen;
  const std::size_t sizes[] = {1, 20, 33, 900, 4096, 7191, 9000, 20000, 70000, 600000};
  // Sanitizer-sized: rounds 0 to 5 (counts 1 to 5, the all-ones round, the
  // zero operand), the same sizes.
  for (int round = 0; round < sized(12, 6); ++round) {
    const int count = 1 + round % 5;
    std::vector<Mpz> va, vb;
    for (int i = 0; i < count; ++i) {
      const std::size_t na = sizes[gen.below(std::size(sizes))], nb = sizes[gen.below(std::size(sizes))];
      Mpz a = round % 4 == 3 ? Mpz::all_ones(64 * na) : gen.random_bits(64 * na);
      Mpz b = gen.coin() ? gen.random_bits(64 * nb) : gen.runs(64 * nb);
      if (gen.coin()) mpz_neg(a, a);
      if (gen.coin()) mpz_neg(b, b);
      if (round == 5 && i == 1) mpz_set_ui(b, 0);
      va.push_back(std::move(a));
      vb.push_back(std::move(b));
    }
    std::vector<Integer> xs, ys, rs;
    for (int i = 0; i < count; ++i) {
      xs.push_back(make(va[i]));
      ys.push_back(make(vb[i]));
      rs.emplace_back(ctx());
    }
    std::vector<mpgpu::Product> products;
    for (int i = 0; i < count; ++i) {
      // Every third product writes over its own a (r = a * b).
      if (i % 3 == 2) products.push_back({xs[i], xs[i], ys[i]});
      else products.push_back({rs[i], xs[i], ys[i]});
    }
    mpgpu::mul_each(products);
    for (int i = 0; i < count; ++i) {
      Mpz want;
      mpz_mul(want, va[i], vb[i]);
      ASSERT_TRUE(matches(i % 3 == 2 ? xs[i] : rs[i], want)) << "round " << round << ", product " << i;
      if (i % 3 != 2) {
        ASSERT_TRUE(matches(xs[i], va[i])) << "an operand changed";
      }
      ASSERT_TRUE(matches(ys[i], vb[i])) << "an operand changed";
    }
  }
}

// The merge of pi's binary splitting: three results over their own operands
// and a fresh one, two products sharing an operand, one a square.
TEST_P(Mul, EachProductOfAMerge) {
  Operands gen;
  for (std::size_t limbs : {std::size_t{3000}, std::size_t{16000}, std::size_t{130000}}) {
    const Mpz p1 = gen.random_bits(64 * limbs), q1 = gen.random_bits(64 * limbs), t1 = -gen.random_bits(64 * limbs);
    const Mpz q2 = gen.random_bits(64 * limbs + 17), t2 = gen.random_bits(64 * limbs - 5);
    Integer P = make(p1), Q = make(q1), T = make(t1), Q2 = make(q2), T2 = make(t2), t(ctx()), sq(ctx());
    mpgpu::mul_each({{t, P, T2}, {T, T, Q2}, {Q, Q, Q2}, {sq, P, P}});
    Mpz want;
    mpz_mul(want, p1, t2);
    ASSERT_TRUE(matches(t, want)) << limbs;
    mpz_mul(want, t1, q2);
    ASSERT_TRUE(matches(T, want)) << limbs;
    mpz_mul(want, q1, q2);
    ASSERT_TRUE(matches(Q, want)) << limbs;
    mpz_mul(want, p1, p1);
    ASSERT_TRUE(matches(sq, want)) << limbs;
    ASSERT_TRUE(matches(P, p1));
  }
}

// mul_each's batched products (src/cuda/mul_each.cu): products of one
// transform length, and of half of it, as one batched product. Slots filled
// exactly (na + nb = 2^14), all-ones operands (the largest coefficients and
// carries up to each slot's end), a square, a product of half the group's
// length, and groups of different lengths in one call; every result
// against GMP, operands unchanged. On the CPU backend the same calls are GMP's.
// Hundreds of small NTT products in one batch (every product above 32 limbs
// by NTTs, batches up to 2^12 points: 1,024 products of 2^6 points), so that
// their final sums take more than one launch of column_sums_each (256 a
// launch), and the same with an add_abs each: both against GMP.
TEST_P(Mul, EachOfHundredsOfSmallProducts) {
  Operands gen;
  std::vector<Mpz> va, vb;
  for (std::size_t i = 0; i < 300; ++i) {
    const std::size_t na = 17 + i % 15, nb = 17 + (7 * i) % 15;  // products of 34 to 62 limbs
    va.push_back(i % 5 == 0 ? Mpz::all_ones(64 * na) : gen.random_bits(64 * na));
    vb.push_back(i % 3 == 0 ? Mpz::all_ones(64 * nb) : gen.runs(64 * nb));
    if (i % 4 == 1) mpz_neg(va.back(), va.back());
  }
  for (int at_once : {1, 0}) {
    mpgpu::TuningParams params = ctx().tuning();
    params.schoolbook_max_work = 0;
    params.mul_each_batch_max_log = 12;
    params.mul_each_sums_at_once = at_once;
    use_tuning(params);
    std::vector<Integer> xs, ys, rs;
    for (std::size_t i = 0; i < va.size(); ++i) {
      xs.push_back(make(va[i]));
      ys.push_back(make(vb[i]));
      rs.emplace_back(ctx());
    }
    std::vector<mpgpu::Product> products;
    for (std::size_t i = 0; i < va.size(); ++i) products.push_back({rs[i], xs[i], ys[i]});
    mpgpu::mul_each(products);
    for (std::size_t i = 0; i < va.size(); ++i) {
      Mpz want;
      mpz_mul(want, va[i], vb[i]);
      ASSERT_TRUE(matches(rs[i], want)) << "product " << i << ", sums at once " << at_once;
    }
  }
}

TEST_P(Mul, EachBatchesProductsOfOneTransformLength) {
  Operands gen;
  struct Shape {
    std::size_t na, nb;
    bool all_ones;
  };
  const Shape shapes[] = {{8192, 8192, true},   {8192, 8192, false}, {20000, 12000, false}, {9000, 9000, true},
                          {16000, 16000, false}, {50000, 50000, false}, {40000, 60000, true}, {9000, 9001, false}};
  std::vector<Mpz> va, vb;
  for (const Shape& sh : shapes) {
    va.push_back(sh.all_ones ? Mpz::all_ones(64 * sh.na) : gen.random_bits(64 * sh.na));
    vb.push_back(sh.all_ones ? Mpz::all_ones(64 * sh.nb) : gen.runs(64 * sh.nb));
  }
  mpz_neg(va[1], va[1]);
  vb[4] = va[4];  // a square through equal values (distinct Integers)
  std::vector<Integer> xs, ys, rs;
  for (std::size_t i = 0; i < va.size(); ++i) {
    xs.push_back(make(va[i]));
    ys.push_back(make(vb[i]));
    rs.emplace_back(ctx());
  }
  std::vector<mpgpu::Product> products;
  for (std::size_t i = 0; i < va.size(); ++i) products.push_back({rs[i], xs[i], i == 2 ? xs[i] : ys[i]});
  mpgpu::mul_each(products);
  for (std::size_t i = 0; i < va.size(); ++i) {
    Mpz want;
    mpz_mul(want, va[i], i == 2 ? va[i] : vb[i]);
    ASSERT_TRUE(matches(rs[i], want)) << "product " << i;
    ASSERT_TRUE(matches(xs[i], va[i])) << "an operand changed";
    ASSERT_TRUE(matches(ys[i], vb[i])) << "an operand changed";
  }
  // Many products that alone would go by columns (batched from 8 of about
  // one size): two transform lengths, all-ones and random, over their own
  // operands, some left alone when too few of a length.
  std::vector<Mpz> ca, cb;
  for (int i = 0; i < 19; ++i) {
    const std::size_t na = i < 10 ? 1500 + 37 * i : 700 + 11 * i, nb = i < 10 ? 1400 : 650;
    ca.push_back(i % 4 == 0 ? Mpz::all_ones(64 * na) : gen.random_bits(64 * na));
    cb.push_back(i % 4 == 0 ? Mpz::all_ones(64 * nb) : gen.runs(64 * nb));
  }
  ca.push_back(gen.random_bits(64 * 5000));  // one of its own length
  cb.push_back(gen.random_bits(64 * 3000));
  std::vector<Integer> cx, cy;
  for (std::size_t i = 0; i < ca.size(); ++i) {
    cx.push_back(make(ca[i]));
    cy.push_back(make(cb[i]));
  }
  std::vector<mpgpu::Product> many;
  for (std::size_t i = 0; i < ca.size(); ++i) many.push_back({cx[i], cx[i], cy[i]});
  mpgpu::mul_each(many);
  for (std::size_t i = 0; i < ca.size(); ++i) {
    Mpz want;
    mpz_mul(want, ca[i], cb[i]);
    ASSERT_TRUE(matches(cx[i], want)) << "small product " << i;
    ASSERT_TRUE(matches(cy[i], cb[i])) << "an operand changed";
  }
}

// mul_each's operands kept in host memory go up together
// (copy_pieces_to_device: groups of values through one region of the
// context's pinned ring and one kernel). Many products of host values: each
// operand read by several products, one product of a value by itself,
// negative and all-ones values, zero, one-limb values (their products stay on
// the host) and values up to the host-value bound; on the context as it is,
// with no ring (each value alone) and with the smallest ring (groups of a few
// values, the larger ones alone). Every result against GMP, operands
// unchanged and still readable on the host.
TEST_P(Mul, EachUploadsHostOperandsTogether) {
  Operands gen;
  std::vector<Mpz> v;
  for (std::size_t i = 0; i < 40; ++i) {
    const std::size_t limbs = i < 4 ? 1 : 1 + (311 * i) % mpgpu::kHostValueMaxLimbs;
    v.push_back(i % 7 == 0 ? Mpz::all_ones(64 * limbs) : gen.random_bits(64 * limbs));
  }
  v.push_back(Mpz());  // zero
  mpz_neg(v[3], v[3]);
  mpz_neg(v[12], v[12]);
  mpgpu::TuningParams no_ring = ctx().tuning(), small_ring = ctx().tuning();
  no_ring.upload_ring_bytes = 0;
  small_ring.upload_ring_bytes = std::size_t{4} << 10;
  for (const mpgpu::Context& c : {ctx(), ctx().with_tuning(no_ring), ctx().with_tuning(small_ring)}) {
    std::vector<Integer> xs, rs;
    for (const Mpz& z : v) xs.push_back(Integer::from_mpz(z, c));
    for (std::size_t i = 0; i <= v.size(); ++i) rs.emplace_back(c);
    std::vector<mpgpu::Product> products;
    auto other = [&](std::size_t i) { return (7 * i + 3) % v.size(); };
    for (std::size_t i = 0; i < v.size(); ++i) products.push_back({rs[i], xs[i], xs[other(i)]});
    products.push_back({rs[v.size()], xs[20], xs[20]});
    mpgpu::mul_each(products);
    for (std::size_t i = 0; i <= v.size(); ++i) {
      Mpz want;
      if (i < v.size()) mpz_mul(want, v[i], v[other(i)]);
      else mpz_mul(want, v[20], v[20]);
      ASSERT_TRUE(matches(rs[i], want)) << "product " << i << " on " << c.describe();
    }
    for (std::size_t i = 0; i < v.size(); ++i) {
      ASSERT_TRUE(matches(xs[i], v[i])) << "operand " << i << " changed on " << c.describe();
      EXPECT_TRUE(xs[i].in_host_memory()) << "operand " << i << " lost its host copy";
    }
  }
}

TEST_P(Mul, EachRejectsDependentProducts) {
  Operands gen;
  const Mpz a = gen.random_bits(64 * 5000), b = gen.random_bits(64 * 6000);
  Integer x = make(a), y = make(b), r(ctx());
  // The second product reads the first one's result.
  EXPECT_THROW(mpgpu::mul_each({{r, x, y}, {y, r, x}}), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::mul_each({{r, x, y}, {r, y, x}}), mpgpu::InvalidArgument);
  EXPECT_THROW(mpgpu::mul_each({{x, x, y}, {r, x, x}}), mpgpu::InvalidArgument);
  EXPECT_TRUE(matches(x, a));
  EXPECT_TRUE(matches(y, b));
  EXPECT_TRUE(matches(r, Mpz()));
  mpgpu::mul_each({});  // nothing to do
}

MPGPU_INSTANTIATE_ON_BACKEND(Mul);

}  // namespace
