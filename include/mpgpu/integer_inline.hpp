// The inline part of integer.hpp (included at its end): add, sub, mul,
// and_, ior and xor_. On small values in host memory (the CPU context, or
// a CUDA context below the crossovers of integer_crossovers.hpp) each is
// one GMP call straight into the destination's mpz, from the caller's own
// code (add and sub: GMP's mpn layer inline when the destination has room,
// gmp_aors_in_place): a loop of such operations makes the calls a loop of
// mpz calls would make, or fewer, and no others (no call into libmpgpu, no
// allocation of ours, no atomic read-modify-write). The test that admits a call is the same
// instructions on both backends (no branch on the backend). Every other
// case goes to the library's detail::*_general, which has the same
// semantics (aliasing, streams, deferred sizes, errors).
#pragma once

#include <climits>
#include <cstdint>
#include <limits>
#include <utility>

#include "mpgpu/integer.hpp"

namespace mpgpu {

// Only a value that also had device state (a stale copy, a deferred size)
// takes the call out of line.
inline void Integer::refresh_cpu_meta() {
  read_cpu_meta();
  // One test of the three, not three branches.
  const std::uintptr_t other_state = reinterpret_cast<std::uintptr_t>(dev_) |
                                     reinterpret_cast<std::uintptr_t>(deferred_.get()) |
                                     (placement_.load(std::memory_order_relaxed) != Placement::host);
  if (other_state != 0) [[unlikely]] drop_device_copy();
}

inline void Integer::read_cpu_meta() {
  const int z = cpu_->_mp_size;  // GMP's size field: |z| limbs, z's sign
  sign_ = (z > 0) - (z < 0);
  size_ = static_cast<std::size_t>(z < 0 ? -static_cast<long>(z) : z);
}

namespace detail {

/// The most limbs a GMP mpz can hold: GMP keeps the allocation in an int
/// (_mp_alloc) and aborts the process ("gmp: overflow in mpz type",
/// mpz/realloc.c) when asked for more, about 2^37 bits. Host operations whose
/// result, or the room GMP reserves for it, could pass this throw Overflow
/// first (detail::require_gmp_room).
inline constexpr std::size_t kGmpMaxLimbs = INT_MAX;

void add_general(Integer& r, const Integer& a, const Integer& b, Stream s);
void sub_general(Integer& r, const Integer& a, const Integer& b, Stream s);
void mul_general(Integer& r, const Integer& a, const Integer& b, Stream s);
void and_general(Integer& r, const Integer& a, const Integer& b, Stream s);
void ior_general(Integer& r, const Integer& a, const Integer& b, Stream s);
void xor_general(Integer& r, const Integer& a, const Integer& b, Stream s);

/// No bound: the unused one of gmp_in_place's two (add, sub and the
/// bitwise operations bound each operand, products the two together).
inline constexpr std::size_t kNoBound = std::numeric_limits<std::size_t>::max();
// Within gmp_in_place's bounds GMP's room (the larger size + 1 for add, sub
// and bitwise; the sum for products) needs no check.
static_assert(kHostValueMaxLimbs + 1 < kGmpMaxLimbs && kHostProductMaxLimbs < kGmpMaxLimbs);

/// Whether GMP may compute r = op(a, b) into r's mpz with nothing to do
/// afterwards but read its size (Integer::read_cpu_meta): one context for
/// all three (a destination of another context takes the general path,
/// which moves it), r in host memory only and a and b in host memory
/// (Integer::host_in_place; always so on the CPU context), and at most
/// `max_limbs` limbs in each operand (add, sub, bitwise) or `max_sum_limbs`
/// in both together (products). The bounds are those of a CUDA context's
/// host operations, on both backends: on the CPU context larger operands
/// take the general path, which also runs GMP (after checking the room GMP
/// would reserve), so only the bookkeeping of operations of microseconds
/// differs; and within these bounds that room is far below kGmpMaxLimbs.
/// A destination with device state (a copy or a deferred size) also takes
/// the general path, which drops it; the next operation is then inline.
inline bool gmp_in_place(const Integer& r, const Integer& a, const Integer& b, std::size_t max_limbs,
                         std::size_t max_sum_limbs) {
  if (r.context() != a.context() || a.context() != b.context()) return false;
  if (!IntegerAccess::host_in_place(r, a, b)) return false;
  const std::size_t na = IntegerAccess::host_size(a), nb = IntegerAccess::host_size(b);
  return na <= max_limbs && nb <= max_limbs && na + nb <= max_sum_limbs;
}

/// w = u + v (negate_v: u - v) with GMP's mpn layer, inline, when w's mpz
/// has room for the result (max(|u|, |v|) + 1 limbs) and neither operand is
/// zero; returns false otherwise, untouched, and the caller calls mpz_add
/// or mpz_sub (which reallocate). The steps and the result are those of
/// GMP's mpz/aors.h, so the value and its normalized size are GMP's; what it
/// saves is the call into libgmp and its checks: on ~1000-bit operands the
/// addition itself (mpn_add_n) is about half of mpz_add's time, and a loop
/// of dependent additions is otherwise bound by that call. Aliasing as in
/// GMP: w may be u and/or v (mpn_add_n and mpn_sub_n allow an output equal
/// to an input).
inline bool gmp_aors_in_place(mpz_ptr w, mpz_srcptr u, mpz_srcptr v, bool negate_v) {
  mp_size_t us = u->_mp_size;
  mp_size_t vs = negate_v ? -v->_mp_size : v->_mp_size;
  mp_size_t au = us < 0 ? -us : us, av = vs < 0 ? -vs : vs;
  if (au < av) {
    std::swap(u, v);
    std::swap(us, vs);
    std::swap(au, av);
  }
  if (av == 0 || w->_mp_alloc <= au) return false;
  mp_ptr wp = w->_mp_d;
  mp_srcptr up = u->_mp_d, vp = v->_mp_d;
  mp_size_t ws;
  bool negative = us < 0;
  if ((us ^ vs) >= 0) {
    const mp_limb_t carry = mpn_add(wp, up, au, vp, av);
    wp[au] = carry;
    ws = au + static_cast<mp_size_t>(carry);
  } else {
    if (au == av && mpn_cmp(up, vp, au) < 0) {
      std::swap(up, vp);
      negative = !negative;
    }
    mpn_sub(wp, up, au, vp, av);  // |up| >= |vp|: no borrow out
    ws = au;
    while (ws > 0 && wp[ws - 1] == 0) --ws;
  }
  w->_mp_size = static_cast<int>(negative ? -ws : ws);
  return true;
}

}  // namespace detail

// The fast paths reach the mpz of r, a and b through detail::IntegerAccess,
// whose inline forwards compile to the member accesses themselves.
inline void add(Integer& r, const Integer& a, const Integer& b, Stream s) {
  if (detail::gmp_in_place(r, a, b, kHostValueMaxLimbs, detail::kNoBound)) [[likely]] {
    mpz_ptr w = detail::IntegerAccess::cpu_mpz(r);
    mpz_srcptr u = detail::IntegerAccess::cpu_mpz(a), v = detail::IntegerAccess::cpu_mpz(b);
    if (!detail::gmp_aors_in_place(w, u, v, false)) [[unlikely]] mpz_add(w, u, v);
    detail::IntegerAccess::read_cpu_meta(r);
    return;
  }
  detail::add_general(r, a, b, s);
}

inline void sub(Integer& r, const Integer& a, const Integer& b, Stream s) {
  if (detail::gmp_in_place(r, a, b, kHostValueMaxLimbs, detail::kNoBound)) [[likely]] {
    mpz_ptr w = detail::IntegerAccess::cpu_mpz(r);
    mpz_srcptr u = detail::IntegerAccess::cpu_mpz(a), v = detail::IntegerAccess::cpu_mpz(b);
    if (!detail::gmp_aors_in_place(w, u, v, true)) [[unlikely]] mpz_sub(w, u, v);
    detail::IntegerAccess::read_cpu_meta(r);
    return;
  }
  detail::sub_general(r, a, b, s);
}

inline void mul(Integer& r, const Integer& a, const Integer& b, Stream s) {
  if (detail::gmp_in_place(r, a, b, detail::kNoBound, kHostProductMaxLimbs)) [[likely]] {
    mpz_mul(detail::IntegerAccess::cpu_mpz(r), detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b));
    detail::IntegerAccess::read_cpu_meta(r);
    return;
  }
  detail::mul_general(r, a, b, s);
}

