// binary_split over host threads (tools/mpgpu/binary_splitting.hpp), on
// each backend: a product tree (n! = 1 * 2 * ... * n) against GMP for every
// plan (one thread; several threads with the whole tree as host work; the
// upper tree on the calling thread in the test's context above a cut), tree
// sizes at the job boundaries, and
// an exception thrown in a host job or on the calling thread reaching the
// caller with every thread stopped.
#include <gmp.h>

#include <cmath>
#include <functional>
#include <limits>
#include <span>
#include <thread>
#include <stdexcept>
#include <string>
#include <vector>

#include "binary_splitting.hpp"
#include "integer/integer_test.hpp"

namespace {

using mpgpu::Context;
using mpgpu::Integer;
using mpgpu::cli::binary_split;
using mpgpu::cli::MergeSteps;
using mpgpu::cli::Series;
using mpgpu::cli::SplitPlan;
using mpgpu::cli::SplitProgress;
using mpgpu::cli::SplitStats;
using namespace mpgpu_test;

struct Node {
  Integer v;
};

/// The product of the terms [a, b), k for term k; the leaf of term
/// `fail_leaf` (if not 0) throws.
Series<Node> factorial_series(std::uint64_t fail_leaf = 0) {
  Series<Node> s;
  s.leaf = [=](std::uint64_t k, const Context& ctx) {
    if (k == fail_leaf) throw std::runtime_error("leaf failed");
    return Node{Integer(k, ctx)};
  };
  s.merge = [](Node& l, Node& r, bool, const MergeSteps& steps) {
    const std::function<void()> product[] = {[&] { mul(l.v, l.v, r.v); }};
    steps(product);
  };
  s.to_context = [](Node&& n, const Context& ctx) { return Node{n.v.to_context(ctx)}; };
  // A level's merges at once (level groups): their products in one mul_each.
  s.merge_many = [](std::span<const mpgpu::cli::MergeJob<Node>> jobs) {
    std::vector<mpgpu::Product> products;
    for (const auto& j : jobs) products.push_back({j.left->v, j.left->v, j.right->v});
    mpgpu::mul_each(products);
  };
  s.bits = [](std::uint64_t a, std::uint64_t b) {
    return static_cast<double>(b - a) * std::log2(static_cast<double>(b < 2 ? 2 : b)) + 64;
  };
  // Subtrees at once (SplitPlan::batched_share): each by the plain
  // recursion, the ranges required in order, left to right, each apart.
  s.subtrees_at_once = [s](std::span<const mpgpu::cli::TermRange> ranges, const Context& work, const Context& into) {
    std::vector<Node> nodes;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      if (ranges[i].b <= ranges[i].a || (i && ranges[i].a < ranges[i - 1].b))
        throw std::runtime_error("subtrees_at_once: ranges not in order");
      nodes.push_back(s.to_context(binary_split(ranges[i].a, ranges[i].b, true, s, work, nullptr), into));
    }
    return nodes;
  };
  return s;
}

std::string factorial(std::uint64_t n) {
  mpz_t f;
  mpz_init(f);
  mpz_fac_ui(f, n);
  std::vector<char> buf(mpz_sizeinbase(f, 10) + 2);
  std::string s = mpz_get_str(buf.data(), 10, f);
  mpz_clear(f);
  return s;
}

class BinarySplitting : public IntegerTest {
 protected:
  /// Plans to try: `threads` threads, the whole tree as host work, the
  /// tree above `cut` bits on the calling thread in ctx(), the same with
  /// two device threads merging the nodes of up to 8 cut in ctx(), and the
  /// same with level groups of up to 8 cut (merge_many) instead, the tree
  /// above the cut with a calling thread that never runs host jobs, and
  /// level groups with half the subtrees made at once, three a call.
  static std::vector<SplitPlan> plans(unsigned threads, double cut) {
    SplitPlan whole;
    whole.threads = threads;
    SplitPlan upper;
    upper.threads = threads;
    upper.host_max_bits = cut;
    SplitPlan device = upper;
    device.device_threads = 2;
    device.device_subtree_max_bits = 8 * cut;
    SplitPlan groups = upper;
    groups.level_group_max_bits = 8 * cut;
    SplitPlan driving = upper;
    driving.caller_helps = false;
    SplitPlan batched = groups;
    batched.batched_share = 0.5;
    batched.batched_chunk = 3;
    return {whole, upper, device, groups, driving, batched};
  }
};

