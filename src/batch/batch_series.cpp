// series_leaves (mpgpu/series.hpp): the checks, then series_leaf for every
// node, on the host (CPU context, and a context over several devices, then
// scattered) or in one kernel (cuda/batch_series.cu).
#include <algorithm>
#include <bit>
#include <limits>
#include <string>

#include "batch_backend.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/series.hpp"

namespace mpgpu {

namespace {

using detail::batch::kSeriesLeafWords;
using detail::batch::kSeriesMaxFactors;
using detail::batch::SeriesTermsPod;

[[noreturn]] void invalid(const std::string& why) { throw InvalidArgument("mpgpu::series_leaves: " + why); }

/// Copies a list into the kernel's record, checking that each factor lies in
/// [least, 2^64) for every k in [k_lo, k_hi] (linear: at the two ends), and
/// adds to `bound` the bits of each factor's largest value.
void check_factor_count(const std::vector<LinearFactor>& list, const char* name) {
  if (list.size() > kSeriesMaxFactors)
    invalid(std::string(name) + " has " + std::to_string(list.size()) + " factors, more than " +
            std::to_string(kSeriesMaxFactors));
}

unsigned put_factors(std::int64_t (*to)[2], const std::vector<LinearFactor>& list, const char* name,
                     std::uint64_t k_lo, std::uint64_t k_hi, __int128 least, std::size_t& bound) {
  unsigned i = 0;
  for (const LinearFactor& f : list) {
    const __int128 at_lo = static_cast<__int128>(f.slope) * k_lo + f.offset;
    const __int128 at_hi = static_cast<__int128>(f.slope) * k_hi + f.offset;
    const __int128 top = static_cast<__int128>(std::numeric_limits<std::uint64_t>::max());
    if (std::min(at_lo, at_hi) < least || std::max(at_lo, at_hi) > top)
      invalid(std::string(name) + "'s factor " + std::to_string(i) + " (" + std::to_string(f.slope) + " k + " +
              std::to_string(f.offset) + ") leaves [" + std::to_string(static_cast<long long>(least)) +
              ", 2^64) between k = " + std::to_string(k_lo) + " and " + std::to_string(k_hi));
    bound += std::bit_width(static_cast<std::uint64_t>(std::max(at_lo, at_hi)));
    to[i][0] = f.slope;
    to[i][1] = f.offset;
    ++i;
  }
  return i;
}

}  // namespace

SeriesNodes series_leaves(const SeriesTerms& terms, std::span<const SeriesRange> ranges, unsigned depth,
                          std::size_t bits, const Context& ctx) {
  if (bits == 0 || bits > Batch::max_bits)
    invalid("width " + std::to_string(bits) + " bits is out of range (1 to " + std::to_string(Batch::max_bits) + ")");
  if (depth >= 48) invalid("depth " + std::to_string(depth) + " is beyond 47");
  check_factor_count(terms.p, "p");
  check_factor_count(terms.q, "q");
  check_factor_count(terms.a, "a");
  std::uint64_t k_lo = std::numeric_limits<std::uint64_t>::max(), k_hi = 0;
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    const SeriesRange& x = ranges[r];
    if (x.b <= x.a || x.b - x.a > (std::uint64_t{1} << depth))
      invalid("range " + std::to_string(r) + " [" + std::to_string(x.a) + ", " + std::to_string(x.b) + ") is " +
              (x.b <= x.a ? std::string("empty") : "wider than 2^" + std::to_string(depth) + " terms"));
    k_lo = std::min(k_lo, x.a);
    k_hi = std::max(k_hi, x.b - 1);
  }
  const std::size_t places = std::size_t{1} << depth;
  if (ranges.size() > std::numeric_limits<std::size_t>::max() / places / 4)
    throw Overflow("mpgpu::series_leaves: " + std::to_string(ranges.size()) + " ranges of 2^" + std::to_string(depth) +
                   " nodes each");
  const std::size_t count = ranges.size() * places;
  SeriesTermsPod pod;
  pod.alternating = terms.alternating;
  std::size_t p_bits = 0, q_bits = 0, a_bits = 0;
  if (!ranges.empty()) {
    // p and q are evaluated from k = 1 (term 0 is P = Q = 1), a from k_lo.
    const std::uint64_t k_pq = std::max<std::uint64_t>(k_lo, 1);
    if (k_hi >= k_pq) {
      pod.np = put_factors(pod.p, terms.p, "p", k_pq, k_hi, 1, p_bits);
      pod.nq = put_factors(pod.q, terms.q, "q", k_pq, k_hi, 1, q_bits);
    } else {  // only term 0: p and q unused, but checked for their count
      pod.np = put_factors(pod.p, terms.p, "p", 1, 1, std::numeric_limits<std::int64_t>::min(), p_bits);
      pod.nq = put_factors(pod.q, terms.q, "q", 1, 1, std::numeric_limits<std::int64_t>::min(), q_bits);
      p_bits = q_bits = 1;
    }
    pod.na = put_factors(pod.a, terms.a, "a", k_lo, k_hi, 0, a_bits);
  }
  const std::size_t t_bits = p_bits + a_bits + 1;  // with its sign
  const std::size_t need = std::max({p_bits, q_bits, t_bits, std::size_t{2}});
  if (need > bits)
    invalid("the leaves need " + std::to_string(need) + " bits (P " + std::to_string(p_bits) + ", Q " +
            std::to_string(q_bits) + ", T " + std::to_string(t_bits) + " with its sign), more than the width " +
            std::to_string(bits));
  if (std::max({p_bits, q_bits, p_bits + a_bits}) > 64 * kSeriesLeafWords)
    invalid("a leaf value may need " + std::to_string(std::max({p_bits, q_bits, p_bits + a_bits})) +
            " bits, more than " + std::to_string(64 * kSeriesLeafWords));
  if (ctx.part_count() > 1) {
    // Over several devices: made on the host, then scattered (from_limbs
    // splits each batch into its parts in instance order).
    const Context host = Context::cpu(ctx.tuning());
    const SeriesNodes made = series_leaves(terms, ranges, depth, bits, host);
    const std::vector<limb_t> p = made.P.to_limbs(), q = made.Q.to_limbs(), t = made.T.to_limbs();
    const std::size_t limbs = made.P.limbs_per_instance();
    return {Batch::from_limbs(p.data(), count, limbs, bits, ctx), Batch::from_limbs(q.data(), count, limbs, bits, ctx),
            Batch::from_limbs(t.data(), count, limbs, bits, ctx)};
  }
  SeriesNodes out{Batch(count, bits, ctx), Batch(count, bits, ctx), Batch(count, bits, ctx)};
  if (count == 0) return out;
  const std::size_t stride = out.P.stride_limbs();
  if (ctx.is_cuda()) {
    std::vector<std::uint64_t> flat(2 * ranges.size());
    for (std::size_t r = 0; r < ranges.size(); ++r) flat[2 * r] = ranges[r].a, flat[2 * r + 1] = ranges[r].b;
    detail::batch::cuda::series_leaves(detail::ContextAccess::state(ctx), ctx.stream(), pod, flat.data(),
                                       ranges.size(), depth, out.P.data(), out.Q.data(), out.T.data(), stride, bits);
    return out;
  }
  for (std::size_t r = 0; r < ranges.size(); ++r)
    for (std::size_t j = 0; j < places; ++j) {
      const std::size_t i = (r * places + j) * stride;
      detail::batch::series_leaf(pod, ranges[r].a, ranges[r].b, depth, j, out.P.data() + i, out.Q.data() + i,
                                 out.T.data() + i, stride, bits);
    }
  return out;
}

}  // namespace mpgpu
