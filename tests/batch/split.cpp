// Batches on a context over several parts (docs/multi-gpu.md): how the
// instances are split, that every operation pairs the parts and gathers in
// order, with counts that do not divide by the parts and counts below them
// (empty parts), conversions between split and ordinary contexts, and the
// errors that name an instance of a later part by its index in the whole.
// On an ordinary context (batch_ops_test, batch_ops_gpu_test) the same
// tests run with one part; batch_split_test runs them on three CPU parts,
// batch_ops_multi_gpu_test on every GPU.
#include <cstdint>
#include <string>
#include <vector>

#include "batch_test.hpp"

namespace {

using namespace mpgpu_test;

class BatchSplit : public BatchTest {};

/// Counts below, at and above the parts, none a multiple of 2 or 3 but 0.
const std::vector<std::size_t> kCounts = {0, 1, 2, 3, 5, 7, 13, 97};

/// Values [first, first + n) of v.
std::vector<Mpz> slice(const std::vector<Mpz>& v, std::size_t first, std::size_t n) {
  return std::vector<Mpz>(v.begin() + static_cast<std::ptrdiff_t>(first),
                          v.begin() + static_cast<std::ptrdiff_t>(first + n));
}

/// Odd moduli > 1 of `bits` bits with the top bit set.
std::vector<Mpz> odd_moduli(Operands& gen, std::size_t bits, std::size_t n) {
  std::vector<Mpz> m;
  for (std::size_t i = 0; i < n; ++i) {
    Mpz x = gen.random_bits(bits);
    mpz_setbit(x, 0);
    mpz_setbit(x, bits - 1);
    m.push_back(x);
  }
  return m;
}

TEST_P(BatchSplit, PartsCoverTheInstancesInOrder) {
  Operands gen(31);
  const std::size_t parts = ctx().part_count();
  for (std::size_t n : kCounts) {
    const std::vector<Mpz> v = make_operands(gen, 200, n, 0);
    const Batch b = to_batch(v, 200, ctx());
    ASSERT_EQ(b.part_count(), parts);
    EXPECT_EQ(b.data() == nullptr, parts > 1 || n == 0) << n;
    std::size_t first = 0;
    for (std::size_t i = 0; i < parts; ++i) {
      const Batch& p = b.part(i);
      // Sizes differ by at most one, the larger parts first.
      EXPECT_EQ(p.count(), n / parts + (i < n % parts ? 1 : 0)) << n << " instances, part " << i;
      EXPECT_EQ(p.part_count(), 1u);
      EXPECT_EQ(p.bits(), 200u);
      EXPECT_TRUE(p.context() == (parts > 1 ? ctx().part(i) : ctx()));
      ASSERT_TRUE(equals(p, 200, slice(v, first, p.count()), "part " + std::to_string(i)));
      first += p.count();
    }
    EXPECT_EQ(first, n);
    EXPECT_THROW(b.part(parts), mpgpu::InvalidArgument);
    // Zeros of the same shape are split alike.
    const Batch z(n, 200, ctx());
    for (std::size_t i = 0; i < parts; ++i) EXPECT_EQ(z.part(i).count(), b.part(i).count());
    ASSERT_TRUE(equals(z, 200, std::vector<Mpz>(n), "zeros"));
  }
}

TEST_P(BatchSplit, OperationsAgainstGmp) {
  Operands gen(32);
  for (std::size_t bits : {std::size_t{64}, std::size_t{1000}, std::size_t{2048}}) {
    for (std::size_t n : kCounts) {
      const std::string at = " (" + std::to_string(n) + " instances)";
      const std::vector<Mpz> a = make_operands(gen, bits, n, 0), b = make_operands(gen, bits, n, 1);
      const std::vector<Mpz> m = odd_moduli(gen, bits, n);
      const Batch A = to_batch(a, bits, ctx()), B = to_batch(b, bits, ctx()), M = to_batch(m, bits, ctx());
      const Describe ab = operands_of({{"a", &a}, {"b", &b}});
      std::vector<Mpz> sum(n), carry(n), prod(n), scaled(n), power(n), inverse(n), quot(n), rem(n);
      std::vector<int> order(n);
      std::vector<Mpz> inv_a = a;  // a where an inverse mod m exists, else 1
      const std::uint64_t v = 0x9E3779B97F4A7C15ull;
      for (std::size_t i = 0; i < n; ++i) {
        mpz_add(sum[i], a[i], b[i]);
        mpz_fdiv_q_2exp(carry[i], sum[i], bits);
        sum[i] = mod2exp(sum[i], bits);
        mpz_mul(prod[i], a[i], b[i]);
        prod[i] = mod2exp(prod[i], bits);
        mpz_mul_ui(scaled[i], a[i], v);
        scaled[i] = mod2exp(scaled[i], bits);
        mpz_powm(power[i], a[i], b[i], m[i]);
        if (mpz_invert(inverse[i], inv_a[i], m[i]) == 0) {
          inv_a[i] = Mpz::from_ui(1);
          mpz_set_ui(inverse[i], 1);
        }
        order[i] = mpz_cmp(a[i], b[i]) < 0 ? -1 : mpz_cmp(a[i], b[i]) > 0 ? 1 : 0;
        // m is never 0: a divisor for every instance.
        mpz_fdiv_qr(quot[i], rem[i], a[i], m[i]);
      }
      Batch r, c;
      mpgpu::add(r, A, B, &c);
      ASSERT_TRUE(equals(r, bits, sum, "add" + at, ab));
      ASSERT_TRUE(equals(c, 1, carry, "add's carry" + at, ab));
      mpgpu::mul(r, A, B);  // r in place: it has the shape already
      ASSERT_TRUE(equals(r, bits, prod, "mul" + at, ab));
      mpgpu::mul_ui(r, A, v);  // the scalar goes to every part
      ASSERT_TRUE(equals(r, bits, scaled, "mul_ui" + at, ab));
      mpgpu::powm(r, A, B, M);  // the modulus batch is split with the others
      ASSERT_TRUE(equals(r, bits, power, "powm" + at, operands_of({{"a", &a}, {"b", &b}, {"m", &m}})));
      mpgpu::invert(r, to_batch(inv_a, bits, ctx()), M);
      ASSERT_TRUE(equals(r, bits, inverse, "invert" + at, operands_of({{"a", &inv_a}, {"m", &m}})));
      ASSERT_TRUE(equals(mpgpu::compare(A, B), order, "compare" + at, bits, ab));
      Batch q, rm;
      mpgpu::div_qr(q, rm, A, M);
      ASSERT_TRUE(equals(q, bits, quot, "div_qr's quotient" + at));
      ASSERT_TRUE(equals(rm, bits, rem, "div_qr's remainder" + at));
      // An operand as the result: each part reads its instance before writing it.
      Batch x = A.clone();
      mpgpu::add(x, x, B);
      ASSERT_TRUE(equals(x, bits, sum, "add in place" + at, ab));
      ASSERT_TRUE(equals(A, bits, a, "a after its clone changed" + at));
    }
  }
}

TEST_P(BatchSplit, ToContextRoundTrips) {
  Operands gen(33);
  const mpgpu::Context cpu = mpgpu::Context::cpu();
  // Another context of the same shape (its own parts), made once: a context
  // on a device costs streams and pinned memory.
  const mpgpu::Context twin = ctx().with_tuning(ctx().tuning());
  for (std::size_t bits : {std::size_t{1}, std::size_t{65}, std::size_t{3072}}) {
    for (std::size_t n : kCounts) {
      const std::string at = " (" + std::to_string(n) + " instances of " + std::to_string(bits) + " bits)";
      const std::vector<Mpz> v = make_operands(gen, bits, n, 0);
      const Batch a = to_batch(v, bits, ctx());
      // Out to ordinary contexts (the CPU's, each part's own) and back in.
      std::vector<mpgpu::Context> others = {cpu};
      for (std::size_t i = 0; i < ctx().part_count(); ++i) others.push_back(ctx().part(i));
      for (const mpgpu::Context& other : others) {
        const Batch there = a.to_context(other);
        EXPECT_TRUE(there.context() == other);
        EXPECT_EQ(there.part_count(), 1u);
        ASSERT_TRUE(equals(there, bits, v, "to_context(" + other.describe() + ")" + at));
        const Batch back = there.to_context(ctx());
        EXPECT_TRUE(back.context() == ctx());
        EXPECT_EQ(back.part_count(), ctx().part_count());
        ASSERT_TRUE(equals(back, bits, v, "back from " + other.describe() + at));
      }
      // Into the twin and back.
      const Batch in_twin = a.to_context(twin);
      EXPECT_EQ(in_twin.part_count(), ctx().part_count());
      ASSERT_TRUE(equals(in_twin.to_context(ctx()), bits, v, "through a twin context" + at));
      // A clone is independent storage, part by part.
      Batch c = a.clone();
      for (std::size_t i = 0; i < c.part_count(); ++i)
        if (c.part(i).count()) {
          EXPECT_NE(c.part(i).data(), a.part(i).data()) << "part " << i << at;
        }
      mpgpu::com(c, c);
      ASSERT_TRUE(equals(a, bits, v, "the original after changing its clone" + at));
      // Host conversions gather in order.
      const std::vector<mpgpu::limb_t> limbs = a.to_limbs();
      ASSERT_TRUE(equals(Batch::from_limbs(limbs.data(), n, a.limbs_per_instance(), bits, cpu), bits, v,
                         "to_limbs" + at));
      for (std::size_t i = 0; i < n; i += 3) {
        Mpz one;
        a.to_mpz(i, one.get());
        EXPECT_TRUE(one == v[i]) << "to_mpz(" << i << ")" << at;
      }
    }
  }
}

TEST_P(BatchSplit, ErrorsNameTheInstanceInTheWhole) {
  // The last instance, in the last nonempty part, is the bad one.
  for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{13}}) {
    const std::string last = "instance " + std::to_string(n - 1);
    std::vector<Mpz> m(n, Mpz::from_ui(1000003)), a(n, Mpz::from_ui(5));
    const Batch A = to_batch(a, 64, ctx());
    Batch r = Batch::random(n, 64, 7, ctx());
    std::vector<Mpz> zero_last = m;
    zero_last[n - 1] = Mpz();
    const Batch Z = to_batch(zero_last, 64, ctx());
    const std::vector<const Batch*> all = {&A, &Z, &r};
    EXPECT_TRUE(rejects([&] { mpgpu::div(r, A, Z); }, "div", "division by zero: " + last + " of b is 0", all));
    EXPECT_TRUE(rejects([&] { mpgpu::invert(r, A, Z); }, "invert", "division by zero: " + last + " of m is 0", all));
    std::vector<Mpz> shared = a;
    shared[n - 1] = Mpz::from_ui(1000003 * 2);  // gcd with m is m
    const Batch S = to_batch(shared, 64, ctx()), M = to_batch(m, 64, ctx());
    EXPECT_TRUE(rejects([&] { mpgpu::invert(r, S, M); }, "invert", last + " of a has no inverse modulo m",
                        {&S, &M, &r}));
    std::vector<Mpz> even = m;
    even[n - 1] = Mpz::from_ui(1000004);
    const Batch E = to_batch(even, 64, ctx());
    // The CPU backend names the instance, the CUDA one does not.
    const std::string reason = on_gpu() ? "every modulus must be odd" : "every modulus must be odd and > 1, and " +
                                                                            last + " of m is even";
    EXPECT_TRUE(rejects([&] { mpgpu::powm(r, A, A, E); }, "powm", reason, {&A, &E, &r}));
  }
}

