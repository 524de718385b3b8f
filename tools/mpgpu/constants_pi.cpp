// pi by the Chudnovsky series with binary splitting:
//
//   1/pi = 12 sum_k (-1)^k (6k)! (13591409 + 545140134 k) / ((3k)! k!^3 640320^(3k + 3/2))
//
// Over terms [a, b): P(a, a+1) = (6a-5)(2a-1)(6a-1), Q(a, a+1) = a^3 640320^3 / 24,
// T(a, a+1) = (-1)^a P(a, a+1) (13591409 + 545140134 a), with P = Q = 1 for a = 0;
// merging [a, m) and [m, b): P = P1 P2, Q = Q1 Q2, T = T1 Q2 + P1 T2. Then
// pi = 426880 sqrt(10005) Q(0, N) / T(0, N), each term adding about 14.18 digits.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <functional>
#include <future>
#include <optional>
#include <span>
#include <vector>

#include "chudnovsky_batch.hpp"
#include "chudnovsky_leaf.hpp"
#include "constants_series.hpp"

namespace mpgpu::cli {

namespace {

using PQT = ChudnovskyNode;

/// An Integer from `n` little-endian words (leading zero words allowed).
Integer from_words(const std::uint64_t* words, std::size_t n, int sign, const Context& ctx) {
  while (n && words[n - 1] == 0) --n;
  limb_t limbs[3];
  for (std::size_t i = 0; i < n; ++i) limbs[i] = static_cast<limb_t>(words[i]);
  return Integer::from_limbs(limbs, n, sign, ctx);
}

PQT leaf(std::uint64_t k, const Context& ctx) {
  if (k == 0) return {Integer(1, ctx), Integer(1, ctx), Integer(kChudnovskyA, ctx)};
  if (k <= kChudnovskyLeafMaxTerm) {
    const ChudnovskyLeafWords w = chudnovsky_leaf_words(k);
    return {from_words(w.p, 2, 1, ctx), from_words(w.q, 3, 1, ctx), from_words(w.t, 3, w.t_sign, ctx)};
  }
  // Beyond any term count mpgpu pi accepts (10^10 digits): Integer products.
  const int sign = k % 2 ? -1 : 1;
  PQT n{Integer(6 * k - 5, ctx), Integer(k, ctx), Integer(kChudnovskyB, ctx)};
  n.P *= Integer(2 * k - 1, ctx);
  n.P *= Integer(6 * k - 1, ctx);
  n.Q *= Integer(k, ctx);
  n.Q *= Integer(k, ctx);
  n.Q *= Integer(kChudnovskyC3Over24, ctx);
  n.T *= Integer(k, ctx);
  n.T += Integer(kChudnovskyA, ctx);
  n.T *= n.P;
  if (sign < 0) n.T.negate();
  return n;
}

/// The node [a, b)'s values are below Q(a, b) < (k^3 640320^3 / 24)^(b-a)
/// times a factor of b - a and 545140134 b (for T): about
/// (b - a)(3 log2 b + 53.3) bits.
double node_bits(std::uint64_t a, std::uint64_t b) {
  return static_cast<double>(b - a) * (3 * std::log2(static_cast<double>(std::max<std::uint64_t>(b, 2))) + 54) + 64;
}

/// Where merge_many's time goes, with MPGPU_SERIES_PROFILE=1 (a tuning
/// knob, off by default: it synchronizes after each phase, which serializes
/// what would overlap): per size class (log2 of the left Q's limbs), the
/// host operands' copies to the device, the products (the call, then the
/// wait for the device), and the sums. Printed to stderr after the series.
struct MergeProfile {
  struct Row {
    std::uint64_t calls = 0, merges = 0, uploads = 0;
    double upload_s = 0, mul_call_s = 0, mul_wait_s = 0, add_call_s = 0, add_wait_s = 0;
  };
  bool on = series_profile_on();
  Row rows[64];
  ~MergeProfile() {
    if (!on) return;
    for (int k = 0; k < 64; ++k) {
      const Row& r = rows[k];
      if (!r.calls) continue;
      std::fprintf(stderr,
                   "profile 2^%d limbs: %llu calls, %llu merges; %llu uploads %.3f s; products %.3f s call + %.3f s "
                   "wait; sums %.3f s call + %.3f s wait\n",
                   k, static_cast<unsigned long long>(r.calls), static_cast<unsigned long long>(r.merges),
                   static_cast<unsigned long long>(r.uploads), r.upload_s, r.mul_call_s, r.mul_wait_s, r.add_call_s,
                   r.add_wait_s);
    }
  }
};
MergeProfile g_merge_profile;

/// Every job's merge with all their products in one mul_each (on a CUDA
/// context: batched products, series_products_at_once).
void merge_many(std::span<const MergeJob<PQT>> jobs) {
  if (jobs.empty()) return;
  const Context& ctx = jobs[0].left->Q.context();
  using Clock = std::chrono::steady_clock;
  MergeProfile::Row* row = nullptr;
  auto lap = [t = Clock::now()]() mutable {
    const auto now = Clock::now();
    const double s = std::chrono::duration<double>(now - t).count();
    t = now;
    return s;
  };
  if (g_merge_profile.on) {
    row = &g_merge_profile.rows[std::bit_width(std::max<std::size_t>(jobs[0].left->Q.size(), 1)) - 1];
    ++row->calls;
    row->merges += jobs.size();
    // The host values' uploads alone, as mul_each makes them (together).
    std::vector<const Integer*> values;
    for (const MergeJob<PQT>& j : jobs)
      for (const Integer* v : {&j.left->P, &j.left->Q, &j.left->T, &j.right->P, &j.right->Q, &j.right->T})
        if (v->in_host_memory() && v->sign() != 0) values.push_back(v);
    row->uploads += values.size();
    detail::IntegerAccess::upload_many(values);
    ctx.synchronize();
    row->upload_s += lap();
  }
  std::vector<Integer> t, p;
  t.reserve(jobs.size());
  p.reserve(jobs.size());
  std::vector<Product> products;
  products.reserve(4 * jobs.size());
  for (const MergeJob<PQT>& j : jobs) {
    PQT& l = *j.left;
    const PQT& r = *j.right;
    t.emplace_back(ctx);
    p.emplace_back(ctx);
    products.push_back({t.back(), l.P, r.T});
    products.push_back({l.T, l.T, r.Q});
    products.push_back({l.Q, l.Q, r.Q});
    if (j.need_p) products.push_back({p.back(), l.P, r.P});
  }
  mul_each(products);
  if (row) {
    row->mul_call_s += lap();
    ctx.synchronize();
    for (const Integer& x : t) (void)x.size();
    row->mul_wait_s += lap();
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].left->T += t[i];
    jobs[i].left->P = std::move(p[i]);  // zero when not needed: the root path never uses P again
  }
  if (row) {
    row->add_call_s += lap();
    ctx.synchronize();
    for (const MergeJob<PQT>& j : jobs) (void)j.left->T.size();
    row->add_wait_s += lap();
  }
}

void merge(PQT& l, PQT& r, bool need_p, const MergeSteps& steps, bool device_at_once) {
  const Context& ctx = l.Q.context();
  if (device_at_once && ctx.is_cuda()) {
    const MergeJob<PQT> job{&l, &r, need_p};
    merge_many({&job, 1});
    return;
  }
  Integer t(ctx), p(ctx);
  // Each step writes its own value and reads only values no step writes
  // (l.T and l.Q are read by their own step alone), so they may run at once.
  const std::function<void()> products[] = {
      [&] { mul(t, l.P, r.T); },
      [&] { mul(l.T, l.T, r.Q); },
      [&] { mul(l.Q, l.Q, r.Q); },
      [&] {
        if (need_p) mul(p, l.P, r.P);
      },
  };
  steps(products);
  l.T += t;
  l.P = std::move(p);  // zero when not needed: the root path never uses P again
}

}  // namespace

