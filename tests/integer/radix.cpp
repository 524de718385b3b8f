// Radix conversion by divide and conquer (src/integer/integer_radix.cpp) against
// GMP's mpz_get_str / mpz_set_str. The detail entry points take the leaf
// size, so the CPU backend runs the whole tree (GMP doing its products and
// divisions) with leaves of a few limbs; the public to_string / from_string
// are checked around and above kRadixDeviceMinLimbs, where a CUDA context
// switches to the device tree. Values with long runs of zero digits (10^k + 1,
// base^k, base^k - 1) need the zero padding of the inner pieces.
#include <gmp.h>

#include <string>
#include <vector>

#include "../../src/integer/integer_radix.hpp"
#include "../../src/integer/digit_values.hpp"
#include "../../src/integer/integer_rows.hpp"
#include "mpgpu/device/pow2_digits.cuh"
#include "integer_test.hpp"

namespace {

using mpgpu::Integer;
using mpgpu::detail::kRadixDeviceMinLimbs;
using mpgpu::detail::radix_from_digits_dc;
using mpgpu::detail::radix_to_string_dc;
using mpgpu::detail::RowField;
using mpgpu::limb_t;
using namespace mpgpu_test;

class Radix : public IntegerTest {};
MPGPU_INSTANTIATE_ON_BACKEND(Radix);

Mpz power(unsigned long base, unsigned long exp) {
  Mpz p;
  mpz_ui_pow_ui(p.get(), base, exp);
  return p;
}

/// Values that stress the padding: base^k, base^k - 1, base^k + 1, 10^k + 1,
/// a number with one nonzero digit in the middle, and random ones
/// (sanitizer-sized: k of 19, 64 and the most digits; 2 random values).
std::vector<Mpz> radix_values(int base, std::size_t max_limbs, unsigned long salt) {
  std::vector<Mpz> v = {Mpz(), Mpz::from_si(1), Mpz::from_si(-1), Mpz::from_si(base), Mpz::from_si(-base)};
  const unsigned long digits = static_cast<unsigned long>(max_limbs * 64 / mpz_sizeinbase(power(base, 1).get(), 2));
  const std::vector<unsigned long> ks =
      sized<std::vector<unsigned long>>({19ul, 38ul, 64ul, digits / 2, digits - 1}, {19ul, 64ul, digits - 1});
  for (unsigned long k : ks) {
    if (k == 0) continue;
    Mpz p = power(static_cast<unsigned long>(base), k);
    v.push_back(p);
    Mpz m1, p1;
    mpz_sub_ui(m1.get(), p.get(), 1);
    mpz_add_ui(p1.get(), p.get(), 1);
    v.push_back(m1);
    v.push_back(-p1);
    Mpz t = power(10, k);
    mpz_add_ui(t.get(), t.get(), 1);
    v.push_back(t);
    Mpz mid = power(static_cast<unsigned long>(base), k / 2);
    mpz_mul(mid.get(), mid.get(), p.get());
    v.push_back(mid);  // one 1 digit, then zeros on both sides
  }
  Operands gen(salt);
  for (int i = 0; i < sized(8, 2); ++i) v.push_back(gen.random_signed(max_limbs));
  v.push_back(gen.sparse(max_limbs * 64, 3));
  return v;
}

/// The text after an optional '-'.
std::string digits_of(const std::string& text) { return text[0] == '-' ? text.substr(1) : text; }

TEST_P(Radix, DivideAndConquerMatchesGmpInSmallPieces) {
  // Sanitizer-sized: bases 10, 16 (a power of two), 62 (past 36: both
  // letter cases) and 7, with one leaf size a value, in turn.
  const std::vector<int> bases = sized<std::vector<int>>({10, 16, 2, 36, 62, 3, 7, 37}, {10, 16, 62, 7});
  std::size_t turn = 0;
  for (int base : bases)
    for (std::size_t leaf : {1, 2, 5})
      for (const Mpz& v : radix_values(base, 40, static_cast<unsigned long>(base * 10 + leaf))) {
        if (!sanitizer_keeps(turn++, 3)) continue;
        const std::string want = v.str(base);
        const Integer x = make(v);
        ASSERT_EQ(radix_to_string_dc(x, base, leaf), want) << "base " << base << ", leaf " << leaf << ", " << v;
        const Integer y = radix_from_digits_dc(digits_of(want), base, v.sgn() < 0, ctx(), leaf);
        ASSERT_TRUE(matches(y, v)) << "from digits, base " << base << ", leaf " << leaf;
      }
}

/// Bits [lo, lo + 64 width) of slot j of v (stride, extent as RowField).
Mpz slot_field(const Mpz& v, std::size_t j, std::size_t stride, std::size_t extent, std::uint64_t lo,
               std::size_t width) {
  Mpz slot, f;
  mpz_fdiv_q_2exp(slot.get(), v.get(), 64 * j * stride);
  mpz_fdiv_r_2exp(slot.get(), slot.get(), 64 * extent);
  mpz_fdiv_q_2exp(f.get(), slot.get(), lo);
  mpz_fdiv_r_2exp(f.get(), f.get(), 64 * width);
  return f;
}

TEST_P(Radix, RowGatherMatchesShiftsAndMasks) {
  // The row map of the level-at-once conversion: bit offsets inside and
  // across limbs, fields running past the slot's extent and the value's end,
  // broadcasts (stride 0) and two interleaved sources.
  // Sanitizer-sized: 14 trials (every stride 1..7 twice, each trial % 3).
  Operands gen(31);
  for (int trial = 0; trial < sized(40, 14); ++trial) {
    const std::size_t stride = 1 + trial % 7, slots = 1 + (trial * 5) % 9, extent = stride + (trial % 3 == 0);
    const Mpz a = gen.random_value(stride * slots + 2), b = gen.random_value(stride * slots);
    const std::uint64_t off = (trial * 37) % (64 * stride), width = 1 + trial % (stride + 1);
    const std::size_t pitch = width + trial % 3;
    const Integer A = make(a), B = make(b);
    Integer dst(ctx());
    mpgpu::detail::gather_slots(dst, slots, pitch, {RowField{&A, stride, extent, off, width}});
    Mpz want;
    for (std::size_t j = 0; j < slots; ++j) {
      Mpz f = slot_field(a, j, stride, extent, off, width);
      mpz_mul_2exp(f.get(), f.get(), 64 * j * pitch);
      mpz_add(want.get(), want.get(), f.get());
    }
    ASSERT_TRUE(matches(dst, want)) << "trial " << trial;
    // Interleaved (a, b) with a broadcast b: slot 2j from a, 2j + 1 = b's slot 0.
    mpgpu::detail::gather_slots(dst, 2 * slots - 1, pitch,
                                {RowField{&A, stride, extent, off, width}, RowField{&B, 0, stride, 0, width}});
    Mpz want2;
    for (std::size_t s = 0; s + 1 < 2 * slots; ++s) {
      Mpz f = s % 2 ? slot_field(b, 0, 0, stride, 0, width) : slot_field(a, s / 2, stride, extent, off, width);
      mpz_mul_2exp(f.get(), f.get(), 64 * s * pitch);
      mpz_add(want2.get(), want2.get(), f.get());
    }
    ASSERT_TRUE(matches(dst, want2)) << "interleaved, trial " << trial;
  }
}

TEST_P(Radix, PowerOfTwoBaseDigitMaps) {
  // The per-digit and per-limb maps of the bases 2^k (device/pow2_digits.cuh),
  // run here on the host: digits straddle limbs in bases 8 and 32.
  Operands gen(41);
  for (int k = 1; k <= 5; ++k) {
    const int base = 1 << k;
    mpgpu::device::Pow2DigitValues values{};
    const mpgpu::detail::DigitValues table(base);
    for (int c = 0; c < 256; ++c) values.v[c] = table.value[c];
    for (int trial = 0; trial < 12; ++trial) {
      const Mpz v = trial == 0 ? Mpz::all_ones(64 * 3) : gen.random_value(1 + trial * 3);
      const std::string want = v.str(base);
      const std::vector<limb_t> limbs = make(v).to_limbs();
      std::string got(want.size(), '?');
      for (std::size_t c = 0; c < got.size(); ++c)
        got[c] = "0123456789abcdefghijklmnopqrstuv"[mpgpu::device::pow2_digit(limbs.data(), limbs.size(), k,
                                                                              got.size() - 1 - c)];
      ASSERT_EQ(got, want) << "base " << base << ", trial " << trial;
      const std::string text = "00" + want;  // leading zeros
      const std::size_t n = (text.size() * k + 63) / 64;
      std::vector<limb_t> back(n);
      for (std::size_t j = 0; j < n; ++j) back[j] = mpgpu::device::pow2_limb(text.data(), text.size(), k, j, values);
      ASSERT_TRUE(matches(Integer::from_limbs(back.data(), n, 1, ctx()), v)) << "base " << base << ", trial " << trial;
    }
  }
}

TEST_P(Radix, LeadingZerosOnInput) {
  for (int base : {10, 62, 16, 3})
    for (std::size_t leaf : {1, 3}) {
      EXPECT_TRUE(matches(radix_from_digits_dc("000102", base, false, ctx(), leaf), Mpz("102", base)));
      EXPECT_TRUE(matches(radix_from_digits_dc("0", base, false, ctx(), leaf), Mpz()));
      EXPECT_TRUE(matches(radix_from_digits_dc(std::string(500, '0'), base, true, ctx(), leaf), Mpz()));
      const Mpz v = Operands(7).random_value(20);
      const std::string text = std::string(700, '0') + v.str(base);  // the high pieces are all zeros
      EXPECT_TRUE(matches(radix_from_digits_dc(text, base, false, ctx(), leaf), v)) << "base " << base;
      EXPECT_TRUE(matches(Integer::from_string("-" + text, base, ctx()), -v));
    }
  EXPECT_TRUE(matches(Integer::from_string("000123", 10, ctx()), Mpz("123")));
}

TEST_P(Radix, DivideAndConquerLargeWithZeroRuns) {
  // A few thousand limbs, leaves of 64: a tree of about six levels
  // (sanitizer-sized: bases 10 and 62).
  for (int base : sized<std::vector<int>>({10, 36, 62, 3}, {10, 62})) {
    std::vector<Mpz> values;
    const unsigned long k = 40000;
    values.push_back(power(static_cast<unsigned long>(base), k));
    Mpz m1 = values.back();
    mpz_sub_ui(m1.get(), m1.get(), 1);
    values.push_back(m1);
    Mpz t = power(10, k);
    mpz_add_ui(t.get(), t.get(), 1);
    values.push_back(-t);
    values.push_back(Operands(static_cast<unsigned long>(base)).uniform(3000 * 64));
    for (const Mpz& v : values) {
      const std::string want = v.str(base);
      ASSERT_EQ(radix_to_string_dc(make(v), base, 64), want) << "base " << base << ", " << v;
      ASSERT_TRUE(matches(radix_from_digits_dc(digits_of(want), base, v.sgn() < 0, ctx(), 64), v))
          << "base " << base << ", " << v;
    }
  }
}

TEST_P(Radix, PublicRoundTripAroundThreshold) {
  // On a CUDA context these sizes switch between host GMP and the device tree
  // (on the CPU backend both sides are GMP: two bases keep it quick).
  Operands gen(99);
  // Sanitizer-sized on the GPU: 10 and 62 (general), 16 (digits in whole
  // limbs), 8 (digits straddling limbs).
  const std::vector<int> bases = on_gpu() ? sized<std::vector<int>>({10, 16, 62, 7, 8, 32, 2}, {10, 16, 62, 8})
                                          : std::vector<int>{10, 62};
  for (std::size_t limbs : {kRadixDeviceMinLimbs - 1, kRadixDeviceMinLimbs, kRadixDeviceMinLimbs + 1})
    for (int base : bases) {
      Mpz v = gen.uniform(limbs * 64);
      mpz_setbit(v.get(), limbs * 64 - 1);
      if (limbs % 2) v = -v;
      const std::string want = v.str(base);
      ASSERT_EQ(make(v).to_string(base), want) << limbs << " limbs, base " << base;
      ASSERT_TRUE(matches(Integer::from_string(want, base, ctx()), v)) << limbs << " limbs, base " << base;
    }
}

TEST_P(Radix, PublicRoundTripWellAboveThreshold) {
  // 4x the threshold, and powers with long zero runs at that size.
  // Sanitizer-sized: 2x (the device tree one level deeper than at the
  // threshold).
  if (!on_gpu()) GTEST_SKIP() << "GMP on both sides on the CPU backend (covered by DivideAndConquer*)";
  const std::size_t times = sized(4, 2);
  const unsigned long digits = times * kRadixDeviceMinLimbs * 19;
  std::vector<std::pair<int, Mpz>> cases = {{10, Operands(5).uniform(times * kRadixDeviceMinLimbs * 64)},
                                            {10, power(10, digits)},
                                            {36, power(36, digits / 2)},
                                            {2, Operands(6).uniform(times * kRadixDeviceMinLimbs * 64)},
                                            {8, Operands(7).uniform(times * kRadixDeviceMinLimbs * 64 + 1)},
                                            {32, -Operands(8).uniform(times * kRadixDeviceMinLimbs * 64 + 3)},
                                            {16, -Operands(9).uniform(times * kRadixDeviceMinLimbs * 64)}};
  Mpz m1 = power(10, digits);
  mpz_sub_ui(m1.get(), m1.get(), 1);
  cases.push_back({10, -m1});
  Mpz p1 = power(10, digits);
  mpz_add_ui(p1.get(), p1.get(), 1);
  cases.push_back({10, p1});
  for (const auto& [base, v] : cases) {
    const std::string want = v.str(base);
    ASSERT_EQ(make(v).to_string(base), want) << "base " << base << ", " << v;
    ASSERT_TRUE(matches(Integer::from_string(want, base, ctx()), v)) << "base " << base << ", " << v;
  }
}

TEST_P(Radix, TenMillionDecimalDigits) {
  if (!on_gpu()) GTEST_SKIP() << "GMP converts on the CPU backend; the device tree is the point here";
  // The size is the point (a deep device tree, strings of megabytes);
  // sanitizer-sized, 10^6 digits: about 52000 limbs, 6x the threshold, a
  // tree of about 9 levels over leaves of 128 limbs.
  const unsigned long digits = sized(10000000ul, 1000000ul);
  Mpz v = power(10, digits - 1);  // exactly 10^7 digits: 10^(n-1) + a random part below 8 * 10^(n-1)
  Mpz low = Operands(10).uniform(static_cast<std::uint64_t>(3.32 * (digits - 1)));
  mpz_add(v.get(), v.get(), low.get());
  std::string want(mpz_sizeinbase(v.get(), 10) + 2, '\0');
  mpz_get_str(want.data(), 10, v.get());
  want.resize(std::char_traits<char>::length(want.c_str()));
  ASSERT_EQ(want.size(), digits);
  const Integer x = make(v);
  ASSERT_EQ(x.to_string(10), want);
  Mpz back;
  ASSERT_EQ(mpz_set_str(back.get(), want.c_str(), 10), 0);
  ASSERT_TRUE(matches(Integer::from_string(want, 10, ctx()), back));
  ASSERT_TRUE(matches(Integer::from_string("-" + want, 10, ctx()), -back));
}

}  // namespace
