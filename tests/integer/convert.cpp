// Integer conversions against GMP: strings in every base (and base 0
// prefixes), parse errors with their positions, mpz, bytes in both orders,
// limbs (non-normalized input), machine integers at their limits, the
// all_ones / power_of_two constructors, and values large enough for the
// staged host <-> device copies (src/cuda/staging.hpp), also from several
// threads sharing a context.
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <thread>

#include "integer_test.hpp"

namespace {

using mpgpu::Endian;
using mpgpu::Integer;
using mpgpu::limb_t;
using namespace mpgpu_test;

class Convert : public IntegerTest {};
MPGPU_INSTANTIATE_ON_BACKEND(Convert);

std::vector<Mpz> conversion_values() {
  std::vector<Mpz> v = edge_values();
  Operands gen(11);
  for (int i = 0; i < sized(20, 6); ++i) v.push_back(gen.random_signed(300));  // sanitizer-sized: 6
  return v;
}

// Sanitizer-sized: every base, each with one value in five in rotation
// (each value still meets a fifth of the bases, upper and lower case).
TEST_P(Convert, StringRoundTripEveryBase) {
  const std::vector<Mpz> values = conversion_values();
  for (int base = 2; base <= 62; ++base)
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!sanitizer_keeps(static_cast<std::size_t>(base) + i, 5)) continue;
      const Mpz& v = values[i];
      const std::string text = v.str(base);
      const Integer x = make(v);
      ASSERT_EQ(x.to_string(base), text) << "to_string, base " << base << ", " << v;
      const Integer y = Integer::from_string(text, base, ctx());
      ASSERT_TRUE(matches(y, v)) << "from_string, base " << base;
      if (base <= 36) {  // letters are case-insensitive there
        std::string upper = text;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        ASSERT_TRUE(matches(Integer::from_string(upper, base, ctx()), v)) << "upper case, base " << base;
      }
      if (v.sgn() > 0) {
        ASSERT_TRUE(matches(Integer::from_string("+" + text, base, ctx()), v)) << "'+'";
      }
    }
}

TEST_P(Convert, DigitValuesAreGmps) {
  // Above base 36 GMP reads A-Z as 10..35 and a-z as 36..61.
  for (const char* text : {"A", "Z", "a", "z", "zZ9", "Az", "-aZ", "10"})
    for (int base : {37, 62}) {
      Mpz want;
      if (mpz_set_str(want, text, base) != 0) continue;  // digit too large for base 37
      ASSERT_TRUE(matches(Integer::from_string(text, base, ctx()), want)) << text << " base " << base;
    }
  EXPECT_EQ(Integer::from_string("A", 62, ctx()).to_int64(), 10);
  EXPECT_EQ(Integer::from_string("a", 62, ctx()).to_int64(), 36);
  EXPECT_EQ(Integer::from_string("z", 36, ctx()).to_int64(), 35);
  EXPECT_EQ(Integer::from_string("Z", 36, ctx()).to_int64(), 35);
}

TEST_P(Convert, BaseZeroPrefixes) {
  for (const char* text : {"0x1f", "0X1F", "-0xFFFFFFFFFFFFFFFF1", "0b1011", "0B1", "-0b0", "017", "-0777", "0",
                           "-0", "123", "+0x10", "00", "0x0", "99999999999999999999999999"}) {
    Mpz want;
    ASSERT_EQ(mpz_set_str(want, text[0] == '+' ? text + 1 : text, 0), 0) << text;
    ASSERT_TRUE(matches(Integer::from_string(text, 0, ctx()), want)) << text;
  }
}

/// from_string(text, base) throws ParseError at `position`.
void expect_parse_error(const mpgpu::Context& ctx, const std::string& text, int base, std::size_t position) {
  try {
    Integer::from_string(text, base, ctx);
    ADD_FAILURE() << "\"" << text << "\" base " << base << " parsed without error";
  } catch (const mpgpu::ParseError& e) {
    EXPECT_EQ(e.position(), position) << "\"" << text << "\" base " << base << ": " << e.what();
  }
}

