// Python int <-> Integer in bulk: the int's two's-complement bytes straight
// into a limb buffer (the same CPython routine int.to_bytes uses), and back
// from the limbs (int.from_bytes' routine), so a conversion costs about what
// int.to_bytes / int.from_bytes cost, never a digit-by-digit loop.
#include "common.hpp"

#include <cstring>
#include <memory>

namespace mpgpu::py {
namespace {

#if PY_VERSION_HEX >= 0x030D0000
// Python 3.13 made these public (PyLong_AsNativeBytes and friends).
std::size_t signed_byte_count(PyObject* v) {
  const Py_ssize_t n = PyLong_AsNativeBytes(v, nullptr, 0, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
  if (n < 0) throw nb::python_error();
  return static_cast<std::size_t>(n);
}
void as_twos_complement(PyObject* v, void* out, std::size_t bytes) {
  if (PyLong_AsNativeBytes(v, out, static_cast<Py_ssize_t>(bytes), Py_ASNATIVEBYTES_LITTLE_ENDIAN) < 0)
    throw nb::python_error();
}
PyObject* from_unsigned_bytes(const void* data, std::size_t bytes) {
  return PyLong_FromUnsignedNativeBytes(data, bytes, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
}
#else
std::size_t signed_byte_count(PyObject* v) {
  // |v| has NumBits bits; two's complement needs one more for the sign.
  const std::size_t bits = _PyLong_NumBits(v);
  if (bits == static_cast<std::size_t>(-1) && PyErr_Occurred()) throw nb::python_error();
  return bits / 8 + 1;
}
void as_twos_complement(PyObject* v, void* out, std::size_t bytes) {
  if (_PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(v), static_cast<unsigned char*>(out), bytes,
                          /*little_endian=*/1, /*is_signed=*/1) < 0)
    throw nb::python_error();
}
PyObject* from_unsigned_bytes(const void* data, std::size_t bytes) {
  return _PyLong_FromByteArray(static_cast<const unsigned char*>(data), bytes, /*little_endian=*/1,
                               /*is_signed=*/0);
}
#endif

/// The limbs of a negative two's-complement value -> its magnitude: ~x + 1.
void twos_complement_to_magnitude(limb_t* limbs, std::size_t count) {
  bool carry = true;
  for (std::size_t i = 0; i < count; ++i) {
    limbs[i] = ~limbs[i] + (carry ? 1 : 0);
    carry = carry && limbs[i] == 0;
  }
}

// gmpy2's documented object layout (gmpy2.h, MPZ_Object): its mpz_t is read
// in place, without a Python int in between.
struct Gmpy2Mpz {
  PyObject_HEAD
  mpz_t z;
  Py_hash_t hash_cache;
};

bool is_gmpy2_mpz(PyObject* o) {
  static PyTypeObject* cached = nullptr;
  PyTypeObject* t = Py_TYPE(o);
  if (t == cached) return true;
  if (cached || std::strcmp(t->tp_name, "gmpy2.mpz") != 0 ||
      t->tp_basicsize != static_cast<Py_ssize_t>(sizeof(Gmpy2Mpz)))
    return false;
  cached = t;
  return true;
}

}  // namespace

bool pylong_to_limbs(PyObject* value, limb_t* out, std::size_t n, bool is_signed) {
  const std::size_t bytes = n * sizeof(limb_t);
  int overflow = 0;
  const long long small = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (overflow == 0) {
    if (small == -1 && PyErr_Occurred()) throw nb::python_error();
    if (small < 0 && !is_signed) return false;
    if (n == 0) return small == 0;
    out[0] = static_cast<limb_t>(small);
    const limb_t fill = small < 0 ? ~limb_t{0} : 0;  // sign extension
    for (std::size_t i = 1; i < n; ++i) out[i] = fill;
    return true;
  }
  if (overflow < 0 && !is_signed) return false;
#if PY_VERSION_HEX >= 0x030D0000
  const int flags = Py_ASNATIVEBYTES_LITTLE_ENDIAN | (is_signed ? 0 : Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
  const Py_ssize_t need = PyLong_AsNativeBytes(value, out, static_cast<Py_ssize_t>(bytes), flags);
  if (need < 0) throw nb::python_error();
  return static_cast<std::size_t>(need) <= bytes;
#else
  if (_PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(value), reinterpret_cast<unsigned char*>(out), bytes,
                          /*little_endian=*/1, is_signed ? 1 : 0) < 0) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) throw nb::python_error();
    PyErr_Clear();  // "int too big to convert": the caller says which value, and why
    return false;
  }
  return true;
#endif
}