inline void and_(Integer& r, const Integer& a, const Integer& b, Stream s) {
  if (detail::gmp_in_place(r, a, b, kHostValueMaxLimbs, detail::kNoBound)) [[likely]] {
    mpz_and(detail::IntegerAccess::cpu_mpz(r), detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b));
    detail::IntegerAccess::read_cpu_meta(r);
    return;
  }
  detail::and_general(r, a, b, s);
}

inline void ior(Integer& r, const Integer& a, const Integer& b, Stream s) {
  if (detail::gmp_in_place(r, a, b, kHostValueMaxLimbs, detail::kNoBound)) [[likely]] {
    mpz_ior(detail::IntegerAccess::cpu_mpz(r), detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b));
    detail::IntegerAccess::read_cpu_meta(r);
    return;
  }
  detail::ior_general(r, a, b, s);
}

inline void xor_(Integer& r, const Integer& a, const Integer& b, Stream s) {
  if (detail::gmp_in_place(r, a, b, kHostValueMaxLimbs, detail::kNoBound)) [[likely]] {
    mpz_xor(detail::IntegerAccess::cpu_mpz(r), detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b));
    detail::IntegerAccess::read_cpu_meta(r);
    return;
  }
  detail::xor_general(r, a, b, s);
}

}  // namespace mpgpu
