// The batch operations of include/mpgpu/batch.hpp as Python functions
// (module mpgpu._mpgpu._batch, re-exported as mpgpu.batch), each returning
// new batches, and Batch's operators over them: + - * & | ^ ~ << >> // %
// divmod and pow(a, e, m), all mod 2**bits, with a Batch or an int on either
// side (an int becomes a batch of the other operand's shape).
#include "batch_common.hpp"

#include <string>

namespace mpgpu::py {
namespace {

using Unary = void (*)(Batch&, const Batch&, Stream);
using Binary = void (*)(Batch&, const Batch&, const Batch&, Stream);
using Ternary = void (*)(Batch&, const Batch&, const Batch&, const Batch&, Stream);
using WithWord = void (*)(Batch&, const Batch&, std::uint64_t, Stream);
using WithCount = void (*)(Batch&, const Batch&, std::size_t, Stream);
using QuotRem = void (*)(Batch&, Batch&, const Batch&, const Batch&, Stream);

template <Unary F>
Batch unary(const Batch& a) {
  Batch r;
  run_batch([&] { F(r, a, nullptr); });
  return r;
}
template <Binary F>
Batch binary(const Batch& a, const Batch& b) {
  Batch r;
  run_batch([&] { F(r, a, b, nullptr); });
  return r;
}
template <Ternary F>
Batch ternary(const Batch& a, const Batch& b, const Batch& c) {
  Batch r;
  run_batch([&] { F(r, a, b, c, nullptr); });
  return r;
}
template <WithWord F>
Batch with_word(const Batch& a, std::uint64_t v) {
  Batch r;
  run_batch([&] { F(r, a, v, nullptr); });
  return r;
}
template <WithCount F>
Batch with_count(const Batch& a, std::size_t n) {
  Batch r;
  run_batch([&] { F(r, a, n, nullptr); });
  return r;
}
template <QuotRem F>
std::pair<Batch, Batch> quot_rem(const Batch& a, const Batch& b) {
  Batch q, r;
  run_batch([&] { F(q, r, a, b, nullptr); });
  return {std::move(q), std::move(r)};
}

// The library's overload sets, as single functions.
void f_add(Batch& r, const Batch& a, const Batch& b, Stream s) { add(r, a, b, nullptr, s); }
void f_sub(Batch& r, const Batch& a, const Batch& b, Stream s) { sub(r, a, b, nullptr, s); }
void f_mul(Batch& r, const Batch& a, const Batch& b, Stream s) { mul(r, a, b, s); }
void f_mul_high(Batch& r, const Batch& a, const Batch& b, Stream s) { mul_high(r, a, b, s); }
void f_mul_wide(Batch& r, const Batch& a, const Batch& b, Stream s) { mul_wide(r, a, b, s); }
void f_sqr(Batch& r, const Batch& a, Stream s) { sqr(r, a, s); }
void f_and(Batch& r, const Batch& a, const Batch& b, Stream s) { and_(r, a, b, s); }
void f_ior(Batch& r, const Batch& a, const Batch& b, Stream s) { ior(r, a, b, s); }
void f_xor(Batch& r, const Batch& a, const Batch& b, Stream s) { xor_(r, a, b, s); }
void f_com(Batch& r, const Batch& a, Stream s) { com(r, a, s); }
void f_add_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s) { add_ui(r, a, v, s); }
void f_sub_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s) { sub_ui(r, a, v, s); }
void f_mul_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s) { mul_ui(r, a, v, s); }
void f_div_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s) { div_ui(r, a, v, s); }
void f_rem_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s) { rem_ui(r, a, v, s); }
void f_shl(Batch& r, const Batch& a, std::size_t n, Stream s) { shift_left(r, a, n, s); }
void f_shr(Batch& r, const Batch& a, std::size_t n, Stream s) { shift_right(r, a, n, s); }
void f_rotl(Batch& r, const Batch& a, std::size_t n, Stream s) { rotate_left(r, a, n, s); }
void f_rotr(Batch& r, const Batch& a, std::size_t n, Stream s) { rotate_right(r, a, n, s); }
void f_sar(Batch& r, const Batch& a, std::size_t n, Stream s) { shift_right_arithmetic(r, a, n, s); }
void f_div(Batch& r, const Batch& a, const Batch& b, Stream s) { div(r, a, b, s); }
void f_rem(Batch& r, const Batch& a, const Batch& b, Stream s) { rem(r, a, b, s); }
void f_div_qr(Batch& q, Batch& r, const Batch& a, const Batch& b, Stream s) { div_qr(q, r, a, b, s); }
void f_div_wide(Batch& r, const Batch& a, const Batch& b, Stream s) { div_wide(r, a, b, s); }
void f_rem_wide(Batch& r, const Batch& a, const Batch& b, Stream s) { rem_wide(r, a, b, s); }
void f_div_qr_wide(Batch& q, Batch& r, const Batch& a, const Batch& b, Stream s) { div_qr_wide(q, r, a, b, s); }
void f_gcd(Batch& r, const Batch& a, const Batch& b, Stream s) { gcd(r, a, b, s); }
void f_invert(Batch& r, const Batch& a, const Batch& m, Stream s) { invert(r, a, m, s); }
void f_mul_high_signed(Batch& r, const Batch& a, const Batch& b, Stream s) { mul_high_signed(r, a, b, s); }
void f_to_mont(Batch& r, const Batch& a, const Batch& m, Stream s) { to_montgomery(r, a, m, s); }
void f_from_mont(Batch& r, const Batch& a, const Batch& m, Stream s) { from_montgomery(r, a, m, s); }
void f_mont_mul(Batch& r, const Batch& a, const Batch& b, const Batch& m, Stream s) { montgomery_mul(r, a, b, m, s); }
void f_mont_sqr(Batch& r, const Batch& a, const Batch& m, Stream s) { montgomery_sqr(r, a, m, s); }
void f_mont_reduce(Batch& r, const Batch& a, const Batch& m, Stream s) { montgomery_reduce(r, a, m, s); }

