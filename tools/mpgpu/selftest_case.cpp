#include "selftest_case.hpp"

#include <cstdlib>
#include <memory>

namespace mpgpu::cli::selftest {

std::string short_hex(mpz_srcptr z) {
  std::unique_ptr<char, void (*)(void*)> text(mpz_get_str(nullptr, 16, z), std::free);
  std::string s = text.get();
  const bool neg = !s.empty() && s[0] == '-';
  const std::string digits = neg ? s.substr(1) : s;
  std::string shown = digits;
  if (digits.size() > 56)
    shown = digits.substr(0, 24) + "..." + digits.substr(digits.size() - 24) + " (" +
            std::to_string(digits.size()) + " hex digits)";
  return (neg ? "-0x" : "0x") + shown;
}

void read_integer(mpz_ptr out, const Integer& x) { x.to_mpz(out); }

bool expect_equal(CaseOutcome& out, std::string_view what, const Integer& got, mpz_srcptr want) {
  Mpz g;
  read_integer(g.get(), got);
  if (mpz_cmp(g.get(), want) == 0) return true;
  out.fail(std::string(what) + ": got " + short_hex(g.get()) + ", want " + short_hex(want));
  return false;
}

bool expect_equal(CaseOutcome& out, std::string_view what, long long got, long long want) {
  if (got == want) return true;
  out.fail(std::string(what) + ": got " + std::to_string(got) + ", want " + std::to_string(want));
  return false;
}

bool expect_true(CaseOutcome& out, std::string_view what, bool ok) {
  if (!ok) out.fail(std::string(what));
  return ok;
}

Operand random_operand(CaseRng& rng, std::uint64_t bits, bool allow_negative) {
  Operand o;
  if (rng.one_in(24)) {
    o.what = "zero";
    return o;
  }
  const Shape shape = random_shape(rng);
  random_mpz(o.value.get(), rng, bits, shape);
  const bool negative = allow_negative && rng.coin();
  if (negative) mpz_neg(o.value.get(), o.value.get());
  o.what = describe_bits(bits) + " " + shape_name(shape) + (negative ? ", negative" : "");
  return o;
}

Integer make_integer(CaseEnv& env, mpz_srcptr z) {
  Integer x = Integer::from_mpz(z, env.ctx);
  if (env.ctx.is_cuda() && env.rng.coin()) x.place_on_device();
  return x;
}

}  // namespace mpgpu::cli::selftest
