// Batch::to_integers and series_leaves (mpgpu/series.hpp) against GMP.
// to_integers: every width class, the special values (zero, all ones, a
// single high bit: the most negative two's complement value, all ones but
// the lowest bit), both readings, into the batch's context, another context
// of its device (the batching thread's way) and the CPU, and from a batch
// split over several parts into one part's context. series_leaves: pi's
// and e's series and one whose a(k) is zero at a term, ranges from term 0 and
// up to 2^32, deeper than needed (empty nodes), against an mpz walk of the
// same split, on every context (split ones too); bad input refused with a
// reason.
#include <cstdint>
#include <functional>
#include <vector>

#include "batch_test.hpp"
#include "mpgpu/series.hpp"

namespace {

using namespace mpgpu_test;
using mpgpu::Integer;
using mpgpu::InstanceSign;
using mpgpu::LinearFactor;
using mpgpu::SeriesRange;
using mpgpu::SeriesTerms;

class BatchToIntegers : public BatchTest {};

Mpz value_of(const Integer& x) {
  Mpz z;
  x.to_mpz(z);
  return z;
}

TEST_P(BatchToIntegers, BothReadingsIntoEveryContext) {
  Operands gen(83);
  // A split batch (several devices, or CPU parts) goes to one device's context.
  const bool split = ctx().part_count() > 1;
  const std::vector<mpgpu::Context> targets =
      split ? std::vector<mpgpu::Context>{ctx().part(0), mpgpu::Context::cpu()}
            : std::vector<mpgpu::Context>{ctx(), ctx().with_tuning(ctx().tuning()), mpgpu::Context::cpu()};
  for (std::size_t bits : batch_widths()) {
    const std::size_t n = std::min<std::size_t>(instances_for(bits), 40);
    const std::vector<Mpz> v = make_operands(gen, bits, n, 0);
    const Batch b = to_batch(v, bits, ctx());
    for (const mpgpu::Context& into : targets)
      for (InstanceSign sign : {InstanceSign::unsigned_values, InstanceSign::twos_complement}) {
        const std::vector<Integer> got = b.to_integers(into, sign);
        ASSERT_EQ(got.size(), n);
        for (std::size_t i = 0; i < n; ++i) {
          Mpz want = v[i];
          if (sign == InstanceSign::twos_complement && mpz_tstbit(want.get(), bits - 1)) {
            Mpz top = Mpz::pow2(bits);
            mpz_sub(want, want, top);
          }
          EXPECT_EQ(got[i].context(), into);
          EXPECT_EQ(mpz_cmp(value_of(got[i]), want), 0)
              << bits << " bits, instance " << i << (sign == InstanceSign::twos_complement ? ", signed" : "")
              << " into " << into.describe() << ": got " << value_of(got[i]) << ", want " << want;
          // A value that is zero has sign 0, whatever its bit pattern said.
          EXPECT_EQ(got[i].sign(), mpz_sgn(want.get())) << bits << " bits, instance " << i;
        }
      }
    // The batch is left as it was.
    EXPECT_TRUE(equals(b, bits, v, "to_integers' source"));
  }
  EXPECT_TRUE(Batch().to_integers(targets[0]).empty());
}

// The values are ready on every stream: a product on the target context's
// own stream right after, with no synchronization in between.
TEST_P(BatchToIntegers, ValuesAreReadyForTheTargetsWork) {
  if (ctx().part_count() > 1) GTEST_SKIP() << "one device's streams";
  Operands gen(84);
  const mpgpu::Context work = ctx().with_tuning(ctx().tuning());
  const std::size_t bits = 4096;
  const std::vector<Mpz> v = make_operands(gen, bits, 64, 0);
  Batch b = to_batch(v, bits, work);
  mpgpu::sqr(b, b);  // queued on work's stream, read by to_integers after it
  const std::vector<Integer> got = b.to_integers(ctx());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Integer twice = got[i] + got[i];
    Mpz want;
    mpz_mul(want, v[i], v[i]);
    mpz_fdiv_r_2exp(want, want, bits);
    mpz_mul_2exp(want, want, 1);
    EXPECT_EQ(mpz_cmp(value_of(twice), want), 0) << "instance " << i;
  }
}

/// The nodes at `depth` of the balanced split of [a, b), left to right.
void nodes_at(std::uint64_t a, std::uint64_t b, unsigned depth, std::vector<SeriesRange>& out) {
  if (depth == 0) return out.push_back({a, b});
  const std::uint64_t m = a + (b - a) / 2;
  nodes_at(a, m, depth - 1, out);
  nodes_at(m, b, depth - 1, out);
}

Mpz product_at(const std::vector<LinearFactor>& f, std::uint64_t k) {
  Mpz r = Mpz::from_ui(1), x;
  for (const LinearFactor& l : f) {
    mpz_set_si(x, l.slope);
    mpz_mul_ui(x, x, k);
    Mpz o;
    mpz_set_si(o, l.offset);
    mpz_add(x, x, o);
    mpz_mul(r, r, x);
  }
  return r;
}

/// One node's P, Q, T as the series defines them (T as a signed mpz).
void leaf_mpz(const SeriesTerms& s, const SeriesRange& node, Mpz& P, Mpz& Q, Mpz& T) {
  if (node.b == node.a) {
    P = Mpz::from_ui(1), Q = Mpz::from_ui(1), T = Mpz();
    return;
  }
  const std::uint64_t k = node.a;
  if (k == 0) {
    P = Mpz::from_ui(1), Q = Mpz::from_ui(1), T = product_at(s.a, 0);
    return;
  }
  P = product_at(s.p, k);
  Q = product_at(s.q, k);
  T = product_at(s.a, k);
  mpz_mul(T, T, P);
  if (s.alternating && k % 2) mpz_neg(T, T);
}

