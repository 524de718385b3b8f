// From a fixed-point approximation to exact truncated digits: the guard
// digit check shared by pi and e (constants.hpp), and the printed form.
#include <stdexcept>

#include "constants.hpp"
#include "sha256.hpp"

namespace mpgpu::cli {

const char* constant_name(Constant c) { return c == Constant::pi ? "pi" : "e"; }

char constant_integer_digit(Constant c) { return c == Constant::pi ? '3' : '2'; }

Integer fixed_ratio(const Integer& scale, const Integer& num, const Integer& den, std::uint64_t result_bits) {
  const Context& ctx = scale.context();
  const std::uint64_t keep = result_bits + 64;
  const std::uint64_t shortest = std::min(sizeinbase2(num), sizeinbase2(den));
  Integer n(ctx), q(ctx);
  if (shortest > keep) {
    // Both lose less than one unit of at least `keep` bits: a relative error
    // below 2^-(result_bits + 62) in the quotient, below 2^-60 units of it.
    const std::uint64_t shift = shortest - keep;
    Integer d(ctx);
    fdiv_q_2exp(n, num, shift);
    fdiv_q_2exp(d, den, shift);
    mul(n, n, scale);
    fdiv_q(q, n, d);
    return q;
  }
  mul(n, num, scale);
  fdiv_q(q, n, den);
  return q;
}

ConstantResult compute_constant(Constant c, const Context& ctx, std::uint64_t digits, const StageHooks& hooks,
                                std::uint64_t first_guard, const SeriesOptions& series) {
  const StageProgress& progress = hooks.progress;
  // A margin of kFixedPointError on either side needs more than 2 * 10 units.
  std::uint64_t guard = std::max<std::uint64_t>(first_guard, 2);
  const Integer margin(kFixedPointError, ctx);
  for (unsigned attempt = 1;; ++attempt) {
    if (progress && attempt > 1) progress("more guard digits (" + std::to_string(guard) + ")", 0);
    const Integer x = c == Constant::pi ? pi_fixed_point(ctx, digits + guard, hooks, series)
                                        : e_fixed_point(ctx, digits + guard, hooks, series);
    if (progress) progress("guard digits", 0);
    Integer unit(ctx), q(ctx), r(ctx);
    ui_pow_ui(unit, 10, guard);
    fdiv_qr(q, r, x, unit);
    // The true value is within kFixedPointError of x: its digits above the
    // guard are q's unless x's guard digits r lie within that of 0 or of 10^g.
    if (cmp(r, margin) >= 0 && cmp(r + margin, unit) < 0) return {std::move(q), guard, attempt};
    if (attempt >= 8) throw std::runtime_error(std::string(constant_name(c)) + ": guard digits still ambiguous with " +
                                               std::to_string(guard) + " of them");
    guard *= 2;
  }
}

std::string constant_text(const Integer& scaled, std::uint64_t digits) {
  std::string text = scaled.to_string(10);
  if (digits > 0) text.insert(1, 1, '.');
  return text;
}

std::string constant_sha256_hex(const Integer& scaled, std::uint64_t digits) {
  // The digits hashed around the point, not copied to make room for it
  // (a second pass over 10^9 bytes at pi's 10^9 digits).
  const std::string text = scaled.to_string(10);
  Sha256 h;
  h.update(text.data(), 1);
  if (digits > 0) h.update(".", 1);
  h.update(text.data() + 1, text.size() - 1);
  return digest_hex(h.finish());
}

}  // namespace mpgpu::cli