nb::object add_or_sub(const Batch& a, const Batch& b, bool want_flag, bool subtract) {
  Batch r, flag;
  run_batch([&] {
    if (subtract) sub(r, a, b, want_flag ? &flag : nullptr, nullptr);
    else add(r, a, b, want_flag ? &flag : nullptr, nullptr);
  });
  if (!want_flag) return nb::cast(std::move(r));
  return nb::make_tuple(std::move(r), std::move(flag));
}

Batch powm_fn(const Batch& base, const Batch& exp, const Batch& m, nb::handle window) {
  Batch r;
  if (window.is_none()) {
    run_batch([&] { powm(r, base, exp, m, nullptr); });
    return r;
  }
  const std::string w = nb::cast<std::string>(window);
  if (w != "fixed" && w != "sliding")
    throw nb::value_error(("powm: window must be None, 'fixed' or 'sliding', not '" + w + "'").c_str());
  const PowmWindow pw = w == "fixed" ? PowmWindow::fixed : PowmWindow::sliding;
  run_batch([&] { powm(r, base, exp, m, pw, nullptr); });
  return r;
}

std::size_t count_arg(nb::handle h, const char* name) { return static_cast<std::size_t>(to_u64(h, name)); }

// ---- operators ------------------------------------------------------------------------

nb::object not_implemented() { return nb::borrow(Py_NotImplemented); }

// An int operand (int, Integer, NumPy integer, gmpy2.mpz), or an invalid
// handle when `h` is none of them (the operator then answers NotImplemented).
nb::object int_operand(nb::handle h) {
  PyObject* o = h.ptr();
  if (PyLong_Check(o)) return nb::borrow(h);
  if (const Integer* x = as_integer(h)) return pylong_from_integer(*x);
  if (PyFloat_Check(o) || !PyIndex_Check(o) || nb::isinstance<Batch>(h)) return {};
  PyObject* v = PyNumber_Index(o);
  if (!v) {  // e.g. a NumPy array of several values
    PyErr_Clear();
    return {};
  }
  return nb::steal(v);
}

