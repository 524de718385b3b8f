// The distributed four-step product over CPU parts (src/distributed/, docs/multi-gpu.md part
// 2) against GMP: the indexing of the all-to-alls, the twiddles, Garner's CRT and the carries
// handed between parts, at 1 to 16 parts and digits of 1, 2 and 4 limbs, with operands split
// over the parts in any way (empty parts too), balanced and unbalanced sizes, and values that
// make long carry chains (all-ones limbs, single high bits, runs that end at a part's edge);
// and the CUDA parts' tiled transpose emulated block by block.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "distributed/four_step_product.hpp"
#include "mpgpu/ntt/crt_many.cuh"
#include "mpgpu/error.hpp"

namespace {

using mpgpu::distributed::four_step_mul;
using mpgpu::distributed::HostCommunicator;
using mpgpu::distributed::part_range;
using Words = std::vector<std::uint64_t>;

std::vector<mpgpu::Context> cpu_parts(std::size_t g) { return std::vector<mpgpu::Context>(g, mpgpu::Context::cpu()); }

/// x cut into `parts` contiguous ranges of random sizes (some empty when the rng says so).
std::vector<Words> split_randomly(const Words& x, std::size_t parts, std::mt19937_64& rng) {
  std::vector<std::size_t> cuts = {0, x.size()};
  for (std::size_t i = 1; i < parts; ++i) cuts.push_back(rng() % (x.size() + 1));
  std::sort(cuts.begin(), cuts.end());
  std::vector<Words> out(parts);
  for (std::size_t i = 0; i < parts; ++i) out[i].assign(x.begin() + cuts[i], x.begin() + cuts[i + 1]);
  return out;
}

Words gmp_product(const Words& a, const Words& b) {
  Words r(a.size() + b.size(), 0);
  mpn_mul(reinterpret_cast<mp_limb_t*>(r.data()), reinterpret_cast<const mp_limb_t*>(a.size() >= b.size() ? a.data() : b.data()),
          static_cast<mp_size_t>(std::max(a.size(), b.size())),
          reinterpret_cast<const mp_limb_t*>(a.size() >= b.size() ? b.data() : a.data()),
          static_cast<mp_size_t>(std::min(a.size(), b.size())));
  return r;
}

/// Runs the product over `parts` CPU parts and checks every part's range against GMP.
/// Runs the product over `parts` CPU parts with digits of 1, 2 and 4 limbs (those the sizes
/// allow: 2 digits a part) and checks every part's range against GMP.
void check(const Words& a, const Words& b, std::size_t parts, std::mt19937_64& rng, const std::string& what) {
  HostCommunicator comm(parts);
  const std::vector<Words> pa = split_randomly(a, parts, rng), pb = split_randomly(b, parts, rng);
  const Words want = gmp_product(a, b);
  for (std::size_t d : {std::size_t{1}, std::size_t{2}, std::size_t{4}}) {
    if ((want.size() + d - 1) / d / parts < 2) continue;
    const std::vector<Words> got = four_step_mul(cpu_parts(parts), comm, pa, pb, d);
    ASSERT_EQ(got.size(), parts) << what;
    for (std::size_t g = 0; g < parts; ++g) {
      const auto range = part_range(want.size(), parts, g);
      ASSERT_EQ(got[g].size(), range.count) << what << ", part " << g;
      for (std::size_t k = 0; k < range.count; ++k)
        ASSERT_EQ(got[g][k], want[range.begin + k])
            << what << ": " << a.size() << " x " << b.size() << " limbs over " << parts << " parts, digits of " << d
            << " limbs, limb " << range.begin + k << " (part " << g << ")";
    }
  }
}

Words random_words(std::size_t n, std::mt19937_64& rng) {
  Words w(n);
  for (auto& v : w) v = rng();
  return w;
}

TEST(FourStepProduct, RandomOperandsOverOneToFiveParts) {
  std::mt19937_64 rng(20261129);
  for (std::size_t parts = 1; parts <= 5; ++parts)
    for (std::size_t na : {std::size_t{8}, std::size_t{33}, std::size_t{200}, std::size_t{1024}, std::size_t{3001}})
      for (std::size_t nb : {std::size_t{8}, std::size_t{97}, std::size_t{1024}}) {
        if ((na + nb) / parts < 2) continue;
        check(random_words(na, rng), random_words(nb, rng), parts, rng, "random");
      }
}

TEST(FourStepProduct, UnbalancedAndTinyOperands) {
  std::mt19937_64 rng(7);
  for (std::size_t parts : {1, 2, 3, 4})
    for (auto [na, nb] : std::vector<std::pair<std::size_t, std::size_t>>{{4000, 1}, {1, 4000}, {2000, 3}, {12, 1}, {1, 11}}) {
      if ((na + nb) / parts < 2) continue;
      check(random_words(na, rng), random_words(nb, rng), parts, rng, "unbalanced");
    }
}

TEST(FourStepProduct, CarryChainsAcrossParts) {
  std::mt19937_64 rng(11);
  const std::uint64_t ones = ~std::uint64_t{0};
  for (std::size_t parts = 1; parts <= 5; ++parts)
    for (std::size_t n : {std::size_t{6}, std::size_t{64}, std::size_t{515}, std::size_t{2048}}) {
      if (2 * n / parts < 2) continue;
      const Words all_ones(n, ones);
      check(all_ones, all_ones, parts, rng, "all ones squared");  // (2^k - 1)^2: a run of ones, then zeros
      Words high_bit(n, 0);
      high_bit.back() = std::uint64_t{1} << 63;
      check(high_bit, all_ones, parts, rng, "single high bit times all ones");
      Words one_plus(n, 0);  // 2^(64(n-1)) + 1: a x (2^k + 1) adds a to itself shifted
      one_plus.front() = 1;
      one_plus.back() = 1;
      check(all_ones, one_plus, parts, rng, "all ones times 2^k + 1");
      Words zeros(n, 0);
      check(zeros, all_ones, parts, rng, "zero");
      Words alternating(n, 0xAAAAAAAAAAAAAAAAull);
      check(alternating, all_ones, parts, rng, "alternating bits");
    }
}

TEST(FourStepProduct, RunsOfSpecialLimbsOverFourToSixParts) {
  // Operands made of runs of 0, all ones, 1, all ones - 1 and 2^63 times a short operand of
  // such limbs: products whose ranges are often all ones or end in a carry, so that a carry
  // from one part crosses a whole part of all ones into the next (the "propagate" status;
  // with fewer than four parts no carry can cross a part). Checked to fail when the
  // propagate status is ignored.
  std::mt19937_64 rng(1);
  const std::uint64_t special[] = {0, ~std::uint64_t{0}, 1, ~std::uint64_t{0} - 1, std::uint64_t{1} << 63};
  for (int round = 0; round < 400; ++round) {
    const std::size_t parts = 4 + rng() % 3, na = 3 + rng() % 60, nb = 1 + rng() % 4;
    if ((na + nb) / parts < 2) continue;
    Words a(na), b(nb);
    for (std::size_t i = 0; i < na;) {
      const std::uint64_t v = special[rng() % 5];
      for (std::size_t run = 1 + rng() % 20; run > 0 && i < na; --run) a[i++] = v;
    }
    for (auto& v : b) v = special[rng() % 5];
    check(a, b, parts, rng, "runs of special limbs");
  }
}

TEST(FourStepProduct, ManyPartsAndLargerOperands) {
  // 16 parts (n1 >= 16: rows and columns of one or two a part) and operands of 2^14 limbs.
  std::mt19937_64 rng(3);
  for (std::size_t parts : {std::size_t{7}, std::size_t{16}}) {
    check(random_words(std::size_t{1} << 14, rng), random_words((std::size_t{1} << 14) - 5, rng), parts, rng, "large");
    check(random_words(48, rng), random_words(3000, rng), parts, rng, "unbalanced over many parts");
  }
}

TEST(FourStepProduct, ShapesAtTheirEdges) {
  // Products of exactly L = 2^k limbs, one fewer and one more (the next shape), the fewest
  // limbs a part allows (2 digits a part), and up to 8 parts (n1 = parts: one column a part).
  std::mt19937_64 rng(5);
  for (std::size_t parts = 1; parts <= 8; ++parts) {
    std::vector<std::size_t> totals = {2 * parts, 2 * parts + 1, 8 * parts, 8 * parts + 3};
    for (std::size_t l = 16; l <= 4096; l *= 4)
      for (std::size_t t : {l - 1, l, l + 1})
        if (t / parts >= 2) totals.push_back(t);
    for (std::size_t total : totals) {
      const std::size_t na = std::max<std::size_t>(1, total / 3), nb = total - na;
      check(random_words(na, rng), random_words(nb, rng), parts, rng, "edge of a shape");
      const auto shape = mpgpu::distributed::four_step_shape(total, parts);
      ASSERT_GE(std::size_t{1} << (shape.log_n1 + shape.log_n2), total);
      ASSERT_GE(std::size_t{1} << shape.log_n1, parts);
      ASSERT_LE(shape.log_n1, shape.log_n2);
      ASSERT_LE(shape.log_n2, shape.log_n1 + 1);
    }
  }
}

/// The CUDA parts' tiled transpose (transpose_rect_kernel) emulated on the host: the same
/// tile_word for every thread of every 32 x 8 block, the tile's two phases in order.
void emulate_tiled_transpose(Words& dst, const Words& src, const mpgpu::distributed::Rect& r, bool along_j) {
  std::uint64_t tile[32][33];
  for (std::size_t i0 = 0; i0 < r.rows; i0 += 32)
    for (std::size_t j0 = 0; j0 < r.columns; j0 += 32)
      for (bool reading : {true, false})
        for (unsigned ty = 0; ty < 8; ++ty)
          for (unsigned tx = 0; tx < 32; ++tx)
            for (unsigned k = ty; k < 32; k += 8) {
              std::size_t i, j;
              mpgpu::distributed::tile_word(along_j, reading, i0, j0, tx, k, i, j);
              if (i >= r.rows || j >= r.columns) continue;
              if (reading) tile[k][tx] = src[r.from.offset + i * r.from.row_stride + j * r.from.col_stride];
              else dst[r.to.offset + i * r.to.row_stride + j * r.to.col_stride] = tile[tx][k];
            }
}

TEST(FourStepProduct, TiledTransposeMovesEveryWordOnce) {
  std::mt19937_64 rng(17);
  for (int round = 0; round < 200; ++round) {
    // At least 2 rows: with one row and no padding both sides are contiguous (no transpose).
    const std::size_t rows = 2 + rng() % 90, columns = 1 + rng() % 90, pad = rng() % 3, at = rng() % 5;
    const bool along_j = round % 2 == 0;
    mpgpu::distributed::Rect r{rows, columns, {}, {}};
    if (along_j) {  // read rows contiguous along j, write columns contiguous along i
      r.from = {at, columns + pad, 1};
      r.to = {at + 1, 1, rows + pad};
    } else {
      r.from = {at, 1, rows + pad};
      r.to = {at + 2, columns + pad, 1};
    }
    ASSERT_EQ(mpgpu::distributed::transposes_along_j(r), along_j);
    ASSERT_EQ(mpgpu::distributed::transposes_along_i(r), !along_j);
    const std::size_t words = at + 2 + (rows + pad) * (columns + pad) + rows + columns;
    Words src = random_words(words, rng), want(words, 0), got(words, 0);
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < columns; ++j)
        want[r.to.offset + i * r.to.row_stride + j * r.to.col_stride] =
            src[r.from.offset + i * r.from.row_stride + j * r.from.col_stride];
    emulate_tiled_transpose(got, src, r, along_j);
    ASSERT_EQ(got, want) << rows << " x " << columns << (along_j ? ", along j" : ", along i");
  }
  // A row copy (one side's row stride unused) is no transpose.
  const mpgpu::distributed::Rect row{1, 10, {0, 0, 1}, {5, 0, 1}};
  EXPECT_FALSE(mpgpu::distributed::transposes_along_j(row));
  EXPECT_FALSE(mpgpu::distributed::transposes_along_i(row));
}

