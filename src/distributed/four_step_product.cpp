#include "distributed/four_step_product.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt.hpp"
#include "mpgpu/ntt/crt3.cuh"

namespace mpgpu::distributed {

PartRange part_range(std::size_t total, std::size_t parts, std::size_t part) {
  const std::size_t base = total / parts, extra = total % parts;
  return {part * base + std::min(part, extra), base + (part < extra ? 1 : 0)};
}

namespace {

using Words = std::vector<std::uint64_t>;
using u128 = unsigned __int128;

// The CRT set of field::ntt_primes62 (the first three: transforms of up to 2^53 points).
constexpr int kPrimes = 3;
constexpr int kMaxLogPoints = 53;

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>(static_cast<u128>(a) * b % p);
}

std::uint64_t pow_mod(std::uint64_t base, std::uint64_t e, std::uint64_t p) {
  std::uint64_t r = 1 % p;
  for (base %= p; e != 0; e >>= 1, base = mul_mod(base, base, p))
    if (e & 1) r = mul_mod(r, base, p);
  return r;
}

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

/// An operand's digits from its parts' contiguous limb ranges to the columns (all-to-all 1):
/// part h gets x[j1 + n1 j2] for its j1, all j2, as columns of n2 words (zero past the operand).
std::vector<Words> to_columns(const Layout& lay, Communicator& comm, const std::vector<Words>& x) {
  const std::size_t G = lay.parts;
  std::vector<std::size_t> begin(G + 1, 0);
  for (std::size_t g = 0; g < G; ++g) begin[g + 1] = begin[g] + x[g].size();
  std::vector<std::vector<Words>> out(G, std::vector<Words>(G)), in(G, std::vector<Words>(G));
  std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
  std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t h = 0; h < G; ++h) {
      Words& block = out[g][h];
      for_each_in_columns(begin[g], begin[g + 1], lay.columns(h), lay.n1,
                          [&](std::size_t, std::size_t n) { block.push_back(x[g][n - begin[g]]); });
      in[h][g].resize(block.size());
      send[g][h] = {block.data(), block.size()};
      recv[h][g] = {in[h][g].data(), in[h][g].size()};
    }
  comm.all_to_all(send, recv);
  std::vector<Words> columns(G);
  for (std::size_t h = 0; h < G; ++h) {
    const PartRange cols = lay.columns(h);
    columns[h].assign(cols.count * lay.n2, 0);
    for (std::size_t g = 0; g < G; ++g)
      for_each_in_columns(begin[g], begin[g + 1], cols, lay.n1, [&](std::size_t k, std::size_t n) {
        columns[h][(n % lay.n1 - cols.begin) * lay.n2 + n / lay.n1] = in[h][g][k];
      });
  }
  return columns;
}

/// The transpose between the column layout (part h: [j1 - its first][k2], all k2) and the
/// row layout (part q: [k2 - its first][j1], all j1), either way (all-to-alls 2 and 3).
std::vector<Words> columns_to_rows(const Layout& lay, Communicator& comm, const std::vector<Words>& columns) {
  const std::size_t G = lay.parts;
  std::vector<std::vector<Words>> out(G, std::vector<Words>(G)), in(G, std::vector<Words>(G));
  std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
  std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
  for (std::size_t h = 0; h < G; ++h)
    for (std::size_t q = 0; q < G; ++q) {
      const PartRange cols = lay.columns(h), rows = lay.rows(q);
      Words& block = out[h][q];
      block.resize(rows.count * cols.count);
      for (std::size_t r = 0; r < rows.count; ++r)
        for (std::size_t c = 0; c < cols.count; ++c) block[r * cols.count + c] = columns[h][c * lay.n2 + rows.begin + r];
      in[q][h].resize(block.size());
      send[h][q] = {block.data(), block.size()};
      recv[q][h] = {in[q][h].data(), in[q][h].size()};
    }
  comm.all_to_all(send, recv);
  std::vector<Words> rows_out(G);
  for (std::size_t q = 0; q < G; ++q) {
    const PartRange rows = lay.rows(q);
    rows_out[q].assign(rows.count * lay.n1, 0);
    for (std::size_t h = 0; h < G; ++h) {
      const PartRange cols = lay.columns(h);
      for (std::size_t r = 0; r < rows.count; ++r)
        for (std::size_t c = 0; c < cols.count; ++c) rows_out[q][r * lay.n1 + cols.begin + c] = in[q][h][r * cols.count + c];
    }
  }
  return rows_out;
}

