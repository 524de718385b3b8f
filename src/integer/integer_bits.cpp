// Shifts, two's-complement bitwise operations and bit queries, with GMP's
// semantics for negative numbers. The CPU backend calls GMP; the CUDA
// backend handles signs here and runs the limbs through shift.cu,
// bitwise.cu, limb_search.cu and reduce.cu.
#include <algorithm>
#include <limits>
#include <string_view>

#include "integer_internal.hpp"
#include "mpgpu/limb/arith.cuh"

namespace mpgpu {

using detail::device_operand;
using detail::DeviceResult;
namespace dc = detail::cuda;
using detail::on_cpu;

namespace {


limb_t read_limb(const Integer& a, std::size_t i, Stream s) {
  limb_t v = 0;
  dc::copy_to_host(detail::ContextAccess::state(a.context()), a.context().resolve(s), &v,
                   detail::IntegerAccess::device_data(a) + i, sizeof v);
  return v;
}

/// Rejects results that cannot be represented: on the CPU context the room
/// GMP takes (mpz_mul_2exp reserves a's size + bits / 64 + 1 limbs, mpz_setbit
/// and mpz_clrbit at most that; require_gmp_room); device sizes are bounded
/// by 2^62 bits, far beyond any memory.
std::uint64_t checked_bits(const Integer& a, std::uint64_t bits, const char* op) {
  const std::uint64_t room = bits / 64 + a.size() + 1;
  if (!a.context().is_cuda()) {
    detail::require_gmp_room(op, room, [&] {
      return (std::string_view(op) == "mul_2exp" ? "a shift by " : "bit ") + std::to_string(bits) +
             " of a value of " + std::to_string(a.size()) + " limbs";
    });
    return bits;
  }
  constexpr std::uint64_t kDeviceMaxLimbs = std::uint64_t{1} << 56;
  if (room > kDeviceMaxLimbs)
    throw Overflow(std::string("mpgpu::") + op + ": a result of " + std::to_string(bits) + " + " +
                   std::to_string(a.size() * 64) + " bits does not fit the device backend's size limit of " +
                   std::to_string(kDeviceMaxLimbs) + " limbs");
  return bits;
}

/// GMP's room for a bitwise result (and, ior, xor, com; fdiv_q_2exp's
/// rounding): the larger operand's size + 1 limbs, for some signs.
void require_bitwise_room(const char* op, const Integer& a, const Integer& b) {
  detail::require_gmp_room(op, std::max(a.size(), b.size()) + 1,
                           [&] { return detail::limbs_of("operands", a.size(), b.size()); });
}

/// |r| = |a| >> bits (truncating), keeping a's sign.
void shift_right_device(Integer& r, const Integer& a, std::uint64_t bits, Stream s) {
  const Context& ctx = a.context();
  Stream st = ctx.resolve(s);
  const std::uint64_t q = bits / 64;
  if (a.is_zero() || q >= a.size()) {
    DeviceResult out(ctx, st, 1);
    out.commit(r, 0, 0);
    return;
  }
  DeviceResult out(ctx, st, a.size() - q, &r, {&a});
  out.commit(r, dc::shift_right(detail::ContextAccess::state(ctx), st, out.get(), device_operand(a), bits), a.sign());
}

}  // namespace

void mul_2exp(Integer& r, const Integer& a, std::uint64_t bits, Stream s) {
  if (!a.is_zero()) checked_bits(a, bits, "mul_2exp");  // zero stays zero at any shift
  const Context& ctx = a.context();
  if (detail::on_host(bits / 64 < kHostValueMaxLimbs ? kHostValueMaxLimbs - bits / 64 : 0, {&a}))
    return on_cpu(r, ctx, [&](mpz_ptr z) { mpz_mul_2exp(z, detail::IntegerAccess::cpu_mpz(a), bits); });
  Stream st = ctx.resolve(s);
  if (a.is_zero()) {
    if (&r != &a) r = a;
    return;
  }
  DeviceResult out(ctx, st, a.size() + bits / 64 + 1, &r, {&a});
  out.commit(r, dc::shift_left(detail::ContextAccess::state(ctx), st, out.get(), device_operand(a), bits), a.sign());
}

void tdiv_q_2exp(Integer& r, const Integer& a, std::uint64_t bits, Stream s) {
  const Context& ctx = a.context();
  if (detail::on_host(kHostValueMaxLimbs, {&a}))
    return on_cpu(r, ctx, [&](mpz_ptr z) { mpz_tdiv_q_2exp(z, detail::IntegerAccess::cpu_mpz(a), bits); });
  shift_right_device(r, a, bits, s);
}

void fdiv_q_2exp(Integer& r, const Integer& a, std::uint64_t bits, Stream s) {
  const Context& ctx = a.context();
  if (detail::on_host(kHostValueMaxLimbs, {&a})) {
    // Rounding a negative a down: mpz_fdiv_q_2exp reserves the quotient's size + 1.
    detail::require_gmp_room("fdiv_q_2exp", a.size() - std::min<std::uint64_t>(bits / 64, a.size()) + 1, [&] {
      return "a shift by " + std::to_string(bits) + " of a value of " + std::to_string(a.size()) + " limbs";
    });
    return on_cpu(r, ctx, [&](mpz_ptr z) { mpz_fdiv_q_2exp(z, detail::IntegerAccess::cpu_mpz(a), bits); });
  }
  if (a.sign() >= 0) return shift_right_device(r, a, bits, s);
  // floor(a / 2^k) for a < 0 is -(trunc(|a| / 2^k) + 1) when a bit is shifted
  // out, -trunc(|a| / 2^k) otherwise.
  Stream st = ctx.resolve(s);
  const bool dropped = dc::any_low_bits(detail::ContextAccess::state(ctx), st, device_operand(a), bits);
  Integer t(ctx);
  shift_right_device(t, a, bits, s);
  if (!dropped) {
    r = std::move(t);
    return;
  }
  DeviceResult out(ctx, st, t.size() + 1);
  if (t.is_zero()) {  // every bit was shifted out: floor is -1
    const limb_t one = 1;
    dc::copy_to_device(detail::ContextAccess::state(ctx), st, out.get(), &one, sizeof one);
    out.commit(r, 1, -1);
  } else {
    out.commit(r, dc::add_abs_scalar(detail::ContextAccess::state(ctx), st, out.get(), device_operand(t), 1), -1);
  }
}

namespace {

void bitwise_device(Integer& r, limb::BitwiseOp op, const Integer& a, const Integer& b, Stream s) {
  const Context& ctx = a.context();
  Stream st = ctx.resolve(s);
  if (a.is_zero() || b.is_zero()) {
    const Integer& other = a.is_zero() ? b : a;
    if (op == limb::BitwiseOp::and_) {
      DeviceResult out(ctx, st, 1);
      out.commit(r, 0, 0);
    } else if (&r != &other) {
      r = other;
    }
    return;
  }
  const bool r_negative = limb::bitwise_result_negative(op, a.sign() < 0, b.sign() < 0);
  DeviceResult out(ctx, st, std::max(a.size(), b.size()) + 1, &r, {&a, &b});
  out.commit(r,
             dc::bitwise(detail::ContextAccess::state(ctx), st, op, out.get(), device_operand(a), a.sign() < 0,
                         device_operand(b), b.sign() < 0),
             r_negative ? -1 : 1);
}

}  // namespace

// and_, ior, xor_ on small host values are inline (mpgpu/integer_inline.hpp);
// these take every other case.
void detail::and_general(Integer& r, const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("and_", a, b);
  if (detail::on_host(kHostValueMaxLimbs, {&a, &b})) {
    require_bitwise_room("and_", a, b);
    return on_cpu(r, a.context(),
                  [&](mpz_ptr z) { mpz_and(z, detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b)); });
  }
  bitwise_device(r, limb::BitwiseOp::and_, a, b, s);
}