int sign_of(nb::handle v) {
  const int lt = PyObject_RichCompareBool(v.ptr(), nb::int_(0).ptr(), Py_LT);
  const int gt = PyObject_RichCompareBool(v.ptr(), nb::int_(0).ptr(), Py_GT);
  if (lt < 0 || gt < 0) throw nb::python_error();
  return gt - lt;
}

bool below_power_of_two(nb::handle v, std::size_t bits) {  // 0 <= v < 2^bits
  nb::object n = nb::steal(PyObject_CallMethod(v.ptr(), "bit_length", nullptr));
  if (!n.is_valid()) throw nb::python_error();
  return sign_of(v) >= 0 && nb::cast<std::size_t>(n) <= bits;
}

// v mod 2^bits as a machine word, when it is one.
std::optional<std::uint64_t> word_mod(nb::handle v, std::size_t bits) {
  nb::object mask = nb::steal(PyNumber_Lshift(nb::int_(1).ptr(), nb::int_(bits).ptr()));
  mask = nb::steal(PyNumber_Subtract(mask.ptr(), nb::int_(1).ptr()));
  nb::object m = nb::steal(PyNumber_And(v.ptr(), mask.ptr()));
  if (!m.is_valid()) throw nb::python_error();
  const unsigned long long w = PyLong_AsUnsignedLongLong(m.ptr());
  if (w == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    return std::nullopt;
  }
  return w;
}

Batch like(const Batch& a, nb::handle v) { return batch_full(a.count(), v, a.bits(), a.context()); }

// a op v for a ring operation (+ - *): the word form when v mod 2^bits is a
// word, else a batch of v.
template <WithWord W, Binary B>
nb::object ring_op(const Batch& a, nb::handle other) {
  if (nb::isinstance<Batch>(other)) return nb::cast(binary<B>(a, nb::cast<const Batch&>(other)));
  nb::object v = int_operand(other);
  if (!v.is_valid()) return not_implemented();
  if (auto w = word_mod(v, a.bits())) return nb::cast(with_word<W>(a, *w));
  return nb::cast(binary<B>(a, like(a, v)));
}

template <Binary B>
nb::object batch_op(const Batch& a, nb::handle other, bool reflected) {
  const Batch* b = nb::isinstance<Batch>(other) ? &nb::cast<const Batch&>(other) : nullptr;
  std::optional<Batch> made;
  if (!b) {
    nb::object v = int_operand(other);
    if (!v.is_valid()) return not_implemented();
    made = like(a, v);
    b = &*made;
  }
  return nb::cast(reflected ? binary<B>(*b, a) : binary<B>(a, *b));
}

// The batch an int becomes as a dividend or a modulus: it must be a value of
// the width (no reduction: 2**bits + 1 is not 1 there).
Batch exact_like(const Batch& a, nb::handle v, const char* role) {
  if (!below_power_of_two(v, a.bits()))
    throw nb::value_error(("mpgpu.Batch: the " + std::string(role) + " " +
                           nb::cast<std::string>(nb::repr(v)) + " is not a value of " + std::to_string(a.bits()) +
                           " bits (0 <= v < 2**" + std::to_string(a.bits()) + ")").c_str());
  return like(a, v);
}

enum class DivPart { quotient, remainder, both };

nb::object pack(DivPart part, Batch&& q, Batch&& r) {
  if (part == DivPart::quotient) return nb::cast(std::move(q));
  if (part == DivPart::remainder) return nb::cast(std::move(r));
  return nb::make_tuple(std::move(q), std::move(r));
}

