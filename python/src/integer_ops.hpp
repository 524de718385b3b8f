// The operations behind Integer's operators and the module functions, with
// Python's semantics where they differ from GMP's (floor division, pow with
// a modulus of either sign), and the GIL released around large operations.
#pragma once

#include "common.hpp"

#include <utility>

namespace mpgpu::py {

/// Operands of at least this many limbs in all run without the GIL (other
/// Python threads go on meanwhile). Below, releasing and taking the GIL
/// again would cost more than the operation.
inline constexpr std::size_t kReleaseGilLimbs = 512;

/// Whether an operation on these operands should release the GIL: their
/// sizes are settled (reading a size still on the device would wait for it,
/// and must not happen on two threads at once) and large.
inline bool release_gil(const Integer& a, const Integer& b) {
  return !mpgpu::detail::IntegerAccess::has_deferred(a) && !mpgpu::detail::IntegerAccess::has_deferred(b) &&
         a.size() + b.size() >= kReleaseGilLimbs;
}

template <class F>
void run(bool without_gil, F&& f) {
  if (without_gil) {
    nb::gil_scoped_release release;
    f();
  } else {
    f();
  }
}

using BinaryFn = void (*)(Integer&, const Integer&, const Integer&, Stream);
inline void op_add(Integer& r, const Integer& a, const Integer& b, Stream s) { add(r, a, b, s); }
inline void op_sub(Integer& r, const Integer& a, const Integer& b, Stream s) { sub(r, a, b, s); }
inline void op_mul(Integer& r, const Integer& a, const Integer& b, Stream s) { mul(r, a, b, s); }
inline void op_and(Integer& r, const Integer& a, const Integer& b, Stream s) { and_(r, a, b, s); }
inline void op_or(Integer& r, const Integer& a, const Integer& b, Stream s) { ior(r, a, b, s); }
inline void op_xor(Integer& r, const Integer& a, const Integer& b, Stream s) { xor_(r, a, b, s); }
/// Python's // and %: quotient toward minus infinity, remainder with the divisor's sign.
inline void op_floordiv(Integer& r, const Integer& a, const Integer& b, Stream s) { fdiv_q(r, a, b, s); }
inline void op_mod(Integer& r, const Integer& a, const Integer& b, Stream s) { fdiv_r(r, a, b, s); }

template <BinaryFn F>
Integer apply(const Integer& a, const Integer& b) {
  Integer r(a.context());
  run(release_gil(a, b), [&] { F(r, a, b, nullptr); });
  return r;
}

/// divmod(a, b): floor quotient and remainder.
std::pair<Integer, Integer> python_divmod(const Integer& a, const Integer& b);
/// a ** e for e >= 0 (e beyond 64 bits only for a in {0, 1, -1}; else OverflowError).
Integer python_pow(const Integer& base, const Integer& exp);
/// pow(a, e, m): ValueError for m == 0 or a non-invertible base with e < 0;
/// the result has m's sign (in [0, m) or (m, 0]), as Python's and gmpy2's.
Integer python_powmod(const Integer& base, const Integer& exp, const Integer& m);

}  // namespace mpgpu::py
