#include "chudnovsky_batch.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "chudnovsky_leaf.hpp"
#include "constants_series.hpp"  // series_profile_on
#include "mpgpu/batch.hpp"
#include "mpgpu/series.hpp"

namespace mpgpu::cli {

namespace {

/// The smallest d with 2^d >= n: the depth of the balanced tree over n terms,
/// where every node holds one term or none.
unsigned tree_depth(std::uint64_t n) {
  unsigned d = 0;
  while ((std::uint64_t{1} << d) < n) ++d;
  return d;
}

/// Values of one level: count instances of width() bits each.
struct Level {
  Batch P, Q, T;  // T in two's complement
};

/// pi's series as series_leaves takes it (chudnovsky_leaf.hpp's terms).
const SeriesTerms& chudnovsky_terms() {
  static const SeriesTerms terms = [] {
    SeriesTerms t;
    t.p = {{6, -5}, {2, -1}, {6, -1}};
    t.q = {{1, 0}, {1, 0}, {1, 0}, {0, static_cast<std::int64_t>(kChudnovskyC3Over24)}};
    t.a = {{static_cast<std::int64_t>(kChudnovskyB), static_cast<std::int64_t>(kChudnovskyA)}};
    t.alternating = true;
    return t;
  }();
  return terms;
}

/// The bottom level of ranges that all have depth D (every node at depth D
/// of the balanced split holds one term or none): one kernel on a CUDA
/// context (series_leaves); node p of range r is instance r * 2^D + p. Also
/// the width each depth up to D needs.
Level leaves(std::span<const TermRange> ranges, unsigned D, std::vector<std::size_t>& width, const Context& ctx) {
  width.assign(D + 1, 64);
  // A depth's widest node is at most as wide as its largest size (the
  // balanced split makes sizes floor and ceil of n / 2^depth) ending at the
  // range's end: the width grows with the size and with the last term.
  for (const TermRange& r : ranges)
    for (unsigned depth = 0; depth <= D; ++depth) {
      const std::uint64_t size = std::max<std::uint64_t>(1, (r.b - r.a + (std::uint64_t{1} << depth) - 1) >> depth);
      width[depth] = std::max(width[depth], chudnovsky_node_width(r.b - size, r.b));
    }
  // series_leaves bounds a leaf by its factors' bit lengths, which may
  // exceed chudnovsky_node_width's logarithms by a bit a factor: a limb more
  // (and as much above, where that is more: merge_level only widens).
  width[D] += 64;
  for (unsigned d = D; d > 0; --d) width[d - 1] = std::max(width[d - 1], width[d]);
  SeriesNodes n = series_leaves(chudnovsky_terms(), ranges, D, width[D], ctx);
  return {std::move(n.P), std::move(n.Q), std::move(n.T)};
}

/// The even (left) or odd (right) instances of src, widened to `bits`
/// (zero-extended): one strided repack on a CUDA context.
Batch pick(const Batch& src, bool odd, std::size_t bits) {
  const Context& ctx = src.context();
  const std::size_t count = src.count() / 2;
  const std::size_t limbs = src.limbs_per_instance();
  const std::size_t stride = src.stride_limbs();
  if (ctx.is_cuda())
    return Batch::from_device_limbs(src.data() + (odd ? stride : 0), count, limbs, 2 * stride, bits, ctx);
  std::vector<limb_t> host(count * limbs);
  for (std::size_t i = 0; i < count; ++i)
    std::memcpy(&host[i * limbs], src.data() + (2 * i + (odd ? 1 : 0)) * stride, limbs * sizeof(limb_t));
  return Batch::from_limbs(host.data(), count, limbs, bits, ctx);
}

/// x (two's complement at `from` bits, now held zero-extended at x.bits())
/// sign-extended to x.bits().
void sign_extend(Batch& x, std::size_t from) {
  if (x.bits() == from) return;
  shift_left(x, x, x.bits() - from);
  shift_right_arithmetic(x, x, x.bits() - from);
}

/// One level up: instances 2i and 2i + 1 merge into instance i at `bits`.
Level merge_level(Level&& children, std::size_t bits) {
  const std::size_t from = children.T.bits();
  Batch pl = pick(children.P, false, bits), pr = pick(children.P, true, bits);
  Batch ql = pick(children.Q, false, bits), qr = pick(children.Q, true, bits);
  Batch tl = pick(children.T, false, bits), tr = pick(children.T, true, bits);
  children = Level{};
  sign_extend(tl, from);
  sign_extend(tr, from);
  // T = Tl Qr + Pl Tr; Q = Ql Qr; P = Pl Pr, each mod 2^bits, where the
  // width holds every value with its sign, so the low products are exact.
  Level up;
  Batch t;
  mul(up.T, tl, qr);
  mul(t, pl, tr);
  add(up.T, up.T, t);
  mul(up.Q, ql, qr);
  mul(up.P, pl, pr);
  return up;
}

/// Where batched_group's time goes, with MPGPU_SERIES_PROFILE=1 (as the
/// merges' profile in constants_pi.cpp; it synchronizes after each phase):
/// the leaves (series_leaves), the levels, the Integers made of the tops.
/// Printed to stderr at exit.
struct BatchProfile {
  bool on = series_profile_on();
  std::mutex mutex;
  std::uint64_t groups = 0, ranges = 0, leaves = 0;
  double leaves_s = 0, levels_s = 0, nodes_s = 0;
  ~BatchProfile() {
    if (on && groups)
      std::fprintf(stderr,
                   "profile batched: %llu groups, %llu ranges, %llu leaf places; leaves %.3f s, levels %.3f s, "
                   "nodes %.3f s\n",
                   static_cast<unsigned long long>(groups), static_cast<unsigned long long>(ranges),
                   static_cast<unsigned long long>(leaves), leaves_s, levels_s, nodes_s);
  }
};
BatchProfile g_batch_profile;

/// The nodes of ranges of one depth D, made in ctx, their values in `into`.
std::vector<ChudnovskyNode> batched_group(std::span<const TermRange> ranges, unsigned D, const Context& ctx,
                                          const Context& into) {
  using Clock = std::chrono::steady_clock;
  auto t = Clock::now();
  auto lap = [&](double& into_seconds) {
    if (!g_batch_profile.on) return;
    ctx.synchronize();
    const auto now = Clock::now();
    std::lock_guard<std::mutex> lock(g_batch_profile.mutex);
    into_seconds += std::chrono::duration<double>(now - t).count();
    t = now;
  };
  std::vector<std::size_t> width;
  Level level = leaves(ranges, D, width, ctx);
  lap(g_batch_profile.leaves_s);
  for (unsigned d = D; d > 0; --d) level = merge_level(std::move(level), width[d - 1]);
  lap(g_batch_profile.levels_s);
  std::vector<Integer> P = level.P.to_integers(into), Q = level.Q.to_integers(into),
                       T = level.T.to_integers(into, InstanceSign::twos_complement);
  std::vector<ChudnovskyNode> nodes;
  nodes.reserve(ranges.size());
  for (std::size_t i = 0; i < ranges.size(); ++i) nodes.push_back({std::move(P[i]), std::move(Q[i]), std::move(T[i])});
  lap(g_batch_profile.nodes_s);
  if (g_batch_profile.on) {
    std::lock_guard<std::mutex> lock(g_batch_profile.mutex);
    ++g_batch_profile.groups;
    g_batch_profile.ranges += ranges.size();
    g_batch_profile.leaves += ranges.size() << D;
  }
  return nodes;
}

}  // namespace

std::size_t chudnovsky_node_width(std::uint64_t a, std::uint64_t b) {
  static const double log2_c = std::log2(static_cast<double>(kChudnovskyC3Over24));
  const double n = static_cast<double>(b - a);
  const double k_max = static_cast<double>(std::max<std::uint64_t>(b - 1, 1));
  // |T| <= n (A + B k_max) Q, Q <= (k_max^3 C)^n; one bit for the sign, one for rounding.
  const double bits = n * (3 * std::log2(k_max) + log2_c) + std::log2(n) +
                      std::log2(static_cast<double>(kChudnovskyA) + static_cast<double>(kChudnovskyB) * k_max) + 2;
  return 64 * static_cast<std::size_t>(std::ceil(bits / 64));
}

std::vector<ChudnovskyNode> chudnovsky_nodes_batched(std::span<const TermRange> ranges, const Context& ctx,
                                                     const Context& into) {
  // The pieces: each range, or its halves (recursively) where its top is
  // wider than a batch may be.
  auto fits = [](std::uint64_t a, std::uint64_t b) {
    return b - a == 1 || chudnovsky_node_width(a, b) <= Batch::max_bits;
  };
  std::vector<TermRange> pieces;
  auto cut = [&](auto& self, std::uint64_t a, std::uint64_t b) -> void {
    if (fits(a, b)) {
      pieces.push_back({a, b});
      return;
    }
    const std::uint64_t m = a + (b - a) / 2;
    self(self, a, m);
    self(self, m, b);
  };
  for (const TermRange& r : ranges) {
    if (r.b <= r.a) throw std::invalid_argument("chudnovsky_nodes_batched: an empty range");
    cut(cut, r.a, r.b);
  }
  // With merges to make, the pieces and their merges stay in ctx (so that
  // this thread's products never queue behind `into`'s work) and the
  // ranges' nodes move to `into` at the end, all at once; else the pieces'
  // values are made in `into` directly.
  const bool joined = pieces.size() != ranges.size();
  const Context& made_in = joined ? ctx : into;
  // The pieces of each depth together.
  std::map<unsigned, std::vector<std::size_t>> by_depth;
  for (std::size_t i = 0; i < pieces.size(); ++i) by_depth[tree_depth(pieces[i].b - pieces[i].a)].push_back(i);
  std::vector<std::optional<ChudnovskyNode>> done(pieces.size());
  for (const auto& [depth, which] : by_depth) {
    std::vector<TermRange> group;
    group.reserve(which.size());
    for (std::size_t i : which) group.push_back(pieces[i]);
    std::vector<ChudnovskyNode> nodes = batched_group(group, depth, ctx, made_in);
    for (std::size_t j = 0; j < which.size(); ++j) done[which[j]].emplace(std::move(nodes[j]));
  }
  // The ranges from their pieces, in the order cut made them: every merge
  // of one height (over all the ranges) in one mul_each, a chunk's merges
  // of one size together. (At pi's default cut every range is one piece. A
  // cut of 2^19 bits makes each two, which halves the calling thread's
  // merges; with these merges in `into` that was measured slower, both
  // threads' products on one context: docs/workloads.md.)
  struct Join {
    std::size_t left = 0, right = 0;  // indices into `joins`; a piece has none
    unsigned height = 0;              // 0: a piece
    std::optional<ChudnovskyNode> node;
  };
  std::vector<Join> joins;
  joins.reserve(2 * pieces.size());
  std::size_t next = 0;
  auto build = [&](auto& self, std::uint64_t a, std::uint64_t b) -> std::size_t {
    if (fits(a, b)) {
      joins.push_back({0, 0, 0, std::move(done[next++])});
      return joins.size() - 1;
    }
    const std::uint64_t m = a + (b - a) / 2;
    const std::size_t l = self(self, a, m), r = self(self, m, b);
    joins.push_back({l, r, std::max(joins[l].height, joins[r].height) + 1, std::nullopt});
    return joins.size() - 1;
  };
  std::vector<std::size_t> roots;
  roots.reserve(ranges.size());
  unsigned top = 0;
  for (const TermRange& r : ranges) {
    roots.push_back(build(build, r.a, r.b));
    top = std::max(top, joins[roots.back()].height);
  }
  for (unsigned h = 1; h <= top; ++h) {
    std::vector<Join*> level;
    for (Join& j : joins)
      if (j.height == h) level.push_back(&j);
    // T = Tl Qr + Pl Tr, Q = Ql Qr, P = Pl Pr, into the left child's values.
    std::vector<Integer> t, p;  // fresh results: l.P is read by the first product
    t.reserve(level.size());
    p.reserve(level.size());
    std::vector<Product> products;
    products.reserve(4 * level.size());
    for (Join* j : level) {
      ChudnovskyNode& l = *joins[j->left].node;
      const ChudnovskyNode& r = *joins[j->right].node;
      t.emplace_back(made_in);
      p.emplace_back(made_in);
      products.push_back({t.back(), l.P, r.T});
      products.push_back({l.T, l.T, r.Q});
      products.push_back({l.Q, l.Q, r.Q});
      products.push_back({p.back(), l.P, r.P});
    }
    mul_each(products);
    for (std::size_t i = 0; i < level.size(); ++i) {
      ChudnovskyNode& l = *joins[level[i]->left].node;
      l.T += t[i];
      l.P = std::move(p[i]);
      level[i]->node = std::move(joins[level[i]->left].node);
      joins[level[i]->right].node.reset();
    }
  }
  std::vector<ChudnovskyNode> out;
  out.reserve(ranges.size());
  for (std::size_t root : roots) out.push_back(std::move(*joins[root].node));
  if (!joined) return out;
  std::vector<Integer> values;
  values.reserve(3 * out.size());
  for (ChudnovskyNode& n : out) {
    values.push_back(std::move(n.P));
    values.push_back(std::move(n.Q));
    values.push_back(std::move(n.T));
  }
  std::vector<Integer> moved = to_context_each(values, into);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = {std::move(moved[3 * i]), std::move(moved[3 * i + 1]), std::move(moved[3 * i + 2])};
  return out;
}

}  // namespace mpgpu::cli