void detail::ior_general(Integer& r, const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("ior", a, b);
  if (detail::on_host(kHostValueMaxLimbs, {&a, &b})) {
    require_bitwise_room("ior", a, b);
    return on_cpu(r, a.context(),
                  [&](mpz_ptr z) { mpz_ior(z, detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b)); });
  }
  bitwise_device(r, limb::BitwiseOp::ior, a, b, s);
}

void detail::xor_general(Integer& r, const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("xor_", a, b);
  if (detail::on_host(kHostValueMaxLimbs, {&a, &b})) {
    require_bitwise_room("xor_", a, b);
    return on_cpu(r, a.context(),
                  [&](mpz_ptr z) { mpz_xor(z, detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b)); });
  }
  bitwise_device(r, limb::BitwiseOp::xor_, a, b, s);
}

void com(Integer& r, const Integer& a, Stream s) {
  const Context& ctx = a.context();
  if (detail::on_host(kHostValueMaxLimbs, {&a})) {
    require_bitwise_room("com", a, a);  // ~a = -(a + 1) for a >= 0
    return on_cpu(r, ctx, [&](mpz_ptr z) { mpz_com(z, detail::IntegerAccess::cpu_mpz(a)); });
  }
  // ~a = -a - 1: for a >= 0 that is -(|a| + 1); for a < 0 it is |a| - 1.
  Stream st = ctx.resolve(s);
  if (a.sign() >= 0) {
    DeviceResult out(ctx, st, a.size() + 1);
    if (a.is_zero()) {  // ~0 = -1
      limb_t one = 1;
      dc::copy_to_device(detail::ContextAccess::state(ctx), st, out.get(), &one, sizeof one);
      out.commit(r, 1, -1);
    } else {
      out.commit(r, dc::add_abs_scalar(detail::ContextAccess::state(ctx), st, out.get(), device_operand(a), 1), -1);
    }
  } else {
    DeviceResult out(ctx, st, a.size());
    out.commit(r, dc::sub_abs_scalar(detail::ContextAccess::state(ctx), st, out.get(), device_operand(a), 1), 1);
  }
}

