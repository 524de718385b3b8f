#include "distributed/four_step_product.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "mpgpu/error.hpp"
#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt.hpp"
#include "mpgpu/limb/carry_status.cuh"

namespace mpgpu::distributed {

PartRange part_range(std::size_t total, std::size_t parts, std::size_t part) {
  const std::size_t base = total / parts, extra = total % parts;
  return {part * base + std::min(part, extra), base + (part < extra ? 1 : 0)};
}

namespace {

using Words = std::vector<std::uint64_t>;

// The CRT set of field::ntt_primes62 (the first three: transforms of up to 2^53 points).
constexpr int kPrimes = 3;
constexpr int kMaxLogPoints = 53;

struct Layout {
  std::size_t parts, n1, n2, limbs;
  int log_n1, log_n2;
  PartRange columns(std::size_t g) const { return part_range(n1, parts, g); }  // j1
  PartRange rows(std::size_t g) const { return part_range(n2, parts, g); }     // k2
  PartRange out(std::size_t g) const { return part_range(limbs, parts, g); }   // n
};

/// Calls f(k, n) for the k-th n (k = 0, 1, ...) of [begin, end) whose column n mod n1 lies in
/// `cols`, in increasing n: the order in which a block of digits or coefficients travels
/// between a contiguous range of n and a part's columns.
template <class F>
void for_each_in_columns(std::size_t begin, std::size_t end, PartRange cols, std::size_t n1, F&& f) {
  std::size_t k = 0;
  for (std::size_t row = begin / n1; row * n1 < end; ++row) {
    const std::size_t lo = std::max(begin, row * n1 + cols.begin), hi = std::min(end, row * n1 + cols.begin + cols.count);
    for (std::size_t n = lo; n < hi; ++n) f(k++, n);
  }
}

/// A move between parts with the rearrangements on both sides: part g gathers its blocks
/// into one send buffer (send_map[g]: the words for part 0, then part 1, ...; counts[g][h]
/// words for part h), the blocks travel, and part h rearranges what it received (from part
/// 0, then 1, ...) into dst[h] (recv_map[h], one entry a word of dst[h]).
struct Move {
  std::vector<std::vector<std::uint64_t>> send_map, recv_map;
  std::vector<std::vector<std::size_t>> counts;
  explicit Move(std::size_t parts)
      : send_map(parts), recv_map(parts), counts(parts, std::vector<std::size_t>(parts, 0)) {}
};

void run_move(PartSteps& steps, Communicator& comm, const Move& move, const std::vector<const std::uint64_t*>& src,
              const std::vector<std::uint64_t*>& dst) {
  const std::size_t G = move.counts.size();
  std::vector<std::uint64_t*> out(G), in(G);
  std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
  std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
  for (std::size_t g = 0; g < G; ++g) {
    std::size_t in_words = 0;
    for (std::size_t h = 0; h < G; ++h) in_words += move.counts[h][g];
    out[g] = steps.allocate(g, move.send_map[g].size());
    in[g] = steps.allocate(g, in_words);
    steps.permute(g, out[g], src[g], move.send_map[g]);
  }
  for (std::size_t g = 0; g < G; ++g) {
    std::size_t offset = 0;
    for (std::size_t h = 0; h < G; ++h) {
      send[g][h] = {out[g] + offset, move.counts[g][h]};
      offset += move.counts[g][h];
    }
    offset = 0;
    for (std::size_t h = 0; h < G; ++h) {
      recv[g][h] = {in[g] + offset, move.counts[h][g]};
      offset += move.counts[h][g];
    }
  }
  comm.all_to_all(send, recv);
  for (std::size_t h = 0; h < G; ++h) steps.permute(h, dst[h], in[h], move.recv_map[h]);
}

/// Move 1: an operand's digits from the parts' contiguous limb ranges (part g: [begin[g],
/// begin[g + 1])) to the columns: part h gets x[j1 + n1 j2] for its j1, all j2, as columns of
/// n2 words ([j1 - first][j2]; zero past the operand).
Move to_columns(const Layout& lay, const std::vector<std::size_t>& begin) {
  const std::size_t G = lay.parts;
  Move m(G);
  for (std::size_t h = 0; h < G; ++h) m.recv_map[h].assign(lay.columns(h).count * lay.n2, kZeroWord);
  std::vector<std::size_t> offset(G, 0);
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t h = 0; h < G; ++h) {
      const PartRange cols = lay.columns(h);
      for_each_in_columns(begin[g], begin[g + 1], cols, lay.n1, [&](std::size_t k, std::size_t n) {
        m.send_map[g].push_back(n - begin[g]);
        m.recv_map[h][(n % lay.n1 - cols.begin) * lay.n2 + n / lay.n1] = offset[h] + k;
        ++m.counts[g][h];
      });
      offset[h] += m.counts[g][h];
    }
  return m;
}

/// Moves 2 and 3: between the column layout (the part holding j1 has word (j1, k2) at [j1 -
/// its first][k2]) and the row layout (the part holding k2 has it at [k2 - its first][j1]),
/// either way; a block travels in the order of the sender's range of k2, then j1.
Move transpose(const Layout& lay, bool columns_to_rows) {
  const std::size_t G = lay.parts;
  const auto at_columns = [&](std::size_t h, std::size_t j1, std::size_t k2) {
    return (j1 - lay.columns(h).begin) * lay.n2 + k2;
  };
  const auto at_rows = [&](std::size_t q, std::size_t j1, std::size_t k2) { return (k2 - lay.rows(q).begin) * lay.n1 + j1; };
  Move m(G);
  for (std::size_t d = 0; d < G; ++d)
    m.recv_map[d].assign(columns_to_rows ? lay.rows(d).count * lay.n1 : lay.columns(d).count * lay.n2, kZeroWord);
  std::vector<std::size_t> offset(G, 0);
  for (std::size_t s = 0; s < G; ++s)
    for (std::size_t d = 0; d < G; ++d) {
      const PartRange cols = lay.columns(columns_to_rows ? s : d), rows = lay.rows(columns_to_rows ? d : s);
      for (std::size_t k2 = rows.begin; k2 < rows.begin + rows.count; ++k2)
        for (std::size_t j1 = cols.begin; j1 < cols.begin + cols.count; ++j1) {
          m.send_map[s].push_back(columns_to_rows ? at_columns(s, j1, k2) : at_rows(s, j1, k2));
          m.recv_map[d][columns_to_rows ? at_rows(d, j1, k2) : at_columns(d, j1, k2)] = offset[d]++;
        }
      m.counts[s][d] = rows.count * cols.count;
    }
  return m;
}

/// Move 4: the coefficients from the column layout to the contiguous output ranges.
Move columns_to_ranges(const Layout& lay) {
  const std::size_t G = lay.parts;
  Move m(G);
  for (std::size_t g = 0; g < G; ++g) m.recv_map[g].assign(lay.out(g).count, kZeroWord);
  std::vector<std::size_t> offset(G, 0);
  for (std::size_t h = 0; h < G; ++h)
    for (std::size_t g = 0; g < G; ++g) {
      const PartRange cols = lay.columns(h), range = lay.out(g);
      for_each_in_columns(range.begin, range.begin + range.count, cols, lay.n1, [&](std::size_t k, std::size_t n) {
        m.send_map[h].push_back((n % lay.n1 - cols.begin) * lay.n2 + n / lay.n1);
        m.recv_map[g][n - range.begin] = offset[g] + k;
        ++m.counts[h][g];
      });
      offset[g] += m.counts[h][g];
    }
  return m;
}

/// w^(+-j1 k2) for part h's columns, in the column layout (made on the host).
std::vector<std::uint64_t> twiddles(const Layout& lay, PartRange cols, std::uint64_t w, const field::PrimeField64& f) {
  std::vector<std::uint64_t> t(cols.count * lay.n2);
  for (std::size_t c = 0; c < cols.count; ++c) {
    const std::uint64_t step = f.pow(w, cols.begin + c);
    std::uint64_t v = 1;
    for (std::size_t k2 = 0; k2 < lay.n2; ++k2, v = f.mul(v, step)) t[c * lay.n2 + k2] = v;
  }
  return t;
}

}  // namespace

