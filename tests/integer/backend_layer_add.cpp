// The scan add and sub (src/cuda/add_sub.cu) and the limb searches
// (src/cuda/limb_search.cu), called directly against GMP; see
// backend_layer.hpp for the guards.
#include "integer/backend_layer.hpp"

namespace backend_layer {
namespace {

// include/mpgpu/device/scan_add.cuh: ScanAddPolicy::kTile limbs a block; a
// tile peeks at the 32 limbs before it and otherwise looks back over the
// tiles' statuses 32 tiles a window. Sizes: 1, a warp's peek, a tile and
// its neighbours, two tiles, and several tiles plus a remainder (34 tiles:
// a carry chain across all of them walks back through two windows).
constexpr std::size_t kScanTile = 1024;
const std::vector<std::size_t> kScanSizes = {1,  2,  31, 32, 33, kScanTile - 1, kScanTile, kScanTile + 1,
                                             2 * kScanTile, 5 * kScanTile + 77, 33 * kScanTile + 5};

// include/mpgpu/device/limb_search.cuh: LimbSearchPolicy::kChunk limbs a
// chunk; one block up to a chunk; a probe of 4 chunks first for more than
// 16 chunks.
constexpr std::size_t kSearchChunk = 2048;
const std::vector<std::size_t> kSearchSizes = {1,
                                               2,
                                               kSearchChunk - 1,
                                               kSearchChunk,
                                               kSearchChunk + 1,
                                               16 * kSearchChunk,
                                               16 * kSearchChunk + 1,
                                               40 * kSearchChunk + 3};

/// Indices where a search may find its hit in n limbs: both ends, the
/// middle, chunk boundaries from either end, the probe's boundary.
std::vector<std::size_t> search_positions(std::size_t n) {
  std::vector<std::size_t> p = {0, n - 1, n / 2, kSearchChunk - 1, kSearchChunk};
  if (n > kSearchChunk) {
    p.push_back(n - kSearchChunk);
    p.push_back(n - kSearchChunk - 1);
  }
  if (n > 4 * kSearchChunk) {
    p.push_back(n - 4 * kSearchChunk);
    p.push_back(n - 4 * kSearchChunk - 1);
  }
  std::vector<std::size_t> out;
  for (std::size_t i : p)
    if (i < n && std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
  return out;
}

struct Pair {
  std::string name;
  Limbs a, b;
};

/// a.size = n >= b.size: carry chains across the whole operand, unbalanced sizes.
std::vector<Pair> add_pairs(std::size_t n, Operands& gen) {
  const std::size_t shorter = std::max<std::size_t>(1, n / 3);
  std::vector<Pair> v = {
      {"random + random", make_limbs(Kind::random, n, gen), make_limbs(Kind::random, n, gen)},
      {"runs + runs[n/3]", make_limbs(Kind::runs, n, gen), make_limbs(Kind::runs, shorter, gen)},
      {"all-ones + 1 (carry through)", make_limbs(Kind::all_ones, n, gen), Limbs{1}},
      {"all-ones + all-ones", make_limbs(Kind::all_ones, n, gen), make_limbs(Kind::all_ones, n, gen)},
      {"0xaa.. + 0x55.. (every limb propagates)", make_limbs(Kind::alternating, n, gen),
       make_limbs(Kind::fives, n, gen)},
      {"zero-middle + runs", make_limbs(Kind::zero_middle, n, gen), make_limbs(Kind::runs, n, gen)},
      {"random + random[1]", make_limbs(Kind::random, n, gen), make_limbs(Kind::random, 1, gen)},
  };
  Pair p{"0xaa.. + (0x55.. + 1) (carry through propagating limbs)", make_limbs(Kind::alternating, n, gen),
         make_limbs(Kind::fives, n, gen)};
  p.b[0] += 1;
  v.push_back(p);
  if (n > 1)
    v.push_back({"high-bit + all-ones[n-1]", make_limbs(Kind::high_bit, n, gen),
                 make_limbs(Kind::all_ones, n - 1, gen)});
  return v;
}

/// a.size = n >= b.size, |a| >= |b|: borrow chains, results that shrink.
std::vector<Pair> sub_pairs(std::size_t n, Operands& gen) {
  std::vector<Pair> v;
  {
    Pair p{"random - random", make_limbs(Kind::random, n, gen), make_limbs(Kind::random, n, gen)};
    if (mpz_cmp(to_mpz(p.a), to_mpz(p.b)) < 0) std::swap(p.a, p.b);
    v.push_back(p);
  }
  v.push_back({"high-bit - 1 (borrow through)", make_limbs(Kind::high_bit, n, gen), Limbs{1}});
  v.push_back({"top-limb-1 - 1 (borrow through, size n-1)", make_limbs(Kind::top_one, n, gen), Limbs{1}});
  const Limbs x = make_limbs(Kind::runs, n, gen);
  v.push_back({"x - x", x, x});
  v.push_back({"all-ones - random", make_limbs(Kind::all_ones, n, gen), make_limbs(Kind::random, n, gen)});
  v.push_back({"all-ones - all-ones", make_limbs(Kind::all_ones, n, gen), make_limbs(Kind::all_ones, n, gen)});
  if (n > 1) {
    v.push_back({"random - runs[n/3]", make_limbs(Kind::random, n, gen),
                 make_limbs(Kind::runs, std::max<std::size_t>(1, n / 3), gen)});
    v.push_back({"high-bit - all-ones[n-1]", make_limbs(Kind::high_bit, n, gen),
                 make_limbs(Kind::all_ones, n - 1, gen)});
    v.push_back({"zero-middle - runs[n-1]", make_limbs(Kind::zero_middle, n, gen),
                 make_limbs(Kind::runs, n - 1, gen)});
    // Equal limbs borrow through (x - x propagates): a = x + 2^(64(n-1)),
    // b = x + 1, a - b = 2^(64(n-1)) - 1.
    Pair p{"equal limbs, borrow from limb 0 to the top", make_limbs(Kind::alternating, n, gen), {}};
    p.b = p.a;
    p.a[n - 1] += 1;
    p.b[0] += 1;
    v.push_back(p);
  }
  return v;
}

TEST_F(BackendLayer, AddAbs) {
  Operands gen(101);
  for (const StreamCase& sc : streams())
    for (std::size_t n : kScanSizes) {
      std::size_t index = 0;
      for (const Pair& p : add_pairs(n, gen)) {
        if (!sanitizer_runs(sc, n, index++, 2)) continue;
        const bool odd = (n + p.b.size()) % 2 == 1;  // alternate aligned and misaligned buffers
        const std::string what = std::string("add_abs(") + shape("a", p.a.size(), "") + ", " +
                                 shape("b", p.b.size(), "") + "): " + p.name + (odd ? ", one limb off" : "") +
                                 ", " + sc.name;
        const DeviceOperand a(sc.s, p.a, odd), b(sc.s, p.b, !odd);
        Guarded r = limb_output(sc.s, n + 1, odd);
        dc::Deferred deferred = dc::add_abs(st(), sc.s, r.limbs(), a.op(), b.op());
        const Words w = wait_words(deferred, sc.s);
        Mpz want;
        mpz_add(want, to_mpz(p.a), to_mpz(p.b));
        if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), operands_unchanged(sc.s, {&a, &b})}),
                    what))
          return;
      }
    }
}