std::uint64_t popcount(const Integer& a, Stream s) {
  const Context& ctx = a.context();
  if (a.sign() < 0) return std::numeric_limits<std::uint64_t>::max();
  if (detail::IntegerAccess::host_valid(a)) return mpz_popcount(detail::IntegerAccess::cpu_mpz(a));
  if (a.is_zero()) return 0;
  return dc::popcount(detail::ContextAccess::state(ctx), ctx.resolve(s), device_operand(a));
}

std::uint64_t sizeinbase2(const Integer& a, Stream s) {
  if (detail::IntegerAccess::host_valid(a)) return mpz_sizeinbase(detail::IntegerAccess::cpu_mpz(a), 2);
  if (a.is_zero()) return 1;
  limb_t top = read_limb(a, a.size() - 1, s);
  return (a.size() - 1) * 64 + (64 - limb::count_leading_zeros(top));
}

bool tstbit(const Integer& a, std::uint64_t index, Stream s) {
  const Context& ctx = a.context();
  if (detail::IntegerAccess::host_valid(a)) return mpz_tstbit(detail::IntegerAccess::cpu_mpz(a), index);
  const std::uint64_t q = index / 64;
  if (q >= a.size()) return a.sign() < 0;  // sign extension
  limb_t m = read_limb(a, q, s);
  std::size_t z = 0;
  if (a.sign() < 0) {
    z = dc::lowest_nonzero(detail::ContextAccess::state(ctx), ctx.resolve(s),
                           {detail::IntegerAccess::device_data(a), q + 1});
  }
  limb_t t = limb::twos_complement_limb(m, q, a.size(), z, a.sign() < 0);
  return (t >> (index % 64)) & 1;
}