TEST_P(Convert, ParseErrors) {
  expect_parse_error(ctx(), "12a4", 10, 2);
  expect_parse_error(ctx(), "-12z", 10, 3);
  expect_parse_error(ctx(), "102", 2, 2);
  expect_parse_error(ctx(), "1g", 16, 1);
  expect_parse_error(ctx(), "z", 61, 0);       // 'z' is 61 above base 36
  expect_parse_error(ctx(), "Z", 35, 0);
  expect_parse_error(ctx(), "--1", 10, 1);
  expect_parse_error(ctx(), "+-1", 10, 1);
  expect_parse_error(ctx(), " 1", 10, 0);      // no whitespace, unlike mpz_set_str
  expect_parse_error(ctx(), "1 2", 10, 1);
  expect_parse_error(ctx(), "12\n", 10, 2);
  expect_parse_error(ctx(), std::string("1\0" "2", 3), 10, 1);
  expect_parse_error(ctx(), "08", 0, 1);       // octal by its prefix
  expect_parse_error(ctx(), "0x1g", 0, 3);
  expect_parse_error(ctx(), "0b102", 0, 4);
  // Nothing to parse: the position is where a digit was expected.
  expect_parse_error(ctx(), "", 10, 0);
  expect_parse_error(ctx(), "-", 10, 1);
  expect_parse_error(ctx(), "+", 10, 1);
  expect_parse_error(ctx(), "", 0, 0);
  expect_parse_error(ctx(), "-", 0, 1);
  EXPECT_THROW(Integer::from_string("0x", 0, ctx()), mpgpu::ParseError);
  EXPECT_THROW(Integer::from_string("-0b", 0, ctx()), mpgpu::ParseError);
  // A long number with one bad digit near the end.
  std::string long_text(5000, '7');
  long_text[4990] = '.';
  expect_parse_error(ctx(), long_text, 10, 4990);
  // Millions of digits are checked in 4 Mi-character ranges on host threads:
  // the first bad digit wins, whichever range finds one first.
  std::string huge(10'000'000, '3');
  huge[9'999'990] = 'x';
  expect_parse_error(ctx(), huge, 10, 9'999'990);
  huge[5'000'001] = '-';
  huge[(std::size_t{1} << 22) + 1] = '9' + 1;  // ':' just after a range boundary
  expect_parse_error(ctx(), "-" + huge, 10, (std::size_t{1} << 22) + 2);
}

TEST_P(Convert, BaseOutOfRange) {
  for (int base : {1, 63, -1, -16, 64, INT_MIN})
    EXPECT_THROW(Integer::from_string("1", base, ctx()), mpgpu::InvalidArgument) << base;
  const Integer x = make(Mpz::from_ui(5));
  for (int base : {0, 1, 63, -2, -10})
    EXPECT_THROW((void)x.to_string(base), mpgpu::InvalidArgument) << base;
}

TEST_P(Convert, MpzRoundTrip) {
  for (const Mpz& v : conversion_values()) {
    const Integer x = make(v);
    ASSERT_TRUE(matches(x, v));
    Mpz back = Mpz::from_si(-12345);  // to_mpz overwrites whatever was there
    x.to_mpz(back);
    ASSERT_EQ(back, v);
  }
}

