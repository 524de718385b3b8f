#include "chudnovsky_batch.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "chudnovsky_leaf.hpp"
#include "constants_series.hpp"  // series_profile_on
#include "mpgpu/batch.hpp"

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

/// A node of one or two terms in machine words (at most 7: the two-term
/// T is a sum of products of 3 by 3 words), magnitudes little-endian.
struct SmallNode {
  static constexpr std::size_t kWords = 7;
  std::uint64_t p[kWords] = {}, q[kWords] = {}, t[kWords] = {};
  int t_sign = 1;
};

/// r = a * b over n words each (r: 2n words), schoolbook in 128 bits.
void mul_words(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b, std::size_t n) {
  using u128 = unsigned __int128;
  for (std::size_t i = 0; i < 2 * n; ++i) r[i] = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t carry = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const u128 x = static_cast<u128>(a[i]) * b[j] + r[i + j] + carry;
      r[i + j] = static_cast<std::uint64_t>(x);
      carry = static_cast<std::uint64_t>(x >> 64);
    }
    r[i + n] = carry;
  }
}

/// The term k alone.
SmallNode term_node(std::uint64_t k) {
  SmallNode n;
  if (k == 0) {
    n.p[0] = n.q[0] = 1;
    n.t[0] = kChudnovskyA;
    return n;
  }
  if (k > kChudnovskyLeafMaxTerm) throw std::logic_error("chudnovsky_nodes_batched: term beyond the word leaves");
  const ChudnovskyLeafWords w = chudnovsky_leaf_words(k);
  std::copy(w.p, w.p + 2, n.p);
  std::copy(w.q, w.q + 3, n.q);
  std::copy(w.t, w.t + 3, n.t);
  n.t_sign = w.t_sign;
  return n;
}

/// The terms k and k + 1 merged: P = Pl Pr, Q = Ql Qr, T = Tl Qr + Pl Tr
/// (Tl and Tr of opposite signs: the larger magnitude minus the smaller).
SmallNode pair_node(std::uint64_t k) {
  const SmallNode l = term_node(k), r = term_node(k + 1);
  SmallNode n;
  std::uint64_t x[6], y[6];
  mul_words(n.p, l.p, r.p, 3);
  mul_words(n.q, l.q, r.q, 3);
  mul_words(x, l.t, r.q, 3);
  mul_words(y, l.p, r.t, 3);
  if (l.t_sign == r.t_sign) {  // never for consecutive terms (their T alternate in sign, term 0's too); kept general
    unsigned __int128 carry = 0;
    for (std::size_t i = 0; i < 6; ++i) {
      carry += static_cast<unsigned __int128>(x[i]) + y[i];
      n.t[i] = static_cast<std::uint64_t>(carry);
      carry >>= 64;
    }
    n.t[6] = static_cast<std::uint64_t>(carry);
    n.t_sign = l.t_sign;
    return n;
  }
  bool x_larger = true;
  for (std::size_t i = 6; i-- > 0;)
    if (x[i] != y[i]) {
      x_larger = x[i] > y[i];
      break;
    }
  const std::uint64_t* big = x_larger ? x : y;
  const std::uint64_t* small = x_larger ? y : x;
  std::uint64_t borrow = 0;
  for (std::size_t i = 0; i < 6; ++i) {
    const unsigned __int128 d = static_cast<unsigned __int128>(big[i]) - small[i] - borrow;
    n.t[i] = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
  }
  n.t_sign = x_larger ? l.t_sign : r.t_sign;
  return n;
}