TEST_F(BackendLayer, SubAbs) {
  Operands gen(102);
  std::size_t index = 0;  // over the whole test: at least 6 pairs a size, so each size keeps some
  for (const StreamCase& sc : streams())
    for (std::size_t n : kScanSizes)
      for (const Pair& p : sub_pairs(n, gen)) {
        if (!sanitizer_runs(sc, n, index++, 2)) continue;
        const bool odd = (n + p.b.size()) % 2 == 0;
        const std::string what = std::string("sub_abs(") + shape("a", p.a.size(), "") + ", " +
                                 shape("b", p.b.size(), "") + "): " + p.name + (odd ? ", one limb off" : "") +
                                 ", " + sc.name;
        const DeviceOperand a(sc.s, p.a, odd), b(sc.s, p.b, odd);
        Guarded r = limb_output(sc.s, n, odd);
        dc::Deferred deferred = dc::sub_abs(st(), sc.s, r.limbs(), a.op(), b.op());
        const Words w = wait_words(deferred, sc.s);
        Mpz want;
        mpz_sub(want, to_mpz(p.a), to_mpz(p.b));
        if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), operands_unchanged(sc.s, {&a, &b})}),
                    what))
          return;
      }
}

/// a (n limbs) and the scalar b of the _scalar forms.
struct ScalarCase {
  std::string name;
  Limbs a;
  limb_t b;
};