TEST_P(Convert, BytesBothOrders) {
  for (const Mpz& v : conversion_values()) {
    // GMP's export of |v|, most significant byte first.
    std::vector<std::uint8_t> big((v.bits() + 7) / 8);
    std::size_t written = 0;
    if (!big.empty()) mpz_export(big.data(), &written, 1, 1, 0, 0, v);
    ASSERT_EQ(written, big.size());
    std::vector<std::uint8_t> little(big.rbegin(), big.rend());

    const Integer x = make(v);
    ASSERT_EQ(x.to_bytes(Endian::big), big) << v;
    ASSERT_EQ(x.to_bytes(Endian::little), little) << v;
    const Mpz magnitude = v.abs();
    ASSERT_TRUE(matches(Integer::from_bytes(big.data(), big.size(), Endian::big, ctx()), magnitude));
    ASSERT_TRUE(matches(Integer::from_bytes(little.data(), little.size(), Endian::little, ctx()), magnitude));
    // Leading zero bytes are not part of the value.
    big.insert(big.begin(), 3, 0);
    little.insert(little.end(), 3, 0);
    ASSERT_TRUE(matches(Integer::from_bytes(big.data(), big.size(), Endian::big, ctx()), magnitude));
    ASSERT_TRUE(matches(Integer::from_bytes(little.data(), little.size(), Endian::little, ctx()), magnitude));
  }
  EXPECT_TRUE(matches(Integer::from_bytes(nullptr, 0, Endian::big, ctx()), Mpz()));
  const std::uint8_t bytes[] = {0x01, 0x02, 0x03};
  EXPECT_TRUE(matches(Integer::from_bytes(bytes, 3, Endian::big, ctx()), Mpz::from_ui(0x010203)));
  EXPECT_TRUE(matches(Integer::from_bytes(bytes, 3, Endian::little, ctx()), Mpz::from_ui(0x030201)));
}

TEST_P(Convert, LimbsNonNormalizedInput) {
  for (const Mpz& v : conversion_values()) {
    std::vector<limb_t> limbs(v.limbs());
    for (std::size_t i = 0; i < limbs.size(); ++i) limbs[i] = mpz_getlimbn(v, i);
    const int sign = v.sgn() < 0 ? -1 : 1;
    ASSERT_TRUE(matches(Integer::from_limbs(limbs.data(), limbs.size(), sign, ctx()), v));
    const Integer x = make(v);
    ASSERT_EQ(x.to_limbs(), limbs) << v;
    limbs.insert(limbs.end(), 5, 0);  // high zero limbs are dropped
    ASSERT_TRUE(matches(Integer::from_limbs(limbs.data(), limbs.size(), sign, ctx()), v));
  }
  // All-zero limbs are zero whatever the sign says.
  const limb_t zeros[4] = {0, 0, 0, 0};
  for (int sign : {-1, 0, 1}) {
    EXPECT_TRUE(matches(Integer::from_limbs(zeros, 4, sign, ctx()), Mpz())) << sign;
    EXPECT_TRUE(matches(Integer::from_limbs(nullptr, 0, sign, ctx()), Mpz())) << sign;
  }
  const limb_t low_zero[3] = {0, 7, 0};
  Mpz want = Mpz::from_ui(7);
  mpz_mul_2exp(want, want, 64);
  EXPECT_TRUE(matches(Integer::from_limbs(low_zero, 3, -1, ctx()), -want));
  EXPECT_THROW(Integer::from_limbs(nullptr, 2, 1, ctx()), mpgpu::InvalidArgument);
}

// to_limbs into the caller's buffer: the value's limbs and nothing past
// them, on the host and on the device; a buffer too small (or null) throws
// before anything is written.
TEST_P(Convert, LimbsIntoCallersBuffer) {
  constexpr limb_t kMark = 0x1234'5678'9abc'def0ULL;
  for (const Mpz& v : conversion_values()) {
    for (const bool device : {false, true}) {
      Integer x = make(v);
      if (device) x.place_on_device();
      const std::size_t n = v.limbs();
      std::vector<limb_t> out(n + 2, kMark);
      ASSERT_EQ(x.to_limbs(out.data(), n + 1), n) << v;
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], mpz_getlimbn(v, i)) << v << ", limb " << i;
      ASSERT_EQ(out[n], kMark) << v;
      ASSERT_EQ(out[n + 1], kMark) << v;
      if (n == 0) {
        EXPECT_EQ(x.to_limbs(nullptr, 0), 0u);
        continue;
      }
      std::vector<limb_t> small(n, kMark);  // one limb more than the capacity given
      EXPECT_THROW(x.to_limbs(small.data(), n - 1), mpgpu::InvalidArgument) << v;
      for (limb_t l : small) ASSERT_EQ(l, kMark) << "a rejected to_limbs wrote, " << v;
      EXPECT_THROW(x.to_limbs(nullptr, n), mpgpu::InvalidArgument) << v;
      EXPECT_TRUE(matches(x, v)) << "the value changed, " << v;
    }
  }
}