/// The bottom level of ranges that all have depth D (every node at depth D
/// of the balanced split holds one term or none): depth B = max(D - 1, 0),
/// where every node holds one term or two, made on the host in machine
/// words; node p of range r is instance r * 2^B + p. Also the width each
/// depth up to B needs.
Level leaves(std::span<const TermRange> ranges, unsigned D, unsigned& B, std::vector<std::size_t>& width,
             const Context& ctx) {
  B = D == 0 ? 0 : D - 1;
  width.assign(B + 1, 64);
  // A depth's widest node is at most as wide as its largest size (the
  // balanced split makes sizes floor and ceil of n / 2^depth) ending at the
  // range's end: the width grows with the size and with the last term.
  for (const TermRange& r : ranges)
    for (unsigned depth = 0; depth <= B; ++depth) {
      const std::uint64_t size = std::max<std::uint64_t>(1, (r.b - r.a + (std::uint64_t{1} << depth) - 1) >> depth);
      width[depth] = std::max(width[depth], chudnovsky_node_width(r.b - size, r.b));
    }
  const std::size_t places = std::size_t{1} << B;
  const std::size_t count = ranges.size() * places;
  const std::size_t limbs = width[B] / 64;
  std::vector<limb_t> p(count * limbs, 0), q(count * limbs, 0), t(count * limbs, 0);
  auto put = [limbs](limb_t* to, const std::uint64_t* words) {
    for (std::size_t i = 0; i < SmallNode::kWords; ++i) {
      if (i < limbs) to[i] = static_cast<limb_t>(words[i]);
      else if (words[i] != 0) throw std::logic_error("chudnovsky_nodes_batched: a node exceeds its width");
    }
  };
  auto place = [&](std::size_t at, std::uint64_t lo, std::uint64_t hi) {
    if (hi - lo > 2 || hi == lo) throw std::logic_error("chudnovsky_nodes_batched: a bottom node of 0 or 3+ terms");
    const SmallNode n = hi - lo == 1 ? term_node(lo) : pair_node(lo);
    limb_t* ti = &t[at * limbs];
    put(&p[at * limbs], n.p);
    put(&q[at * limbs], n.q);
    put(ti, n.t);
    if (n.t_sign < 0) {  // two's complement over the whole width
      limb_t carry = 1;
      for (std::size_t j = 0; j < limbs; ++j) {
        ti[j] = ~ti[j] + carry;
        carry = carry && ti[j] == 0;
      }
    }
  };
  auto walk = [&](auto& self, std::uint64_t lo, std::uint64_t hi, unsigned depth, std::size_t at) -> void {
    if (depth == B) return place(at, lo, hi);
    const std::uint64_t m = lo + (hi - lo) / 2;
    const std::size_t half = std::size_t{1} << (B - depth - 1);
    self(self, lo, m, depth + 1, at);
    self(self, m, hi, depth + 1, at + half);
  };
  for (std::size_t r = 0; r < ranges.size(); ++r) walk(walk, ranges[r].a, ranges[r].b, 0, r * places);
  const std::size_t bits = width[B];
  return {Batch::from_limbs(p.data(), count, limbs, bits, ctx), Batch::from_limbs(q.data(), count, limbs, bits, ctx),
          Batch::from_limbs(t.data(), count, limbs, bits, ctx)};
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
/// the leaves (host words, then the batches made from them), the levels, the
/// Integers made of the top. Printed to stderr at exit.
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

/// The nodes of ranges of one depth D.
std::vector<ChudnovskyNode> batched_group(std::span<const TermRange> ranges, unsigned D, const Context& ctx) {
  using Clock = std::chrono::steady_clock;
  auto t = Clock::now();
  auto lap = [&](double& into) {
    if (!g_batch_profile.on) return;
    ctx.synchronize();
    const auto now = Clock::now();
    std::lock_guard<std::mutex> lock(g_batch_profile.mutex);
    into += std::chrono::duration<double>(now - t).count();
    t = now;
  };
  std::vector<std::size_t> width;
  unsigned B = 0;
  Level level = leaves(ranges, D, B, width, ctx);
  lap(g_batch_profile.leaves_s);
  for (unsigned d = B; d > 0; --d) level = merge_level(std::move(level), width[d - 1]);
  lap(g_batch_profile.levels_s);
  // Signs from T's top bit, then |T| = (T ^ m) - m with m = T's sign spread.
  const std::size_t bits = level.T.bits();
  const std::vector<std::uint32_t> leading = count_leading_zeros(level.T);
  Batch mask;
  shift_right_arithmetic(mask, level.T, bits - 1);
  xor_(level.T, level.T, mask);
  sub(level.T, level.T, mask);
  std::vector<ChudnovskyNode> nodes;
  nodes.reserve(ranges.size());
  const std::size_t limbs = level.P.limbs_per_instance();
  auto value = [&](const Batch& b, std::size_t i, int sign) {
    const limb_t* at = b.data() + i * b.stride_limbs();
    return ctx.is_cuda() ? Integer::from_device_limbs(at, limbs, sign, ctx) : Integer::from_limbs(at, limbs, sign, ctx);
  };
  for (std::size_t i = 0; i < ranges.size(); ++i)
    nodes.push_back({value(level.P, i, 1), value(level.Q, i, 1), value(level.T, i, leading[i] == 0 ? -1 : 1)});
  lap(g_batch_profile.nodes_s);
  if (g_batch_profile.on) {
    std::lock_guard<std::mutex> lock(g_batch_profile.mutex);
    ++g_batch_profile.groups;
    g_batch_profile.ranges += ranges.size();
    g_batch_profile.leaves += ranges.size() << B;
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

std::vector<ChudnovskyNode> chudnovsky_nodes_batched(std::span<const TermRange> ranges, const Context& ctx) {
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
  // The pieces of each depth together.
  std::map<unsigned, std::vector<std::size_t>> by_depth;
  for (std::size_t i = 0; i < pieces.size(); ++i) by_depth[tree_depth(pieces[i].b - pieces[i].a)].push_back(i);
  std::vector<std::optional<ChudnovskyNode>> done(pieces.size());
  for (const auto& [depth, which] : by_depth) {
    std::vector<TermRange> group;
    group.reserve(which.size());
    for (std::size_t i : which) group.push_back(pieces[i]);
    std::vector<ChudnovskyNode> nodes = batched_group(group, depth, ctx);
    for (std::size_t j = 0; j < which.size(); ++j) done[which[j]].emplace(std::move(nodes[j]));
  }
  // The ranges from their pieces, in the order cut made them.
  std::size_t next = 0;
  auto join = [&](auto& self, std::uint64_t a, std::uint64_t b) -> ChudnovskyNode {
    if (fits(a, b)) return std::move(*done[next++]);
    const std::uint64_t m = a + (b - a) / 2;
    ChudnovskyNode l = self(self, a, m);
    ChudnovskyNode r = self(self, m, b);
    Integer t = l.P * r.T;
    l.T *= r.Q;
    l.T += t;
    l.Q *= r.Q;
    l.P *= r.P;
    return l;
  };
  std::vector<ChudnovskyNode> out;
  out.reserve(ranges.size());
  for (const TermRange& r : ranges) out.push_back(join(join, r.a, r.b));
  return out;
}

}  // namespace mpgpu::cli