/// The CUDA parts' crt_sum emulated: Garner's words a coefficient in planes (as crt_kernel),
/// column_word for every limb, then the carries; against the host parts' crt_sum.
template <int P>
void check_column_words(std::size_t n, std::mt19937_64& rng) {
  constexpr std::size_t d = (P - 1) / 2;
  std::vector<Words> residues(P, Words(n));
  std::vector<const std::uint64_t*> r(P);
  for (int i = 0; i < P; ++i) {
    for (auto& v : residues[i]) v = rng() % mpgpu::field::ntt_primes62[i].p;
    r[i] = residues[i].data();
  }
  Words want(n * d + d + 1), planes(P * n);
  mpgpu::distributed::make_host_part_steps(1)->crt_sum(0, want.data(), r, n, d);
  const mpgpu::ntt::CrtMany<P> crt = mpgpu::ntt::CrtMany<P>::make();
  for (std::size_t k = 0; k < n; ++k) {
    std::uint64_t in[P], out[P];
    for (int i = 0; i < P; ++i) in[i] = residues[i][k];
    crt.template combine<P>(in, out);
    for (int t = 0; t < P; ++t) planes[t * n + k] = out[t];
  }
  Words got(n * d + d + 1);
  unsigned __int128 carry = 0;
  for (std::size_t m = 0; m < got.size(); ++m) {
    const unsigned __int128 s = mpgpu::distributed::column_word(planes.data(), n, d, m) + carry;
    got[m] = static_cast<std::uint64_t>(s);
    carry = s >> 64;
  }
  EXPECT_EQ(carry, 0u);
  EXPECT_EQ(got, want) << P << " primes, " << n << " coefficients";
}

