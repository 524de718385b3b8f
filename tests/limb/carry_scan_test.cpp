// limb/carry_status.cuh: the carry-lookahead algebra behind the device's
// one-pass add and sub. The host model below runs the device algorithm's
// structure -- tiles of `threads` x `items` limbs; per-thread and per-tile
// aggregates reduced with CarryCombine; an exclusive scan over the tiles
// (the decoupled look-back's result); then, inside each tile, an exclusive
// scan over threads seeded with the tile's prefix and a sequential pass over
// each thread's items -- and must agree with mpn_add_n / mpn_sub_n,
// including carries that run across many tiles.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "mpgpu/limb/arith.cuh"
#include "mpgpu/limb/carry_status.cuh"
#include "support/operands.hpp"

namespace {

using mpgpu::limb_t;
namespace limb = mpgpu::limb;
using mpgpu_test::Mpz;
using mpgpu_test::Operands;

struct Shape {
  std::size_t threads, items;
  std::size_t tile() const { return threads * items; }
};
void PrintTo(const Shape& s, std::ostream* os) { *os << s.threads << " threads x " << s.items << " items"; }

struct ScanResult {
  std::vector<limb_t> r;
  limb_t carry_out;
};

/// r = a +/- b over n limbs with the blocked two-level scan; carry_out is the
/// carry (or borrow) out of the top limb.
ScanResult blocked_add_sub(bool subtract, const std::vector<limb_t>& a, const std::vector<limb_t>& b,
                           Shape shape) {
  const std::size_t n = a.size();
  const limb::CarryCombine combine;
  std::vector<limb_t> wrapped(n);
  std::vector<std::uint32_t> status(n);
  for (std::size_t i = 0; i < n; ++i) {
    wrapped[i] = subtract ? a[i] - b[i] : a[i] + b[i];
    status[i] = subtract ? limb::sub_status(a[i], b[i], wrapped[i]) : limb::add_status(a[i], wrapped[i]);
  }
  const std::size_t tiles = (n + shape.tile() - 1) / shape.tile();
  auto thread_begin = [&](std::size_t t, std::size_t k) { return std::min(n, t * shape.tile() + k * shape.items); };

  // Pass 1: aggregates. carry_propagate is CarryCombine's identity.
  std::vector<std::uint32_t> tile_aggregate(tiles, limb::carry_propagate);
  std::vector<std::uint32_t> thread_aggregate(tiles * shape.threads, limb::carry_propagate);
  for (std::size_t t = 0; t < tiles; ++t)
    for (std::size_t k = 0; k < shape.threads; ++k) {
      std::uint32_t& agg = thread_aggregate[t * shape.threads + k];
      for (std::size_t i = thread_begin(t, k); i < thread_begin(t, k + 1); ++i) agg = combine(agg, status[i]);
      tile_aggregate[t] = combine(tile_aggregate[t], agg);
    }

  // Pass 2: exclusive scan over tiles, starting from "no carry into limb 0".
  std::vector<std::uint32_t> tile_prefix(tiles);
  std::uint32_t running = limb::carry_kill;
  for (std::size_t t = 0; t < tiles; ++t) {
    tile_prefix[t] = running;
    running = combine(running, tile_aggregate[t]);
  }

  // Pass 3: inside each tile, exclusive scan over threads, then items.
  ScanResult out{std::vector<limb_t>(n), running == limb::carry_generate};
  for (std::size_t t = 0; t < tiles; ++t) {
    std::uint32_t thread_prefix = tile_prefix[t];
    for (std::size_t k = 0; k < shape.threads; ++k) {
      std::uint32_t prefix = thread_prefix;
      for (std::size_t i = thread_begin(t, k); i < thread_begin(t, k + 1); ++i) {
        const unsigned carry_in = prefix == limb::carry_generate;
        out.r[i] = subtract ? wrapped[i] - carry_in : wrapped[i] + carry_in;
        prefix = combine(prefix, status[i]);
      }
      thread_prefix = combine(thread_prefix, thread_aggregate[t * shape.threads + k]);
    }
  }
  return out;
}

/// The sequential reference built from add_with_carry / sub_with_borrow.
ScanResult ripple_add_sub(bool subtract, const std::vector<limb_t>& a, const std::vector<limb_t>& b) {
  ScanResult out{std::vector<limb_t>(a.size()), 0};
  limb_t c = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    c = subtract ? limb::sub_with_borrow(a[i], b[i], static_cast<unsigned>(c), out.r[i])
                 : limb::add_with_carry(a[i], b[i], static_cast<unsigned>(c), out.r[i]);
  out.carry_out = c;
  return out;
}

ScanResult gmp_add_sub(bool subtract, const std::vector<limb_t>& a, const std::vector<limb_t>& b) {
  ScanResult out{std::vector<limb_t>(a.size()), 0};
  auto* rp = reinterpret_cast<mp_limb_t*>(out.r.data());
  auto* ap = reinterpret_cast<const mp_limb_t*>(a.data());
  auto* bp = reinterpret_cast<const mp_limb_t*>(b.data());
  const auto n = static_cast<mp_size_t>(a.size());
  out.carry_out = subtract ? mpn_sub_n(rp, ap, bp, n) : mpn_add_n(rp, ap, bp, n);
  return out;
}

::testing::AssertionResult same(const ScanResult& got, const ScanResult& want) {
  if (got.carry_out != want.carry_out)
    return ::testing::AssertionFailure() << "carry out " << got.carry_out << ", expected " << want.carry_out;
  for (std::size_t i = 0; i < want.r.size(); ++i)
    if (got.r[i] != want.r[i])
      return ::testing::AssertionFailure() << "limb " << i << " is 0x" << std::hex << got.r[i]
                                           << ", expected 0x" << want.r[i];
  return ::testing::AssertionSuccess();
}

std::vector<limb_t> limbs_of(const Mpz& v, std::size_t n) {
  std::vector<limb_t> out(n, 0);
  for (std::size_t i = 0; i < n && i < v.limbs(); ++i) out[i] = mpz_getlimbn(v, i);
  return out;
}

/// Operand pairs of n limbs that stress the scan: full chains, chains broken
/// at tile edges, long runs, equal operands, random.
std::vector<std::pair<std::vector<limb_t>, std::vector<limb_t>>> adversarial_pairs(std::size_t n,
                                                                                  std::size_t tile,
                                                                                  Operands& gen) {
  const limb_t ones = ~limb_t{0};
  std::vector<std::pair<std::vector<limb_t>, std::vector<limb_t>>> pairs;
  std::vector<limb_t> zeros(n, 0), all_ones(n, ones), one(n, 0);
  one[0] = 1;
  pairs.push_back({all_ones, one});        // add: carry through every limb; sub: no borrow
  pairs.push_back({zeros, one});           // sub: borrow through every limb
  pairs.push_back({all_ones, all_ones});   // generate everywhere / equal operands
  pairs.push_back({zeros, zeros});
  // Chains of propagates broken by a kill or generate at each tile edge.
  for (std::size_t edge : {tile - 1, tile, tile + 1, n - 1}) {
    if (edge >= n) continue;
    std::vector<limb_t> a = all_ones, b = one;
    a[edge] = 0;  // add: kills the carry here
    pairs.push_back({a, b});
    b = zeros;
    b[edge] = 1;  // sub of zeros - 2^(64*edge): borrow from the edge to the top
    pairs.push_back({zeros, b});
  }
  // a + ~a is all propagate; one generate then ripples to the top.
  for (int round = 0; round < 4; ++round) {
    std::vector<limb_t> a = limbs_of(gen.runs(64 * n), n), b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = ~a[i];
    if (round & 1) {
      std::size_t g = gen.below(n);
      b[g] = a[g] == 0 ? 0 : b[g] + 1;  // a + b = 2^64 there: generate
    }
    pairs.push_back({a, b});
    pairs.push_back({a, a});  // sub: all propagate (a - a)
  }
  for (int round = 0; round < 6; ++round)
    pairs.push_back({limbs_of(gen.random_bits(64 * n), n), limbs_of(gen.random_bits(64 * n), n)});
  return pairs;
}

TEST(CarryStatus, CombineIsAssociativeWithPropagateAsIdentity) {
  const limb::CarryCombine combine;
  const std::uint32_t all[] = {limb::carry_kill, limb::carry_propagate, limb::carry_generate};
  for (auto x : all) {
    EXPECT_EQ(combine(limb::carry_propagate, x), x);
    EXPECT_EQ(combine(x, limb::carry_propagate), x);
    for (auto y : all)
      for (auto z : all) EXPECT_EQ(combine(combine(x, y), z), combine(x, combine(y, z))) << x << y << z;
  }
}

TEST(CarryStatus, LimbStatusMatchesDefinition) {
  using u128 = unsigned __int128;
  Operands gen;
  auto check = [](limb_t a, limb_t b) {
    const u128 s = u128{a} + b;
    const std::uint32_t add_want = s >> 64 ? limb::carry_generate
                                   : static_cast<limb_t>(s) == ~limb_t{0} ? limb::carry_propagate
                                                                          : limb::carry_kill;
    ASSERT_EQ(limb::add_status(a, a + b), add_want) << std::hex << a << " + " << b;
    const std::uint32_t sub_want = a < b ? limb::carry_generate : a == b ? limb::carry_propagate : limb::carry_kill;
    ASSERT_EQ(limb::sub_status(a, b, a - b), sub_want) << std::hex << a << " - " << b;
  };
  for (limb_t a : mpgpu_test::edge_limbs())
    for (limb_t b : mpgpu_test::edge_limbs()) {
      check(a, b);
      if (HasFatalFailure()) return;
    }
  for (int i = 0; i < 100000 && !HasFatalFailure(); ++i) {
    limb_t a = gen.limb();
    check(a, gen.coin() ? ~a : gen.limb());
    check(a, a);
  }
}

class BlockedScan : public ::testing::TestWithParam<Shape> {};

TEST_P(BlockedScan, AddAndSubMatchMpn) {
  const Shape shape = GetParam();
  const std::size_t tile = shape.tile();
  Operands gen(shape.threads * 1000 + shape.items);
  std::vector<std::size_t> sizes = {1, 2, 3, tile - 1, tile, tile + 1, 2 * tile, 2 * tile + 1, 5 * tile + 3};
  for (int i = 0; i < 3; ++i) sizes.push_back(1 + gen.below(8 * tile));
  for (std::size_t n : sizes) {
    if (n == 0) continue;
    for (auto& [a, b] : adversarial_pairs(n, tile, gen))
      for (bool subtract : {false, true}) {
        const ScanResult want = gmp_add_sub(subtract, a, b);
        ASSERT_TRUE(same(ripple_add_sub(subtract, a, b), want))
            << (subtract ? "ripple sub" : "ripple add") << ", n=" << n;
        ASSERT_TRUE(same(blocked_add_sub(subtract, a, b, shape), want))
            << (subtract ? "blocked sub" : "blocked add") << ", n=" << n << ", tile " << shape.threads
            << "x" << shape.items;
      }
  }
}

// 1x1 is the plain scan; 256x8 is the device's tile (2048 limbs).
INSTANTIATE_TEST_SUITE_P(Shapes, BlockedScan,
                         ::testing::Values(Shape{1, 1}, Shape{1, 4}, Shape{3, 1}, Shape{2, 3}, Shape{4, 8},
                                           Shape{32, 8}, Shape{256, 8}),
                         [](const auto& info) {
                           return std::to_string(info.param.threads) + "x" + std::to_string(info.param.items);
                         });

}  // namespace
