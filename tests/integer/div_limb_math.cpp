// The arithmetic of the single-limb division scan, on the host: the 2-by-1
// division with a precomputed reciprocal, Montgomery products, the
// remainder maps and the exact division of a run against 128-bit
// arithmetic, then the whole scan (an even divisor's odd part on the
// shifted dividend, thread chunks, the block scan from the top, the
// look-back over tiles, the exact divisions) emulated step by step as
// div_limb_kernel runs it, against GMP. The CUDA specifics (shuffles, tile
// status words) are left to the GPU tests.
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
  std::vector<limb_t> v = {1, 2, 3, 7, 10, 1ull << 32, 1ull << 63, (1ull << 63) + 1, ~0ull, ~0ull - 1, 0xffffffffull,
                           10000000000000000000ull};
  for (int i = 0; i < 40; ++i) v.push_back(gen.limb() | 1);
  for (int i = 0; i < 10; ++i) v.push_back(gen.limb());
  return v;
}

/// 2^(64*limbs) mod d and w 2^64 mod d by 128-bit arithmetic: the
/// references for the tables, which the library builds by Montgomery
/// products.
limb_t limb_power_mod(std::uint64_t limbs, limb_t d) {
  limb_t base = static_cast<limb_t>((u128{1} << 64) % d), acc = 1 % d;
  for (; limbs; limbs >>= 1) {
    if (limbs & 1) acc = static_cast<limb_t>(u128{acc} * base % d);
    base = static_cast<limb_t>(u128{base} * base % d);
  }
  return acc;
}
limb_t to_montgomery(limb_t w, limb_t d) { return static_cast<limb_t>((u128{w} << 64) % d); }

/// The odd ones (the scan's arithmetic mod d takes odd d only).
std::vector<limb_t> odd_divisors(Operands& gen) {
  std::vector<limb_t> v;
  for (limb_t d : divisors(gen))
    if (d & 1) v.push_back(d);
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
      const limb_t a = i == 3 ? ~0ull : gen.limb(), b = i == 3 ? d - 1 : gen.limb() % d;
      if (d & 1) {
        ASSERT_EQ(mont_mul(a, to_montgomery(b, d), v), static_cast<limb_t>(u128{a} * b % d)) << d;
      }
      ASSERT_EQ(add_mod(a % d, b, v), static_cast<limb_t>((u128{a % d} + b) % d)) << d;
    }
    ASSERT_EQ(limb_power_mod(0, d), 1 % d);
    ASSERT_EQ(limb_power_mod(1, d), static_cast<limb_t>((u128{1} << 64) % d));
  }
}

// Every entry of the kernel's weight tables against 128-bit arithmetic.
TEST(DivLimbMath, TablesMatch128BitPowers) {
  Operands gen(67);
  for (limb_t d : odd_divisors(gen)) {
    const ItemPowers ip = item_powers(d);
    const ScanPowers sp = scan_powers(16, d);
    const TilePowers tp = tile_powers(4096, d);
    for (int j = 0; j < kMaxDivItems; ++j) ASSERT_EQ(ip.c[j], limb_power_mod(j, d)) << d << " c " << j;
    for (int k = 0; k < 3; ++k) ASSERT_EQ(ip.fold[k], to_montgomery(limb_power_mod(k, d), d)) << d << " fold " << k;
    for (int j = 0; j <= 32; ++j) {
      ASSERT_EQ(sp.thread[j], to_montgomery(limb_power_mod(16 * j, d), d)) << d << " thread " << j;
      ASSERT_EQ(sp.warp[j], to_montgomery(limb_power_mod(512 * j, d), d)) << d << " warp " << j;
      ASSERT_EQ(tp.w[j], to_montgomery(limb_power_mod(4096 * j, d), d)) << d << " tile " << j;
    }
  }
}

