// Integer <-> text in bases 2..62. The text is validated here first so that
// errors name the position and the character; GMP's own parser only says
// "invalid" (and silently skips whitespace). Small numbers and the CPU
// context go through GMP on the host. Huge numbers of a CUDA context go
// through the device: bases 2, 4, 8, 16 and 32 by one map each way (a
// regrouping of bits, device/pow2_digits.cuh), the other bases by the
// level-at-once divide and conquer of integer_radix.cpp (device products,
// GMP on host threads for the leaves).
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "context/host_parallel.hpp"
#include "digit_values.hpp"
#include "integer_internal.hpp"
#include "integer_radix.hpp"
#include "text_buffer.hpp"

namespace mpgpu {

namespace {

/// Index of the first character of text[pos..] that is not a digit of
/// `base`, or text.size(). Texts of millions of digits are checked in
/// ranges on host threads: one thread alone would take a visible share of
/// a large conversion (docs/tuning-history.md, "Radix conversion").
std::size_t first_invalid_digit(std::string_view text, std::size_t pos, int base) {
  const detail::DigitValues values(base);
  auto scan = [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      if (values(text[i]) == detail::DigitValues::kNotADigit) return i;
    return text.size();
  };
  constexpr std::size_t kRange = std::size_t{1} << 22;
  if (text.size() - pos <= kRange) return scan(pos, text.size());
  std::atomic<std::size_t> first{text.size()};
  detail::parallel_ranges(text.size() - pos, kRange, [&](std::size_t b, std::size_t e) {
    const std::size_t i = scan(pos + b, pos + e);
    std::size_t seen = first.load();
    while (i < seen && !first.compare_exchange_weak(seen, i)) {
    }
  });
  return first.load();
}

std::string printable(char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(c));
  return buf;
}

/// log2(base) for base 2, 4, 8, 16, 32.
int bits_per_digit(int base) { return std::countr_zero(static_cast<unsigned>(base)); }

/// x in base 2, 4, 8, 16 or 32 (CUDA context): one map on the device
/// (device/pow2_digits.cuh) into the string's own pages, touched on host
/// threads first so the copy back does not page-fault through them alone.
std::string pow2_to_text(const Integer& x, int base) {
  const int k = bits_per_digit(base);
  const std::size_t digits = static_cast<std::size_t>((sizeinbase2(x) + k - 1) / k);
  const std::size_t sign = x.sign() < 0 ? 1 : 0;
  device::Pow2Alphabet alphabet{};
  for (int d = 0; d < base; ++d) alphabet.c[d] = "0123456789abcdefghijklmnopqrstuv"[d];  // as mpz_get_str
  const Context& ctx = x.context();
  return detail::make_text(sign + digits, [&](char* out) {
    if (sign) out[0] = '-';
    detail::parallel_ranges(digits, std::size_t{1} << 22,
                            [&](std::size_t b, std::size_t e) { std::memset(out + sign + b, '0', e - b); });
    detail::cuda::pow2_to_text(detail::ContextAccess::state(ctx), ctx.stream(), out + sign, detail::device_operand(x),
                               digits, k, alphabet);
  });
}

/// The value of validated digits in base 2, 4, 8, 16 or 32 (CUDA context):
/// the text to the device, one map into limbs.
Integer pow2_from_text(std::string_view digits, int base, bool negative, const Context& ctx) {
  const int k = bits_per_digit(base);
  const std::size_t limbs = (digits.size() * static_cast<std::size_t>(k) + 63) / 64;
  const detail::DigitValues table(base);
  device::Pow2DigitValues values{};
  for (int c = 0; c < 256; ++c) values.v[c] = table.value[c];
  const Stream st = ctx.resolve(nullptr);
  Integer r(ctx);
  detail::DeviceResult out(ctx, st, limbs);
  detail::cuda::pow2_from_text(detail::ContextAccess::state(ctx), st, out.get(), limbs, digits.data(), digits.size(), k,
                               values);
  const std::size_t size = detail::cuda::normalized_size(detail::ContextAccess::state(ctx), st, {out.get(), limbs});
  out.commit(r, size, negative ? -1 : 1);
  return r;
}

}  // namespace

