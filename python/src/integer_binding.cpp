// mpgpu.Integer: an immutable integer that behaves like Python's int (the
// same results, signs, errors and hashes), with ints (or anything with
// __index__, gmpy2.mpz included) on either side of every operator. An int
// operand joins the Integer's context; two Integers must share one.
#include "common.hpp"
#include "integer_ops.hpp"


namespace mpgpu::py {
namespace {

PyTypeObject* integer_type = nullptr;

nb::object not_implemented() { return nb::borrow(Py_NotImplemented); }

// Whether `h` is a number that is not an integer (float, complex, Fraction,
// Decimal...): such operands get the result Python gives for an int.
bool other_number(nb::handle h) {
  if (PyFloat_Check(h.ptr()) || PyComplex_Check(h.ptr())) return true;
  static PyObject* number_abc = [] {
    nb::object abc = nb::module_::import_("numbers").attr("Number");
    return abc.release().ptr();  // kept for the life of the process
  }();
  const int r = PyObject_IsInstance(h.ptr(), number_abc);
  if (r < 0) throw nb::python_error();
  return r == 1;
}

// A non-integer number on the other side: what the int would give.
nb::object via_pylong(const Integer& a, nb::handle other, binaryfunc op, bool reflected) {
  if (!other_number(other)) return not_implemented();
  nb::object x = pylong_from_integer(a);
  PyObject* r = reflected ? op(other.ptr(), x.ptr()) : op(x.ptr(), other.ptr());
  if (!r) throw nb::python_error();
  return nb::steal(r);
}

template <BinaryFn F>
nb::object binary(const Integer& a, nb::handle other, binaryfunc fallback, bool reflected) {
  Operand b;
  if (!load_operand(other, a.context(), b)) return via_pylong(a, other, fallback, reflected);
  return wrap(reflected ? apply<F>(b.get(), a) : apply<F>(a, b.get()));
}

template <BinaryFn F>
void def_binary(nb::class_<Integer>& c, const char* name, const char* rname, binaryfunc fallback) {
  c.def(name, [fallback](const Integer& a, nb::handle b) { return binary<F>(a, b, fallback, false); },
        nb::is_operator());
  c.def(rname, [fallback](const Integer& a, nb::handle b) { return binary<F>(a, b, fallback, true); },
        nb::is_operator());
}

nb::object shift(const Integer& value, const Integer& count, bool left) {
  if (count.sign() < 0) throw nb::value_error("negative shift count");
  if (!count.fits_uint64()) {  // 2^64 bits and more
    if (!left || value.is_zero()) return wrap(Integer(value.sign() < 0 ? -1 : 0, value.context()));
    PyErr_SetString(PyExc_OverflowError, "too many digits in integer");
    throw nb::python_error();
  }
  Integer r(value.context());
  if (left) mul_2exp(r, value, count.to_uint64());
  else fdiv_q_2exp(r, value, count.to_uint64());
  return wrap(std::move(r));
}

nb::object power(const Integer& base, const Integer& exp, nb::handle modulus) {
  if (!modulus.is_none()) {
    Operand m;
    if (!load_operand(modulus, base.context(), m)) return not_implemented();
    return wrap(python_powmod(base, exp, m.get()));
  }
  if (exp.sign() < 0) {  // a float, as int ** negative int
    nb::object b = pylong_from_integer(base), e = pylong_from_integer(exp);
    PyObject* r = PyNumber_Power(b.ptr(), e.ptr(), Py_None);
    if (!r) throw nb::python_error();
    return nb::steal(r);
  }
  return wrap(python_pow(base, exp));
}

nb::object compare(const Integer& a, nb::handle other, int op) {
  Operand b;
  if (!load_operand(other, a.context(), b)) {
    if (!PyFloat_Check(other.ptr())) return not_implemented();
    nb::object x = pylong_from_integer(a);
    return nb::steal(PyObject_RichCompare(x.ptr(), other.ptr(), op));
  }
  // Comparing is the one operation that moves an Integer of another context.
  int c;
  if (b.get().context() != a.context()) c = cmp(a, b.get().to_context(a.context()));
  else c = cmp(a, b.get());
  bool r = false;
  switch (op) {
    case Py_LT: r = c < 0; break;
    case Py_LE: r = c <= 0; break;
    case Py_EQ: r = c == 0; break;
    case Py_NE: r = c != 0; break;
    case Py_GT: r = c > 0; break;
    case Py_GE: r = c >= 0; break;
  }
  return nb::bool_(r);
}

// hash(x) == hash(int(x)): Python reduces |x| modulo 2^61 - 1 and keeps the
// sign, with -1 (an error code in C) replaced by -2.
Py_hash_t integer_hash(const Integer& x) {
  static_assert(sizeof(Py_hash_t) == 8, "Python's int hash modulus assumed to be 2^61 - 1");
  constexpr std::uint64_t kModulus = (std::uint64_t{1} << 61) - 1;
  const std::uint64_t r = tdiv_ui(x, kModulus);
  Py_hash_t h = static_cast<Py_hash_t>(r);
  if (x.sign() < 0) h = -h;
  return h == -1 ? -2 : h;
}

Integer construct(nb::handle x, nb::handle base, const Context& ctx) {
  PyObject* o = x.ptr();
  const bool text = PyUnicode_Check(o) || PyBytes_Check(o) || PyByteArray_Check(o);
  if (!base.is_none() && !text) throw nb::type_error("int() can't convert non-string with explicit base");
  if (text) {
    const int b = base.is_none() ? 10 : nb::cast<int>(base);
    if (PyUnicode_Check(o)) {
      if (!PyUnicode_IS_ASCII(o)) {  // Unicode digits and spaces: Python's parser, then convert
        nb::object value = nb::steal(PyLong_FromUnicodeObject(o, b));
        if (!value.is_valid()) throw nb::python_error();
        return integer_from_pylong(value.ptr(), ctx);
      }
      Py_ssize_t n = 0;
      const char* s = PyUnicode_AsUTF8AndSize(o, &n);
      if (!s) throw nb::python_error();
      return parse_int_text(std::string_view(s, static_cast<std::size_t>(n)), b, ctx, x);
    }
    const char* s = PyBytes_Check(o) ? PyBytes_AS_STRING(o) : PyByteArray_AS_STRING(o);
    const Py_ssize_t n = PyBytes_Check(o) ? PyBytes_GET_SIZE(o) : PyByteArray_GET_SIZE(o);
    return parse_int_text(std::string_view(s, static_cast<std::size_t>(n)), b, ctx, x);
  }
  if (const Integer* other = as_integer(x)) return other->context() == ctx ? *other : other->to_context(ctx);
  Operand op;
  if (load_operand(x, ctx, op)) return op.owned ? std::move(*op.owned) : op.get();
  nb::object value = nb::steal(PyNumber_Long(o));  // floats, __int__, __trunc__, Decimal...
  if (!value.is_valid()) throw nb::python_error();
  return integer_from_pylong(value.ptr(), ctx);
}

// round(x, ndigits) for ndigits < 0: to a multiple of 10^-ndigits, ties to even.
Integer round_to(const Integer& x, std::uint64_t decimals) {
  Integer unit(x.context()), q(x.context()), r(x.context());
  ui_pow_ui(unit, 10, decimals);
  fdiv_qr(q, r, x, unit);
  Integer twice = r << 1;
  const int c = cmp(twice, unit);
  if (c > 0 || (c == 0 && tstbit(q, 0))) q += Integer(1, x.context());
  return q * unit;
}

}  // namespace

const Integer* as_integer(nb::handle h) {
  if (!integer_type || !PyObject_TypeCheck(h.ptr(), integer_type)) return nullptr;
  return nb::inst_ptr<Integer>(h);
}

void bind_integer(nb::module_& m) {
  nb::class_<Integer> c(m, "Integer",
                        "An integer of any size in an mpgpu context (GPU memory on a CUDA context), behaving\n"
                        "like Python's int: Integer(x=0, base=None, *, context=None) takes an int, a str\n"
                        "(int()'s syntax: base 0, 2..36, or 37..62 with GMP's digits), bytes as text, an\n"
                        "Integer, a gmpy2.mpz or anything int() takes. Immutable and hashable.");
  integer_type = reinterpret_cast<PyTypeObject*>(c.ptr());

  c.def("__init__",
        [](Integer* self, nb::handle x, nb::handle base, nb::handle context) {
          new (self) Integer(construct(x, base, context_arg(context)));
        },
        nb::arg("x") = nb::int_(0), nb::arg("base").none() = nb::none(), nb::kw_only(),
        nb::arg("context").none() = nb::none());

  // ---- arithmetic ------------------------------------------------------------------
  def_binary<op_add>(c, "__add__", "__radd__", PyNumber_Add);
  def_binary<op_sub>(c, "__sub__", "__rsub__", PyNumber_Subtract);
  def_binary<op_mul>(c, "__mul__", "__rmul__", PyNumber_Multiply);
  def_binary<op_floordiv>(c, "__floordiv__", "__rfloordiv__", PyNumber_FloorDivide);
  def_binary<op_mod>(c, "__mod__", "__rmod__", PyNumber_Remainder);
  def_binary<op_and>(c, "__and__", "__rand__", PyNumber_And);
  def_binary<op_or>(c, "__or__", "__ror__", PyNumber_Or);
  def_binary<op_xor>(c, "__xor__", "__rxor__", PyNumber_Xor);
  c.def("__divmod__", [](const Integer& a, nb::handle other) -> nb::object {
    Operand b;
    if (!load_operand(other, a.context(), b)) return via_pylong(a, other, PyNumber_Divmod, false);
    auto [q, r] = python_divmod(a, b.get());
    return nb::make_tuple(wrap(std::move(q)), wrap(std::move(r)));
  }, nb::is_operator());
  c.def("__rdivmod__", [](const Integer& a, nb::handle other) -> nb::object {
    Operand b;
    if (!load_operand(other, a.context(), b)) return via_pylong(a, other, PyNumber_Divmod, true);
    auto [q, r] = python_divmod(b.get(), a);
    return nb::make_tuple(wrap(std::move(q)), wrap(std::move(r)));
  }, nb::is_operator());
  // True division gives a float, as int / int (correctly rounded by Python).
  c.def("__truediv__", [](const Integer& a, nb::handle other) -> nb::object {
    Operand b;
    nb::object x = pylong_from_integer(a);
    nb::object y = load_operand(other, a.context(), b) ? pylong_from_integer(b.get()) : nb::borrow(other);
    PyObject* r = PyNumber_TrueDivide(x.ptr(), y.ptr());
    if (!r) throw nb::python_error();
    return nb::steal(r);
  }, nb::is_operator());
  c.def("__rtruediv__", [](const Integer& a, nb::handle other) -> nb::object {
    Operand b;
    if (!load_operand(other, a.context(), b)) return via_pylong(a, other, PyNumber_TrueDivide, true);
    nb::object x = pylong_from_integer(b.get()), y = pylong_from_integer(a);
    PyObject* r = PyNumber_TrueDivide(x.ptr(), y.ptr());
    if (!r) throw nb::python_error();
    return nb::steal(r);
  }, nb::is_operator());
  c.def("__pow__", [](const Integer& a, nb::handle other, nb::handle mod) -> nb::object {
    Operand b;
    if (!load_operand(other, a.context(), b))
      return mod.is_none() ? via_pylong(a, other, [](PyObject* x, PyObject* y) { return PyNumber_Power(x, y, Py_None); },
                                        false)
                           : not_implemented();
    return power(a, b.get(), mod);
  }, nb::arg("exp"), nb::arg("mod").none() = nb::none(), nb::is_operator());
  c.def("__rpow__", [](const Integer& a, nb::handle other, nb::handle mod) -> nb::object {
    Operand b;
    if (!load_operand(other, a.context(), b))
      return mod.is_none() ? via_pylong(a, other, [](PyObject* x, PyObject* y) { return PyNumber_Power(x, y, Py_None); },
                                        true)
                           : not_implemented();
    return power(b.get(), a, mod);
  }, nb::arg("base"), nb::arg("mod").none() = nb::none(), nb::is_operator());
  c.def("__lshift__", [](const Integer& a, nb::handle other) -> nb::object {
    Operand b;
    return load_operand(other, a.context(), b) ? shift(a, b.get(), true) : not_implemented();
  }, nb::is_operator());
  c.def("__rlshift__", [](const Integer& a, nb::handle other) -> nb::object {
    Operand b;
    return load_operand(other, a.context(), b) ? shift(b.get(), a, true) : not_implemented();
  }, nb::is_operator());
  c.def("__rshift__", [](const Integer& a, nb::handle other) -> nb::object {
    Operand b;
    return load_operand(other, a.context(), b) ? shift(a, b.get(), false) : not_implemented();
  }, nb::is_operator());
  c.def("__rrshift__", [](const Integer& a, nb::handle other) -> nb::object {
    Operand b;
    return load_operand(other, a.context(), b) ? shift(b.get(), a, false) : not_implemented();
  }, nb::is_operator());

  // ---- unary -------------------------------------------------------------------------
  c.def("__neg__", [](const Integer& a) { return -a; });
  c.def("__pos__", [](nb::handle self) { return nb::borrow(self); });
  c.def("__abs__", [](const Integer& a) {
    Integer r(a.context());
    abs(r, a);
    return r;
  });
  c.def("__invert__", [](const Integer& a) { return ~a; });
  c.def("__bool__", [](const Integer& a) { return !a.is_zero(); });
  c.def("__round__", [](nb::handle self, nb::handle ndigits) -> nb::object {
    const Integer& a = nb::cast<const Integer&>(self);
    if (ndigits.is_none()) return nb::borrow(self);
    Operand n = require_operand(ndigits, a.context(), "round");
    if (n.get().sign() >= 0) return nb::borrow(self);
    Integer digits = -n.get();
    if (!digits.fits_uint64()) return wrap(Integer(0, a.context()));
    return wrap(round_to(a, digits.to_uint64()));
  }, nb::arg("ndigits").none() = nb::none());
  for (const char* same : {"__trunc__", "__floor__", "__ceil__", "__copy__"})
    c.def(same, [](nb::handle self) { return nb::borrow(self); });
  c.def("conjugate", [](nb::handle self) { return nb::borrow(self); }, "x itself (as int.conjugate).");
  c.def("__deepcopy__", [](nb::handle self, nb::handle) { return nb::borrow(self); }, nb::arg("memo"));

  // ---- comparisons and hashing -----------------------------------------------------------
  c.def("__eq__", [](const Integer& a, nb::handle b) { return compare(a, b, Py_EQ); }, nb::is_operator());
  c.def("__ne__", [](const Integer& a, nb::handle b) { return compare(a, b, Py_NE); }, nb::is_operator());
  c.def("__lt__", [](const Integer& a, nb::handle b) { return compare(a, b, Py_LT); }, nb::is_operator());
  c.def("__le__", [](const Integer& a, nb::handle b) { return compare(a, b, Py_LE); }, nb::is_operator());
  c.def("__gt__", [](const Integer& a, nb::handle b) { return compare(a, b, Py_GT); }, nb::is_operator());
  c.def("__ge__", [](const Integer& a, nb::handle b) { return compare(a, b, Py_GE); }, nb::is_operator());
  c.def("__hash__", &integer_hash);

  // ---- conversions ---------------------------------------------------------------------
  c.def("__int__", &pylong_from_integer);
  c.def("__index__", &pylong_from_integer);
  c.def("__float__", [](const Integer& a) {
    if (sizeinbase2(a) > 1024) {
      PyErr_SetString(PyExc_OverflowError, "int too large to convert to float");
      throw nb::python_error();
    }
    nb::object x = pylong_from_integer(a);
    return nb::steal(PyNumber_Float(x.ptr()));
  });
  c.def("__str__", [](const Integer& a) { return a.to_string(10); });
  c.def("__repr__", [](const Integer& a) { return "mpgpu.Integer(" + a.to_string(10) + ")"; });
  c.def("__format__", [](const Integer& a, std::string_view spec) { return format_integer(a, spec); },
        nb::arg("format_spec"));
  c.def("to_bytes", &integer_to_bytes, nb::arg("length") = 1, nb::arg("byteorder") = "big", nb::kw_only(),
        nb::arg("signed") = false, "As int.to_bytes.");
  c.def_static("from_bytes",
               [](nb::handle data, std::string_view byteorder, bool is_signed, nb::handle context) {
                 return integer_from_bytes(data, byteorder, is_signed, context_arg(context));
               },
               nb::arg("bytes"), nb::arg("byteorder") = "big", nb::kw_only(), nb::arg("signed") = false,
               nb::arg("context").none() = nb::none(), "As int.from_bytes, in the current context or `context`.");
  c.def("digits", [](const Integer& a, int base) { return a.to_string(base); }, nb::arg("base") = 10,
        "The digits in `base` (2..62), as gmpy2's mpz.digits (no prefix).");
  c.def("__getstate__", [](const Integer& a) {
    const std::vector<std::uint8_t> bytes = a.to_bytes(Endian::little);
    return std::make_pair(a.sign(), nb::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  });
  c.def("__setstate__", [](Integer* self, std::pair<int, nb::bytes> state) {
    Integer r = Integer::from_bytes(state.second.c_str(), state.second.size(), Endian::little, current_context());
    if (state.first < 0) r.negate();
    new (self) Integer(std::move(r));
  });

  // ---- int's other methods and properties --------------------------------------------------
  c.def("bit_length", [](const Integer& a) { return a.is_zero() ? std::uint64_t{0} : sizeinbase2(a); },
        "Bits of |x|, 0 for 0 (as int.bit_length).");
  c.def("bit_count", [](const Integer& a) { return a.sign() < 0 ? popcount(-a) : popcount(a); },
        "Ones in the binary form of |x|, as int.bit_count.");
  c.def("as_integer_ratio", [](nb::handle self) {
    const Integer& a = nb::cast<const Integer&>(self);
    return nb::make_tuple(self, wrap(Integer(1, a.context())));
  }, "(x, 1) (as int.as_integer_ratio).");
  c.def("is_integer", [](const Integer&) { return true; }, "True (as int.is_integer).");
  c.def_prop_ro("numerator", [](nb::handle self) { return nb::borrow(self); }, "x itself (as int.numerator).");
  c.def_prop_ro("real", [](nb::handle self) { return nb::borrow(self); }, "x itself (as int.real).");
  c.def_prop_ro("denominator", [](const Integer& a) { return Integer(1, a.context()); }, "1 (as int.denominator).");
  c.def_prop_ro("imag", [](const Integer& a) { return Integer(0, a.context()); }, "0 (as int.imag).");

  // ---- contexts --------------------------------------------------------------------------
  c.def_prop_ro("context", [](const Integer& a) { return a.context(); }, "The context the value lives in.");
  c.def("to_context", [](const Integer& a, nb::handle context) { return a.to_context(context_arg(context)); },
        nb::arg("context"), "A copy of the value in another context (a Context or a spec such as 'cpu').");
}

}  // namespace mpgpu::py