namespace {

/// Sets or clears one bit of a non-negative device integer in place.
void change_bit_nonnegative(Integer& a, std::uint64_t index, bool set, Stream s) {
  const Context& ctx = a.context();
  Stream st = ctx.resolve(s);
  const std::uint64_t q = index / 64;
  const limb_t mask = limb_t{1} << (index % 64);
  if (q >= a.size()) {
    if (!set) return;
    DeviceResult out(ctx, st, q + 1);
    dc::fill(detail::ContextAccess::state(ctx), st, out.get(), q + 1, 0);
    if (a.size())
      dc::copy_on_device(detail::ContextAccess::state(ctx), st, out.get(), detail::IntegerAccess::device_data(a),
                         a.size() * sizeof(limb_t));
    dc::copy_to_device(detail::ContextAccess::state(ctx), st, out.get() + q, &mask, sizeof mask);
    out.commit(a, q + 1, 1);
    return;
  }
  limb_t v = read_limb(a, q, s);
  v = set ? (v | mask) : (v & ~mask);
  dc::copy_to_device(detail::ContextAccess::state(ctx), st, detail::IntegerAccess::device_data(a) + q, &v, sizeof v);
  std::size_t n = a.size();
  if (!set && v == 0 && q + 1 == a.size())
    n = dc::normalized_size(detail::ContextAccess::state(ctx), st, device_operand(a));
  detail::IntegerAccess::adopt_device_size(a, n);  // also drops a host copy of the old value
}

}  // namespace

void setbit(Integer& a, std::uint64_t index, Stream s) {
  checked_bits(a, index, "setbit");
  const Context& ctx = a.context();
  if (detail::IntegerAccess::host_valid(a) && index / 64 < kHostValueMaxLimbs) {
    mpz_setbit(detail::IntegerAccess::cpu_mpz(a), index);
    detail::IntegerAccess::refresh_cpu_meta(a);
    return;
  }
  if (a.sign() >= 0) return change_bit_nonnegative(a, index, true, s);
  ior(a, a, Integer::power_of_two(index, ctx), s);  // two's complement: a | 2^index
}

void clrbit(Integer& a, std::uint64_t index, Stream s) {
  checked_bits(a, index, "clrbit");
  const Context& ctx = a.context();
  if (detail::IntegerAccess::host_valid(a)) {
    mpz_clrbit(detail::IntegerAccess::cpu_mpz(a), index);
    detail::IntegerAccess::refresh_cpu_meta(a);
    return;
  }
  if (a.sign() >= 0) return change_bit_nonnegative(a, index, false, s);
  Integer mask(ctx);
  com(mask, Integer::power_of_two(index, ctx), s);  // ~2^index
  and_(a, a, mask, s);
}

Integer operator&(const Integer& a, const Integer& b) {
  Integer r(a.context());
  and_(r, a, b);
  return r;
}
Integer operator|(const Integer& a, const Integer& b) {
  Integer r(a.context());
  ior(r, a, b);
  return r;
}
Integer operator^(const Integer& a, const Integer& b) {
  Integer r(a.context());
  xor_(r, a, b);
  return r;
}
Integer operator~(const Integer& a) {
  Integer r(a.context());
  com(r, a);
  return r;
}
Integer operator<<(const Integer& a, std::uint64_t bits) {
  Integer r(a.context());
  mul_2exp(r, a, bits);
  return r;
}
Integer operator>>(const Integer& a, std::uint64_t bits) {
  Integer r(a.context());
  fdiv_q_2exp(r, a, bits);
  return r;
}
Integer& Integer::operator&=(const Integer& b) {
  and_(*this, *this, b);
  return *this;
}
Integer& Integer::operator|=(const Integer& b) {
  ior(*this, *this, b);
  return *this;
}
Integer& Integer::operator^=(const Integer& b) {
  xor_(*this, *this, b);
  return *this;
}
Integer& Integer::operator<<=(std::uint64_t bits) {
  mul_2exp(*this, *this, bits);
  return *this;
}
Integer& Integer::operator>>=(std::uint64_t bits) {
  fdiv_q_2exp(*this, *this, bits);
  return *this;
}

}  // namespace mpgpu
