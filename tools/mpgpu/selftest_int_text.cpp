// `mpgpu selftest`: text and other conversions. Strings: to_string and
// from_string in every base 2..62 (base 0 with its prefixes, upper-case
// letters, leading zeros and '+'), a bad digit (ParseError at its position),
// against mpz_get_str; sizes around the device radix conversion. The rest:
// bytes in both orders, limbs (not normalized, with a sign), machine
// integers, exact sizeinbase, copies and moves between contexts,
// all_ones and power_of_two.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <memory>

#include "selftest_int_ops.hpp"

namespace mpgpu::cli::selftest {

namespace {

constexpr std::size_t kTextMaxLimbs = 1024;  // log-uniform draws; crossovers reach 8194

std::string get_str(mpz_srcptr z, int base) {
  std::unique_ptr<char, void (*)(void*)> text(mpz_get_str(nullptr, base, z), std::free);
  return text.get();
}

int random_base(CaseRng& rng) {
  static const int common[] = {10, 10, 10, 16, 16, 2, 8, 32, 36, 62};
  return rng.coin() ? common[rng.below(10)] : static_cast<int>(rng.between(2, 62));
}

void check_to_string(CaseEnv& env, CaseOutcome& out, const Operand& a) {
  const int base = random_base(env.rng);
  out.op = "to_string(" + std::to_string(base) + ")";
  const Integer A = make_integer(env, a.value.get());
  const std::string got = A.to_string(base), want = get_str(a.value.get(), base);
  if (got != want) {
    std::size_t at = 0;
    while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
    out.fail("to_string: " + std::to_string(got.size()) + " characters, want " + std::to_string(want.size()) +
             "; first difference at offset " + std::to_string(at));
  }
}

void check_from_string(CaseEnv& env, CaseOutcome& out, const Operand& a) {
  int base = random_base(env.rng);
  std::string digits = get_str(a.value.get(), base);
  const bool negative = digits[0] == '-';
  if (negative) digits.erase(0, 1);
  if (base <= 36 && env.rng.coin())  // letters are case-insensitive up to base 36
    for (char& c : digits)
      if (env.rng.coin()) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (env.rng.one_in(4)) digits.insert(0, env.rng.between(1, 3), '0');
  std::string prefix;
  if (env.rng.one_in(5) && (base == 16 || base == 2 || base == 8 || base == 10)) {  // base 0
    prefix = base == 16 ? (env.rng.coin() ? "0x" : "0X") : base == 2 ? (env.rng.coin() ? "0b" : "0B") : base == 8 ? "0" : "";
    if (base == 10) digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
    base = 0;
  }
  const std::string text = (negative ? "-" : env.rng.one_in(4) ? "+" : "") + prefix + digits;
  if (env.rng.one_in(6)) {  // one bad character, reported at its offset
    static const char bad[] = {'!', ' ', '#', '.', '/', ':', '@', '[', '`', '{'};
    const std::size_t sign_and_prefix = text.size() - digits.size();
    const std::size_t shown = sign_and_prefix + env.rng.below(digits.size() + 1);
    std::string broken = text;
    broken.insert(shown, 1, bad[env.rng.below(10)]);
    out.op = "from_string(" + std::to_string(base) + ") with a bad character at " + std::to_string(shown);
    try {
      (void)Integer::from_string(broken, base, env.ctx);
      out.fail("from_string accepted a bad character");
    } catch (const ParseError& e) {
      expect_equal(out, "ParseError position", static_cast<long long>(e.position()), static_cast<long long>(shown));
    }
    return;
  }
  out.op = "from_string(" + std::to_string(base) + ")" + (prefix.empty() ? "" : " with prefix " + prefix);
  expect_equal(out, "from_string", Integer::from_string(text, base, env.ctx), a.value.get());
}

void check_bytes_and_limbs(CaseEnv& env, CaseOutcome& out, const Operand& a) {
  out.op = "from_bytes, to_bytes, from_limbs, to_limbs";
  const Endian order = env.rng.coin() ? Endian::big : Endian::little;
  const int gmp_order = order == Endian::big ? 1 : -1;
  std::size_t count = 0;
  std::vector<std::uint8_t> bytes((mpz_sizeinbase(a.value.get(), 2) + 7) / 8 + 3);
  mpz_export(bytes.data(), &count, gmp_order, 1, 0, 0, a.value.get());
  bytes.resize(count);
  Mpz magnitude;
  mpz_abs(magnitude.get(), a.value.get());
  const Integer A = make_integer(env, a.value.get());
  expect_true(out, "to_bytes differs from mpz_export", A.to_bytes(order) == bytes);
  const std::size_t pad = env.rng.below(3);  // leading zero bytes are allowed in
  bytes.insert(order == Endian::big ? bytes.begin() : bytes.end(), pad, std::uint8_t{0});
  expect_equal(out, "from_bytes", Integer::from_bytes(bytes.data(), bytes.size(), order, env.ctx), magnitude.get());
  std::vector<limb_t> limbs(mpz_limbs_read(a.value.get()), mpz_limbs_read(a.value.get()) + mpz_size(a.value.get()));
  expect_true(out, "to_limbs differs from the mpz's limbs", A.to_limbs() == limbs);
  limbs.resize(limbs.size() + env.rng.below(3), 0);  // not normalized
  const int sign = mpz_sgn(a.value.get()) != 0 ? mpz_sgn(a.value.get()) : static_cast<int>(env.rng.below(3)) - 1;
  expect_equal(out, "from_limbs", Integer::from_limbs(limbs.data(), limbs.size(), sign, env.ctx), a.value.get());
}

void check_machine_integers(CaseEnv& env, CaseOutcome& out) {
  const Operand a = random_operand(env.rng, env.rng.between(1, 66));
  out.op = "fits_int64, to_int64, fits_uint64, to_uint64, Integer(int64_t), Integer(uint64_t)";
  out.sizes = "a: " + a.what;
  const Integer A = make_integer(env, a.value.get());
  mpz_srcptr z = a.value.get();
  const bool fits_signed = mpz_fits_slong_p(z) != 0;  // long is 64 bits where mpgpu builds
  const bool fits_unsigned = mpz_sgn(z) >= 0 && mpz_sizeinbase(z, 2) <= 64;
  expect_equal(out, "fits_int64", A.fits_int64(), fits_signed);
  expect_equal(out, "fits_uint64", A.fits_uint64(), fits_unsigned);
  if (fits_signed) {
    expect_equal(out, "to_int64", A.to_int64(), mpz_get_si(z));
    expect_equal(out, "Integer(int64_t)", Integer(static_cast<std::int64_t>(mpz_get_si(z)), env.ctx), z);
  } else {
    try {
      (void)A.to_int64();
      out.fail("to_int64 of a value outside int64_t did not throw Overflow");
    } catch (const Overflow&) {
    }
  }
  if (fits_unsigned) {
    const std::uint64_t v = mpz_get_ui(z);
    expect_true(out, "to_uint64", A.to_uint64() == v);
    expect_equal(out, "Integer(uint64_t)", Integer(v, env.ctx), z);
  } else {
    try {
      (void)A.to_uint64();
      out.fail("to_uint64 of a value outside uint64_t did not throw Overflow");
    } catch (const Overflow&) {
    }
  }
}

void check_sizeinbase(CaseEnv& env, CaseOutcome& out, const Operand& a) {
  const int base = random_base(env.rng);
  out.op = "sizeinbase(" + std::to_string(base) + ")";
  std::uint64_t d = mpz_sizeinbase(a.value.get(), base);  // exact or one too many
  if (d > 1) {
    Mpz low, mag;
    mpz_ui_pow_ui(low.get(), static_cast<unsigned long>(base), d - 1);
    mpz_abs(mag.get(), a.value.get());
    if (mpz_cmp(mag.get(), low.get()) < 0) --d;
  }
  const Integer A = make_integer(env, a.value.get());
  expect_equal(out, "sizeinbase", static_cast<long long>(sizeinbase(A, base, env.stream)), static_cast<long long>(d));
}

void check_copies(CaseEnv& env, CaseOutcome& out, const Operand& a) {
  out.op = "copy, move, to_context, all_ones, power_of_two";
  Integer A = make_integer(env, a.value.get());
  Integer copy = A;  // a copy changed must leave the original alone
  Integer one(1, env.ctx);
  add(copy, copy, one, env.stream);
  Mpz plus_one;
  mpz_add_ui(plus_one.get(), a.value.get(), 1);
  expect_equal(out, "copy after +1", copy, plus_one.get());
  expect_equal(out, "original after its copy changed", A, a.value.get());
  const Integer on_cpu = A.to_context(Context::cpu());
  expect_equal(out, "to_context(cpu)", on_cpu, a.value.get());
  expect_equal(out, "to_context back", on_cpu.to_context(env.ctx), a.value.get());
  Integer moved = std::move(A);
  expect_equal(out, "moved", moved, a.value.get());
  const std::uint64_t bits = env.rng.below(64 * 64 + 2);
  Mpz want;
  mpz_set_ui(want.get(), 0);
  mpz_setbit(want.get(), bits);
  expect_equal(out, "power_of_two(" + std::to_string(bits) + ")", Integer::power_of_two(bits, env.ctx), want.get());
  mpz_sub_ui(want.get(), want.get(), 1);
  expect_equal(out, "all_ones(" + std::to_string(bits) + ")", Integer::all_ones(bits, env.ctx), want.get());
}

}  // namespace

void run_string_case(CaseEnv& env, CaseOutcome& out) {
  const Operand a = operand_in(env, Area::radix, kTextMaxLimbs);
  out.sizes = "a: " + a.what;
  if (env.rng.coin()) return check_to_string(env, out, a);
  check_from_string(env, out, a);
}

void run_convert_case(CaseEnv& env, CaseOutcome& out) {
  const Operand a = operand_in(env, Area::linear, kTextMaxLimbs);
  out.sizes = "a: " + a.what;
  switch (env.rng.below(4)) {
    case 0: return check_bytes_and_limbs(env, out, a);
    case 1: return check_machine_integers(env, out);
    case 2: return check_sizeinbase(env, out, a);
    default: return check_copies(env, out, a);
  }
}

}  // namespace mpgpu::cli::selftest
