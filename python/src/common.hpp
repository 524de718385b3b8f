// Shared declarations of the Python module's translation units: the
// conversions between Python objects and mpgpu::Integer, the current
// context, and the binding entry points that module.cpp calls.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/tuple.h>

#include <mpgpu/mpgpu.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nb = nanobind;

namespace mpgpu::py {

// ---- contexts (context_binding.cpp) -------------------------------------------------
/// The context new values go to: the innermost `with mpgpu.context(...)` of
/// the running thread or task (a contextvars.ContextVar), else the default.
Context current_context();
/// The one Context of "cpu" or "cuda:N" ("auto" and "cuda" resolved first):
/// Python code sees one context per device, so values made through separate
/// mpgpu.Context("cpu") objects mix freely.
const Context& interned_context(std::string_view spec);
/// `context=None` means the current context; a Context or its spec otherwise.
Context context_arg(nb::handle context);

// ---- Python int <-> Integer (pyint.cpp) ----------------------------------------------
/// A Python int (exactly an int or a subclass) as an Integer of `ctx`: one
/// bulk copy of the int's bytes into limbs, no digit-by-digit work.
Integer integer_from_pylong(PyObject* value, const Context& ctx);
/// The Python int equal to `x` (one bulk conversion).
nb::object pylong_from_integer(const Integer& x);

/// An operand of an operation: an Integer as it is, or an int (or anything
/// with __index__, e.g. gmpy2.mpz) converted into `ctx`.
struct Operand {
  const Integer* borrowed = nullptr;  // an Integer object's own value
  std::optional<Integer> owned;       // or a converted one (moves with the Operand)
  const Integer& get() const { return owned ? *owned : *borrowed; }
};
/// False (and no Python error set) when `h` is not an integer of any kind.
bool load_operand(nb::handle h, const Context& ctx, Operand& out);
/// As load_operand, but raises TypeError for a non-integer.
Operand require_operand(nb::handle h, const Context& ctx, const char* function);
/// The Integer held by a Python object of type mpgpu.Integer, or nullptr.
const Integer* as_integer(nb::handle h);
/// A non-negative machine word from an int-like object: OverflowError for a
/// negative value or one above 2^64 - 1, TypeError for a non-integer.
std::uint64_t to_u64(nb::handle h, const char* function);
/// A Python int as `n` limbs of two's complement (is_signed) or of an
/// unsigned value, least significant first: false (no Python error set) when
/// it does not fit in n * 64 bits that way, or is negative and !is_signed.
/// `value` must be an int (PyLong_Check).
bool pylong_to_limbs(PyObject* value, limb_t* out, std::size_t n, bool is_signed);
/// The Python int of `n` limbs, read as unsigned or as two's complement.
nb::object pylong_from_limbs(const limb_t* limbs, std::size_t n, bool is_signed);
/// A Python object owning `x`.
inline nb::object wrap(Integer&& x) { return nb::cast(std::move(x)); }

/// str(h) as UTF-8, for error messages; a Python error propagates.
inline std::string py_str(nb::handle h) {
  nb::object s = nb::steal(PyObject_Str(h.ptr()));
  if (!s.is_valid()) throw nb::python_error();
  const char* text = PyUnicode_AsUTF8(s.ptr());
  if (!text) throw nb::python_error();
  return text;
}

// ---- text (parse.cpp, format.cpp) ----------------------------------------------------
/// Python's int(text, base) syntax: whitespace around, a sign, 0x/0o/0b
/// prefixes (base 0, or the matching base), single underscores between
/// digits or after a prefix. Bases 2..36 and 0 as Python, and 37..62 with
/// GMP's digits. Raises mpgpu.ParseError (a ValueError) with the position.
Integer parse_int_text(std::string_view text, int base, const Context& ctx, nb::handle original);
/// format(x, spec): the types d, x, X, o, b (and none), the sign and '#'
/// directly from the integer; anything else through format(int(x), spec).
nb::object format_integer(const Integer& x, std::string_view spec);
nb::bytes integer_to_bytes(const Integer& x, std::size_t length, std::string_view byteorder, bool is_signed);
Integer integer_from_bytes(nb::handle data, std::string_view byteorder, bool is_signed, const Context& ctx);

// ---- bindings -------------------------------------------------------------------------
void register_errors(nb::module_& m);
/// mpgpu.ParseError (a ValueError subclass), for parse.cpp's own messages.
PyObject* parse_error_class();
void bind_context(nb::module_& m);
void bind_integer(nb::module_& m);
void bind_functions(nb::module_& m);
/// mpgpu.Batch (batch_binding.cpp) and the submodule of batch functions,
/// `_mpgpu._batch` (batch_functions.cpp, with Batch's operators).
void bind_batch(nb::module_& m);
void bind_batch_functions(nb::module_& m);
/// The submodules of products mod p on NumPy arrays: `_mpgpu._ntt` (ntt_binding.cpp,
/// mpgpu.ntt), `_mpgpu._dot` (dot_binding.cpp, mpgpu.dot) and `_mpgpu._gfp`
/// (gfp_binding.cpp, mpgpu.gfp: the big prime field FFT).
void bind_ntt(nb::module_& m);
void bind_dot(nb::module_& m);
void bind_gfp(nb::module_& m);

}  // namespace mpgpu::py