SeriesTerms chudnovsky() {
  SeriesTerms t;
  t.p = {{6, -5}, {2, -1}, {6, -1}};
  t.q = {{1, 0}, {1, 0}, {1, 0}, {0, 10939058860032000}};
  t.a = {{545140134, 13591409}};
  t.alternating = true;
  return t;
}

class SeriesLeaves : public BatchTest {};

TEST_P(SeriesLeaves, MatchAnMpzWalkOfTheSplit) {
  SeriesTerms e;  // e = sum 1/k!: p = 1, q = k, a = 1
  e.q = {{1, 0}};
  SeriesTerms zero_a = chudnovsky();  // a(k) = 7 - k: zero at k = 7, T = 0 there
  zero_a.a = {{-1, 7}};
  zero_a.alternating = false;
  struct Case {
    const char* name;
    SeriesTerms terms;
    std::vector<SeriesRange> ranges;
    unsigned depth;
    std::size_t bits;
  };
  const std::uint64_t last = (1ull << 32) - 1;
  const std::vector<Case> cases = {
      {"pi", chudnovsky(), {{0, 1}, {0, 8}, {1, 9}, {5, 12}, {70513233, 70513249}, {last - 15, last + 1}}, 4, 192},
      {"pi, deeper than needed", chudnovsky(), {{0, 3}, {3, 4}, {100, 105}}, 5, 256},
      {"pi, a partial top limb", chudnovsky(), {{1000, 1013}}, 4, 150},
      {"e", e, {{0, 16}, {16, 29}, {1ull << 40, (1ull << 40) + 3}}, 4, 64},
      {"a zero a(k)", zero_a, {{1, 8}}, 3, 192},
  };
  for (const Case& c : cases) {
    const mpgpu::SeriesNodes got = mpgpu::series_leaves(c.terms, c.ranges, c.depth, c.bits, ctx());
    const std::size_t places = std::size_t{1} << c.depth;
    ASSERT_EQ(got.P.count(), c.ranges.size() * places) << c.name;
    EXPECT_EQ(got.T.bits(), c.bits) << c.name;
    std::vector<Mpz> P, Q, T;
    for (const SeriesRange& r : c.ranges) {
      std::vector<SeriesRange> nodes;
      nodes_at(r.a, r.b, c.depth, nodes);
      for (const SeriesRange& node : nodes) {
        Mpz p, q, t;
        leaf_mpz(c.terms, node, p, q, t);
        P.push_back(p), Q.push_back(q), T.push_back(mod2exp(t, c.bits));
      }
    }
    EXPECT_TRUE(equals(got.P, c.bits, P, std::string(c.name) + ": P")) << c.name;
    EXPECT_TRUE(equals(got.Q, c.bits, Q, std::string(c.name) + ": Q")) << c.name;
    EXPECT_TRUE(equals(got.T, c.bits, T, std::string(c.name) + ": T")) << c.name;
  }
}

TEST_P(SeriesLeaves, BadInputIsRefusedWithAReason) {
  const SeriesTerms pi = chudnovsky();
  auto call = [&](SeriesTerms t, std::vector<SeriesRange> r, unsigned depth, std::size_t bits) {
    return [=, this] { mpgpu::series_leaves(t, r, depth, bits, ctx()); };
  };
  EXPECT_TRUE(rejects(call(pi, {{5, 5}}, 2, 192), "series_leaves", "empty", {}));
  EXPECT_TRUE(rejects(call(pi, {{0, 9}}, 3, 192), "series_leaves", "wider than 2^3 terms", {}));
  EXPECT_TRUE(rejects(call(pi, {{70513233, 70513241}}, 3, 128), "series_leaves", "more than the width 128", {}));
  EXPECT_TRUE(rejects(call(pi, {{0, 8}}, 3, 0), "series_leaves", "out of range", {}));
  SeriesTerms negative = pi;
  negative.p[0] = {6, -7};  // -1 at k = 1
  EXPECT_TRUE(rejects(call(negative, {{1, 3}}, 1, 192), "series_leaves", "p's factor 0", {}));
  SeriesTerms many = pi;
  many.q.assign(9, {1, 1});
  EXPECT_TRUE(rejects(call(many, {{1, 3}}, 1, 1024), "series_leaves", "9 factors", {}));
  EXPECT_TRUE(rejects(call(many, {}, 1, 1024), "series_leaves", "9 factors", {}));  // even with nothing to make
  SeriesTerms wide = pi;  // a factor of 2^64 or more at the last term
  wide.a = {{std::int64_t{1} << 62, 0}};
  EXPECT_TRUE(rejects(call(wide, {{1, 8}}, 3, 1024), "series_leaves", "a's factor 0", {}));
}

TEST(BatchToIntegersSplit, TargetsOverSeveralDevicesAreRefused) {
  const mpgpu::TuningParams params = mpgpu::TuningParams::defaults();
  const mpgpu::Context split =
      mpgpu::detail::ContextAccess::split({mpgpu::Context::cpu(params), mpgpu::Context::cpu(params)}, params);
  const Batch b(4, 128, mpgpu::Context::cpu());
  EXPECT_TRUE(rejects([&] { b.to_integers(split); }, "Batch::to_integers", "several devices", {&b}));
}

MPGPU_INSTANTIATE_ON_BACKEND(BatchToIntegers);
MPGPU_INSTANTIATE_ON_BACKEND(SeriesLeaves);

}  // namespace
