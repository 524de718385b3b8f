// e = 1 + sum_{k >= 1} 1/k! by binary splitting. Over terms [a, b):
// Q(a, b) = a (a+1) ... (b-1) and P(a, b) / Q(a, b) = sum_{a <= k < b} 1 / (a (a+1) ... k),
// so P(a, a+1) = 1, Q(a, a+1) = a; merging [a, m) and [m, b): P = P1 Q2 + P2,
// Q = Q1 Q2. Then sum_{1 <= k < N} 1/k! = P(1, N) / Q(1, N).
#include <algorithm>
#include <cmath>
#include <functional>
#include <span>
#include <vector>

#include "constants_series.hpp"

namespace mpgpu::cli {

namespace {

struct PQ {
  Integer P, Q;
};

/// The first N with N! >= 10^(d + 3): the tail sum_{k >= N} 1/k! < 2/N! is then
/// below 10^-(d + 2), far from a unit of the last guard digit.
std::uint64_t term_count(std::uint64_t d) {
  const double target = (static_cast<double>(d) + 3) * std::log(10.0);
  std::uint64_t n = 2;
  // lgamma(n + 1) = ln(n!); doubling then bisecting keeps it a few dozen calls.
  while (std::lgamma(static_cast<double>(n) + 1) < target) n *= 2;
  std::uint64_t lo = n / 2, hi = n;
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (std::lgamma(static_cast<double>(mid) + 1) < target ? lo : hi) = mid;
  }
  return hi + 1;  // one more than the bisection needs, against lgamma's rounding
}

/// Q(a, b) = a (a+1) ... (b-1) < b^(b-a), and P(a, b) < 2 Q(a, b).
double node_bits(std::uint64_t a, std::uint64_t b) {
  return static_cast<double>(b - a) * std::log2(static_cast<double>(std::max<std::uint64_t>(b, 2))) + 64;
}

/// Every job's merge with all their products in one mul_each (on a CUDA
/// context: batched products, series_products_at_once).
void merge_many(std::span<const MergeJob<PQ>> jobs) {
  std::vector<Product> products;
  products.reserve(2 * jobs.size());
  for (const MergeJob<PQ>& j : jobs) {
    products.push_back({j.left->P, j.left->P, j.right->Q});
    products.push_back({j.left->Q, j.left->Q, j.right->Q});
  }
  mul_each(products);
  for (const MergeJob<PQ>& j : jobs) j.left->P += j.right->P;
}

void merge(PQ& l, PQ& r, const MergeSteps& steps, bool device_at_once) {
  if (device_at_once && l.Q.context().is_cuda()) {
    const MergeJob<PQ> job{&l, &r, false};
    merge_many({&job, 1});
    return;
  }
  // Two products of different values, each read by its own step alone.
  const std::function<void()> products[] = {
      [&] { mul(l.P, l.P, r.Q); },
      [&] { mul(l.Q, l.Q, r.Q); },
  };
  steps(products);
  l.P += r.P;
}

}  // namespace

Integer e_fixed_point(const Context& ctx, std::uint64_t d, const StageHooks& hooks, const SeriesOptions& options) {
  const std::uint64_t n = term_count(d);
  Series<PQ> series;
  series.leaf = [](std::uint64_t k, const Context& c) { return PQ{Integer(1, c), Integer(k, c)}; };
  const bool at_once = series_products_at_once(ctx, options);
  series.merge = [at_once](PQ& l, PQ& r, bool, const MergeSteps& steps) { merge(l, r, steps, at_once); };
  if (at_once) series.merge_many = merge_many;
  series.to_context = [](PQ&& node, const Context& to) { return PQ{node.P.to_context(to), node.Q.to_context(to)}; };
  series.bits = node_bits;
  PQ root = evaluate_series(1, n, true, series, ctx, hooks, options);

  // e 10^d = (1 + P/Q) 10^d + (less than 10^-(d+2)) 10^d: floor((P + Q) 10^d / Q)
  // is below it by less than one unit (fixed_ratio adds at most one more).
  if (hooks.progress) hooks.progress("division", 0);
  root.P += root.Q;
  Integer scale(ctx);
  ui_pow_ui(scale, 10, d);
  // e 10^d < 2^(d log2(10) + 2).
  const std::uint64_t result_bits = static_cast<std::uint64_t>(std::ceil(static_cast<double>(d) * 3.3219280949)) + 2;
  return fixed_ratio(scale, root.P, root.Q, result_bits);
}

}  // namespace mpgpu::cli
