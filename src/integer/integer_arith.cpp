// add, sub, neg, abs, cmp, cmpabs, sum. The CPU backend calls GMP; the CUDA
// backend combines signs here and runs the magnitudes through the device
// kernels (add_sub.cu, limb_search.cu, reduce.cu).
#include <algorithm>
#include <vector>

#include "integer_internal.hpp"

namespace mpgpu {

using detail::device_operand;
using detail::DeviceResult;
namespace dc = detail::cuda;

namespace {

/// r = a + (b_sign * |b|), the shared path of add and sub on the device.
void add_signed_device(Integer& r, const Integer& a, const Integer& b, int b_sign, Stream s) {
  const Context& ctx = a.context();
  Stream st = ctx.resolve(s);
  const int a_sign = a.sign();
  if (b_sign == 0) {
    if (&r != &a) r = a;
    return;
  }
  if (a_sign == 0) {
    if (&r != &b) r = b;
    detail::IntegerAccess::set_sign_internal(r, b_sign);
    return;
  }
  auto big = device_operand(a), small = device_operand(b);
  int big_sign = a_sign, small_sign = b_sign;
  if (big.size < small.size) {
    std::swap(big, small);
    std::swap(big_sign, small_sign);
  }
  if (a_sign == b_sign) {
    DeviceResult out(ctx, st, big.size + 1, &r, {&a, &b});
    out.commit(r, dc::add_abs(detail::ContextAccess::state(ctx), st, out.get(), big, small), a_sign);
    return;
  }
  if (big.size == small.size) {  // which magnitude is larger is decided on the device
    DeviceResult out(ctx, st, big.size, &r, {&a, &b});
    out.commit(r,
               dc::sub_abs_ordered(detail::ContextAccess::state(ctx), st, out.get(), big.limbs, small.limbs, big.size),
               big_sign, small_sign);
    return;
  }
  DeviceResult out(ctx, st, big.size, &r, {&a, &b});
  out.commit(r, dc::sub_abs(detail::ContextAccess::state(ctx), st, out.get(), big, small), big_sign);
}

/// mpz_add and mpz_sub reserve the larger operand's size + 1 limbs before they add.
void require_sum_room(const char* op, const Integer& a, const Integer& b) {
  detail::require_gmp_room(op, std::max(a.size(), b.size()) + 1,
                           [&] { return detail::limbs_of("operands", a.size(), b.size()); });
}

}  // namespace

// add and sub on small host values are inline (mpgpu/integer_inline.hpp);
// these take every other case, the host one included (a destination of
// another context).
void detail::add_general(Integer& r, const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("add", a, b);
  if (detail::on_host(kHostValueMaxLimbs, {&a, &b})) {
    require_sum_room("add", a, b);
    return detail::on_cpu(r, a.context(), [&](mpz_ptr z) {
      mpz_add(z, detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b));
    });
  }
  add_signed_device(r, a, b, b.sign(), s);
}

void detail::sub_general(Integer& r, const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("sub", a, b);
  if (detail::on_host(kHostValueMaxLimbs, {&a, &b})) {
    require_sum_room("sub", a, b);
    return detail::on_cpu(r, a.context(), [&](mpz_ptr z) {
      mpz_sub(z, detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b));
    });
  }
  add_signed_device(r, a, b, -b.sign(), s);
}

void neg(Integer& r, const Integer& a, Stream) {
  if (&r != &a) r = a;
  r.negate();
}

void abs(Integer& r, const Integer& a, Stream) {
  if (&r != &a) r = a;
  if (r.sign() < 0) r.negate();
}

int cmpabs(const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("cmpabs", a, b);
  if (detail::IntegerAccess::host_valid(a) && detail::IntegerAccess::host_valid(b)) {
    int c = mpz_cmpabs(detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b));
    return (c > 0) - (c < 0);
  }
  if (a.size() != b.size()) return a.size() > b.size() ? 1 : -1;
  if (a.size() == 0) return 0;
  const Context& ctx = a.context();
  return dc::cmp_same_size(detail::ContextAccess::state(ctx), ctx.resolve(s), detail::IntegerAccess::device_data(a),
                           detail::IntegerAccess::device_data(b), a.size());
}