FourStepShape four_step_shape(std::size_t limbs, std::size_t parts) {
  if (parts == 0) throw InvalidArgument("four_step_shape: no parts");
  int log_points = 0;
  while (log_points < kMaxLogPoints && (std::size_t{1} << log_points) < limbs) ++log_points;
  for (;; ++log_points) {
    if (log_points > kMaxLogPoints || (std::size_t{1} << log_points) < limbs)
      throw InvalidArgument("four_step_shape: a product of " + std::to_string(limbs) + " limbs over " +
                            std::to_string(parts) + " parts needs more than 2^" + std::to_string(kMaxLogPoints) +
                            " points");
    const int log_n1 = log_points / 2, log_n2 = log_points - log_points / 2;
    if ((std::size_t{1} << log_n1) >= parts) return {log_n1, log_n2};
  }
}

void four_step_mul(const std::vector<Context>& parts, Communicator& comm, PartSteps& steps,
                   const std::vector<SendBlock>& a, const std::vector<SendBlock>& b,
                   const std::vector<RecvBlock>& product) {
  const std::string where = "four_step_mul: ";
  const std::size_t G = parts.size();
  if (G == 0 || comm.parts() != G || a.size() != G || b.size() != G || product.size() != G)
    throw InvalidArgument(where + "want one context, one communicator part and one range of each operand and of the "
                          "product a part (" + std::to_string(G) + " contexts, " + std::to_string(comm.parts()) +
                          " communicator parts, " + std::to_string(a.size()) + ", " + std::to_string(b.size()) +
                          " and " + std::to_string(product.size()) + " ranges)");
  std::vector<std::size_t> begin_a(G + 1, 0), begin_b(G + 1, 0);
  for (std::size_t g = 0; g < G; ++g) {
    begin_a[g + 1] = begin_a[g] + a[g].count;
    begin_b[g + 1] = begin_b[g] + b[g].count;
  }
  const std::size_t na = begin_a[G], nb = begin_b[G];
  if (na == 0 || nb == 0) throw InvalidArgument(where + "an operand has no limbs");
  const std::size_t limbs = na + nb;
  if (limbs / G < 3)
    throw InvalidArgument(where + "a product of " + std::to_string(limbs) + " limbs over " + std::to_string(G) +
                          " parts leaves a part fewer than 3 limbs (a carry must cross at most the next part)");
  const FourStepShape shape = four_step_shape(limbs, G);
  const Layout lay{G, std::size_t{1} << shape.log_n1, std::size_t{1} << shape.log_n2, limbs, shape.log_n1, shape.log_n2};
  for (std::size_t g = 0; g < G; ++g)
    if (product[g].count != lay.out(g).count)
      throw InvalidArgument(where + "part " + std::to_string(g) + "'s range of the product has " +
                            std::to_string(product[g].count) + " limbs, want " + std::to_string(lay.out(g).count));
  const std::size_t log_points = static_cast<std::size_t>(shape.log_n1 + shape.log_n2);

  // The digits in the column layout, each operand once (digits travel, residues are made
  // where they are needed).
  std::vector<std::uint64_t*> digits_a(G), digits_b(G);
  std::vector<const std::uint64_t*> src_a(G), src_b(G);
  for (std::size_t h = 0; h < G; ++h) {
    digits_a[h] = steps.allocate(h, lay.columns(h).count * lay.n2);
    digits_b[h] = steps.allocate(h, lay.columns(h).count * lay.n2);
    src_a[h] = a[h].data;
    src_b[h] = b[h].data;
  }
  run_move(steps, comm, to_columns(lay, begin_a), src_a, digits_a);
  run_move(steps, comm, to_columns(lay, begin_b), src_b, digits_b);
  const Move move_rows = transpose(lay, true), move_columns = transpose(lay, false), move_out = columns_to_ranges(lay);

  std::vector<std::vector<std::uint64_t*>> residues(kPrimes, std::vector<std::uint64_t*>(G));
  for (int i = 0; i < kPrimes; ++i) {
    const field::NttPrime& prime = field::ntt_primes62[i];
    const std::uint64_t p = prime.p;
    const field::PrimeField64 f = field::PrimeField64::make(p);
    // Order L, from the generator ntt_forward takes its roots from: its n-point root is w^(L/n).
    const std::uint64_t w = field::root_of_unity(p, prime.generator, static_cast<int>(log_points));
    const std::uint64_t w_inv = f.inv(w);
    std::vector<std::uint64_t*> tw(G), tw_inv(G), cols_a(G), cols_b(G), rows_a(G), rows_b(G);
    for (std::size_t h = 0; h < G; ++h) {
      const PartRange cols = lay.columns(h);
      const std::size_t words = cols.count * lay.n2;
      tw[h] = steps.allocate(h, words);
      tw_inv[h] = steps.allocate(h, words);
      steps.from_host(h, tw[h], twiddles(lay, cols, w, f).data(), words);
      steps.from_host(h, tw_inv[h], twiddles(lay, cols, w_inv, f).data(), words);
      cols_a[h] = steps.allocate(h, words);
      cols_b[h] = steps.allocate(h, words);
      rows_a[h] = steps.allocate(h, lay.rows(h).count * lay.n1);
      rows_b[h] = steps.allocate(h, lay.rows(h).count * lay.n1);
      residues[i][h] = steps.allocate(h, lay.out(h).count);
      // Columns: n2-point transforms, then the twiddles w^(j1 k2).
      for (auto [digits, col] : {std::pair{digits_a[h], cols_a[h]}, std::pair{digits_b[h], cols_b[h]}}) {
        steps.reduce(h, col, digits, words, p);
        ntt_forward(parts[h], col, cols.count, lay.log_n2, p);
        ntt_pointwise_mul(parts[h], col, col, tw[h], words, p);
      }
    }
    run_move(steps, comm, move_rows, {cols_a.begin(), cols_a.end()}, rows_a);
    run_move(steps, comm, move_rows, {cols_b.begin(), cols_b.end()}, rows_b);
    for (std::size_t q = 0; q < G; ++q) {
      // Rows: n1-point transforms (the spectrum X[k2 + n2 k1] at [k2 - first][k1]), the
      // pointwise product, and back (ntt_inverse scales by 1/n1).
      const std::size_t count = lay.rows(q).count;
      ntt_forward(parts[q], rows_a[q], count, lay.log_n1, p);
      ntt_forward(parts[q], rows_b[q], count, lay.log_n1, p);
      ntt_pointwise_mul(parts[q], rows_a[q], rows_a[q], rows_b[q], count * lay.n1, p);
      ntt_inverse(parts[q], rows_a[q], count, lay.log_n1, p);
    }
    run_move(steps, comm, move_columns, {rows_a.begin(), rows_a.end()}, cols_a);
    for (std::size_t h = 0; h < G; ++h) {
      // Twiddles w^(-j1 k2), then the columns' inverse (scales by 1/n2).
      const std::size_t count = lay.columns(h).count;
      ntt_pointwise_mul(parts[h], cols_a[h], cols_a[h], tw_inv[h], count * lay.n2, p);
      ntt_inverse(parts[h], cols_a[h], count, lay.log_n2, p);
    }
    run_move(steps, comm, move_out, {cols_a.begin(), cols_a.end()}, residues[i]);
  }

  // Garner's CRT and each part's own sum, then the limbs past each range to the next part.
  std::vector<std::uint64_t*> sums(G), incoming(G);
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t count = lay.out(g).count;
    sums[g] = steps.allocate(g, count + 3);
    incoming[g] = steps.allocate(g, 3);
    steps.crt_sum(g, sums[g], residues[0][g], residues[1][g], residues[2][g], count);
  }
  {
    std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
    std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
    for (std::size_t g = 0; g + 1 < G; ++g) {
      send[g][g + 1] = {sums[g] + lay.out(g).count, 3};
      recv[g + 1][g] = {incoming[g + 1], 3};
    }
    comm.all_to_all(send, recv);
  }
  std::uint64_t top[3];
  steps.to_host(G - 1, top, sums[G - 1] + lay.out(G - 1).count, 3);
  if ((top[0] | top[1] | top[2]) != 0) throw std::logic_error(where + "internal: the product has limbs past na + nb");
  // Each part adds what came in: its carry out "generates", a range of all ones
  // "propagates"; the carry into each part is the scan of the parts below it.
  std::uint32_t carry = limb::carry_kill;
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t count = lay.out(g).count;
    const auto [carry_out, all_ones] = steps.add_incoming(g, sums[g], count, incoming[g]);
    if (carry == limb::carry_generate) steps.add_one(g, sums[g], count);
    const std::uint32_t status =
        carry_out ? limb::carry_generate : (all_ones ? limb::carry_propagate : limb::carry_kill);
    carry = limb::CarryCombine{}(carry, status);
    steps.copy(g, product[g].data, sums[g], count);
  }
  if (carry == limb::carry_generate) throw std::logic_error(where + "internal: a carry out of the product's top limb");
}