nb::object divide(const Batch& a, nb::handle other, DivPart part) {
  if (nb::isinstance<Batch>(other)) {
    auto [q, r] = quot_rem<f_div_qr>(a, nb::cast<const Batch&>(other));
    return pack(part, std::move(q), std::move(r));
  }
  nb::object v = int_operand(other);
  if (!v.is_valid()) return not_implemented();
  const int sign = sign_of(v);
  if (sign < 0) throw nb::value_error("mpgpu.Batch: a negative divisor for an unsigned batch");
  if (sign == 0) {
    PyErr_SetString(PyExc_ZeroDivisionError, "mpgpu.Batch: division by zero");
    throw nb::python_error();
  }
  if (!below_power_of_two(v, a.bits()))  // v > every value: q = 0, r = a
    return pack(part, Batch(a.count(), a.bits(), a.context()), Batch(a));
  const unsigned long long w = PyLong_AsUnsignedLongLong(v.ptr());
  if (w == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    auto [q, r] = quot_rem<f_div_qr>(a, like(a, v));
    return pack(part, std::move(q), std::move(r));
  }
  Batch q = part == DivPart::remainder ? Batch() : with_word<f_div_ui>(a, w);
  Batch r = part == DivPart::quotient ? Batch() : with_word<f_rem_ui>(a, w);
  return pack(part, std::move(q), std::move(r));
}

nb::object rdivide(const Batch& a, nb::handle other, DivPart part) {
  nb::object v = int_operand(other);
  if (!v.is_valid()) return not_implemented();
  auto [q, r] = quot_rem<f_div_qr>(exact_like(a, v, "dividend"), a);
  return pack(part, std::move(q), std::move(r));
}

nb::object shift_op(const Batch& a, nb::handle other, bool left) {
  nb::object v = int_operand(other);
  if (!v.is_valid()) return not_implemented();
  if (sign_of(v) < 0) throw nb::value_error("negative shift count");
  const unsigned long long n = PyLong_AsUnsignedLongLong(v.ptr());
  if (n == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {  // 2^64 and more: every bit leaves
    PyErr_Clear();
    return nb::cast(Batch(a.count(), a.bits(), a.context()));
  }
  return nb::cast(left ? with_count<f_shl>(a, n) : with_count<f_shr>(a, n));
}

nb::object power(const Batch& a, nb::handle exp, nb::handle mod) {
  if (mod.is_none())
    throw nb::type_error("pow() of an mpgpu.Batch needs a modulus: pow(base, exp, m) with m odd and > 1");
  std::optional<Batch> m_made, e_made;
  const Batch* m = nb::isinstance<Batch>(mod) ? &nb::cast<const Batch&>(mod) : nullptr;
  if (!m) {
    nb::object v = int_operand(mod);
    if (!v.is_valid()) return not_implemented();
    m = &m_made.emplace(exact_like(a, v, "modulus"));
  }
  const Batch* e = nb::isinstance<Batch>(exp) ? &nb::cast<const Batch&>(exp) : nullptr;
  if (!e) {
    nb::object v = int_operand(exp);
    if (!v.is_valid()) return not_implemented();
    if (sign_of(v) < 0) throw nb::value_error("mpgpu.Batch: pow() with a negative exponent (use batch.invert)");
    nb::object n = nb::steal(PyObject_CallMethod(v.ptr(), "bit_length", nullptr));
    if (!n.is_valid()) throw nb::python_error();
    e = &e_made.emplace(batch_full(a.count(), v, std::max<std::size_t>(1, nb::cast<std::size_t>(n)), a.context()));
  }
  return nb::cast(powm_fn(a, *e, *m, nb::none()));
}

nb::object equal(const Batch& a, nb::handle other, bool want) {
  if (!nb::isinstance<Batch>(other)) return not_implemented();
  const Batch& b = nb::cast<const Batch&>(other);
  if (a.count() != b.count() || a.bits() != b.bits()) return nb::bool_(!want);
  std::vector<bool> eq;
  run_batch([&] { eq = b.context() == a.context() ? equals(a, b) : equals(a, b.to_context(a.context())); });
  bool all = true;
  for (bool x : eq) all = all && x;
  return nb::bool_(all == want);
}

}  // namespace