int cmp(const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("cmp", a, b);
  if (detail::IntegerAccess::host_valid(a) && detail::IntegerAccess::host_valid(b)) {
    int c = mpz_cmp(detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b));
    return (c > 0) - (c < 0);
  }
  if (a.sign() != b.sign()) return a.sign() > b.sign() ? 1 : -1;
  return a.sign() >= 0 ? cmpabs(a, b, s) : -cmpabs(a, b, s);
}

void sum(Integer& r, std::span<const Integer> terms, Stream s) {
  if (terms.empty()) {
    r = Integer(r.context());
    return;
  }
  const Context& ctx = terms[0].context();
  for (const Integer& t : terms) detail::require_same_context("sum", terms[0], t);
  bool host = true;
  for (const Integer& t : terms) host = host && detail::on_host(kHostValueMaxLimbs, {&t});
  if (host) {
    // Each mpz_add reserves the larger size + 1 limbs; the partial sums of
    // fewer than 2^64 terms are at most a limb longer than the longest term.
    std::size_t longest = 0;
    for (const Integer& t : terms) longest = std::max(longest, t.size());
    detail::require_gmp_room("sum", longest + 1 + (terms.size() > 2), [&] {
      return std::to_string(terms.size()) + " terms of up to " + std::to_string(longest) + " limbs";
    });
    // Into r's own mpz (no allocation once it has room, as a GMP loop of
    // additions) unless r is a term, whose value the loop still needs.
    const bool r_is_term = std::any_of(terms.begin(), terms.end(), [&r](const Integer& t) { return &t == &r; });
    Integer scratch(ctx);
    Integer& out = r_is_term || r.context() != ctx ? scratch : r;
    mpz_ptr z = detail::IntegerAccess::cpu_mpz(out);
    if (terms.size() == 1) mpz_set(z, detail::IntegerAccess::cpu_mpz(terms[0]));
    else mpz_add(z, detail::IntegerAccess::cpu_mpz(terms[0]), detail::IntegerAccess::cpu_mpz(terms[1]));
    for (std::size_t i = 2; i < terms.size(); ++i) mpz_add(z, z, detail::IntegerAccess::cpu_mpz(terms[i]));
    detail::IntegerAccess::refresh_cpu_meta(out);
    if (&out != &r) r = std::move(out);
    return;
  }
  // Delayed carries: all positive magnitudes in one pass, all negative ones in
  // another, then one signed addition.
  Stream st = ctx.resolve(s);
  bool any[2] = {false, false};  // positive, negative terms present
  for (const Integer& t : terms) {
    if (t.sign() > 0) any[0] = true;
    if (t.sign() < 0) any[1] = true;
  }
  auto sum_of_sign = [&](int sign) {
    std::vector<dc::Operand> ops;
    std::size_t longest = 0;
    for (const Integer& t : terms)
      if (t.sign() == sign) {
        ops.push_back(device_operand(t));
        longest = std::max(longest, t.size());
      }
    Integer part(ctx);
    if (ops.empty()) return part;
    DeviceResult out(ctx, st, longest + 2);
    out.commit(part, dc::sum_abs(detail::ContextAccess::state(ctx), st, out.get(), ops.data(), ops.size()), 1);
    return part;
  };
  // With terms of one sign the part is the result: moved, not copied (a copy
  // would wait for the part's size), so the call returns before the device.
  if (!any[1]) {
    r = sum_of_sign(1);
  } else if (!any[0]) {
    Integer negative = sum_of_sign(-1);
    negative.negate();
    r = std::move(negative);
  } else {
    Integer positive = sum_of_sign(1);
    Integer negative = sum_of_sign(-1);
    sub(r, positive, negative, s);
  }
}

Integer operator+(const Integer& a, const Integer& b) {
  Integer r(a.context());
  add(r, a, b);
  return r;
}
Integer operator-(const Integer& a, const Integer& b) {
  Integer r(a.context());
  sub(r, a, b);
  return r;
}
Integer operator-(const Integer& a) {
  Integer r(a);
  neg(r, r);
  return r;
}
Integer& Integer::operator+=(const Integer& b) {
  add(*this, *this, b);
  return *this;
}
Integer& Integer::operator-=(const Integer& b) {
  sub(*this, *this, b);
  return *this;
}
bool operator==(const Integer& a, const Integer& b) { return cmp(a, b) == 0; }
std::strong_ordering operator<=>(const Integer& a, const Integer& b) {
  int c = cmp(a, b);
  return c < 0 ? std::strong_ordering::less
               : (c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal);
}

}  // namespace mpgpu