std::vector<Words> four_step_mul(const std::vector<Context>& parts, Communicator& comm, const std::vector<Words>& a,
                                 const std::vector<Words>& b) {
  const std::size_t G = parts.size();
  for (std::size_t g = 0; g < G; ++g)
    if (parts[g].is_cuda())
      throw InvalidArgument("four_step_mul: part " + std::to_string(g) +
                            " is a CUDA context; ranges in host vectors need CPU parts");
  if (a.size() != G || b.size() != G)
    throw InvalidArgument("four_step_mul: want one range of each operand a part (" + std::to_string(G) +
                          " contexts, " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " ranges)");
  std::size_t limbs = 0;
  std::vector<SendBlock> ra(G), rb(G);
  for (std::size_t g = 0; g < G; ++g) {
    ra[g] = {a[g].data(), a[g].size()};
    rb[g] = {b[g].data(), b[g].size()};
    limbs += a[g].size() + b[g].size();
  }
  std::vector<Words> product(G);
  std::vector<RecvBlock> rp(G);
  for (std::size_t g = 0; g < G; ++g) {
    product[g].resize(part_range(limbs, G, g).count);
    rp[g] = {product[g].data(), product[g].size()};
  }
  const std::unique_ptr<PartSteps> steps = make_host_part_steps(G);
  four_step_mul(parts, comm, *steps, ra, rb, rp);
  return product;
}

}  // namespace mpgpu::distributed