Integer pi_fixed_point(const Context& ctx, std::uint64_t d, const StageHooks& hooks, const SeriesOptions& options) {
  // log10(640320^3 / 24 / 72) ~ 14.18 digits a term; two more terms cover the rounding of
  // the count and leave the series' error far below one unit.
  const std::uint64_t terms = static_cast<std::uint64_t>(static_cast<double>(d) / 14.1816) + 2;
  Series<PQT> series;
  series.leaf = leaf;
  const bool at_once = series_products_at_once(ctx, options);
  series.merge = [at_once](PQT& l, PQT& r, bool need_p, const MergeSteps& steps) {
    merge(l, r, need_p, steps, at_once);
  };
  if (at_once) series.merge_many = merge_many;
  series.subtrees_at_once = chudnovsky_nodes_batched;
  series.to_context = [](PQT&& n, const Context& to) {
    return PQT{n.P.to_context(to), n.Q.to_context(to), n.T.to_context(to)};
  };
  series.bits = node_bits;
  // S = floor(sqrt(10005) 10^d), below the true value by less than 1, which
  // moves pi 10^d by less than 426880 Q / T = pi / sqrt(10005) < 0.04; then
  // 426880 S. It does not depend on the series: on a CUDA context it runs
  // while the series does, on a context of its own (its own stream; the
  // series keeps the host's cores busy with its leaves and leaves the GPU
  // mostly idle), and moves to ctx after (one device copy).
  auto numerator = [d](const Context& c) {
    Integer radicand(c);
    ui_pow_ui(radicand, 10, 2 * d);
    radicand *= Integer(10005, c);
    Integer s(c);
    sqrt(s, radicand);
    radicand = Integer(c);
    s *= Integer(426880, c);
    return s;
  };
  std::optional<Context> side;
  std::future<Integer> early;  // declared after side: it finishes before side goes
  if (ctx.is_cuda()) {
    side.emplace(ctx.with_tuning(ctx.tuning()));
    early = std::async(std::launch::async, numerator, std::cref(*side));
  }
  PQT root = evaluate_series(0, terms, false, series, ctx, hooks, options);
  root.P = Integer(ctx);

  const StageProgress& progress = hooks.progress;
  if (progress) progress("square root", 0);
  Integer s = early.valid() ? early.get().to_context(ctx) : numerator(ctx);
  if (side && hooks.note)
    hooks.note("square root", "computed during the series on a context of its own; this is the wait for it");

  if (progress) progress("division", 0);
  // pi 10^d < 2^(d log2(10) + 2).
  const std::uint64_t result_bits = static_cast<std::uint64_t>(std::ceil(static_cast<double>(d) * 3.3219280949)) + 2;
  return fixed_ratio(s, root.Q, root.T, result_bits);
}

}  // namespace mpgpu::cli