// A thread's remainder as a dot product with the powers 2^(64 j) mod d
// (what the kDot policies run) equals Horner's chain of divisions, for every
// chunk length up to kMaxDivItems, with all-ones limbs (the largest sum).
TEST(DivLimbMath, ChunkRemainderIsHorner) {
  Operands gen(64);
  for (limb_t d : odd_divisors(gen)) {
    const LimbDivisor v = make_limb_divisor(d);
    const ItemPowers powers = item_powers(d);
    for (int items = 1; items <= kMaxDivItems; ++items) {
      for (int trial = 0; trial < 4; ++trial) {
        limb_t u[kMaxDivItems];
        for (int j = 0; j < items; ++j) u[j] = trial == 0 ? ~0ull : gen.limb();
        limb_t rn = 0;
        for (int j = items - 1; j >= 0; --j) div_step(rn, u[j], v);
        ASSERT_EQ(chunk_remainder(u, items, 0, 0, powers, v), rn >> v.shift) << "d=" << d << " items=" << items;
      }
    }
  }
}

/// A warp's inclusive scan from lane 31 down with one weight W per lane
/// (pow = ScanPowers::thread or ::warp), shuffle by shuffle as
/// warp_scan_down_same_weight runs it.
std::vector<limb_t> warp_scan_same_weight(std::vector<limb_t> r, const limb_t* pow, const LimbDivisor& v) {
  for (int d = 1; d < 32; d *= 2) {
    const std::vector<limb_t> old = r;
    for (int l = 0; l + d < 32; ++l) r[l] = add_mod(mont_mul(old[l + d], pow[d], v), old[l], v);
  }
  return r;
}

// The same-weight warp scan gives lane l the remainder of lanes l..31 (lane
// 31 the most significant run): sum_{m >= l} r_m W^(m - l) mod d.
TEST(DivLimbMath, SameWeightWarpScanIsTheLanesAbove) {
  Operands gen(65);
  for (limb_t d : odd_divisors(gen)) {
    const LimbDivisor v = make_limb_divisor(d);
    for (int items : {2, 16}) {
      const ScanPowers sp = scan_powers(items, d);
      const limb_t w = limb_power_mod(items, d);
      ASSERT_EQ(sp.thread[1], to_montgomery(w, d));
      ASSERT_EQ(sp.warp[1], to_montgomery(limb_power_mod(32 * items, d), d));
      std::vector<limb_t> r(32);
      for (auto& x : r) x = gen.limb() % d;
      const std::vector<limb_t> got = warp_scan_same_weight(r, sp.thread, v);
      for (int l = 0; l < 32; ++l) {
        limb_t want = 0;
        for (int m = 31; m >= l; --m) want = static_cast<limb_t>((u128{want} * w + r[m]) % d);
        ASSERT_EQ(got[l], want) << "d=" << d << " lane " << l;
      }
    }
  }
}