void add_batch_operators(nb::class_<Batch>& c) {
  c.def("__add__", [](const Batch& a, nb::handle b) { return ring_op<f_add_ui, f_add>(a, b); }, nb::is_operator());
  c.def("__radd__", [](const Batch& a, nb::handle b) { return ring_op<f_add_ui, f_add>(a, b); }, nb::is_operator());
  c.def("__sub__", [](const Batch& a, nb::handle b) { return ring_op<f_sub_ui, f_sub>(a, b); }, nb::is_operator());
  c.def("__rsub__", [](const Batch& a, nb::handle b) {
    return batch_op<f_sub>(a, b, true);
  }, nb::is_operator());
  c.def("__mul__", [](const Batch& a, nb::handle b) { return ring_op<f_mul_ui, f_mul>(a, b); }, nb::is_operator());
  c.def("__rmul__", [](const Batch& a, nb::handle b) { return ring_op<f_mul_ui, f_mul>(a, b); }, nb::is_operator());
  c.def("__and__", [](const Batch& a, nb::handle b) { return batch_op<f_and>(a, b, false); }, nb::is_operator());
  c.def("__rand__", [](const Batch& a, nb::handle b) { return batch_op<f_and>(a, b, true); }, nb::is_operator());
  c.def("__or__", [](const Batch& a, nb::handle b) { return batch_op<f_ior>(a, b, false); }, nb::is_operator());
  c.def("__ror__", [](const Batch& a, nb::handle b) { return batch_op<f_ior>(a, b, true); }, nb::is_operator());
  c.def("__xor__", [](const Batch& a, nb::handle b) { return batch_op<f_xor>(a, b, false); }, nb::is_operator());
  c.def("__rxor__", [](const Batch& a, nb::handle b) { return batch_op<f_xor>(a, b, true); }, nb::is_operator());
  c.def("__floordiv__", [](const Batch& a, nb::handle b) { return divide(a, b, DivPart::quotient); }, nb::is_operator());
  c.def("__mod__", [](const Batch& a, nb::handle b) { return divide(a, b, DivPart::remainder); }, nb::is_operator());
  c.def("__divmod__", [](const Batch& a, nb::handle b) { return divide(a, b, DivPart::both); }, nb::is_operator());
  c.def("__rfloordiv__", [](const Batch& a, nb::handle b) { return rdivide(a, b, DivPart::quotient); }, nb::is_operator());
  c.def("__rmod__", [](const Batch& a, nb::handle b) { return rdivide(a, b, DivPart::remainder); }, nb::is_operator());
  c.def("__rdivmod__", [](const Batch& a, nb::handle b) { return rdivide(a, b, DivPart::both); }, nb::is_operator());
  c.def("__lshift__", [](const Batch& a, nb::handle n) { return shift_op(a, n, true); }, nb::is_operator());
  c.def("__rshift__", [](const Batch& a, nb::handle n) { return shift_op(a, n, false); }, nb::is_operator());
  c.def("__pow__", &power, nb::arg("exp"), nb::arg("mod").none() = nb::none(), nb::is_operator());
  c.def("__neg__", [](const Batch& a) {
    return binary<f_sub>(
        Batch(a.count(), a.bits(), a.context()), a);
  });
  c.def("__pos__", [](nb::handle self) { return nb::borrow(self); });
  c.def("__invert__", &unary<f_com>);
  c.def("__eq__", [](const Batch& a, nb::handle b) { return equal(a, b, true); }, nb::is_operator());
  c.def("__ne__", [](const Batch& a, nb::handle b) { return equal(a, b, false); }, nb::is_operator());
  c.attr("__hash__") = nb::none();        // mutable-looking containers compare by value: unhashable, as list
  c.attr("__array_ufunc__") = nb::none();  // numpy_array + batch raises TypeError instead of looping
}

