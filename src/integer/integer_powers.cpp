// Powers (pow_ui, ui_pow_ui) and exact digit counts (sizeinbase). On a CUDA
// context a power above kDevicePowerMinLimbs is squared up on the device
// (detail::pow_ui_split): only the top of the exponent, while the power is
// small, is computed by GMP on the host. The CPU context calls GMP for
// powers. Digit counts in bases other than powers of two come from the
// logarithm of the top bits, and a comparison with base^d only when that
// logarithm is within 1e-6 of an integer (both contexts).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "integer_host_gmp.hpp"
#include "integer_whole.hpp"

namespace mpgpu {

using detail::HostOperand;
using detail::HostResult;

namespace {

/// Upper bound of log2 |x| for x != 0: from the leading bits when x is on
/// the host or short, else from its bit count (at most one bit high).
double log2_abs_upper(const Integer& x, Stream s) {
  if (!x.context().is_cuda() || x.size() <= 2) {
    HostOperand hx(x);
    long exp2 = 0;
    const double mantissa = mpz_get_d_2exp(&exp2, hx);  // |mantissa| in [0.5, 1)
    return static_cast<double>(exp2) + std::log2(std::fabs(mantissa)) + 1e-12;
  }
  return static_cast<double>(sizeinbase2(x, s));
}

/// The bits of the odd part of |b| raised to e, when |b| > 1.
double odd_power_bits(mpz_srcptr odd, std::uint64_t e) {
  long exp2 = 0;
  const double mantissa = mpz_get_d_2exp(&exp2, odd);
  return static_cast<double>(e) * (static_cast<double>(exp2) + std::log2(std::fabs(mantissa)));
}

/// The limbs mpz_pow_ui(b, e) reserves for its result (mpz/n_pow_ui.c), for
/// e > 1 and |b| > 1. With |b| = odd * 2^twos, it takes twos * e / 64 low
/// zero limbs, and bits(B) * e' / 64 + 5 limbs for B^e', where a one-limb
/// odd part is first squared up to B = odd^(2^k) > 2^32 - 1 (e' = e >> k)
/// and, with a native mpn_mul_2, once more into two limbs (B^2, e' >> 1);
/// the larger of the two variants is taken. bits(B) * e' can exceed the
/// power's own size by up to 1/32: 3^e has 1.585 e bits and room for
/// 1.594 e (102 bits for every 64 factors of 3).
std::uint64_t gmp_pow_room(mpz_srcptr b, std::uint64_t e) {
  using u128 = unsigned __int128;
  const std::uint64_t twos = mpz_scan1(b, 0);
  const std::uint64_t odd_bits = mpz_sizeinbase(b, 2) - twos;
  u128 bits_times_e;
  if (odd_bits <= 64) {
    std::uint64_t odd = mpz_getlimbn(b, twos / 64) >> (twos % 64);
    if (twos % 64 && twos / 64 + 1 < mpz_size(b)) odd |= mpz_getlimbn(b, twos / 64 + 1) << (64 - twos % 64);
    std::uint64_t left = e;
    while (odd <= 0xffffffffu && left > 1) {
      left >>= 1;
      odd *= odd;
    }
    if (odd <= 0xffffffffu) left = 0;  // the whole power fits a limb
    const u128 square = static_cast<u128>(odd) * odd;
    const int square_bits = 128 - std::countl_zero(static_cast<std::uint64_t>(square >> 64));
    bits_times_e = std::max(static_cast<u128>(std::bit_width(odd)) * left,
                            static_cast<u128>(square_bits) * (left >> 1));
  } else {
    bits_times_e = static_cast<u128>(odd_bits) * e;
  }
  const u128 room = bits_times_e / 64 + 5 + static_cast<u128>(twos) * e / 64;
  return room > ~std::uint64_t{0} ? ~std::uint64_t{0} : static_cast<std::uint64_t>(room);
}

}  // namespace

namespace detail {

void pow_ui_split(Integer& r, const Integer& base, std::uint64_t exp, std::size_t host_max_limbs, Stream s) {
  const Context& ctx = base.context();
  const bool negative = base.sign() < 0 && (exp & 1);
  if (exp == 0 || cmpabs(base, Integer(1, ctx), s) <= 0) {  // 0^0 = 1; |base| <= 1 never grows
    HostOperand hb(base);
    HostResult z;
    mpz_pow_ui(z, hb, exp);
    r = z.take(ctx, s);
    return;
  }
  const double host_max_bits = 64.0 * static_cast<double>(host_max_limbs);
  Integer acc(ctx), factor(ctx);  // acc = factor^(top bits of exp), then squared up
  std::uint64_t shift_per_unit = 0;  // |base| = factor * 2^shift_per_unit
  int below = std::bit_width(exp);  // the exponent bits still to apply: exp mod 2^below
  if (base.size() <= host_max_limbs) {
    // Small base: split off its powers of two (one shift at the end), raise
    // the odd part on the host while it stays small.
    HostOperand hb(base);
    HostResult odd, head;
    shift_per_unit = mpz_scan1(hb, 0);
    mpz_tdiv_q_2exp(odd, hb, shift_per_unit);
    mpz_abs(odd, odd);
    if (mpz_cmp_ui(odd.get(), 1) == 0) {
      below = 0;  // a power of two: acc = 1
      mpz_set_ui(head, 1);
    } else {
      // The longest top part e_hi = exp >> below whose power stays on the host.
      while (below > 0 && odd_power_bits(odd, exp >> (below - 1)) <= host_max_bits) --below;
      mpz_pow_ui(head, odd, exp >> below);
    }
    acc = head.take(ctx, s);
    factor = odd.take(ctx, s);
  } else {
    abs(factor, base, s);  // a huge base stays where it is: every step in the context
    acc = factor;
    below = 63 - std::countl_zero(exp);  // the top bit of exp is in acc
  }
  for (int bit = below - 1; bit >= 0; --bit) {
    sqr(acc, acc, s);
    if ((exp >> bit) & 1) mul(acc, acc, factor, s);
  }
  if (shift_per_unit) mul_2exp(acc, acc, shift_per_unit * exp, s);
  if (negative) acc.negate();
  r = std::move(acc);
}

std::uint64_t digits_by_comparison(const Integer& a, int base, std::size_t host_max_limbs, Stream s) {
  // log_base |a| from the top 128 bits in long double (64-bit mantissa): for
  // |a| < 2^(2^40) the error is below 2^40 * 2^-62 < 1e-6 (the exponent's
  // product with log_base 2 dominates), so a value whose log is farther
  // than 1e-6 from an integer L has floor(L) + 1 digits; one closer than
  // that is compared with base^round(L) exactly.
  if (a.is_zero()) return 1;
  const std::uint64_t bits = sizeinbase2(a, s);
  const std::uint64_t take = bits < 128 ? bits : 128;
  Integer top(a.context());
  abs(top, a, s);
  tdiv_q_2exp(top, top, bits - take, s);
  const std::vector<limb_t> limbs = top.to_limbs();
  long double mantissa = 0;
  for (std::size_t i = limbs.size(); i-- > 0;) mantissa = mantissa * 18446744073709551616.0L + limbs[i];
  const long double log_b = (std::log2(mantissa) + static_cast<long double>(bits - take)) / std::log2((long double)base);
  const long double nearest = std::round(log_b);
  if (std::fabs(log_b - nearest) > 1e-6L) return static_cast<std::uint64_t>(std::floor(log_b)) + 1;
  const auto k = static_cast<std::uint64_t>(nearest);
  Integer power(a.context());
  pow_ui_split(power, Integer(base, a.context()), k, host_max_limbs, s);
  return cmpabs(a, power, s) >= 0 ? k + 1 : k;
}

}  // namespace detail

void pow_ui(Integer& r, const Integer& base, std::uint64_t exp, Stream s) {
  const Context& ctx = base.context();
  detail::wait_for_caller_stream(ctx, s);
  double bits = 1;
  if (exp > 1 && base.size() > 0 && !(base.size() == 1 && cmpabs(base, Integer(1, ctx), s) == 0)) {
    // bits = exp * log2|base| + 1; the margin covers the rounding of the estimate.
    bits = static_cast<double>(exp) * log2_abs_upper(base, s) * (1 + 1e-12) + 64;
    detail::require_host_bits("pow_ui", bits);
  }
  if (ctx.is_cuda() && bits / 64 >= static_cast<double>(kDevicePowerMinLimbs))
    return detail::pow_ui_split(r, base, exp, kDevicePowerMinLimbs, s);
  HostOperand hb(base);
  if (exp > 1 && mpz_cmpabs_ui(hb, 1) > 0)
    detail::require_gmp_room("pow_ui", gmp_pow_room(hb, exp), [&] {
      return "a " + std::to_string(mpz_sizeinbase(hb, 2)) + "-bit base to the power " + std::to_string(exp);
    });
  HostResult z;
  mpz_pow_ui(z, hb, exp);
  r = z.take(ctx, s);
}

void ui_pow_ui(Integer& r, std::uint64_t base, std::uint64_t exp, Stream s) {
  const Integer b(base, r.context());
  pow_ui(r, b, exp, s);
}

std::uint64_t sizeinbase(const Integer& a, int base, Stream s) {
  if (base < 2 || base > 62)
    throw InvalidArgument("mpgpu::sizeinbase: base " + std::to_string(base) + " is out of range (2..62)");
  if (a.is_zero()) return 1;
  const std::uint64_t bits = sizeinbase2(a, s);
  if ((base & (base - 1)) == 0) {  // 2^k: exact from the bit count
    const int k = std::countr_zero(static_cast<unsigned>(base));
    return (bits + k - 1) / k;
  }
  return detail::digits_by_comparison(a, base, kDevicePowerMinLimbs, s);
}

}  // namespace mpgpu