/// The kernel's algorithm with `threads` threads (a multiple of 32) of
/// `items` limbs per tile: an even d's odd part divides the shifted
/// dividend, dot-product remainders, same-weight scans across each warp and
/// across the warps, a look-back, then the exact divisions.
void emulate(const std::vector<limb_t>& a, limb_t d, int threads, int items, std::vector<limb_t>& q,
             limb_t& remainder) {
  const int twos = mpgpu::limb::count_trailing_zeros(d);
  const limb_t odd = d >> twos;
  const LimbDivisor v = make_limb_divisor(odd);
  const ItemPowers ip = item_powers(odd);
  const ScanPowers sp = scan_powers(items, odd);
  const int warps = threads / 32;
  const std::size_t tile = std::size_t(threads) * items, n = a.size();
  const std::size_t tiles = (n + tile - 1) / tile;
  const limb_t w_tile = to_montgomery(limb_power_mod(tile, odd), odd);
  q.assign(n, 0);
  auto limb_at = [&](std::size_t i) { return i < n ? a[i] : 0; };
  std::vector<limb_t> inclusive(tiles), partial(tiles);
  for (std::size_t pos = 0; pos < tiles; ++pos) {  // in scan order, as the blocks
    const std::size_t base = (tiles - 1 - pos) * tile;
    std::vector<limb_t> own(threads), incl_r(threads), warp_total(32, 0), above(threads);
    std::vector<std::vector<limb_t>> chunk(threads, std::vector<limb_t>(items));
    for (int t = 0; t < threads; ++t) {  // unshifted runs, read shifted (run_limb)
      for (int j = 0; j < items; ++j) chunk[t][j] = limb_at(base + std::size_t(t) * items + j);
      above[t] = limb_at(base + std::size_t(t + 1) * items);
      own[t] = chunk_remainder(chunk[t].data(), items, above[t], twos, ip, v);
    }
    for (int w = 0; w < warps; ++w) {
      const std::vector<limb_t> incl =
          warp_scan_same_weight(std::vector<limb_t>(own.begin() + 32 * w, own.begin() + 32 * (w + 1)), sp.thread, v);
      for (int l = 0; l < 32; ++l) incl_r[32 * w + l] = incl[l];
      warp_total[w] = incl[0];
    }
    const std::vector<limb_t> w_incl = warp_scan_same_weight(warp_total, sp.warp, v);
    const limb_t tile_r = w_incl[0];
    partial[pos] = tile_r;
    // Look-back: partial tiles are {w_tile, r}, the nearest inclusive one a constant.
    limb_t tile_in = 0;
    if (pos > 0) {
      RemainderMap nearer{to_montgomery(1 % odd, odd), 0};
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
    inclusive[pos] = apply({w_tile, tile_r}, tile_in, v);
    for (int t = 0; t < threads; ++t) {
      const int w = t / 32, lane = t % 32;
      const limb_t w_excl = w < warps - 1 ? w_incl[w + 1] : 0;
      const limb_t warp_in = add_mod(mont_mul(tile_in, sp.warp[warps - 1 - w], v), w_excl, v);
      const limb_t r_leaving = add_mod(mont_mul(warp_in, sp.thread[32 - lane], v), incl_r[t], v);
      chunk_quotient(chunk[t].data(), items, above[t], twos, r_leaving, v);
      for (int j = 0; j < items; ++j) {
        const std::size_t i = base + std::size_t(t) * items + j;
        if (i < n) q[i] = chunk[t][j];
        else EXPECT_EQ(chunk[t][j], 0u);
      }
      if (pos == tiles - 1 && t == 0) remainder = twos ? r_leaving << twos | (a[0] & ((limb_t{1} << twos) - 1)) : r_leaving;
    }
  }
}

// The exact division of a run, given the remainders entering and leaving
// it, is the run's quotient limbs by 2-by-1 division from the top.
TEST(DivLimbMath, ChunkQuotientIsTheLongDivision) {
  Operands gen(66);
  for (limb_t d : odd_divisors(gen)) {
    const LimbDivisor v = make_limb_divisor(d);
    for (int items : {1, 2, 16, kMaxDivItems}) {
      for (int trial = 0; trial < 6; ++trial) {
        limb_t u[kMaxDivItems], want[kMaxDivItems];
        for (int j = 0; j < items; ++j) u[j] = trial == 0 ? ~0ull : (trial == 1 ? 0 : gen.limb());
        const limb_t r_in = trial < 3 ? d - 1 : gen.limb() % d;
        limb_t rn = r_in << v.shift;
        for (int j = items - 1; j >= 0; --j) want[j] = div_step(rn, u[j], v);
        chunk_quotient(u, items, 0, 0, rn >> v.shift, v);
        for (int j = 0; j < items; ++j) ASSERT_EQ(u[j], want[j]) << "d=" << d << " items=" << items << " limb " << j;
      }
    }
  }
}

// The look-back's window of up to 32 tiles as one weighted sum (what the
// warp computes, one lane per tile) equals composing the tiles' maps from the
// farthest down, with and without an INCLUSIVE tile at the far end.
TEST(DivLimbMath, WindowMapIsTheComposedTiles) {
  Operands gen(63);
  for (limb_t d : odd_divisors(gen)) {
    const LimbDivisor v = make_limb_divisor(d);
    const TilePowers powers = tile_powers(2048, d);
    const limb_t w = to_montgomery(limb_power_mod(2048, d), d);  // as the maps keep it
    ASSERT_EQ(powers.w[0], to_montgomery(1 % d, d));
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
  for (auto [threads, items] : {std::pair{32, 2}, std::pair{64, 4}, std::pair{256, 16}})
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