TEST_P(Convert, DeviceLimbs) {
  if (!on_gpu()) {
    const limb_t one = 1;
    EXPECT_THROW(Integer::from_device_limbs(&one, 1, 1, ctx()), mpgpu::InvalidArgument);
    EXPECT_EQ(make(Mpz::from_ui(5)).device_limbs(), nullptr);
    return;
  }
  EXPECT_EQ(make(Mpz()).device_limbs(), nullptr);
  EXPECT_THROW(Integer::from_device_limbs(nullptr, 3, 1, ctx()), mpgpu::InvalidArgument);
  for (const Mpz& v : conversion_values()) {
    // y = 2^(64 (n + 3)) + |v| holds |v| followed by two zero limbs: a
    // non-normalized device buffer of n + 2 limbs.
    const std::size_t n = v.limbs();
    Mpz y = Mpz::pow2(64 * (n + 3));
    mpz_add(y, y, v.abs());
    const Integer holder = make(y);
    const int sign = v.sgn() < 0 ? -1 : 1;
    ASSERT_TRUE(matches(Integer::from_device_limbs(holder.device_limbs(), n + 2, sign, ctx()), v));
    ASSERT_TRUE(matches(Integer::from_device_limbs(holder.device_limbs(), n, sign, ctx()), v));
    ASSERT_TRUE(matches(holder, y));
  }
}

TEST_P(Convert, MachineIntegers) {
  constexpr std::int64_t i64_min = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t i64_max = std::numeric_limits<std::int64_t>::max();
  constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();
  for (std::int64_t v : {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, std::int64_t{42}, i64_max, i64_min,
                         i64_min + 1, i64_max - 1, std::int64_t{-4294967296}}) {
    const Integer x(v, ctx());
    ASSERT_TRUE(matches(x, Mpz::from_si(v))) << v;
    EXPECT_TRUE(x.fits_int64()) << v;
    EXPECT_EQ(x.to_int64(), v);
    EXPECT_EQ(x.fits_uint64(), v >= 0) << v;
    if (v >= 0) {
      EXPECT_EQ(x.to_uint64(), static_cast<std::uint64_t>(v));
    } else {
      EXPECT_THROW((void)x.to_uint64(), mpgpu::Overflow) << v;
    }
  }
  for (std::uint64_t v : {std::uint64_t{0}, std::uint64_t{1}, u64_max, u64_max - 1, std::uint64_t{1} << 63}) {
    const Integer x(v, ctx());
    ASSERT_TRUE(matches(x, Mpz::from_ui(v))) << v;
    EXPECT_TRUE(x.fits_uint64());
    EXPECT_EQ(x.to_uint64(), v);
    EXPECT_EQ(x.fits_int64(), v <= static_cast<std::uint64_t>(i64_max)) << v;
  }
  // Narrow and character types go through the same template.
  EXPECT_TRUE(matches(Integer(std::int8_t{-128}, ctx()), Mpz::from_si(-128)));
  EXPECT_TRUE(matches(Integer(std::uint16_t{65535}, ctx()), Mpz::from_ui(65535)));
  EXPECT_TRUE(matches(Integer(-7, ctx()), Mpz::from_si(-7)));
  EXPECT_TRUE(matches(Integer(7u, ctx()), Mpz::from_ui(7)));

  // Just outside the ranges.
  Mpz above_i64 = Mpz::from_ui(static_cast<std::uint64_t>(i64_max) + 1);
  Mpz below_i64 = Mpz::from_si(i64_min);
  mpz_sub_ui(below_i64, below_i64, 1);
  const Mpz above_u64 = Mpz::pow2(64);
  for (const Mpz& v : {above_i64, below_i64, above_u64, -above_u64, Mpz::all_ones(65), Mpz::pow2(1000)}) {
    const Integer x = make(v);
    EXPECT_FALSE(x.fits_int64()) << v;
    EXPECT_THROW((void)x.to_int64(), mpgpu::Overflow) << v;
    const bool fits_u = v.sgn() >= 0 && mpz_sizeinbase(v, 2) <= 64;
    EXPECT_EQ(x.fits_uint64(), fits_u) << v;
    if (!fits_u) {
      EXPECT_THROW((void)x.to_uint64(), mpgpu::Overflow) << v;
    }
    ASSERT_TRUE(matches(x, v));  // a failed conversion leaves the value alone
  }
  EXPECT_EQ(make(above_i64).to_uint64(), static_cast<std::uint64_t>(i64_max) + 1);
}