TEST(FourStepProduct, ColumnWordsSumTheCoefficientsAsTheHostDoes) {
  std::mt19937_64 rng(23);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{100}}) {
    check_column_words<3>(n, rng);
    check_column_words<5>(n, rng);
    check_column_words<9>(n, rng);
  }
}

TEST(FourStepProduct, BadInputIsRefusedWithAReason) {
  HostCommunicator comm(2);
  const Words a(8, 1);
  // The communicator's parts and the contexts differ.
  EXPECT_THROW(four_step_mul(cpu_parts(3), comm, {a, a, a}, {a, a, a}), mpgpu::InvalidArgument);
  // An operand without limbs.
  EXPECT_THROW(four_step_mul(cpu_parts(2), comm, {Words{}, Words{}}, {a, a}), mpgpu::InvalidArgument);
  // Too few limbs of the product a part.
  HostCommunicator comm5(5);
  EXPECT_THROW(four_step_mul(cpu_parts(5), comm5, {Words(1, 1), {}, {}, {}, {}}, {Words(1, 1), {}, {}, {}, {}}),
               mpgpu::InvalidArgument);
  try {
    four_step_mul(cpu_parts(5), comm5, {Words(2, 1), {}, {}, {}, {}}, {Words(2, 1), {}, {}, {}, {}});
    ADD_FAILURE() << "no exception";
  } catch (const mpgpu::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("fewer than 2 digits"), std::string::npos) << e.what();
  }
  // Digits of a size without a prime set.
  EXPECT_THROW(four_step_mul(cpu_parts(2), comm, {a, a}, {a, a}, 3), mpgpu::InvalidArgument);
  // The communicator checks that every block has a place of its size.
  Words x(4, 0), y(3, 0);
  EXPECT_THROW(comm.all_to_all({{{x.data(), 4}, {}}, {{}, {}}}, {{{y.data(), 3}, {}}, {{}, {}}}),
               mpgpu::InvalidArgument);
}

}  // namespace