std::vector<Words> rows_to_columns(const Layout& lay, Communicator& comm, const std::vector<Words>& rows) {
  const std::size_t G = lay.parts;
  std::vector<std::vector<Words>> out(G, std::vector<Words>(G)), in(G, std::vector<Words>(G));
  std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
  std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
  for (std::size_t q = 0; q < G; ++q)
    for (std::size_t h = 0; h < G; ++h) {
      const PartRange r_range = lay.rows(q), cols = lay.columns(h);
      Words& block = out[q][h];
      block.resize(r_range.count * cols.count);
      for (std::size_t r = 0; r < r_range.count; ++r)
        for (std::size_t c = 0; c < cols.count; ++c) block[c * r_range.count + r] = rows[q][r * lay.n1 + cols.begin + c];
      in[h][q].resize(block.size());
      send[q][h] = {block.data(), block.size()};
      recv[h][q] = {in[h][q].data(), in[h][q].size()};
    }
  comm.all_to_all(send, recv);
  std::vector<Words> columns(G);
  for (std::size_t h = 0; h < G; ++h) {
    const PartRange cols = lay.columns(h);
    columns[h].assign(cols.count * lay.n2, 0);
    for (std::size_t q = 0; q < G; ++q) {
      const PartRange r_range = lay.rows(q);
      for (std::size_t c = 0; c < cols.count; ++c)
        for (std::size_t r = 0; r < r_range.count; ++r)
          columns[h][c * lay.n2 + r_range.begin + r] = in[h][q][c * r_range.count + r];
    }
  }
  return columns;
}

/// The coefficients from the column layout to the contiguous output ranges (all-to-all 4).
std::vector<Words> columns_to_ranges(const Layout& lay, Communicator& comm, const std::vector<Words>& columns) {
  const std::size_t G = lay.parts;
  std::vector<std::vector<Words>> out(G, std::vector<Words>(G)), in(G, std::vector<Words>(G));
  std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
  std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
  for (std::size_t h = 0; h < G; ++h)
    for (std::size_t g = 0; g < G; ++g) {
      const PartRange cols = lay.columns(h), range = lay.out(g);
      Words& block = out[h][g];
      for_each_in_columns(range.begin, range.begin + range.count, cols, lay.n1, [&](std::size_t, std::size_t n) {
        block.push_back(columns[h][(n % lay.n1 - cols.begin) * lay.n2 + n / lay.n1]);
      });
      in[g][h].resize(block.size());
      send[h][g] = {block.data(), block.size()};
      recv[g][h] = {in[g][h].data(), in[g][h].size()};
    }
  comm.all_to_all(send, recv);
  std::vector<Words> ranges(G);
  for (std::size_t g = 0; g < G; ++g) {
    const PartRange range = lay.out(g);
    ranges[g].assign(range.count, 0);
    for (std::size_t h = 0; h < G; ++h)
      for_each_in_columns(range.begin, range.begin + range.count, lay.columns(h), lay.n1,
                          [&](std::size_t k, std::size_t n) { ranges[g][n - range.begin] = in[g][h][k]; });
  }
  return ranges;
}

/// w^(+-j1 k2) for part h's columns, in the column layout.
Words twiddles(const Layout& lay, PartRange cols, std::uint64_t w, std::uint64_t p) {
  Words t(cols.count * lay.n2);
  for (std::size_t c = 0; c < cols.count; ++c) {
    const std::uint64_t step = pow_mod(w, cols.begin + c, p);
    std::uint64_t v = 1;
    for (std::size_t k2 = 0; k2 < lay.n2; ++k2, v = mul_mod(v, step, p)) t[c * lay.n2 + k2] = v;
  }
  return t;
}

