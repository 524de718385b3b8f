// Independent products at once (src/cuda/mul_each.cu: mul_abs_each), called
// directly against GMP; see backend_layer.hpp for the guards. Every job's
// r lies between guards of exactly its documented room (a.size + b.size +
// 3 limbs by columns, + 2 by NTTs), every operand at the end of its own
// allocation, aligned or one limb off in turn.
#include <memory>

#include "integer/backend_layer.hpp"

namespace backend_layer {
namespace {

/// A job: sizes, a squaring (b is a's vector), by columns; `shares_a`: a
/// is the previous job's a (jobs may share operands; no job's r is an
/// operand).
struct JobShape {
  std::size_t na, nb;
  bool square = false, by_columns = false, shares_a = false;
};

/// na + nb = 2^log_n: a transform of 2^log_n points (balanced: no chunks).
JobShape at_log(int log_n, bool by_columns = false) {
  const std::size_t half = std::size_t{1} << (log_n - 1);
  return {half, half, false, by_columns};
}
/// na + nb = 2^(log_n - 1) + 1, the smallest product of 2^log_n points.
JobShape just_above(int log_n) {
  const std::size_t quarter = std::size_t{1} << (log_n - 2);
  return {quarter + 1, quarter};
}
JobShape square_at_log(int log_n) {
  JobShape j = at_log(log_n);
  j.square = true;
  return j;
}

struct Group {
  std::vector<JobShape> jobs;
  std::string why;
};

// mul_each.cu: NTT products of transforms up to 2^mul_each_batch_max_log
// points (the context's TuningParams; primes side by side) go in batches of
// two or more, a batch taking the lengths 2^log_n and 2^(log_n - 1) and at
// most max(2, (16 << mul_each_batch_max_log) >> log_n) products; products
// by columns are batched from kMinColumnBatch = 8 of them of results of
// 2^kMinColumnBatchLog = 2^10 limbs or more (a transform length at most
// that bound too); the others each on branch i mod 4 (StreamFork's
// kMaxBranches) of a fork of s.
constexpr std::size_t kMinColumnBatch = 8;
constexpr int kMinColumnBatchLog = 10;

std::vector<JobShape> repeat(const JobShape& j, std::size_t n) { return std::vector<JobShape>(n, j); }
std::vector<JobShape> concat(std::vector<JobShape> a, const std::vector<JobShape>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// The groups that do not depend on the bound (small products; with a bound
/// below 10, the "batched" ones among them go alone, still correct).
std::vector<Group> fixed_groups() {
  JobShape shared = at_log(9);
  shared.shares_a = true;
  JobShape column_shared = at_log(6, true);
  column_shared.shares_a = true;
  return {
      {{at_log(1)}, "one product of 1 x 1 limbs by NTTs"},
      {{at_log(1, true)}, "one product of 1 x 1 limbs by columns"},
      {{at_log(10), at_log(10)}, "two of 2^10 points: one batch (bound >= 10)"},
      {{at_log(10), just_above(10), at_log(9)}, "2^10, 2^10 (smallest), 2^9 points: one batch, padded (bound >= 10)"},
      {{at_log(12), at_log(10), at_log(8), at_log(6), at_log(4)},
       "five of lengths two apart: each alone, more than the fork's 4 branches"},
      {{at_log(9), shared, square_at_log(9), {700, 300}}, "a shared operand, a squaring, an unbalanced product"},
      {repeat(at_log(kMinColumnBatchLog, true), kMinColumnBatch), "8 by columns of 2^10 limbs: a column batch (bound >= 10)"},
      {repeat(at_log(kMinColumnBatchLog, true), kMinColumnBatch - 1), "7 by columns of 2^10 limbs: each alone"},
      {repeat(at_log(kMinColumnBatchLog - 1, true), kMinColumnBatch), "8 by columns of 2^9 limbs: each alone"},
      {concat(repeat(at_log(kMinColumnBatchLog, true), kMinColumnBatch), {at_log(10), at_log(10), column_shared}),
       "a column batch, an NTT batch and one alone at once (bound >= 10)"},
      {{{33, 32, false, true}, {32, 33, false, true}, {40, 1, false, true}, {1, 40, false, false}},
       "by columns across kMulShortMaxLimbs, one operand of 1 limb"},
  };
}

/// The groups at the context's bound L = mul_each_batch_max_log: products of
/// 2^L and 2^(L - 1) points batched, one of 2^(L + 1) alone; and, where
/// (16 << L) >> L = 16 products of 2^L points make a full batch, 17 of them
/// (a batch of 16, one alone). Bounds above kMaxBoundLog are beyond this
/// test's sizes (noted).
constexpr int kMaxBoundLog = 18;
std::vector<Group> bound_groups(int bound, std::size_t full_batch) {
  const std::string b = "mul_each_batch_max_log = " + std::to_string(bound);
  if (bound < 2) return {{{at_log(4), at_log(4), at_log(3)}, b + ": none batched"}};
  if (bound > kMaxBoundLog) {
    std::printf("[ layer  ] %s: beyond this test's sizes, no products at it\n", b.c_str());
    return {};
  }
  std::vector<Group> g = {
      {{at_log(bound), at_log(bound), at_log(bound - 1), at_log(bound + 1)},
       b + ": 2^L, 2^L, 2^(L-1) points batched, 2^(L+1) alone"},
      {{just_above(bound + 1), just_above(bound + 1)}, b + ": two of the smallest products of 2^(L+1) points, alone"},
  };
  if (full_batch) g.push_back({repeat(at_log(bound), full_batch + 1), b + ": a full batch and one more"});
  return g;
}

TEST_F(BackendLayer, MulAbsEach) {
  Operands gen(501);
  const mpgpu::TuningParams made = st().tuning;
  // The context's own bound (the tuning table's), a small bound (batches of
  // 16 full at 2^8 points: small sizes), and none (every product alone).
  struct Bound {
    int log;
    bool full_batch;
  };
  const std::vector<Bound> bounds = {{made.mul_each_batch_max_log, false}, {8, true}, {0, false}};
  std::size_t index = 0;
  for (const Bound& bound : bounds) {
    mpgpu::TuningParams params = made;
    params.mul_each_batch_max_log = bound.log;
    use_tuning(params);
    std::vector<Group> groups = fixed_groups();
    for (Group& g : bound_groups(bound.log, bound.full_batch ? 16 : 0)) groups.push_back(std::move(g));
    for (const StreamCase& sc : streams())
      for (const Group& group : groups) {
        ++index;
        // Sanitizer-sized: every group at the bounds, one in two of the others.
        const bool at_bound = group.why.rfind("mul_each_batch_max_log", 0) == 0;
        if (!at_bound && !sanitizer_runs(sc, group.jobs.size(), index, 2)) continue;
        const std::size_t count = group.jobs.size();
        std::vector<std::unique_ptr<DeviceOperand>> as(count), bs(count);
        std::vector<const DeviceOperand*> a_of(count);  // job i's a: its own, or an earlier job's
        std::vector<std::unique_ptr<Guarded>> rs(count);
        std::vector<Limbs> va(count), vb(count);
        std::vector<dc::ProductJob> jobs(count);
        for (std::size_t i = 0; i < count; ++i) {
          const JobShape& j = group.jobs[i];
          const bool odd = (index + i) % 2 == 1;
          static const Kind kinds[] = {Kind::random, Kind::all_ones, Kind::runs, Kind::high_bit};
          const Kind ka = kinds[(index + i) % 4], kb = kinds[(index + 2 * i + 1) % 4];
          if (j.shares_a && i > 0) {
            va[i] = va[i - 1];
            a_of[i] = a_of[i - 1];
          } else {
            va[i] = make_limbs(ka, j.na, gen);
            as[i] = std::make_unique<DeviceOperand>(sc.s, va[i], odd);
            a_of[i] = as[i].get();
          }
          const DeviceOperand* a = a_of[i];
          vb[i] = j.square ? va[i] : make_limbs(kb, j.nb, gen);
          bs[i] = std::make_unique<DeviceOperand>(sc.s, vb[i], !odd);
          const std::size_t room = va[i].size() + vb[i].size() + (j.by_columns ? 3 : 2);
          rs[i] = std::make_unique<Guarded>(sc.s, room * sizeof(limb_t), odd ? sizeof(limb_t) : 0);
          // A squaring: b is a's own vector (same pointer and size).
          jobs[i] = {rs[i]->limbs(), a->op(), j.square ? a->op() : bs[i]->op(), j.by_columns};
        }
        std::vector<dc::Deferred> out(count);
        dc::mul_abs_each(st(), sc.s, jobs.data(), out.data(), count);
        std::string what = "mul_abs_each(" + std::to_string(count) + " jobs: " + group.why + "), bound " +
                           std::to_string(bound.log) + ", " + sc.name;
        for (std::size_t i = 0; i < count; ++i) {
          const JobShape& j = group.jobs[i];
          const std::string job = what + ", job " + std::to_string(i) + " (" + shape("a", j.na, "") + " x " +
                                  (j.square ? std::string("a") : shape("b", j.nb, "")) +
                                  (j.by_columns ? ", by columns" : ", by NTTs") + ")";
          const Words w = wait_words(out[i], sc.s);
          Mpz want;
          mpz_mul(want, to_mpz(va[i]), to_mpz(vb[i]));
          ::testing::AssertionResult unchanged = ::testing::AssertionSuccess();
          unchanged = a_of[i]->unchanged(sc.s);
          if (unchanged) unchanged = bs[i]->unchanged(sc.s);
          if (!report(all_of({output_is(*rs[i], sc.s, limbs_of(want), w.size()), unchanged}), job)) return;
        }
      }
  }
  // No jobs: nothing to do, nothing written.
  for (const StreamCase& sc : streams()) dc::mul_abs_each(st(), sc.s, nullptr, nullptr, 0);
}

}  // namespace
}  // namespace backend_layer