nb::object pylong_from_limbs(const limb_t* limbs, std::size_t n, bool is_signed) {
  PyObject* r;
  if (n == 1) {
    r = is_signed ? PyLong_FromLongLong(static_cast<long long>(limbs[0])) : PyLong_FromUnsignedLongLong(limbs[0]);
  } else {
#if PY_VERSION_HEX >= 0x030D0000
    r = is_signed ? PyLong_FromNativeBytes(limbs, n * sizeof(limb_t), Py_ASNATIVEBYTES_LITTLE_ENDIAN)
                  : PyLong_FromUnsignedNativeBytes(limbs, n * sizeof(limb_t), Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    r = _PyLong_FromByteArray(reinterpret_cast<const unsigned char*>(limbs), n * sizeof(limb_t),
                              /*little_endian=*/1, is_signed ? 1 : 0);
#endif
  }
  if (!r) throw nb::python_error();
  return nb::steal(r);
}

Integer integer_from_pylong(PyObject* value, const Context& ctx) {
  int overflow = 0;
  const long long small = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (overflow == 0) {
    if (small == -1 && PyErr_Occurred()) throw nb::python_error();
    return Integer(static_cast<std::int64_t>(small), ctx);
  }
  const std::size_t bytes = signed_byte_count(value);
  const std::size_t count = (bytes + sizeof(limb_t) - 1) / sizeof(limb_t);
  const bool negative = overflow < 0;
  if (!ctx.is_cuda() && count <= detail::kGmpMaxLimbs) {
    // The CPU context: straight into the mpz's limbs. A buffer in between
    // (its allocation, first-touch page faults and the copy into the mpz)
    // cost as much as the conversion itself: 2.0x int.to_bytes at 2^30
    // bits, against about 1.1x this way (docs/python.md, "Speed").
    Integer r(ctx);
    mpz_ptr z = detail::IntegerAccess::cpu_mpz(r);
    limb_t* limbs = mpz_limbs_write(z, static_cast<mp_size_t>(count));
    as_twos_complement(value, limbs, count * sizeof(limb_t));  // on an error r (still 0) is dropped
    if (negative) twos_complement_to_magnitude(limbs, count);
    mpz_limbs_finish(z, negative ? -static_cast<mp_size_t>(count) : static_cast<mp_size_t>(count));  // normalizes
    detail::IntegerAccess::refresh_cpu_meta(r);
    return r;
  }
  // Not value-initialized: the conversion writes every byte.
  std::unique_ptr<limb_t[]> limbs(new limb_t[count]);
  as_twos_complement(value, limbs.get(), count * sizeof(limb_t));
  if (negative) twos_complement_to_magnitude(limbs.get(), count);
  return Integer::from_limbs(limbs.get(), count, negative ? -1 : 1, ctx);
}

nb::object pylong_from_integer(const Integer& x) {
  if (x.fits_int64()) return nb::steal(PyLong_FromLongLong(x.to_int64()));
  PyObject* magnitude;
  if (x.in_host_memory()) {
    mpz_srcptr z = mpgpu::detail::IntegerAccess::cpu_mpz(x);
    magnitude = from_unsigned_bytes(mpz_limbs_read(z), mpz_size(z) * sizeof(limb_t));
  } else {
    const std::vector<limb_t> limbs = x.to_limbs();
    magnitude = from_unsigned_bytes(limbs.data(), limbs.size() * sizeof(limb_t));
  }
  if (!magnitude) throw nb::python_error();
  nb::object result = nb::steal(magnitude);
  if (x.sign() < 0) {
    PyObject* negated = PyNumber_Negative(magnitude);
    if (!negated) throw nb::python_error();
    result = nb::steal(negated);
  }
  return result;
}

bool load_operand(nb::handle h, const Context& ctx, Operand& out) {
  if (const Integer* x = as_integer(h)) {
    out.borrowed = x;
    return true;
  }
  PyObject* o = h.ptr();
  if (PyLong_Check(o)) {
    out.owned.emplace(integer_from_pylong(o, ctx));
  } else if (is_gmpy2_mpz(o)) {
    out.owned.emplace(Integer::from_mpz(reinterpret_cast<Gmpy2Mpz*>(o)->z, ctx));
  } else if (!PyFloat_Check(o) && PyIndex_Check(o)) {  // numpy integers, other int-likes
    nb::object index = nb::steal(PyNumber_Index(o));
    if (!index.is_valid()) throw nb::python_error();
    out.owned.emplace(integer_from_pylong(index.ptr(), ctx));
  } else {
    return false;
  }
  return true;
}

Operand require_operand(nb::handle h, const Context& ctx, const char* function) {
  Operand op;
  if (!load_operand(h, ctx, op))
    throw nb::type_error((std::string(function) + "() requires integer arguments, not '" +
                          Py_TYPE(h.ptr())->tp_name + "'").c_str());
  return op;
}

std::uint64_t to_u64(nb::handle h, const char* function) {
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    if (overflow == 0 && v >= 0) return static_cast<std::uint64_t>(v);
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
      if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw nb::python_error();
      return u;
    }
    PyErr_SetString(PyExc_OverflowError, "can't convert negative value to unsigned int");
    throw nb::python_error();
  }
  Operand op = require_operand(h, interned_context("cpu"), function);
  const Integer& x = op.get();
  if (x.sign() < 0) {
    PyErr_SetString(PyExc_OverflowError, "can't convert negative value to unsigned int");
    throw nb::python_error();
  }
  if (!x.fits_uint64()) {
    PyErr_SetString(PyExc_OverflowError, "value too large to convert to unsigned int");
    throw nb::python_error();
  }
  return x.to_uint64();
}

}  // namespace mpgpu::py