TEST_P(Convert, AllOnesAndPowerOfTwo) {
  std::vector<std::uint64_t> bits = boundary_bits();
  bits.insert(bits.begin(), 0);
  bits.push_back(64 * 2048 + 1);
  for (std::uint64_t n : bits) {
    ASSERT_TRUE(matches(Integer::all_ones(n, ctx()), Mpz::all_ones(n))) << "all_ones(" << n << ")";
    ASSERT_TRUE(matches(Integer::power_of_two(n, ctx()), Mpz::pow2(n))) << "power_of_two(" << n << ")";
  }
}

// ---- large values: the staged copies ------------------------------------------
// Values of several MiB cross the host/device boundary in chunks through
// pinned buffers (src/cuda/staging.hpp: 4 MiB chunks = 2^19 limbs, a ring of
// 4 buffers, copies of at least 1 MiB = 2^17 limbs). The sizes sit at those
// boundaries, +- 1 limb, and past the ring's wrap. On the CPU backend the
// same round trips are plain GMP copies.

constexpr std::size_t kChunkLimbs = std::size_t{1} << 19;
constexpr std::size_t kThresholdLimbs = std::size_t{1} << 17;

/// Exactly n limbs (top bit set), uniform or with long runs of 0s and 1s.
Mpz value_of_limbs(Operands& gen, std::size_t n, bool runs) {
  Mpz v = runs ? gen.runs(64 * n) : gen.uniform(64 * n);
  mpz_setbit(v, 64 * n - 1);
  return v;
}

/// from_limbs -> to_limbs and from_mpz -> to_mpz give back exactly v's limbs;
/// to_mpz writes n limbs into an mpz with room for more and leaves the guard
/// limbs after them alone. Failures name the size, never print the value.
void expect_exact_round_trips(const mpgpu::Context& ctx, const Mpz& v) {
  const std::size_t n = v.limbs();
  const int sign = v.sgn() < 0 ? -1 : 1;
  const std::vector<limb_t> limbs(mpz_limbs_read(v), mpz_limbs_read(v) + n);

  Integer x = Integer::from_limbs(limbs.data(), n, sign, ctx);
  x.place_on_device();
  ASSERT_EQ(x.size(), n);
  ASSERT_EQ(x.sign(), v.sgn());
  ASSERT_TRUE(x.to_limbs() == limbs) << "from_limbs -> to_limbs differs, " << n << " limbs";
  {  // the caller's buffer: exactly n limbs written, the guards after them untouched
    constexpr std::size_t kSlack = 3;
    constexpr limb_t kMark = 0x5a5a'a5a5'5a5a'a5a5ULL;
    std::vector<limb_t> out(n + kSlack, kMark);
    ASSERT_EQ(x.to_limbs(out.data(), out.size()), n);
    ASSERT_TRUE(std::equal(limbs.begin(), limbs.end(), out.begin())) << "to_limbs(out) differs, " << n << " limbs";
    for (std::size_t i = n; i < n + kSlack; ++i) ASSERT_EQ(out[i], kMark) << "to_limbs(out) wrote past " << n;
  }

  Integer y = Integer::from_mpz(v, ctx);
  y.place_on_device();
  constexpr std::size_t kGuard = 4;
  constexpr limb_t kGuardLimb = 0xa5a5'5a5a'a5a5'5a5aULL;
  Mpz back;
  limb_t* room = reinterpret_cast<limb_t*>(mpz_limbs_write(back, static_cast<mp_size_t>(n + kGuard)));
  for (std::size_t i = 0; i < n + kGuard; ++i) room[i] = kGuardLimb;
  mpz_limbs_finish(back, 0);  // size 0, room for n + kGuard limbs kept
  y.to_mpz(back);
  ASSERT_TRUE(back == v) << "from_mpz -> to_mpz differs, " << n << " limbs";
  const limb_t* d = reinterpret_cast<const limb_t*>(mpz_limbs_read(back));
  for (std::size_t i = n; i < n + kGuard; ++i)
    ASSERT_EQ(d[i], kGuardLimb) << "to_mpz wrote past its " << n << " limbs";
}