TEST_F(BackendLayer, AddAbsScalar) {
  Operands gen(103);
  for (const StreamCase& sc : streams())
    for (std::size_t n : kScanSizes) {
      const std::vector<ScalarCase> cases = {
          {"all-ones + 1 (carry through)", make_limbs(Kind::all_ones, n, gen), 1},
          {"all-ones + 2^64-1", make_limbs(Kind::all_ones, n, gen), ~limb_t{0}},
          {"random + random limb", make_limbs(Kind::random, n, gen), gen.limb()},
          {"high-bit + 0", make_limbs(Kind::high_bit, n, gen), 0},
          {"zero-middle + 2^64-1", make_limbs(Kind::zero_middle, n, gen), ~limb_t{0}},
      };
      std::size_t index = 0;
      for (const ScalarCase& c : cases) {
        if (!sanitizer_runs(sc, n, index++, 2)) continue;
        const bool odd = n % 2 == 0;
        const std::string what = "add_abs_scalar(" + shape("a", n, "") + ", b = " + std::to_string(c.b) +
                                 "): " + c.name + (odd ? ", one limb off" : "") + ", " + sc.name;
        const DeviceOperand a(sc.s, c.a, odd);
        Guarded r = limb_output(sc.s, n + 1, odd);
        dc::Deferred deferred = dc::add_abs_scalar(st(), sc.s, r.limbs(), a.op(), c.b);
        const Words w = wait_words(deferred, sc.s);
        Mpz want;
        mpz_add_ui(want, to_mpz(c.a), c.b);
        if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), operands_unchanged(sc.s, {&a})}), what))
          return;
      }
    }
}

TEST_F(BackendLayer, SubAbsScalar) {
  Operands gen(104);
  for (const StreamCase& sc : streams())
    for (std::size_t n : kScanSizes) {
      std::vector<ScalarCase> cases = {
          {"top-limb-1 - 1 (borrow through)", make_limbs(Kind::top_one, n, gen), 1},
          {"all-ones - 2^64-1", make_limbs(Kind::all_ones, n, gen), ~limb_t{0}},
          {"zero-middle - 0", make_limbs(Kind::zero_middle, n, gen), 0},
      };
      ScalarCase r1{"random - random limb", make_limbs(Kind::random, n, gen), gen.limb()};
      if (n == 1 && r1.a[0] < r1.b) std::swap(r1.a[0], r1.b);  // |a| >= b
      cases.push_back(r1);
      if (n == 1) cases.push_back({"x - x", Limbs{0x8000000000000001ull}, 0x8000000000000001ull});
      else cases.push_back({"high-bit - 2^64-1 (borrow through)", make_limbs(Kind::high_bit, n, gen), ~limb_t{0}});
      std::size_t index = 0;
      for (const ScalarCase& c : cases) {
        if (!sanitizer_runs(sc, n, index++, 2)) continue;
        const bool odd = n % 2 == 1;
        const std::string what = "sub_abs_scalar(" + shape("a", n, "") + ", b = " + std::to_string(c.b) +
                                 "): " + c.name + (odd ? ", one limb off" : "") + ", " + sc.name;
        const DeviceOperand a(sc.s, c.a, odd);
        Guarded r = limb_output(sc.s, n, odd);
        dc::Deferred deferred = dc::sub_abs_scalar(st(), sc.s, r.limbs(), a.op(), c.b);
        const Words w = wait_words(deferred, sc.s);
        Mpz want;
        mpz_sub_ui(want, to_mpz(c.a), c.b);
        if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), operands_unchanged(sc.s, {&a})}), what))
          return;
      }
    }
}

/// Equal sizes n, either order: where the operands first differ from the top
/// decides the order (one block up to a tile, the top limbs or a top-down
/// search of the tiles above).
std::vector<Pair> ordered_pairs(std::size_t n, Operands& gen) {
  std::vector<Pair> v;
  const Limbs x = make_limbs(Kind::random, n, gen);
  v.push_back({"a = b", x, x});
  v.push_back({"random, random", make_limbs(Kind::random, n, gen), make_limbs(Kind::random, n, gen)});
  v.push_back({"high-bit, all-ones (tops differ by 2^63 - 1)", make_limbs(Kind::high_bit, n, gen),
               make_limbs(Kind::all_ones, n, gen)});
  {  // differ only in limb 0: the order comes from the lowest tile
    Pair p{"differ only in limb 0, a > b", x, x};
    p.a[0] |= 3;  // b[0] = a[0] - 1 stays nonzero (normalized when n = 1)
    p.b[0] = p.a[0] - 1;
    v.push_back(p);
    v.push_back({"differ only in limb 0, a < b", p.b, p.a});
  }
  if (n > 1) {
    // Tops equal, the highest difference in the middle, random limbs below it.
    Pair p{"differ from limb n/2 down, a < b", x, x};
    const std::size_t m = n / 2;
    const Limbs low = make_limbs(Kind::random, m, gen);
    std::copy(low.begin(), low.end(), p.b.begin());
    if (p.a[m] == ~limb_t{0}) p.a[m] -= 1;  // stays nonzero (the top limb when m = n - 1)
    p.b[m] = p.a[m] + 1;
    v.push_back(p);
    v.push_back({"differ from limb n/2 down, a > b", p.b, p.a});
    // Tops differ by 1 (the size is not known from the tops), borrow from below.
    Pair q{"tops differ by 1, a > b, lower limbs of a smaller", make_limbs(Kind::zero_middle, n, gen),
           make_limbs(Kind::all_ones, n, gen)};
    q.a[n - 1] = q.b[n - 1];
    q.b[n - 1] -= 1;
    v.push_back(q);
    // Tops differ by 2, borrow from below: the top limb of the result is 1.
    Pair t{"tops differ by 2, a < b, lower limbs of b smaller", make_limbs(Kind::all_ones, n, gen),
           make_limbs(Kind::runs, n, gen)};
    t.a[n - 1] = std::max<limb_t>(1, t.b[n - 1] >= 2 ? t.b[n - 1] - 2 : 1);
    t.b[n - 1] = t.a[n - 1] + 2;
    std::fill(t.b.begin(), t.b.end() - 1, limb_t{0});
    v.push_back(t);
  }
  return v;
}

