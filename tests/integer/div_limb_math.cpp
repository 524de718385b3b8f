// The arithmetic of the single-limb division scan, on the host: the 2-by-1
// division with a precomputed reciprocal, products mod d and the remainder
// maps against 128-bit arithmetic, then the whole scan (thread chunks, the
// block scan from the top, the look-back over tiles, the final division)
// emulated step by step as div_limb_kernel runs it, against GMP. The CUDA
// specifics (shuffles, tile status words) are left to the GPU tests.
#include <gtest/gtest.h>

#include <vector>

#include "mpgpu/device/div_limb_math.cuh"
#include "support/mpz.hpp"
#include "support/operands.hpp"

namespace {

using namespace mpgpu::device;
using mpgpu::limb_t;
using mpgpu_test::Mpz;
using mpgpu_test::Operands;
using u128 = unsigned __int128;

std::vector<limb_t> divisors(Operands& gen) {
  std::vector<limb_t> v = {1, 2, 3, 7, 10, 1ull << 32, 1ull << 63, (1ull << 63) + 1, ~0ull, ~0ull - 1, 0xffffffffull};
  for (int i = 0; i < 40; ++i) v.push_back(gen.limb() | 1);
  for (int i = 0; i < 10; ++i) v.push_back(gen.limb());
  return v;
}

TEST(DivLimbMath, DivStepMatches128BitDivision) {
  Operands gen(61);
  for (limb_t d : divisors(gen)) {
    if (d == 0) continue;
    const LimbDivisor v = make_limb_divisor(d);
    for (int i = 0; i < 200; ++i) {
      const limb_t r = i == 0 ? d - 1 : (i == 1 ? 0 : gen.limb() % d);
      const limb_t u = i < 3 ? ~0ull : gen.limb();
      limb_t rn = r << v.shift;
      const limb_t q = div_step(rn, u, v);
      const u128 num = (u128{r} << 64) | u;
      ASSERT_EQ(q, static_cast<limb_t>(num / d)) << d;
      ASSERT_EQ(rn >> v.shift, static_cast<limb_t>(num % d)) << d;
      ASSERT_EQ(rn & ((limb_t{1} << v.shift) - 1), 0u);
      const limb_t a = gen.limb() % d, b = gen.limb() % d;
      ASSERT_EQ(mul_mod(a, b, v), static_cast<limb_t>(u128{a} * b % d)) << d;
      ASSERT_EQ(add_mod(a, b, v), static_cast<limb_t>((u128{a} + b) % d)) << d;
    }
    ASSERT_EQ(limb_power_mod(0, d), 1 % d);
    ASSERT_EQ(limb_power_mod(1, d), static_cast<limb_t>((u128{1} << 64) % d));
  }
}

/// The kernel's algorithm with kThreads threads of kItems limbs per tile.
void emulate(const std::vector<limb_t>& a, limb_t d, int threads, int items, std::vector<limb_t>& q,
             limb_t& remainder) {
  const LimbDivisor v = make_limb_divisor(d);
  const std::size_t tile = std::size_t(threads) * items, n = a.size();
  const std::size_t tiles = (n + tile - 1) / tile;
  const limb_t w_items = limb_power_mod(items, d), w_tile = limb_power_mod(tile, d);
  q.assign(n, 0);
  std::vector<limb_t> inclusive(tiles), partial(tiles);
  for (std::size_t pos = 0; pos < tiles; ++pos) {  // in scan order, as the blocks
    const std::size_t base = (tiles - 1 - pos) * tile;
    auto limb_at = [&](std::size_t i) { return base + i < n ? a[base + i] : 0; };
    std::vector<RemainderMap> own(threads);
    for (int t = 0; t < threads; ++t) {
      limb_t rn = 0;
      for (int j = items - 1; j >= 0; --j) div_step(rn, limb_at(std::size_t(t) * items + j), v);
      own[t] = {w_items, rn >> v.shift};
    }
    // Exclusive scan from the top thread down, and the tile's map.
    std::vector<RemainderMap> excl(threads);
    RemainderMap acc{1, 0};
    for (int t = threads - 1; t >= 0; --t) {
      excl[t] = acc;
      acc = compose(acc, own[t], v);
    }
    EXPECT_EQ(acc.w, w_tile);
    partial[pos] = acc.r;
    // Look-back: partial tiles are {w_tile, r}, the nearest inclusive one a constant.
    limb_t tile_in = 0;
    if (pos > 0) {
      RemainderMap nearer{1, 0};
      for (std::size_t idx = pos; idx-- > 0;) {
        const bool inc = idx == 0 || (idx % 3 == 0);  // some tiles seen INCLUSIVE, some PARTIAL
        if (inc) {
          nearer = compose({0, inclusive[idx]}, nearer, v);
          break;
        }
        nearer = compose({w_tile, partial[idx]}, nearer, v);
      }
      tile_in = nearer.r;
    }
    inclusive[pos] = apply({w_tile, acc.r}, tile_in, v);
    for (int t = 0; t < threads; ++t) {
      limb_t rn = apply(excl[t], tile_in, v) << v.shift;
      for (int j = items - 1; j >= 0; --j) {
        const std::size_t i = base + std::size_t(t) * items + j;
        const limb_t qj = div_step(rn, limb_at(std::size_t(t) * items + j), v);
        if (i < n) q[i] = qj;
        else EXPECT_EQ(qj, 0u);
      }
      if (pos == tiles - 1 && t == 0) remainder = rn >> v.shift;
    }
  }
}

// The look-back's window of up to 32 tiles as one weighted sum (what the
// warp computes, one lane per tile) equals composing the tiles' maps from the
// farthest down, with and without an INCLUSIVE tile at the far end.
TEST(DivLimbMath, WindowMapIsTheComposedTiles) {
  Operands gen(63);
  for (limb_t d : divisors(gen)) {
    const LimbDivisor v = make_limb_divisor(d);
    const TilePowers powers = tile_powers(2048, d);
    const limb_t w = limb_power_mod(2048, d);
    ASSERT_EQ(powers.w[0], 1 % d);
    ASSERT_EQ(powers.w[1], w);
    for (int trial = 0; trial < 20; ++trial) {
      limb_t value[32];
      for (auto& x : value) x = gen.limb() % d;
      if (trial == 0)
        for (auto& x : value) x = d - 1;  // the largest remainders
      const int last = trial < 2 ? 31 : static_cast<int>(gen.limb() % 32);
      for (bool inclusive : {false, true}) {
        RemainderMap want = inclusive ? RemainderMap{0, value[last]} : RemainderMap{w, value[last]};
        for (int l = last - 1; l >= 0; --l) want = compose(want, {w, value[l]}, v);
        const RemainderMap got = window_map(value, last, inclusive, powers, v);
        ASSERT_EQ(got.w, want.w) << "d=" << d << " last=" << last << " inclusive=" << inclusive;
        ASSERT_EQ(got.r, want.r) << "d=" << d << " last=" << last << " inclusive=" << inclusive;
      }
    }
  }
}

TEST(DivLimbMath, EmulatedScanMatchesGmp) {
  Operands gen(62);
  const std::vector<limb_t> ds = divisors(gen);
  for (auto [threads, items] : {std::pair{4, 2}, std::pair{8, 4}, std::pair{256, 8}})
    for (std::size_t limbs : {std::size_t(1), std::size_t(5), std::size_t(threads * items),
                              std::size_t(threads * items + 1), std::size_t(37 * threads * items + 3)}) {
      for (int variant = 0; variant < 2; ++variant) {
        const Mpz n = variant ? Mpz::all_ones(64 * limbs) : gen.random_bits(64 * limbs);
        std::vector<limb_t> a(mpz_limbs_read(n), mpz_limbs_read(n) + n.limbs());
        for (std::size_t k = 0; k < ds.size(); k += (threads == 256 ? 7 : 1)) {
          const limb_t d = ds[k];
          std::vector<limb_t> q;
          limb_t rem = 0;
          emulate(a, d, threads, items, q, rem);
          Mpz wq;
          const limb_t wr = mpz_tdiv_q_ui(wq, n, d);
          ASSERT_EQ(rem, wr) << limbs << " limbs by " << d;
          std::vector<limb_t> want(a.size(), 0);
          std::copy(mpz_limbs_read(wq), mpz_limbs_read(wq) + wq.limbs(), want.begin());
          ASSERT_EQ(q, want) << limbs << " limbs by " << d;
        }
      }
    }
}

}  // namespace