/// One operand's spectrum mod p in the row layout, from its digits in the column layout.
std::vector<Words> forward(const Layout& lay, const std::vector<Context>& parts, Communicator& comm,
                           const std::vector<Words>& digits, const std::vector<Words>& tw, std::uint64_t p) {
  std::vector<Words> cols(lay.parts);
  for (std::size_t h = 0; h < lay.parts; ++h) {
    cols[h].resize(digits[h].size());
    std::transform(digits[h].begin(), digits[h].end(), cols[h].begin(), [p](std::uint64_t d) { return d % p; });
    const std::size_t count = lay.columns(h).count;
    ntt_forward(parts[h], cols[h].data(), count, lay.log_n2, p);
    ntt_pointwise_mul(parts[h], cols[h].data(), cols[h].data(), tw[h].data(), cols[h].size(), p);
  }
  std::vector<Words> rows = columns_to_rows(lay, comm, cols);
  for (std::size_t q = 0; q < lay.parts; ++q) ntt_forward(parts[q], rows[q].data(), lay.rows(q).count, lay.log_n1, p);
  return rows;
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

std::vector<Words> four_step_mul(const std::vector<Context>& parts, Communicator& comm, const std::vector<Words>& a,
                                 const std::vector<Words>& b) {
  const std::string where = "four_step_mul: ";
  const std::size_t G = parts.size();
  if (G == 0 || comm.parts() != G || a.size() != G || b.size() != G)
    throw InvalidArgument(where + "want one context, one communicator part and one range of each operand a part (" +
                          std::to_string(G) + " contexts, " + std::to_string(comm.parts()) + " communicator parts, " +
                          std::to_string(a.size()) + " and " + std::to_string(b.size()) + " ranges)");
  for (std::size_t g = 0; g < G; ++g)
    if (parts[g].is_cuda())
      throw InvalidArgument(where + "part " + std::to_string(g) +
                            " is a CUDA context; this step of the distributed product runs on CPU parts only");
  std::size_t na = 0, nb = 0;
  for (std::size_t g = 0; g < G; ++g) {
    na += a[g].size();
    nb += b[g].size();
  }
  if (na == 0 || nb == 0) throw InvalidArgument(where + "an operand has no limbs");
  const std::size_t limbs = na + nb;
  if (limbs / G < 3)
    throw InvalidArgument(where + "a product of " + std::to_string(limbs) + " limbs over " + std::to_string(G) +
                          " parts leaves a part fewer than 3 limbs (a carry must cross at most the next part)");
  const FourStepShape shape = four_step_shape(limbs, G);
  const Layout lay{G, std::size_t{1} << shape.log_n1, std::size_t{1} << shape.log_n2, limbs, shape.log_n1, shape.log_n2};
  const std::size_t log_points = static_cast<std::size_t>(shape.log_n1 + shape.log_n2);

  const std::vector<Words> digits_a = to_columns(lay, comm, a), digits_b = to_columns(lay, comm, b);
  std::vector<std::vector<Words>> residues(kPrimes);  // [prime][part]: coefficients mod p in the output ranges
  for (int i = 0; i < kPrimes; ++i) {
    const field::NttPrime& prime = field::ntt_primes62[i];
    const std::uint64_t p = prime.p;
    const std::uint64_t w = pow_mod(prime.generator, (p - 1) >> log_points, p);  // order L, as ntt_forward's roots
    const std::uint64_t w_inv = pow_mod(w, (std::uint64_t{1} << log_points) - 1, p);
    std::vector<Words> tw(G), tw_inv(G);
    for (std::size_t h = 0; h < G; ++h) {
      tw[h] = twiddles(lay, lay.columns(h), w, p);
      tw_inv[h] = twiddles(lay, lay.columns(h), w_inv, p);
    }
    std::vector<Words> spectrum = forward(lay, parts, comm, digits_a, tw, p);
    const std::vector<Words> spectrum_b = forward(lay, parts, comm, digits_b, tw, p);
    for (std::size_t q = 0; q < G; ++q) {
      ntt_pointwise_mul(parts[q], spectrum[q].data(), spectrum[q].data(), spectrum_b[q].data(), spectrum[q].size(), p);
      ntt_inverse(parts[q], spectrum[q].data(), lay.rows(q).count, lay.log_n1, p);  // scales by 1/n1
    }
    std::vector<Words> cols = rows_to_columns(lay, comm, spectrum);
    for (std::size_t h = 0; h < G; ++h) {
      ntt_pointwise_mul(parts[h], cols[h].data(), cols[h].data(), tw_inv[h].data(), cols[h].size(), p);
      ntt_inverse(parts[h], cols[h].data(), lay.columns(h).count, lay.log_n2, p);  // scales by 1/n2
    }
    residues[i] = columns_to_ranges(lay, comm, cols);
  }

  // CRT and each part's own sum: coefficient n (three limbs) at limb n - begin.
  const ntt::Crt3 crt = ntt::Crt3::make(field::ntt_primes62[0].p, field::ntt_primes62[1].p, field::ntt_primes62[2].p);
  std::vector<Words> sums(G);
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t count = lay.out(g).count;
    Words& acc = sums[g];
    acc.assign(count + 3, 0);
    for (std::size_t k = 0; k < count; ++k) {
      std::uint64_t c[3];
      crt.combine(residues[0][g][k], residues[1][g][k], residues[2][g][k], c);
      unsigned carry = 0;
      for (std::size_t j = 0; j < 3 || carry; ++j) {
        const u128 s = static_cast<u128>(acc[k + j]) + (j < 3 ? c[j] : 0) + carry;
        acc[k + j] = static_cast<std::uint64_t>(s);
        carry = static_cast<unsigned>(s >> 64);
      }
    }
  }
  // The limbs past each range go to the next part (an all-to-all with one nonempty block a part).
  std::vector<Words> incoming(G, Words(3, 0));
  {
    std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
    std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
    for (std::size_t g = 0; g + 1 < G; ++g) {
      send[g][g + 1] = {sums[g].data() + lay.out(g).count, 3};
      recv[g + 1][g] = {incoming[g + 1].data(), 3};
    }
    comm.all_to_all(send, recv);
  }
  const Words& top = sums[G - 1];
  if (top[lay.out(G - 1).count] != 0 || top[lay.out(G - 1).count + 1] != 0 || top[lay.out(G - 1).count + 2] != 0)
    throw std::logic_error(where + "internal: the product has limbs past na + nb");
  // Each part adds what came in: its carry out is its "generate"; a range of all ones
  // "propagates". Every part learns every pair (an all-gather as an all-to-all of 2 words).
  Words status(2 * G, 0);
  std::vector<Words> gathered(G, Words(2 * G, 0));
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t count = lay.out(g).count;
    Words& acc = sums[g];
    unsigned carry = 0;
    for (std::size_t j = 0; j < count && (j < 3 || carry); ++j) {
      const u128 s = static_cast<u128>(acc[j]) + (j < 3 ? incoming[g][j] : 0) + carry;
      acc[j] = static_cast<std::uint64_t>(s);
      carry = static_cast<unsigned>(s >> 64);
    }
    status[2 * g] = carry;
    status[2 * g + 1] = std::all_of(acc.begin(), acc.begin() + count, [](std::uint64_t v) { return v == ~std::uint64_t{0}; });
  }
  {
    std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
    std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t h = 0; h < G; ++h) {
        send[g][h] = {status.data() + 2 * g, 2};
        recv[h][g] = {gathered[h].data() + 2 * g, 2};
      }
    comm.all_to_all(send, recv);
  }
  std::vector<Words> product(G);
  for (std::size_t g = 0; g < G; ++g) {
    std::uint64_t carry_in = 0;
    for (std::size_t e = 0; e < g; ++e) carry_in = gathered[g][2 * e] | (gathered[g][2 * e + 1] & carry_in);
    const std::size_t count = lay.out(g).count;
    Words& acc = sums[g];
    for (std::size_t j = 0; j < count && carry_in; ++j) carry_in = ++acc[j] == 0;
    if (g + 1 == G && (carry_in || gathered[g][2 * g]))
      throw std::logic_error(where + "internal: a carry out of the product's top limb");
    acc.resize(count);
    product[g] = std::move(acc);
  }
  return product;
}

}  // namespace mpgpu::distributed