Integer Integer::from_string(std::string_view text, int base, const Context& ctx) {
  if (base != 0 && (base < 2 || base > 62))
    throw InvalidArgument("mpgpu::Integer::from_string: base " + std::to_string(base) +
                          " is out of range (expected 0 or 2..62)");
  std::size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
    negative = text[pos] == '-';
    ++pos;
  }
  if (base == 0) {  // C-style prefixes, as GMP's base 0
    if (pos + 1 < text.size() && text[pos] == '0' && (text[pos + 1] == 'x' || text[pos + 1] == 'X')) {
      base = 16;
      pos += 2;
    } else if (pos + 1 < text.size() && text[pos] == '0' &&
               (text[pos + 1] == 'b' || text[pos + 1] == 'B')) {
      base = 2;
      pos += 2;
    } else if (pos < text.size() && text[pos] == '0') {
      base = 8;
    } else {
      base = 10;
    }
  }
  if (pos == text.size())
    throw ParseError(std::string("mpgpu::Integer::from_string: ") +
                         (text.empty() ? "empty string" : "no digits after the sign or prefix") +
                         " at position " + std::to_string(pos),
                     pos);
  auto invalid_digit = [&](std::size_t i) {
    return ParseError("mpgpu::Integer::from_string: invalid digit " + printable(text[i]) + " at position " +
                          std::to_string(i) + " for base " + std::to_string(base),
                      i);
  };
  // Limbs the digits can fill: len * log2(base) / 64 (at most 6 bits a digit).
  const double limbs = static_cast<double>(text.size() - pos) * std::log2(static_cast<double>(base)) / 64.0;
  if (ctx.is_cuda() && limbs >= static_cast<double>(detail::radix_device_min_limbs(ctx))) {
    if (const std::size_t i = first_invalid_digit(text, pos, base); i < text.size()) throw invalid_digit(i);
    if (detail::radix_is_power_of_two(base)) return pow2_from_text(text.substr(pos), base, negative, ctx);
    return detail::radix_from_digits_dc(text.substr(pos), base, negative, ctx,
                                        detail::radix_leaf_limbs(ctx, detail::kRadixFromStringLeafLimbs));
  }
  // The mpz below takes ceil(limbs) + 2 limbs, before the text is read.
  detail::require_gmp_room("Integer::from_string", static_cast<std::uint64_t>(std::ceil(limbs)) + 2, [&] {
    return "a text of " + std::to_string(text.size() - pos) + " digits in base " + std::to_string(base);
  });
  // On the host: one pass checks the text and turns it into digit values,
  // and mpn_set_str makes the limbs from those (mpz_set_str would make a
  // second pass of its own over the text, and would accept whitespace).
  const std::size_t n = text.size() - pos;
  // The values: in a buffer each thread keeps for texts of up to
  // kKeptValueBytes (a fresh allocation a call, freed again, costs small
  // parses the allocator's page faults and trims), else in one of their own.
  constexpr std::size_t kKeptValueBytes = std::size_t{1} << 20;
  thread_local std::unique_ptr<unsigned char[]> kept;  // grown to the longest text so far
  thread_local std::size_t kept_bytes = 0;
  if (n <= kKeptValueBytes && n > kept_bytes) {
    kept_bytes = std::max<std::size_t>(n, 4096);
    kept.reset(new unsigned char[kept_bytes]);  // not zeroed: every byte used is written
  }
  std::unique_ptr<unsigned char[]> own(n > kKeptValueBytes ? new unsigned char[n] : nullptr);
  unsigned char* const values = own ? own.get() : kept.get();
  const detail::DigitValues table(base);
  std::atomic<std::size_t> first_bad{text.size()};
  detail::parallel_ranges(n, std::size_t{1} << 22, [&](std::size_t b, std::size_t e) {
    // Restricted pointers: the byte stores may not alias the text or the
    // table, so the loop keeps them in registers.
    const unsigned char* __restrict in = reinterpret_cast<const unsigned char*>(text.data()) + pos;
    unsigned char* __restrict out = values;
    const unsigned char* __restrict value_of = table.value;
    unsigned char bad = 0;
    for (std::size_t i = b; i < e; ++i) {
      const unsigned char v = value_of[in[i]];
      out[i] = v;
      bad |= static_cast<unsigned char>(v == detail::DigitValues::kNotADigit);
    }
    if (!bad) return;
    std::size_t i = b;
    while (value_of[in[i]] != detail::DigitValues::kNotADigit) ++i;
    std::size_t seen = first_bad.load();
    while (pos + i < seen && !first_bad.compare_exchange_weak(seen, pos + i)) {
    }
  });
  if (first_bad.load() < text.size()) throw invalid_digit(first_bad.load());
  std::size_t lead = 0;  // mpn_set_str wants a nonzero first digit (or gives high zero limbs)
  while (lead < n && values[lead] == 0) ++lead;
  mpz_t z;
  mpz_init2(z, static_cast<mp_bitcnt_t>(std::ceil(limbs) + 2) * 64);  // its room: the digits' bits and a limb
  mp_size_t size = lead < n ? mpn_set_str(z->_mp_d, values + lead, n - lead, base) : 0;
  while (size > 0 && z->_mp_d[size - 1] == 0) --size;
  z->_mp_size = static_cast<int>(negative ? -size : size);
  if (ctx.is_cuda() && static_cast<std::size_t>(size) > kHostValueMaxLimbs) {
    Integer r = from_mpz(z, ctx);  // a value this large lives on the device
    mpz_clear(z);
    return r;
  }
  Integer r(ctx);
  mpz_swap(detail::IntegerAccess::cpu_mpz(r), z);
  detail::IntegerAccess::refresh_cpu_meta(r);
  mpz_clear(z);
  return r;
}

std::string Integer::to_string(int base) const {
  if (base < 2 || base > 62)
    throw InvalidArgument("mpgpu::Integer::to_string: base " + std::to_string(base) +
                          " is out of range (expected 2..62)");
  if (ctx_.is_cuda() && size() >= detail::radix_device_min_limbs(ctx_)) {
    if (detail::radix_is_power_of_two(base)) return pow2_to_text(*this, base);
    return detail::radix_to_string_dc(*this, base, detail::radix_leaf_limbs(ctx_, detail::kRadixToStringLeafLimbs));
  }
  mpz_t tmp;
  mpz_srcptr z = cpu_;
  const bool copied = !host_valid();
  if (copied) {
    mpz_init(tmp);
    to_mpz(tmp);
    z = tmp;
  }
  std::string out(mpz_sizeinbase(z, base) + 2, '\0');
  mpz_get_str(out.data(), base, z);
  out.resize(std::char_traits<char>::length(out.c_str()));
  if (copied) mpz_clear(tmp);
  return out;
}

}  // namespace mpgpu
