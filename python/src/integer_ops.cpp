// Python's semantics over the library's GMP-style operations.
#include "integer_ops.hpp"

namespace mpgpu::py {

std::pair<Integer, Integer> python_divmod(const Integer& a, const Integer& b) {
  Integer q(a.context()), r(a.context());
  run(release_gil(a, b), [&] { fdiv_qr(q, r, a, b); });
  return {std::move(q), std::move(r)};
}

Integer python_pow(const Integer& base, const Integer& exp) {
  Integer r(base.context());
  if (!exp.fits_uint64()) {
    // Only 0, 1 and -1 have powers this large that fit anywhere.
    if (cmpabs(base, Integer(1, base.context())) > 0) {
      PyErr_SetString(PyExc_OverflowError, "exponent too large: the result would not fit in memory");
      throw nb::python_error();
    }
    if (base.sign() > 0 || (base.sign() < 0 && !tstbit(exp, 0))) return Integer(1, base.context());
    return base;  // 0 or -1 (odd exponent)
  }
  const std::uint64_t e = exp.to_uint64();
  run(!mpgpu::detail::IntegerAccess::has_deferred(base) && base.size() * (e > 64 ? 64 : e) >= kReleaseGilLimbs,
      [&] { pow_ui(r, base, e); });
  return r;
}

Integer python_powmod(const Integer& base, const Integer& exp, const Integer& m) {
  if (m.is_zero()) throw nb::value_error("pow() 3rd argument cannot be 0");
  Integer r(base.context());
  if (exp.sign() < 0) {
    Integer inverse(base.context());
    if (!invert(inverse, base, m)) throw nb::value_error("base is not invertible for the given modulus");
    Integer positive(base.context());
    neg(positive, exp);
    run(release_gil(inverse, m) && !mpgpu::detail::IntegerAccess::has_deferred(positive),
        [&] { powm(r, inverse, positive, m); });
  } else {
    run(release_gil(base, m) && !mpgpu::detail::IntegerAccess::has_deferred(exp), [&] { powm(r, base, exp, m); });
  }
  // GMP gives [0, |m|); Python gives the sign of m.
  if (m.sign() < 0 && !r.is_zero()) r += m;
  return r;
}

}  // namespace mpgpu::py
