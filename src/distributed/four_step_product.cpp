#include "distributed/four_step_product.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "context/part_split.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt.hpp"
#include "mpgpu/ntt/crt_many.cuh"
#include "mpgpu/limb/carry_status.cuh"

namespace mpgpu::distributed {

PartRange part_range(std::size_t total, std::size_t parts, std::size_t part) {
  return {detail::part_begin(total, parts, part), detail::part_size(total, parts, part)};
}

namespace {

using Words = std::vector<std::uint64_t>;

struct Layout {
  std::size_t parts, n1, n2, limbs, digit, digits;  // digit: limbs a digit; digits: ceil(limbs / digit)
  int log_n1, log_n2;
  PartRange columns(std::size_t g) const { return part_range(n1, parts, g); }  // j1
  PartRange rows(std::size_t g) const { return part_range(n2, parts, g); }     // k2
  PartRange out(std::size_t g) const { return part_range(digits, parts, g); }  // coefficients n
  /// The limbs of part g's coefficients' own places: [out.begin d, out.end d), cut at limbs.
  PartRange out_limbs(std::size_t g) const {
    const PartRange o = out(g);
    const std::size_t begin = std::min(o.begin * digit, limbs);
    return {begin, std::min((o.begin + o.count) * digit, limbs) - begin};
  }
};

/// The words n of [begin, end) whose column n mod n1 lies in `cols`, in increasing n, as at
/// most three rectangles of (row n / n1) x (column n mod n1): a partial first row, the full
/// rows, a partial last row. `first` is the position of the rectangle's first word in that
/// order.
struct Piece {
  std::size_t row, rows, column, columns, first;
};
std::vector<Piece> pieces_in_columns(std::size_t begin, std::size_t end, PartRange cols, std::size_t n1) {
  std::vector<Piece> out;
  std::size_t k = 0;
  const auto add = [&](std::size_t row, std::size_t rows, std::size_t lo, std::size_t hi) {
    if (rows == 0 || hi <= lo) return;
    out.push_back({row, rows, lo, hi - lo, k});
    k += rows * (hi - lo);
  };
  if (begin >= end || cols.count == 0) return out;
  const std::size_t first_row = begin / n1, last_row = (end - 1) / n1;
  const auto clip = [&](std::size_t row, std::size_t& lo, std::size_t& hi) {
    lo = std::max(begin, row * n1 + cols.begin) - row * n1;
    hi = std::min(end, row * n1 + cols.begin + cols.count);
    hi = hi > row * n1 ? hi - row * n1 : 0;
  };
  std::size_t lo, hi;
  clip(first_row, lo, hi);
  add(first_row, 1, lo, hi);
  if (last_row > first_row + 1) add(first_row + 1, last_row - first_row - 1, cols.begin, cols.begin + cols.count);
  if (last_row > first_row) {
    clip(last_row, lo, hi);
    add(last_row, 1, lo, hi);
  }
  return out;
}

/// A move between parts with the rearrangements on both sides: part g copies its blocks into
/// one send buffer (send[g]: rectangles from its layout; the words for part 0 first, then part
/// 1, ...; counts[g][h] words for part h), the blocks travel, and part h copies what it
/// received (from part 0 first, then 1, ...) into its layout (recv[h]).
struct Move {
  std::vector<std::vector<Rect>> send, recv;
  std::vector<std::vector<std::size_t>> counts;
  explicit Move(std::size_t parts) : send(parts), recv(parts), counts(parts, std::vector<std::size_t>(parts, 0)) {}
};

void run_move(PartSteps& steps, Communicator& comm, const Move& move, const std::vector<const std::uint64_t*>& src,
              const std::vector<std::uint64_t*>& dst) {
  const std::size_t G = move.counts.size();
  std::vector<std::uint64_t*> out(G), in(G);
  std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
  std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
  for (std::size_t g = 0; g < G; ++g) {
    std::size_t out_words = 0, in_words = 0;
    for (std::size_t h = 0; h < G; ++h) {
      out_words += move.counts[g][h];
      in_words += move.counts[h][g];
    }
    out[g] = steps.allocate(g, out_words);
    in[g] = steps.allocate(g, in_words);
    steps.copy_rects(g, out[g], src[g], move.send[g]);
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
  for (std::size_t h = 0; h < G; ++h) {
    steps.copy_rects(h, dst[h], in[h], move.recv[h]);
    steps.release(h, out[h]);
    steps.release(h, in[h]);
  }
}

/// Moves 1 and 4, between contiguous ranges of n (part g: ranges[g]) and the column layout
/// (the part holding column j1 has word n = j1 + n1 j2 at [j1 - its first][j2]); the words
/// travel in increasing n. Blocks are made in an order where each sender's go to increasing
/// receivers and each receiver's come from increasing senders, so running offsets place them.
/// With scale > 1 the words are limbs of digits of `scale` limbs: a row holds n1 scale limbs,
/// and digit column j1 is the limb columns [j1 scale, (j1 + 1) scale), each n2 words in the
/// column layout (so a digit's limbs lie n2 words apart).
Move ranges_and_columns(const Layout& lay, const std::vector<PartRange>& ranges, bool to_columns,
                        std::size_t scale = 1) {
  const std::size_t G = lay.parts, row = lay.n1 * scale;
  Move m(G);
  std::vector<std::size_t> send_offset(G, 0), recv_offset(G, 0);
  for (std::size_t g = 0; g < G; ++g)      // the part holding the range
    for (std::size_t h = 0; h < G; ++h) {  // the part holding the columns
      const PartRange digit_cols = lay.columns(h), range = ranges[g];
      const PartRange cols{digit_cols.begin * scale, digit_cols.count * scale};
      const std::size_t s = to_columns ? g : h, d = to_columns ? h : g;
      std::size_t count = 0;
      for (const Piece& p : pieces_in_columns(range.begin, range.begin + range.count, cols, row)) {
        // Word (i, j) of the piece: row p.row + i, column p.column + j.
        const Strided in_range{p.row * row + p.column - range.begin, row, 1};
        const Strided in_columns{(p.column - cols.begin) * lay.n2 + p.row, 1, lay.n2};
        const Strided sent{send_offset[s] + p.first, p.columns, 1}, received{recv_offset[d] + p.first, p.columns, 1};
        m.send[s].push_back({p.rows, p.columns, to_columns ? in_range : in_columns, sent});
        m.recv[d].push_back({p.rows, p.columns, received, to_columns ? in_columns : in_range});
        count += p.rows * p.columns;
      }
      m.counts[s][d] = count;
      send_offset[s] += count;
      recv_offset[d] += count;
    }
  return m;
}

/// Moves 2 and 3: between the column layout (the part holding j1 has word (j1, k2) at [j1 -
/// its first][k2]) and the row layout (the part holding k2 has it at [k2 - its first][j1]),
/// either way; a block is one rectangle of its sender's k2 by j1, travelling k2 by k2.
Move transpose(const Layout& lay, bool columns_to_rows) {
  const std::size_t G = lay.parts;
  Move m(G);
  std::vector<std::size_t> send_offset(G, 0), recv_offset(G, 0);
  for (std::size_t s = 0; s < G; ++s)
    for (std::size_t d = 0; d < G; ++d) {
      const std::size_t h = columns_to_rows ? s : d, q = columns_to_rows ? d : s;  // columns' part, rows' part
      const PartRange cols = lay.columns(h), rows = lay.rows(q);
      // Word (i, j): k2 = rows.begin + i, j1 = cols.begin + j; in the column layout of part h it
      // is at j * n2 + rows.begin + i, in the row layout of part q at i * n1 + cols.begin + j.
      const Strided in_columns{rows.begin, 1, lay.n2}, in_rows{cols.begin, lay.n1, 1};
      const Strided sent{send_offset[s], cols.count, 1}, received{recv_offset[d], cols.count, 1};
      m.send[s].push_back({rows.count, cols.count, columns_to_rows ? in_columns : in_rows, sent});
      m.recv[d].push_back({rows.count, cols.count, received, columns_to_rows ? in_rows : in_columns});
      m.counts[s][d] = rows.count * cols.count;
      send_offset[s] += m.counts[s][d];
      recv_offset[d] += m.counts[s][d];
    }
  return m;
}

}  // namespace

FourStepShape four_step_shape(std::size_t points, std::size_t parts, int max_log_points) {
  if (parts == 0) throw InvalidArgument("four_step_shape: no parts");
  int log_points = 0;
  while (log_points < max_log_points && (std::size_t{1} << log_points) < points) ++log_points;
  for (;; ++log_points) {
    if (log_points > max_log_points || (std::size_t{1} << log_points) < points)
      throw InvalidArgument("four_step_shape: a transform of " + std::to_string(points) + " points over " +
                            std::to_string(parts) + " parts needs more than 2^" + std::to_string(max_log_points) +
                            " points");
    const int log_n1 = log_points / 2, log_n2 = log_points - log_points / 2;
    if ((std::size_t{1} << log_n1) >= parts) return {log_n1, log_n2};
  }
}

int four_step_primes(std::size_t digit_limbs) {
  switch (digit_limbs) {
    case 1: return 3;
    case 2: return 5;
    case 4: return 9;
    default:
      throw InvalidArgument("four_step_mul: digits of " + std::to_string(digit_limbs) +
                            " limbs; the distributed product takes digits of 1, 2 or 4 limbs");
  }
}

void four_step_mul(const std::vector<Context>& parts, Communicator& comm, PartSteps& steps,
                   const std::vector<SendBlock>& a, const std::vector<SendBlock>& b,
                   const std::vector<RecvBlock>& product, std::size_t digit_limbs) {
  const std::string where = "four_step_mul: ";
  const std::size_t G = parts.size();
  if (G == 0 || comm.parts() != G || a.size() != G || b.size() != G || product.size() != G)
    throw InvalidArgument(where + "want one context, one communicator part and one range of each operand and of the "
                          "product a part (" + std::to_string(G) + " contexts, " + std::to_string(comm.parts()) +
                          " communicator parts, " + std::to_string(a.size()) + ", " + std::to_string(b.size()) +
                          " and " + std::to_string(product.size()) + " ranges)");
  const int P = four_step_primes(digit_limbs);
  const std::size_t d = digit_limbs;
  std::vector<std::size_t> begin_a(G + 1, 0), begin_b(G + 1, 0);
  for (std::size_t g = 0; g < G; ++g) {
    begin_a[g + 1] = begin_a[g] + a[g].count;
    begin_b[g + 1] = begin_b[g] + b[g].count;
  }
  const std::size_t na = begin_a[G], nb = begin_b[G];
  if (na == 0 || nb == 0) throw InvalidArgument(where + "an operand has no limbs");
  const std::size_t limbs = na + nb, digits = (limbs + d - 1) / d;
  // Each part's digits must hold the d + 1 limbs that its sum passes to the next part.
  if (digits / G < 2)
    throw InvalidArgument(where + "a product of " + std::to_string(limbs) + " limbs in digits of " + std::to_string(d) +
                          " over " + std::to_string(G) + " parts leaves a part fewer than 2 digits (the " +
                          std::to_string(d + 1) + " limbs past a part's range must fit in the next part)");
  // The coefficients: at most the shorter operand's digit count of terms, each below 2^(128 d);
  // the first P primes of ntt_primes62 hold them (ntt::digits_primes).
  const std::size_t terms = (std::min(na, nb) + d - 1) / d;
  const int needed = ntt::digits_primes(static_cast<int>(d), terms);
  if (needed == 0 || needed > P)
    throw InvalidArgument(where + "coefficients of " + std::to_string(terms) + " terms of " + std::to_string(d) +
                          "-limb digits need more than " + std::to_string(P) + " primes");
  int max_log_points = 64;
  for (int i = 0; i < P; ++i) max_log_points = std::min(max_log_points, field::ntt_primes62[i].n);
  const FourStepShape shape = four_step_shape(digits, G, max_log_points);
  const Layout lay{G,      std::size_t{1} << shape.log_n1, std::size_t{1} << shape.log_n2, limbs, d, digits,
                   shape.log_n1, shape.log_n2};
  const std::vector<PartRange> ranges_product = [&] {
    std::vector<PartRange> r(G);
    for (std::size_t g = 0; g < G; ++g) r[g] = part_range(limbs, G, g);
    return r;
  }();
  for (std::size_t g = 0; g < G; ++g)
    if (product[g].count != ranges_product[g].count)
      throw InvalidArgument(where + "part " + std::to_string(g) + "'s range of the product has " +
                            std::to_string(product[g].count) + " limbs, want " + std::to_string(ranges_product[g].count));
  const std::size_t log_points = static_cast<std::size_t>(shape.log_n1 + shape.log_n2);

  // The operands' limbs in the column layout, each operand once (limbs travel; the residues
  // of the digits are made where they are needed): d limb columns a digit column.
  std::vector<std::uint64_t*> digits_a(G), digits_b(G);
  std::vector<const std::uint64_t*> src_a(G), src_b(G);
  std::vector<PartRange> ranges_a(G), ranges_b(G), ranges_out(G);
  for (std::size_t h = 0; h < G; ++h) {
    digits_a[h] = steps.allocate(h, lay.columns(h).count * d * lay.n2);
    digits_b[h] = steps.allocate(h, lay.columns(h).count * d * lay.n2);
    src_a[h] = a[h].data;
    src_b[h] = b[h].data;
    ranges_a[h] = {begin_a[h], a[h].count};
    ranges_b[h] = {begin_b[h], b[h].count};
    ranges_out[h] = lay.out(h);
  }
  run_move(steps, comm, ranges_and_columns(lay, ranges_a, true, d), src_a, digits_a);
  run_move(steps, comm, ranges_and_columns(lay, ranges_b, true, d), src_b, digits_b);
  const Move move_rows = transpose(lay, true), move_columns = transpose(lay, false),
             move_out = ranges_and_columns(lay, ranges_out, false);

  std::vector<std::vector<std::uint64_t*>> residues(static_cast<std::size_t>(P), std::vector<std::uint64_t*>(G));
  for (int i = 0; i < P; ++i) {
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
      steps.twiddles(h, tw[h], cols.begin, cols.count, lay.n2, w, p);
      steps.twiddles(h, tw_inv[h], cols.begin, cols.count, lay.n2, w_inv, p);
      cols_a[h] = steps.allocate(h, words);
      cols_b[h] = steps.allocate(h, words);
      rows_a[h] = steps.allocate(h, lay.rows(h).count * lay.n1);
      rows_b[h] = steps.allocate(h, lay.rows(h).count * lay.n1);
      residues[static_cast<std::size_t>(i)][h] = steps.allocate(h, lay.out(h).count);
      // Columns: the digits mod p, n2-point transforms, then the twiddles w^(j1 k2).
      for (auto [limbs_in, col] : {std::pair{digits_a[h], cols_a[h]}, std::pair{digits_b[h], cols_b[h]}}) {
        steps.reduce(h, col, limbs_in, cols.count, lay.n2, d, p);
        ntt_forward(parts[h], col, cols.count, lay.log_n2, p);
        steps.pointwise_mul(h, col, col, tw[h], words, p);
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
      steps.pointwise_mul(q, rows_a[q], rows_a[q], rows_b[q], count * lay.n1, p);
      ntt_inverse(parts[q], rows_a[q], count, lay.log_n1, p);
    }
    run_move(steps, comm, move_columns, {rows_a.begin(), rows_a.end()}, cols_a);
    for (std::size_t h = 0; h < G; ++h) {
      // Twiddles w^(-j1 k2), then the columns' inverse (scales by 1/n2).
      const std::size_t count = lay.columns(h).count;
      steps.pointwise_mul(h, cols_a[h], cols_a[h], tw_inv[h], count * lay.n2, p);
      ntt_inverse(parts[h], cols_a[h], count, lay.log_n2, p);
    }
    run_move(steps, comm, move_out, {cols_a.begin(), cols_a.end()}, residues[static_cast<std::size_t>(i)]);
    for (std::size_t h = 0; h < G; ++h)
      for (std::uint64_t* buffer : {tw[h], tw_inv[h], cols_a[h], cols_b[h], rows_a[h], rows_b[h]}) steps.release(h, buffer);
  }
  for (std::size_t h = 0; h < G; ++h) {
    steps.release(h, digits_a[h]);
    steps.release(h, digits_b[h]);
  }

  // Garner's CRT and each part's own sum (coefficient n at limb (n - first) d), then the d + 1
  // limbs past each part's digits to the next part.
  std::vector<std::uint64_t*> sums(G), incoming(G);
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t count = lay.out(g).count;
    sums[g] = steps.allocate(g, count * d + d + 1);
    incoming[g] = steps.allocate(g, d + 1);
    std::vector<const std::uint64_t*> r(static_cast<std::size_t>(P));
    for (int i = 0; i < P; ++i) r[static_cast<std::size_t>(i)] = residues[static_cast<std::size_t>(i)][g];
    steps.crt_sum(g, sums[g], r, count, d);
    for (int i = 0; i < P; ++i) steps.release(g, residues[static_cast<std::size_t>(i)][g]);
  }
  {
    std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
    std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
    for (std::size_t g = 0; g + 1 < G; ++g) {
      send[g][g + 1] = {sums[g] + lay.out(g).count * d, d + 1};
      recv[g + 1][g] = {incoming[g + 1], d + 1};
    }
    comm.all_to_all(send, recv);
  }
  {
    // The last part: nothing past the product's limbs (its top digit may end past them).
    const std::size_t own = lay.out_limbs(G - 1).count, total = lay.out(G - 1).count * d + d + 1;
    std::vector<std::uint64_t> top(total - own);
    steps.to_host(G - 1, top.data(), sums[G - 1] + own, top.size());
    if (std::any_of(top.begin(), top.end(), [](std::uint64_t v) { return v != 0; }))
      throw std::logic_error(where + "internal: the product has limbs past na + nb");
  }
  // Each part adds what came in: its carry out "generates", a range of all ones
  // "propagates"; the carry into each part is the scan of the parts below it.
  std::uint32_t carry = limb::carry_kill;
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t count = lay.out(g).count * d;
    const auto [carry_out, all_ones] = steps.add_incoming(g, sums[g], count, incoming[g], d + 1);
    if (carry == limb::carry_generate) steps.add_one(g, sums[g], count);
    const std::uint32_t status =
        carry_out ? limb::carry_generate : (all_ones ? limb::carry_propagate : limb::carry_kill);
    carry = limb::CarryCombine{}(carry, status);
    steps.release(g, incoming[g]);
  }
  if (carry == limb::carry_generate) throw std::logic_error(where + "internal: a carry out of the product's top limb");
  // From the digits' limb ranges to the product's (the rule of a Batch's instances): one block
  // a pair of parts whose ranges overlap.
  Move to_product(G);
  {
    std::vector<std::size_t> send_offset(G, 0), recv_offset(G, 0);
    for (std::size_t s = 0; s < G; ++s)
      for (std::size_t t = 0; t < G; ++t) {
        const PartRange from = lay.out_limbs(s), to = ranges_product[t];
        const std::size_t lo = std::max(from.begin, to.begin), hi = std::min(from.begin + from.count, to.begin + to.count);
        if (hi <= lo) continue;
        to_product.send[s].push_back({1, hi - lo, {lo - from.begin, 0, 1}, {send_offset[s], 0, 1}});
        to_product.recv[t].push_back({1, hi - lo, {recv_offset[t], 0, 1}, {lo - to.begin, 0, 1}});
        to_product.counts[s][t] = hi - lo;
        send_offset[s] += hi - lo;
        recv_offset[t] += hi - lo;
      }
  }
  std::vector<std::uint64_t*> out(G);
  for (std::size_t g = 0; g < G; ++g) out[g] = product[g].data;
  run_move(steps, comm, to_product, {sums.begin(), sums.end()}, out);
  for (std::size_t g = 0; g < G; ++g) steps.release(g, sums[g]);
}

std::vector<Words> four_step_mul(const std::vector<Context>& parts, Communicator& comm, const std::vector<Words>& a,
                                 const std::vector<Words>& b, std::size_t digit_limbs) {
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
  four_step_mul(parts, comm, *steps, ra, rb, rp, digit_limbs);
  return product;
}

}  // namespace mpgpu::distributed