void bind_batch_functions(nb::module_& m) {
  nb::module_ b = m.def_submodule("_batch", "The batch operations (mpgpu.batch): each returns new batches.");
  // Operands of one call share their count and context, and (unless said) their width.
  b.def("add", [](const Batch& a, const Batch& x, bool carry) { return add_or_sub(a, x, carry, false); },
        nb::arg("a"), nb::arg("b"), nb::kw_only(), nb::arg("carry") = false,
        "a + b mod 2**bits; with carry=True, (sum, carry) where carry is a 1-bit batch of the carries out.");
  b.def("sub", [](const Batch& a, const Batch& x, bool borrow) { return add_or_sub(a, x, borrow, true); },
        nb::arg("a"), nb::arg("b"), nb::kw_only(), nb::arg("borrow") = false,
        "a - b mod 2**bits; with borrow=True, (difference, borrow) where borrow is 1 where a < b.");
  b.def("add_ui", [](const Batch& a, nb::handle v) { return with_word<f_add_ui>(a, to_u64(v, "add_ui")); },
        nb::arg("a"), nb::arg("v"), "a + v mod 2**bits for 0 <= v < 2**64.");
  b.def("sub_ui", [](const Batch& a, nb::handle v) { return with_word<f_sub_ui>(a, to_u64(v, "sub_ui")); },
        nb::arg("a"), nb::arg("v"), "a - v mod 2**bits for 0 <= v < 2**64.");
  b.def("mul_ui", [](const Batch& a, nb::handle v) { return with_word<f_mul_ui>(a, to_u64(v, "mul_ui")); },
        nb::arg("a"), nb::arg("v"), "a * v mod 2**bits for 0 <= v < 2**64.");
  b.def("mul", &binary<f_mul>, nb::arg("a"), nb::arg("b"), "The low half: a * b mod 2**bits.");
  b.def("mul_high", &binary<f_mul_high>, nb::arg("a"), nb::arg("b"), "The high half: a * b // 2**bits.");
  b.def("mul_wide", &binary<f_mul_wide>, nb::arg("a"), nb::arg("b"), "The whole product, 2 * bits wide.");
  b.def("sqr", &unary<f_sqr>, nb::arg("a"), "a * a mod 2**bits.");
  b.def("and_", &binary<f_and>, nb::arg("a"), nb::arg("b"), "a & b.");
  b.def("ior", &binary<f_ior>, nb::arg("a"), nb::arg("b"), "a | b.");
  b.def("xor_", &binary<f_xor>, nb::arg("a"), nb::arg("b"), "a ^ b.");
  b.def("com", &unary<f_com>, nb::arg("a"), "~a within bits: 2**bits - 1 - a.");
  b.def("shift_left", [](const Batch& a, nb::handle n) { return with_count<f_shl>(a, count_arg(n, "shift_left")); },
        nb::arg("a"), nb::arg("count"), "a << count mod 2**bits (0 for count >= bits).");
  b.def("shift_right", [](const Batch& a, nb::handle n) { return with_count<f_shr>(a, count_arg(n, "shift_right")); },
        nb::arg("a"), nb::arg("count"), "a >> count (0 for count >= bits).");
  b.def("rotate_left", [](const Batch& a, nb::handle n) { return with_count<f_rotl>(a, count_arg(n, "rotate_left")); },
        nb::arg("a"), nb::arg("count"), "Rotation within bits, by count mod bits.");
  b.def("rotate_right",
        [](const Batch& a, nb::handle n) { return with_count<f_rotr>(a, count_arg(n, "rotate_right")); },
        nb::arg("a"), nb::arg("count"), "Rotation within bits, by count mod bits.");
  b.def("div_ui", [](const Batch& a, nb::handle d) { return with_word<f_div_ui>(a, to_u64(d, "div_ui")); },
        nb::arg("a"), nb::arg("d"), "a // d for 0 < d < 2**64.");
  b.def("rem_ui", [](const Batch& a, nb::handle d) { return with_word<f_rem_ui>(a, to_u64(d, "rem_ui")); },
        nb::arg("a"), nb::arg("d"), "a % d for 0 < d < 2**64 (as wide as a).");
  b.def("div_qr", &quot_rem<f_div_qr>, nb::arg("a"), nb::arg("b"), "(a // b, a % b); ZeroDivisionError for a zero b.");
  b.def("div", &binary<f_div>, nb::arg("a"), nb::arg("b"), "a // b.");
  b.def("rem", &binary<f_rem>, nb::arg("a"), nb::arg("b"), "a % b.");
  b.def("div_qr_wide", &quot_rem<f_div_qr_wide>, nb::arg("a"), nb::arg("b"),
        "a twice as wide as b: (a // b with a's width, a % b with b's).");
  b.def("div_wide", &binary<f_div_wide>, nb::arg("a"), nb::arg("b"), "a // b, a twice as wide as b.");
  b.def("rem_wide", &binary<f_rem_wide>, nb::arg("a"), nb::arg("b"), "a % b, a twice as wide as b.");
  b.def("gcd", &binary<f_gcd>, nb::arg("a"), nb::arg("b"), "gcd(a, b); gcd(a, 0) = a.");
  b.def("invert", &binary<f_invert>, nb::arg("a"), nb::arg("m"),
        "a**-1 mod m (any m > 0, also even); ValueError if some a has no inverse.");
  b.def("compare_signed",
        [](const Batch& a, const Batch& x) {
          std::vector<int> v;
          run_batch([&] { v = compare_signed(a, x); });
          return numpy_vector<std::int8_t>(v);
        },
        nb::arg("a"), nb::arg("b"), "Sign of a - b, as two's complement numbers (NumPy int8 array).");
  b.def("shift_right_arithmetic",
        [](const Batch& a, nb::handle n) { return with_count<f_sar>(a, count_arg(n, "shift_right_arithmetic")); },
        nb::arg("a"), nb::arg("count"), "a >> count as a two's complement number (the sign shifted in).");
  b.def("mul_high_signed", &binary<f_mul_high_signed>, nb::arg("a"), nb::arg("b"),
        "The high half of the two's complement product.");
  b.def("compare",
        [](const Batch& a, const Batch& x) {
          std::vector<int> v;
          run_batch([&] { v = compare(a, x); });
          return numpy_vector<std::int8_t>(v);
        },
        nb::arg("a"), nb::arg("b"), "Sign of a - b per instance (NumPy int8 array of -1, 0, 1).");
  b.def("equals",
        [](const Batch& a, const Batch& x) {
          std::vector<bool> v;
          run_batch([&] { v = equals(a, x); });
          return numpy_vector<bool>(v);
        },
        nb::arg("a"), nb::arg("b"), "a == b per instance (NumPy bool array).");
  b.def("popcount",
        [](const Batch& a) {
          std::vector<std::uint32_t> v;
          run_batch([&] { v = popcount(a); });
          return numpy_vector<std::uint32_t>(v);
        },
        nb::arg("a"), "Set bits per instance (NumPy uint32 array).");
  b.def("count_leading_zeros",
        [](const Batch& a) {
          std::vector<std::uint32_t> v;
          run_batch([&] { v = count_leading_zeros(a); });
          return numpy_vector<std::uint32_t>(v);
        },
        nb::arg("a"), "Leading zeros within bits per instance (bits for 0; NumPy uint32 array).");
  b.def("count_trailing_zeros",
        [](const Batch& a) {
          std::vector<std::uint32_t> v;
          run_batch([&] { v = count_trailing_zeros(a); });
          return numpy_vector<std::uint32_t>(v);
        },
        nb::arg("a"), "Trailing zeros per instance (bits for 0; NumPy uint32 array).");
  b.def("to_montgomery", &binary<f_to_mont>, nb::arg("a"), nb::arg("m"),
        "a * R mod m, R = 2**(64 * m.stride_limbs); m odd and > 1.");
  b.def("from_montgomery", &binary<f_from_mont>, nb::arg("a"), nb::arg("m"), "a / R mod m.");
  b.def("montgomery_mul", &ternary<f_mont_mul>, nb::arg("a"), nb::arg("b"), nb::arg("m"),
        "a * b / R mod m for a, b < m.");
  b.def("montgomery_sqr", &binary<f_mont_sqr>, nb::arg("a"), nb::arg("m"), "a * a / R mod m for a < m.");
  b.def("montgomery_reduce", &binary<f_mont_reduce>, nb::arg("a"), nb::arg("m"),
        "a / R mod m for a twice as wide as m (any value of that width).");
  b.def("powm", &powm_fn, nb::arg("base"), nb::arg("exp"), nb::arg("m"), nb::arg("window").none() = nb::none(),
        "base**exp mod m per instance (m odd and > 1; exp's width class at most m's);\n"
        "window None (the library's choice), 'fixed' or 'sliding'.");
}

}  // namespace mpgpu::py