TEST_P(BinarySplitting, ProductTreeMatchesGmp) {
  const Series<Node> series = factorial_series();
  for (std::uint64_t n : {2, 3, 127, 128, 129, 130, 1000, 4099}) {
    const std::string expect = factorial(n - 1);
    for (unsigned threads : {1u, 2u, 3u, 8u})
      for (double cut : {2000.0, 30000.0})
        for (const SplitPlan& plan : plans(threads, cut)) {
          SplitProgress progress({}, n - 1);
          SplitStats stats;
          const Node root = binary_split(1, n, true, series, ctx(), plan, progress, &stats);
          EXPECT_EQ(root.v.to_string(), expect) << "n " << n << ", " << threads << " threads, cut " << cut;
          EXPECT_EQ(root.v.context(), ctx());
          if (threads > 1 && n > 129) {
            EXPECT_GT(stats.subtrees, 1u) << n;
          }
          if (stats.subtrees > 0 && plan.device_threads > 0 && stats.upper_merges > 2) {
            EXPECT_GT(stats.device_subtrees, 0u) << "n " << n << ", cut " << cut;
          }
          // The calling thread's merges by level add up to all of them, and
          // each level holds at most half the merges of the one below it.
          std::uint64_t by_level = 0;
          for (std::size_t i = 0; i < stats.upper_levels.size(); ++i) {
            by_level += stats.upper_levels[i].merges;
            if (i > 0) {
              EXPECT_LE(stats.upper_levels[i].merges, stats.upper_levels[i - 1].merges) << n;
            }
          }
          if (stats.subtrees > 0) {
            EXPECT_EQ(by_level, stats.upper_merges) << "n " << n << ", cut " << cut;
            // Each maximal host node moves into a merging thread's context
            // once, or is made there at once: the leaves of the tree of upper merges.
            EXPECT_EQ(stats.uploads + stats.batched_subtrees, stats.upper_merges + 1)
                << "n " << n << ", cut " << cut;
          }
          if (plan.batched_share > 0 && stats.subtrees > 1 && stats.upper_merges > 2) {
            EXPECT_GT(stats.batched_subtrees, 0u) << "n " << n << ", cut " << cut << ", " << threads << " threads";
            EXPECT_GE(stats.batched_chunks * plan.batched_chunk, stats.batched_subtrees);
            EXPECT_LE(stats.batched_subtrees, stats.uploads + stats.batched_subtrees);
            EXPECT_GT(stats.uploads, 0u) << "the host threads make the other half";
          } else if (plan.batched_share == 0) {
            EXPECT_EQ(stats.batched_subtrees, 0u);
          }
          if (!plan.caller_helps) {
            EXPECT_EQ(stats.helped_seconds, 0.0) << "n " << n << ", " << threads << " threads";
          }
        }
  }
}

// The progress fraction reaches 1 on the calling thread, whoever merged.
TEST_P(BinarySplitting, ProgressIsReportedOnTheCallingThread) {
  const Series<Node> series = factorial_series();
  const std::thread::id me = std::this_thread::get_id();
  for (const SplitPlan& plan : plans(4, 5000)) {
    double last = 0;
    bool other_thread = false;
    SplitProgress progress(
        [&](double f) {
          other_thread |= std::this_thread::get_id() != me;
          last = f;
        },
        3000);
    binary_split(1, 3001, true, series, ctx(), plan, progress);
    progress.poll();
    EXPECT_FALSE(other_thread);
    EXPECT_NEAR(last, 1.0, 1e-9);
  }
}