TEST_F(BackendLayer, SubAbsOrdered) {
  Operands gen(105);
  for (const StreamCase& sc : streams())
    for (std::size_t n : kScanSizes) {
      std::size_t index = 0;
      for (const Pair& p : ordered_pairs(n, gen)) {
        if (!sanitizer_runs(sc, n, index++, 2)) continue;
        const bool odd = n % 2 == 0;
        const std::string what = "sub_abs_ordered(a, b, n = " + std::to_string(n) + "): " + p.name +
                                 (odd ? ", one limb off" : "") + ", " + sc.name;
        const DeviceOperand a(sc.s, p.a, odd), b(sc.s, p.b, !odd);
        Guarded r = limb_output(sc.s, n, odd);
        dc::Deferred deferred = dc::sub_abs_ordered(st(), sc.s, r.limbs(), a.data(), b.data(), n);
        const Words w = wait_words(deferred, sc.s);
        Mpz want;
        mpz_sub(want, to_mpz(p.a), to_mpz(p.b));
        const int order = dc::order_of(w.w);
        ::testing::AssertionResult order_ok = ::testing::AssertionSuccess();
        if (order != want.sgn())
          order_ok = ::testing::AssertionFailure() << "order " << order << ", expected " << want.sgn()
                                                   << " (key " << w.w[mpgpu::device::kSlotOrder] << ")";
        if (!report(all_of({output_is(r, sc.s, limbs_of(want), w.size()), order_ok,
                            operands_unchanged(sc.s, {&a, &b})}),
                    what))
          return;
      }
    }
}

TEST_F(BackendLayer, CmpSameSize) {
  Operands gen(106);
  for (const StreamCase& sc : streams())
    for (std::size_t n : kSearchSizes) {
      const Limbs x = make_limbs(Kind::random, n, gen);
      std::vector<Pair> pairs = {{"a = b", x, x}};
      for (std::size_t i : search_positions(n)) {
        // Highest difference at i; differences below it too (they must not count).
        Pair p{"highest difference at limb " + std::to_string(i) + ", a > b", x, x};
        p.a[i] = p.a[i] == 0 ? 1 : p.a[i];
        p.b[i] = p.a[i] - 1;
        if (i > 0) p.b[0] ^= limb_t{1} << 63;
        if (i > 1) p.a[i / 2] ^= 1;
        pairs.push_back(p);
        pairs.push_back({"highest difference at limb " + std::to_string(i) + ", a < b", p.b, p.a});
      }
      std::size_t index = 0;
      for (const Pair& p : pairs) {
        if (!sanitizer_runs(sc, n, index++, 2)) continue;
        const std::string what =
            "cmp_same_size(a, b, n = " + std::to_string(n) + "): " + p.name + ", " + sc.name;
        const DeviceOperand a(sc.s, p.a, false), b(sc.s, p.b, true);
        const int got = dc::cmp_same_size(st(), sc.s, a.data(), b.data(), n);
        const int c = mpz_cmp(to_mpz(p.a), to_mpz(p.b));
        const int want = (c > 0) - (c < 0);
        ::testing::AssertionResult ok = ::testing::AssertionSuccess();
        if (got != want) ok = ::testing::AssertionFailure() << "returned " << got << ", expected " << want;
        if (!report(all_of({ok, operands_unchanged(sc.s, {&a, &b})}), what)) return;
      }
    }
}