TEST_P(BatchSplit, SplitContextsTakeNoCallerStream) {
  if (ctx().part_count() == 1) GTEST_SKIP() << "an ordinary context takes any stream of its device";
  const Batch a = Batch::random(5, 64, 1, ctx()), b = Batch::random(5, 64, 2, ctx());
  Batch r = Batch::random(5, 64, 3, ctx());
  // Never used: the call refuses before it queues anything.
  const auto foreign = reinterpret_cast<mpgpu::Stream>(std::uintptr_t{1});
  const std::vector<const Batch*> all = {&a, &b, &r};
  EXPECT_TRUE(rejects([&] { mpgpu::add(r, a, b, nullptr, foreign); }, "add", "pass no stream", all));
  EXPECT_TRUE(rejects([&] { mpgpu::compare(a, b, foreign); }, "compare", "pass no stream", all));
  EXPECT_TRUE(rejects([&] { mpgpu::shift_left(r, a, 3, foreign); }, "shift_left", "pass no stream", all));
  // The context's own stream means "no stream".
  Batch want;
  mpgpu::add(want, a, b);
  mpgpu::add(r, a, b, nullptr, ctx().stream());
  EXPECT_EQ(mpgpu::compare(r, want), std::vector<int>(5, 0));
  // Limbs already on one device belong in that device's context.
  EXPECT_THROW(Batch::from_device_limbs(a.part(0).data(), 1, 1, 0, 64, ctx()), mpgpu::InvalidArgument);
}

MPGPU_INSTANTIATE_ON_BACKEND(BatchSplit);

}  // namespace