TEST_P(Convert, LargeRoundTripsAtChunkBoundaries) {
  Operands gen(33);
  for (std::size_t n : {kThresholdLimbs - 1, kThresholdLimbs, kThresholdLimbs + 1, kChunkLimbs - 1, kChunkLimbs + 1,
                        3 * kChunkLimbs + 1, 5 * kChunkLimbs - 1}) {
    const Mpz v = value_of_limbs(gen, n, n % 2 == 1);
    expect_exact_round_trips(ctx(), n % 4 == 3 ? Mpz(-v) : v);
    if (HasFatalFailure()) return;
  }
}

TEST_P(Convert, LargeHexTextRoundTrip) {
  // Text in base 16 moves between host and device as characters (an odd
  // count here: chunks end mid-limb and mid-character-run).
  Operands gen(34);
  constexpr std::size_t n = kChunkLimbs + 1;
  Mpz v = value_of_limbs(gen, n, true);
  for (std::size_t bit = 64 * n - 4; bit < 64 * n; ++bit) mpz_clrbit(v, bit);
  mpz_setbit(v, 64 * n - 5);  // 16 (n - 1) + 15 digits
  const std::string text = v.str(16);
  ASSERT_EQ(text.size() % 2, 1u);
  const Integer x = make(v);
  ASSERT_TRUE(x.to_string(16) == text) << "to_string(16) differs";
  Mpz back;
  Integer::from_string(text, 16, ctx()).to_mpz(back);
  ASSERT_TRUE(back == v) << "from_string(16) differs";
}

TEST_P(Convert, LargeRoundTripsThroughSmallChunks) {
  if (!on_gpu()) GTEST_SKIP() << "the staging params act on CUDA contexts only";
  // A context with staging chunks of 8193 limbs + 3 bytes (limbs straddle
  // every chunk boundary) and 3 copy threads; a copy of 2^17 + 1 limbs then
  // wraps the 4-buffer ring 4 times.
  mpgpu::TuningParams params = ctx().tuning();
  params.staging_chunk_bytes = 65547;
  params.staging_threads = 3;
  const mpgpu::Context small_chunks = mpgpu::Context::cuda(0, params);
  Operands gen(35);
  for (std::size_t n : {kThresholdLimbs, kThresholdLimbs + 1, 3 * kThresholdLimbs + 5}) {
    expect_exact_round_trips(small_chunks, value_of_limbs(gen, n, n % 2 == 0));
    if (HasFatalFailure()) return;
  }
}

TEST_P(Convert, LargeRoundTripsFromSeveralThreads) {
  // Threads sharing a context take turns for its staging buffers; each
  // thread's values come back exactly.
  constexpr int kThreads = 3;
  std::vector<std::vector<limb_t>> sources(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    Operands gen(36 + t);
    const Mpz v = value_of_limbs(gen, 2 * kChunkLimbs + 3 + t, t % 2 == 0);
    sources[t].assign(mpz_limbs_read(v), mpz_limbs_read(v) + v.limbs());
  }
  std::vector<int> exact(kThreads, 0);  // rounds that came back exactly
  constexpr int kRounds = 3;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        Integer x = Integer::from_limbs(sources[t].data(), sources[t].size(), 1, ctx());
        x.place_on_device();
        if (x.to_limbs() == sources[t]) ++exact[t];
      }
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(exact[t], kRounds) << "thread " << t;
}

}  // namespace
