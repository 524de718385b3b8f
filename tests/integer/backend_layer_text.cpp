// Text in bases 2^k (src/cuda/pow2_digits.cu), the radix leaves as text
// (src/cuda/radix_leaves.cu) and the row maps of the radix conversion
// (src/cuda/slot_rows.cu), called directly against GMP or against the
// definitions of backend.hpp written out on the host; see
// backend_layer.hpp for the guards. Text outputs are host memory: their
// guards are host bytes, and they start on a 16-byte boundary or one byte
// past it.
#include "integer/backend_layer.hpp"

namespace backend_layer {
namespace {

/// GMP's digit characters (mpz_get_str: lower-case up to base 36, then
/// 0-9A-Za-z) and a character's digit value in them.
const char* gmp_digits(int base) {
  return base <= 36 ? "0123456789abcdefghijklmnopqrstuvwxyz"
                    : "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
}
unsigned gmp_digit_value(char c, int base) {
  const char* d = gmp_digits(base);
  for (unsigned v = 0; d[v]; ++v)
    if (d[v] == c) return v;
  throw std::logic_error(std::string("not a digit of GMP's: ") + c);
}

/// Test alphabets: GMP's own, or a scrambled one (64 distinct printable
/// characters, none GMP's digit of the same value), so that the output
/// shows which table the kernel read.
std::vector<char> test_alphabet(int base, bool scrambled) {
  std::vector<char> a(64, '\0');
  for (int d = 0; d < 64; ++d)
    a[static_cast<std::size_t>(d)] =
        scrambled ? static_cast<char>(0x21 + (d * 29 + 11) % 90) : (d < base ? gmp_digits(base)[d] : '?');
  return a;
}

/// |v| in base `base`, exactly `width` characters (zero padded; v fits),
/// in `alphabet`.
std::string text_of(const Mpz& v, int base, std::size_t width, const std::vector<char>& alphabet) {
  std::vector<char> buf(mpz_sizeinbase(v, base) + 2);
  mpz_get_str(buf.data(), base, v);
  const std::string digits(buf.data());
  if (digits.size() > width) throw std::logic_error("text_of: the value does not fit");
  std::string out(width, alphabet[0]);
  for (std::size_t i = 0; i < digits.size(); ++i)
    out[width - digits.size() + i] = alphabet[gmp_digit_value(digits[i], base)];
  return out;
}

/// got (host bytes) == want, naming the first difference.
::testing::AssertionResult same_text(const unsigned char* got, const std::string& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (static_cast<char>(got[i]) != want[i])
      return ::testing::AssertionFailure() << "character " << i << " of " << want.size() << " is "
                                           << hex(got[i]) << ", expected " << hex(static_cast<unsigned char>(want[i]));
  return ::testing::AssertionSuccess();
}

// ---- pow2_to_text ----------------------------------------------------------------------

// include/mpgpu/device/pow2_digits.cuh: a thread writes a run of
// kPow2TextRun = 16 digits (one 16-byte store when whole), 256 threads a
// block (4096 digits), the digits of k = 3 and 5 straddle limbs.
constexpr std::size_t kTextRun = 16, kTextBlock = 256 * kTextRun;
const std::vector<std::size_t> kDigitCounts = {1,  2,  15,  16,  17,  31,  32,  33,  64, kTextBlock - 1, kTextBlock,
                                               kTextBlock + 1, 3 * kTextBlock + 17, 40000};

/// A value of exactly `digits` digits in base 2^k (its top digit nonzero):
/// random, all digits the largest, or a one and zeros.
Mpz value_of_digits(std::size_t digits, int k, int kind, Operands& gen) {
  const std::uint64_t bits = std::uint64_t(k) * digits - (kind == 0 ? gen.below(static_cast<unsigned long>(k)) : 0);
  if (kind == 1) return Mpz::all_ones(bits);
  if (kind == 2) return Mpz::pow2(std::uint64_t(k) * (digits - 1));
  Mpz v = gen.uniform(bits);
  mpz_setbit(v, bits - 1);
  return v;
}

TEST_F(BackendLayer, Pow2ToText) {
  Operands gen(401);
  static const char* const kinds[] = {"random", "largest digits", "one and zeros"};
  std::size_t index = 0;
  for (const StreamCase& sc : streams())
    for (int k = 1; k <= 5; ++k)
      for (std::size_t digits : kDigitCounts)
        for (int kind = 0; kind < 3; ++kind)
          for (std::size_t pad : {std::size_t{0}, std::size_t{5}}) {
            ++index;
            if (!sanitizer_runs(sc, digits + static_cast<std::size_t>(k), index, 3)) continue;
            // digits + pad characters: pad leading zeros (digits past a's top read as zero).
            const int base = 1 << k;
            const bool odd = index % 2 == 1, scrambled = index % 3 == 0;
            const Mpz v = value_of_digits(digits, k, kind, gen);
            const Limbs lv = limbs_of(v);
            const std::size_t chars = digits + pad;
            const std::string what = "pow2_to_text(" + shape("a", lv.size(), kinds[kind]) + ", k = " +
                                     std::to_string(k) + ", " + std::to_string(chars) + " digits" +
                                     (pad ? " (5 leading zeros)" : "") + (scrambled ? ", scrambled alphabet" : "") +
                                     (odd ? ", one off" : "") + "), " + sc.name;
            const std::vector<char> alphabet = test_alphabet(base, scrambled);
            mpgpu::device::Pow2Alphabet table{};
            std::copy(alphabet.begin(), alphabet.begin() + 32, table.c);
            const DeviceOperand a(sc.s, lv, odd);
            Guarded out(sc.s, chars, odd ? 1 : 0, /*on_host=*/true);
            dc::pow2_to_text(st(), sc.s, static_cast<char*>(out.get()), a.op(), chars, k, table);
            out.read(sc.s);
            if (!report(all_of({out.guards_intact(), same_text(out.bytes(), text_of(v, base, chars, alphabet)),
                                operands_unchanged(sc.s, {&a})}),
                        what))
              return;
          }
  // Zero: a of size 0, one digit; and no digits at all (nothing written).
  for (const StreamCase& sc : streams())
    for (std::size_t chars : {std::size_t{0}, std::size_t{1}, std::size_t{17}}) {
      const DeviceOperand a(sc.s, Limbs{}, chars == 1);
      const std::vector<char> alphabet = test_alphabet(16, false);
      mpgpu::device::Pow2Alphabet table{};
      std::copy(alphabet.begin(), alphabet.begin() + 32, table.c);
      Guarded out(sc.s, chars, 0, /*on_host=*/true);
      dc::pow2_to_text(st(), sc.s, static_cast<char*>(out.get()), a.op(), chars, 4, table);
      out.read(sc.s);
      const std::string what = "pow2_to_text(a = 0, k = 4, " + std::to_string(chars) + " digits), " + sc.name;
      if (!report(all_of({out.guards_intact(), same_text(out.bytes(), std::string(chars, '0'))}), what)) return;
    }
}

// ---- pow2_from_text --------------------------------------------------------------------

/// A thread a limb, 256 threads a block.
constexpr std::size_t kFromTextBlock = 256;

/// Text lengths for k bits a digit: a limb's worth of digits and its
/// neighbours, a block of limbs and its neighbours, a long text.
std::vector<std::size_t> text_lengths(int k) {
  const std::size_t ku = static_cast<std::size_t>(k), limb = 64 / ku, block = 64 * kFromTextBlock / ku;
  return {1, 2, limb - 1, limb, limb + 1, (64 + ku - 1) / ku + 1, 2 * limb + 3, block - 1, block, block + 1,
          block * 3 + 7, 50000};
}

TEST_F(BackendLayer, Pow2FromText) {
  Operands gen(402);
  std::size_t index = 0;
  for (const StreamCase& sc : streams())
    for (int k = 1; k <= 5; ++k)
      for (std::size_t len : text_lengths(k))
        for (int kind = 0; kind < 3; ++kind) {
          ++index;
          if (!sanitizer_runs(sc, len + static_cast<std::size_t>(k), index, 3)) continue;
          const int base = 1 << k;
          // 0: random digits, upper and lower case (the values table maps
          // both, as the host API's does); 1: the largest digit throughout;
          // 2: leading zeros (a third of the text), then random digits.
          std::string text(len, '0');
          std::string lower(len, '0');
          for (std::size_t i = 0; i < len; ++i) {
            unsigned d = static_cast<unsigned>(base - 1);
            if (kind == 0 || (kind == 2 && i >= len / 3)) d = static_cast<unsigned>(gen.below(static_cast<unsigned long>(base)));
            if (kind == 2 && i < len / 3) d = 0;
            lower[i] = gmp_digits(base)[d];
            text[i] = d >= 10 && gen.coin() ? static_cast<char>(lower[i] - 'a' + 'A') : lower[i];
          }
          mpgpu::device::Pow2DigitValues values{};
          std::fill(std::begin(values.v), std::end(values.v), static_cast<unsigned char>(0xff));
          for (int d = 0; d < base; ++d) {
            const char c = gmp_digits(base)[d];
            values.v[static_cast<unsigned char>(c)] = static_cast<unsigned char>(d);
            if (d >= 10) values.v[static_cast<unsigned char>(c - 'a' + 'A')] = static_cast<unsigned char>(d);
          }
          const std::size_t limbs = (len * static_cast<std::size_t>(k) + 63) / 64;
          const bool odd = index % 2 == 1;
          static const char* const kinds[] = {"random, mixed case", "largest digit", "leading zeros"};
          const std::string what = "pow2_from_text(" + std::to_string(len) + " characters, k = " + std::to_string(k) +
                                   ", " + kinds[kind] + ", r[" + std::to_string(limbs) + "]" +
                                   (odd ? ", one limb off, text one byte off" : "") + "), " + sc.name;
          const std::string held = "#" + text;  // the text at held[1] (odd) or at held[0] of a copy
          const std::string& source = odd ? held : text;
          Guarded r = limb_output(sc.s, limbs, odd);
          dc::pow2_from_text(st(), sc.s, r.limbs(), limbs, source.data() + (odd ? 1 : 0), len, k, values);
          Mpz want;
          if (mpz_set_str(want, lower.c_str(), base) != 0) throw std::logic_error("pow2_from_text test: bad text");
          Limbs want_limbs = limbs_of(want);
          want_limbs.resize(limbs, 0);  // every limb of r is written, the high ones zero
          r.read(sc.s);
          if (!report(all_of({r.guards_intact(), same_limbs(r.limbs_read(limbs), want_limbs)}), what)) return;
        }
  // No text: no limbs, nothing written.
  for (const StreamCase& sc : streams()) {
    Guarded r = limb_output(sc.s, 0, false);
    mpgpu::device::Pow2DigitValues values{};
    dc::pow2_from_text(st(), sc.s, r.limbs(), 0, "", 0, 4, values);
    r.read(sc.s);
    if (!report(r.guards_intact(), std::string("pow2_from_text(0 characters), ") + sc.name)) return;
  }
}

// ---- radix_leaves_to_text --------------------------------------------------------------

/// The largest d with base^d < 2^64 (the chunk of the leaves' divisions),
/// and base^d.
std::pair<int, limb_t> chunk_of(int base) {
  int d = 0;
  unsigned __int128 p = 1;
  while (p * static_cast<unsigned>(base) < (static_cast<unsigned __int128>(1) << 64)) {
    p *= static_cast<unsigned>(base);
    ++d;
  }
  return {d, static_cast<limb_t>(p)};
}

// include/mpgpu/device/radix_leaves.cuh: a thread a slot, 128 threads a
// block; limbs at row_size and above read as zero. Slots of `pitch` limbs
// whose values are below base^width, width = pitch chunks of digits (base^d
// < 2^64, so such a value fits in pitch limbs); row_size the slots' limbs,
// fewer (the top slots short or empty), or more (a top slot that the
// function leaves to its caller, as integer_radix.cpp's row has).
struct LeafShape {
  std::size_t slots, pitch;
  int row_extra;  // row_size = slots * pitch + row_extra
  std::string why;
};
const std::vector<LeafShape> kLeafShapes = {
    {1, 1, 0, "one slot of one limb"},
    {2, 1, 0, "two slots"},
    {3, 2, 5, "a top slot past the slots"},
    {5, 3, -2, "the top slot short"},
    {4, 2, -5, "the top slot empty, the next short"},
    {127, 2, 0, "a block less one slot"},
    {128, 2, 0, "a block of slots"},
    {129, 3, 2, "a block and one slot, a top slot past them"},
    {300, 1, 0, "slots of one limb over three blocks"},
    {3, 128, 0, "slots of 128 limbs (the host API's leaves)"},
};

TEST_F(BackendLayer, RadixLeavesToText) {
  Operands gen(403);
  const std::vector<int> bases = mpgpu_test::sized<std::vector<int>>({10, 3, 7, 16, 36, 62}, {10, 7, 62});
  std::size_t index = 0;
  for (const StreamCase& sc : streams())
    for (const LeafShape& sh : kLeafShapes)
      for (int base : bases)
        for (int kind = 0; kind < 4; ++kind) {
          ++index;
          if (!sanitizer_runs(sc, sh.slots + sh.pitch, index, 3)) continue;
          const auto [digits, chunk_value] = chunk_of(base);
          const std::size_t width = static_cast<std::size_t>(digits) * sh.pitch;
          const std::size_t row_size = static_cast<std::size_t>(static_cast<long long>(sh.slots * sh.pitch) + sh.row_extra);
          const bool scrambled = index % 2 == 0, odd = index % 3 == 1;
          // 0: random slots below base^width; 1: every slot base^width - 1
          // (all digits the largest); 2: zeros and ones in turn, with a
          // random slot; 3: one slot (random among them) of base^width,
          // which does not fit: the function returns false.
          Mpz limit;
          mpz_ui_pow_ui(limit, static_cast<unsigned long>(base), width);
          Limbs row(row_size, 0);
          const std::size_t bad = gen.below(static_cast<unsigned long>(sh.slots));
          std::vector<Mpz> slot_values(sh.slots);
          bool fits = true;
          for (std::size_t i = 0; i < sh.slots; ++i) {
            Mpz v;
            if (kind == 0 || (kind == 2 && i % 3 == 2)) mpz_tdiv_r(v, gen.uniform(64 * sh.pitch + 64), limit);
            else if (kind == 1 || kind == 3) mpz_sub_ui(v, limit, 1);
            else mpz_set_ui(v, i % 3);
            if (kind == 3 && i == bad) mpz_set(v, limit);
            const Limbs lv = limbs_of(v);
            if (lv.size() > sh.pitch) throw std::logic_error("radix leaves test: a slot wider than its pitch");
            // The row holds the slot's limbs below row_size; what lies past
            // it reads as zero.
            for (std::size_t l = 0; l < lv.size(); ++l)
              if (i * sh.pitch + l < row_size) row[i * sh.pitch + l] = lv[l];
            Limbs kept(row.begin() + static_cast<std::ptrdiff_t>(std::min(i * sh.pitch, row_size)),
                       row.begin() + static_cast<std::ptrdiff_t>(std::min((i + 1) * sh.pitch, row_size)));
            slot_values[i] = to_mpz(kept);
            if (mpz_cmp(slot_values[i], limit) >= 0) fits = false;
          }
          for (std::size_t l = sh.slots * sh.pitch; l < row_size; ++l) row[l] = gen.limb();  // the caller's top slot
          const std::vector<char> alphabet = test_alphabet(base, scrambled);
          mpgpu::device::RadixAlphabet table{};
          std::copy(alphabet.begin(), alphabet.end(), table.c);
          static const char* const kinds[] = {"random", "largest", "small", "one too large"};
          const std::string what = "radix_leaves_to_text(" + std::to_string(sh.slots) + " slots of " +
                                   std::to_string(sh.pitch) + " limbs, row_size " + std::to_string(row_size) +
                                   ", base " + std::to_string(base) + ", width " + std::to_string(width) + ", " +
                                   kinds[kind] + (scrambled ? ", scrambled alphabet" : "") +
                                   (odd ? ", one off" : "") + "): " + sh.why + ", " + sc.name;
          // The row is written (destroyed): it lies between guards, of
          // exactly row_size limbs.
          Guarded row_mem = limb_output(sc.s, row_size, odd);
          upload(sc.s, row_mem.get(), row.data(), row_size * sizeof(limb_t));
          Guarded out(sc.s, sh.slots * width, odd ? 0 : 1, /*on_host=*/true);
          const bool got = dc::radix_leaves_to_text(st(), sc.s, static_cast<char*>(out.get()), row_mem.limbs(),
                                                    row_size, sh.slots, sh.pitch, width,
                                                    mpgpu::device::make_limb_divisor(chunk_value), digits, base, table);
          out.read(sc.s);
          row_mem.read(sc.s);
          ::testing::AssertionResult ok = ::testing::AssertionSuccess();
          if (got != fits)
            ok = ::testing::AssertionFailure() << "returned " << got << ", expected " << fits;
          else if (fits) {
            std::string want;
            for (std::size_t i = sh.slots; i-- > 0;) want += text_of(slot_values[i], base, width, alphabet);
            ok = same_text(out.bytes(), want);
          }
          if (!report(all_of({ok, out.guards_intact(), row_mem.guards_intact()}), what)) return;
        }
  // No slots: true, nothing written.
  for (const StreamCase& sc : streams()) {
    Guarded row_mem = limb_output(sc.s, 1, false);
    Guarded out(sc.s, 0, 0, /*on_host=*/true);
    mpgpu::device::RadixAlphabet table{};
    const auto [digits, chunk_value] = chunk_of(10);
    const bool got = dc::radix_leaves_to_text(st(), sc.s, static_cast<char*>(out.get()), row_mem.limbs(), 1, 0, 1,
                                              static_cast<std::size_t>(digits),
                                              mpgpu::device::make_limb_divisor(chunk_value), digits, 10, table);
    out.read(sc.s);
    row_mem.read(sc.s);
    ::testing::AssertionResult ok = got ? ::testing::AssertionSuccess()
                                        : ::testing::AssertionFailure() << "returned false for no slots";
    if (!report(all_of({ok, out.guards_intact(), row_mem.guards_intact(), row_mem.output_untouched()}),
                std::string("radix_leaves_to_text(0 slots), ") + sc.name))
      return;
  }
}

// ---- gather_slots and correct_slots ----------------------------------------------------

// include/mpgpu/device/slot_rows.cuh: a block covers kSlotRowThreads = 256
// consecutive limbs of one slot. Shapes: (slots, pitch) around a block's
// limbs, many small slots.
constexpr std::size_t kRowThreads = 256;
const std::vector<std::pair<std::size_t, std::size_t>> kRowShapes = {
    {1, 1},   {1, 2},   {3, 2},   {2, kRowThreads - 1}, {2, kRowThreads}, {3, kRowThreads + 1},
    {2, 2 * kRowThreads + 1}, {1000, 3}, {7, 40}};

/// A source field written out on the host (backend.hpp's SlotSource): slot
/// j's limbs [j stride, j stride + extent) of the vector (zero past its
/// size), bits [bit_offset, bit_offset + 64 width) of them, as `pitch` limbs.
Limbs field_limbs(const Limbs& v, const mpgpu::device::SlotSource& src, std::size_t j, std::size_t pitch) {
  Limbs slot(src.extent, 0);
  for (std::size_t i = 0; i < src.extent; ++i)
    if (j * src.stride + i < v.size()) slot[i] = v[j * src.stride + i];
  Mpz f = to_mpz(slot);
  mpz_tdiv_q_2exp(f, f, src.bit_offset);
  mpz_tdiv_r_2exp(f, f, 64 * src.width);
  Limbs out = limbs_of(f);
  out.resize(pitch, 0);
  return out;
}

/// A source of one of four kinds for `slots` slots of `pitch` limbs (its
/// vector's limbs are set by the caller): 0, slots side by side (stride =
/// extent = pitch, the whole slot); 1, slots of pitch + 2 limbs, the field
/// from bit 101 (an unaligned offset), the vector short by 3 limbs; 2, a
/// broadcast (stride 0) of a short vector; 3, slots of 2 pitch limbs, the
/// high half (bit offset 64 pitch), one limb narrower than the slot.
struct SourceShape {
  std::size_t size, stride, extent;
  std::uint64_t bit_offset;
  std::size_t width;
};
SourceShape source_shape(int kind, std::size_t slots, std::size_t pitch) {
  switch (kind) {
    case 0: return {slots * pitch, pitch, pitch, 0, pitch};
    case 1: {
      const std::size_t n = slots * (pitch + 2);
      return {n > 3 ? n - 3 : 1, pitch + 2, pitch + 2, 101, pitch};
    }
    case 2: return {std::min<std::size_t>(pitch, 5), 0, std::min<std::size_t>(pitch, 5), 0, pitch};
    default: return {slots * 2 * pitch, 2 * pitch, 2 * pitch, 64 * std::uint64_t(pitch), pitch > 1 ? pitch - 1 : 1};
  }
}
const char* source_kind_name(int kind) {
  static const char* const names[] = {"side by side", "unaligned bits, vector short", "broadcast",
                                      "high halves, narrower"};
  return names[kind];
}

TEST_F(BackendLayer, GatherSlots) {
  Operands gen(404);
  std::size_t index = 0;
  for (const StreamCase& sc : streams())
    for (const auto& [slots, pitch] : kRowShapes)
      for (int groups = 1; groups <= 2; ++groups)
        for (int kind = 0; kind < 4; ++kind) {
          ++index;
          if (!sanitizer_runs(sc, slots + pitch, index, 2)) continue;
          const int kinds[2] = {kind, (kind + 1 + static_cast<int>(index % 3)) % 4};
          // groups 2: dst slot s takes source s mod 2's slot s / 2.
          std::vector<std::unique_ptr<DeviceOperand>> vecs;
          mpgpu::device::SlotSource sources[2] = {};
          std::string names;
          for (int g = 0; g < groups; ++g) {
            const std::size_t src_slots = (slots + static_cast<std::size_t>(groups) - 1 - static_cast<std::size_t>(g)) /
                                          static_cast<std::size_t>(groups);
            const SourceShape sh = source_shape(kinds[g], std::max<std::size_t>(src_slots, 1), pitch);
            const Limbs v = make_limbs(g == 0 ? Kind::random : Kind::runs, sh.size, gen);
            vecs.push_back(std::make_unique<DeviceOperand>(sc.s, v, (index + static_cast<std::size_t>(g)) % 2 == 1));
            sources[g] = {vecs.back()->data(), sh.size, sh.stride, sh.extent, sh.bit_offset, sh.width};
            names += std::string(g ? " and " : "") + source_kind_name(kinds[g]);
          }
          const bool odd = index % 2 == 0;
          const std::string what = "gather_slots(" + std::to_string(slots) + " slots of " + std::to_string(pitch) +
                                   " limbs, " + std::to_string(groups) + " source(s): " + names + ")" +
                                   (odd ? ", one limb off" : "") + ", " + sc.name;
          Guarded dst = limb_output(sc.s, slots * pitch, odd);
          dc::gather_slots(st(), sc.s, dst.limbs(), slots, pitch, sources, groups);
          Limbs want;
          for (std::size_t s = 0; s < slots; ++s) {
            const std::size_t g = groups == 1 ? 0 : s % 2;
            const Limbs f = field_limbs(vecs[g]->host(), sources[g], s / static_cast<std::size_t>(groups), pitch);
            want.insert(want.end(), f.begin(), f.end());
          }
          dst.read(sc.s);
          ::testing::AssertionResult unchanged = ::testing::AssertionSuccess();
          for (const auto& v : vecs)
            if (unchanged) unchanged = v->unchanged(sc.s);
          if (!report(all_of({dst.guards_intact(), same_limbs(dst.limbs_read(slots * pitch), want), unchanged}),
                      what))
            return;
        }
  // No slots, or slots of no limbs: nothing written.
  for (const StreamCase& sc : streams())
    for (const auto& [slots, pitch] : {std::pair<std::size_t, std::size_t>{0, 4}, {3, 0}}) {
      const DeviceOperand v(sc.s, make_limbs(Kind::random, 4, gen), false);
      const mpgpu::device::SlotSource source{v.data(), 4, 4, 4, 0, 4};
      Guarded dst = limb_output(sc.s, 0, false);
      dc::gather_slots(st(), sc.s, dst.limbs(), slots, pitch, &source, 1);
      dst.read(sc.s);
      if (!report(dst.guards_intact(), "gather_slots(" + std::to_string(slots) + " slots of " +
                                           std::to_string(pitch) + " limbs), " + sc.name))
        return;
    }
}

/// backend.hpp's correction step written out: slot s steps when limb
/// pitch - 1 of T's slot is nonzero (limbs past a vector's size read as
/// zero); its new R limbs are T's then, R's otherwise, the top limb 0; its
/// count limb (limb 0 of C's slot) goes up by one; C's other limbs become 0.
struct Corrected {
  Limbs r, c;
  bool any = false;
};
Corrected correct_on_host(const Limbs& r, const Limbs& t, const Limbs& c, std::size_t slots, std::size_t pitch) {
  auto at = [](const Limbs& v, std::size_t i) { return i < v.size() ? v[i] : limb_t{0}; };
  Corrected out;
  out.r.assign(slots * pitch, 0);
  out.c.assign(slots * pitch, 0);
  for (std::size_t s = 0; s < slots; ++s) {
    const bool step = at(t, s * pitch + pitch - 1) != 0;
    out.any = out.any || step;
    for (std::size_t l = 0; l + 1 < pitch; ++l) out.r[s * pitch + l] = step ? at(t, s * pitch + l) : at(r, s * pitch + l);
    out.c[s * pitch] = at(c, s * pitch) + (step ? 1 : 0);
  }
  return out;
}

TEST_F(BackendLayer, CorrectSlots) {
  Operands gen(405);
  std::size_t index = 0;
  for (const StreamCase& sc : streams())
    for (const auto& [slots, pitch_in] : kRowShapes)
      for (int kind = 0; kind < 4; ++kind) {
        ++index;
        const std::size_t pitch = std::max<std::size_t>(pitch_in, 2);  // the contract: pitch >= 2
        if (!sanitizer_runs(sc, slots + pitch, index, 2)) continue;
        const std::size_t n = slots * pitch;
        // 0: every vector whole, T's top limbs set in random slots; 1: no
        // slot steps (false); 2: every slot steps, C's counts all ones in
        // the low 63 bits; 3: short vectors (R, T and C end inside the last
        // slot: T's last top limb reads as zero; C of no limbs).
        Limbs r = make_limbs(Kind::random, kind == 3 ? n - 1 : n, gen);
        Limbs t = make_limbs(Kind::runs, kind == 3 ? n - 1 : n, gen);
        Limbs c(kind == 3 ? 0 : n, 0);
        for (std::size_t s = 0; s < slots; ++s) {
          const std::size_t top = s * pitch + pitch - 1;
          if (top < t.size()) {
            const bool step = kind == 2 || (kind != 1 && gen.coin());
            t[top] = step ? (gen.coin() ? 1 : nonzero_limb(gen)) : 0;
          }
          if (!c.empty()) {
            c[s * pitch] = kind == 2 ? (~limb_t{0} >> 1) : gen.below(1000);
            if (pitch > 2) c[s * pitch + 1] = gen.limb();  // read only at limb 0 of a slot
          }
        }
        // Operands have normalized sizes (backend.hpp); limbs past a size read as zero.
        r.resize(normalized_size(r));
        t.resize(normalized_size(t));
        c.resize(normalized_size(c));
        const Corrected want = correct_on_host(r, t, c, slots, pitch);
        const bool odd = index % 2 == 1;
        static const char* const kinds[] = {"random steps", "no step", "every slot steps", "short vectors"};
        const std::string what = "correct_slots(" + std::to_string(slots) + " slots of " + std::to_string(pitch) +
                                 " limbs, " + kinds[kind] + ")" + (odd ? ", one limb off" : "") + ", " + sc.name;
        const DeviceOperand dr(sc.s, r, odd), dt(sc.s, t, !odd), dcount(sc.s, c, odd);
        Guarded r_out = limb_output(sc.s, n, odd), c_out = limb_output(sc.s, n, !odd);
        const bool got = dc::correct_slots(st(), sc.s, r_out.limbs(), c_out.limbs(), dr.op(), dt.op(), dcount.op(),
                                           slots, pitch);
        r_out.read(sc.s);
        c_out.read(sc.s);
        ::testing::AssertionResult ok = ::testing::AssertionSuccess();
        if (got != want.any) ok = ::testing::AssertionFailure() << "returned " << got << ", expected " << want.any;
        if (!report(all_of({ok, r_out.guards_intact(), c_out.guards_intact(),
                            same_limbs(r_out.limbs_read(n), want.r), same_limbs(c_out.limbs_read(n), want.c),
                            operands_unchanged(sc.s, {&dr, &dt, &dcount})}),
                    what))
          return;
      }
}

}  // namespace
}  // namespace backend_layer