TEST_F(BackendLayer, LowestNonzeroAndNormalizedSize) {
  Operands gen(107);
  for (const StreamCase& sc : streams())
    for (std::size_t n : kSearchSizes) {
      // Each position i: the only nonzero limb at i, then random limbs on
      // the far side of it (above for the lowest search, below for the
      // highest), and an all-zero vector.
      std::vector<Pair> cases = {{"all zero", Limbs(n, 0), {}}};
      for (std::size_t i : search_positions(n)) {
        Limbs only(n, 0);
        only[i] = limb_t{1} << (i % 64);
        cases.push_back({"only limb " + std::to_string(i) + " nonzero", only, {}});
        Limbs above = make_limbs(Kind::random, n, gen), below = above;
        std::fill(above.begin(), above.begin() + static_cast<std::ptrdiff_t>(i), limb_t{0});
        above[i] = 1;
        cases.push_back({"zeros below limb " + std::to_string(i) + ", random above", above, {}});
        std::fill(below.begin() + static_cast<std::ptrdiff_t>(i) + 1, below.end(), limb_t{0});
        below[i] = ~limb_t{0};
        cases.push_back({"zeros above limb " + std::to_string(i) + ", random below", below, {}});
      }
      std::size_t index = 0;
      for (const Pair& c : cases) {
        if (!sanitizer_runs(sc, n, index++, 2)) continue;
        const DeviceOperand a(sc.s, c.a, n % 2 == 1);
        std::size_t low = 0;
        while (low < n && c.a[low] == 0) ++low;
        const std::size_t got_low = dc::lowest_nonzero(st(), sc.s, a.op());
        const std::size_t got_size = dc::normalized_size(st(), sc.s, a.op());
        ::testing::AssertionResult ok = ::testing::AssertionSuccess();
        if (got_low != low)
          ok = ::testing::AssertionFailure() << "lowest_nonzero " << got_low << ", expected " << low;
        else if (got_size != normalized_size(c.a))
          ok = ::testing::AssertionFailure() << "normalized_size " << got_size << ", expected "
                                             << normalized_size(c.a);
        const std::string what = "lowest_nonzero / normalized_size(a[" + std::to_string(n) + "]): " + c.name +
                                 ", " + sc.name;
        if (!report(all_of({ok, operands_unchanged(sc.s, {&a})}), what)) return;
      }
    }
}

TEST_F(BackendLayer, AnyLowBits) {
  Operands gen(108);
  for (const StreamCase& sc : streams())
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, kSearchChunk, kSearchChunk + 1, 17 * kSearchChunk + 3}) {
      // Lowest set bit at p (random bits above it, the top limb nonzero).
      std::vector<std::uint64_t> lows = {0, 1, 63};
      for (std::uint64_t p : {std::uint64_t{64}, std::uint64_t{65}, 64 * std::uint64_t{kSearchChunk} + 5,
                              64 * std::uint64_t(n - 1), 64 * std::uint64_t(n) - 1})
        if (p < 64 * n) lows.push_back(p);
      std::size_t index = 0;
      for (std::uint64_t p : lows) {
        Limbs v = make_limbs(Kind::random, n, gen);
        if (!sanitizer_runs(sc, n, index++, 2)) continue;
        for (std::size_t i = 0; i < p / 64; ++i) v[i] = 0;
        v[p / 64] &= ~((limb_t{1} << (p % 64)) - 1);  // clear below p
        v[p / 64] |= limb_t{1} << (p % 64);
        const DeviceOperand a(sc.s, v, p % 2 == 1);
        std::vector<std::uint64_t> counts = {0,          1,          p,          p + 1,
                                             p / 64 * 64, 64 * n,    64 * n + 5, std::uint64_t{1} << 40};
        if (p > 0) counts.push_back(p - 1);
        for (std::uint64_t bits : counts) {
          const bool want = p < bits;
          const bool got = dc::any_low_bits(st(), sc.s, a.op(), bits);
          const std::string what = "any_low_bits(a[" + std::to_string(n) + "] with lowest set bit " +
                                   std::to_string(p) + ", bits = " + std::to_string(bits) + "), " + sc.name;
          ::testing::AssertionResult ok = ::testing::AssertionSuccess();
          if (got != want) ok = ::testing::AssertionFailure() << "returned " << got << ", expected " << want;
          if (!report(ok, what)) return;
        }
        if (!report(operands_unchanged(sc.s, {&a}), "any_low_bits: operand")) return;
      }
    }
}

}  // namespace
}  // namespace backend_layer