TEST_P(BinarySplitting, ErrorInAHostJobReachesTheCaller) {
  for (std::uint64_t k : {1, 700, 2999}) {
    const Series<Node> series = factorial_series(k);
    for (unsigned threads : {1u, 2u, 5u})
      for (const SplitPlan& plan : plans(threads, 5000)) {
        SplitProgress progress({}, 3000);
        EXPECT_THROW(binary_split(1, 3001, true, series, ctx(), plan, progress), std::runtime_error) << k;
      }
  }
}

TEST_P(BinarySplitting, ErrorOnTheCallingThreadStopsTheHostThreads) {
  Series<Node> series = factorial_series();
  // Host jobs merge in CPU contexts of their own: only the merges above the
  // cut, on the calling thread, are in ctx().
  const Context target = ctx();
  series.merge = [target](Node& l, Node& r, bool, const MergeSteps&) {
    if (l.v.context() == target) throw std::runtime_error("upper merge failed");
    mul(l.v, l.v, r.v);
  };
  SplitPlan plan;
  plan.threads = 4;
  plan.host_max_bits = 5000;
  SplitProgress progress({}, 3000);
  EXPECT_THROW(binary_split(1, 3001, true, series, ctx(), plan, progress), std::runtime_error);
  // With every node host work, no merge is in ctx(): it succeeds.
  plan.host_max_bits = std::numeric_limits<double>::infinity();
  EXPECT_EQ(binary_split(1, 3001, true, series, ctx(), plan, progress).v.to_string(), factorial(3000));
}

// A merge that fails on a device thread (or on the calling thread while
// device threads run) reaches the caller, and every thread stops first.
TEST_P(BinarySplitting, ErrorOnADeviceThreadReachesTheCaller) {
  const Context target = ctx();
  for (bool on_device_thread : {true, false}) {
    Series<Node> series = factorial_series();
    // Device threads merge in contexts of their own and host jobs in CPU
    // contexts of their own; host merges make at most 5000 bits (81 limbs
    // from both operands), so one of 120 limbs outside ctx() is a device
    // thread's (from the second level of a device subtree of up to 12000 bits).
    series.merge = [=](Node& l, Node& r, bool, const MergeSteps&) {
      const bool device_thread = l.v.context() != target && l.v.size() + r.v.size() >= 120;
      if ((on_device_thread && device_thread) || (!on_device_thread && l.v.context() == target))
        throw std::runtime_error("device merge failed");
      mul(l.v, l.v, r.v);
    };
    SplitPlan plan;
    plan.threads = 4;
    plan.host_max_bits = 5000;
    plan.device_threads = 3;
    plan.device_subtree_max_bits = 12000;  // the root (~35000 bits) and its children stay on the caller
    SplitProgress progress({}, 3000);
    EXPECT_THROW(binary_split(1, 3001, true, series, ctx(), plan, progress), std::runtime_error) << on_device_thread;
  }
}

// A failure in the batched subtrees (on their own thread, in the second
// chunk) reaches the caller, with the host threads stopped.
TEST_P(BinarySplitting, ErrorInTheBatchedSubtreesReachesTheCaller) {
  Series<Node> series = factorial_series();
  const auto plain = series.subtrees_at_once;
  int calls = 0;
  series.subtrees_at_once = [&](std::span<const mpgpu::cli::TermRange> ranges, const Context& work,
                                const Context& into) {
    if (++calls == 2) throw std::runtime_error("batched subtrees failed");
    return plain(ranges, work, into);
  };
  SplitPlan plan;
  plan.threads = 4;
  plan.host_max_bits = 3000;
  plan.batched_share = 0.6;
  plan.batched_chunk = 2;
  SplitProgress progress({}, 3000);
  try {
    binary_split(1, 3001, true, series, ctx(), plan, progress);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "batched subtrees failed");
  }
  EXPECT_EQ(calls, 2);
}

MPGPU_INSTANTIATE_ON_BACKEND(BinarySplitting);

}  // namespace
