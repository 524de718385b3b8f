// Python's integer literal syntax for Integer(str, base), on top of
// Integer::from_string: the text is checked here (so that errors name the
// position in the caller's string, as Python would reject it), then its
// digits go to the library in one piece.
#include "common.hpp"

#include <string>

namespace mpgpu::py {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// The digit value of c in `base`, or -1: bases up to 36 take letters in
// either case (as Python); above, GMP's digits (A-Z = 10..35, a-z = 36..61).
int digit_value(char c, int base) {
  int v;
  if (c >= '0' && c <= '9') v = c - '0';
  else if (c >= 'A' && c <= 'Z') v = c - 'A' + 10;
  else if (c >= 'a' && c <= 'z') v = c - 'a' + (base <= 36 ? 10 : 36);
  else return -1;
  return v < base ? v : -1;
}

int prefix_base(char c) {
  switch (c) {
    case 'x': case 'X': return 16;
    case 'o': case 'O': return 8;
    case 'b': case 'B': return 2;
    default: return 0;
  }
}

[[noreturn]] void bad_literal(nb::handle original, int base, std::string_view why, std::size_t position) {
  // Python's own message first (the text's repr, cut at 200 characters), then where.
  nb::object shown = nb::borrow(original);
  if (PyUnicode_Check(original.ptr()) && PyUnicode_GetLength(original.ptr()) > 200)
    shown = nb::steal(PyUnicode_Substring(original.ptr(), 0, 200));
  nb::object repr = nb::steal(PyObject_Repr(shown.ptr()));
  std::string message = "invalid literal for int() with base " + std::to_string(base) + ": " +
                        (repr.is_valid() ? nb::cast<std::string>(repr) : std::string("?")) + " (" +
                        std::string(why) + " at position " + std::to_string(position) + ")";
  nb::object instance = nb::steal(PyObject_CallFunction(parse_error_class(), "s", message.c_str()));
  if (instance.is_valid()) {
    nb::setattr(instance, "position", nb::int_(position));
    PyErr_SetObject(parse_error_class(), instance.ptr());
  }
  throw nb::python_error();
}

}  // namespace

Integer parse_int_text(std::string_view text, int base, const Context& ctx, nb::handle original) {
  if (base != 0 && (base < 2 || base > 62)) throw nb::value_error("int() base must be >= 2 and <= 62, or 0");
  const int given_base = base;
  std::size_t i = 0, end = text.size();
  while (i < end && is_space(text[i])) ++i;
  while (end > i && is_space(text[end - 1])) --end;
  bool negative = false;
  if (i < end && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';

  bool prefixed = false;
  if (end - i >= 2 && text[i] == '0') {
    const int p = prefix_base(text[i + 1]);
    if (p != 0 && (base == 0 || base == p)) {
      base = p;
      prefixed = true;
      i += 2;
    }
  }
  const bool decimal_by_default = base == 0;
  if (base == 0) base = 10;

  // Digits with single underscores between them (or right after a prefix).
  const std::size_t digits_begin = i;
  bool has_underscore = false, all_zero = true;
  std::size_t ndigits = 0;
  for (std::size_t k = i; k < end; ++k) {
    const char c = text[k];
    if (c == '_') {
      const bool after_digit = k > digits_begin && text[k - 1] != '_';
      const bool after_prefix = prefixed && k == digits_begin;
      if (!(after_digit || after_prefix) || k + 1 == end) bad_literal(original, given_base, "misplaced '_'", k);
      has_underscore = true;
      continue;
    }
    const int v = digit_value(c, base);
    if (v < 0) {
      std::string why = "bad character '";
      why += c;
      why += "'";
      bad_literal(original, given_base, why, k);
    }
    all_zero = all_zero && v == 0;
    ++ndigits;
  }
  if (ndigits == 0) bad_literal(original, given_base, "no digits", end);
  // Base 0 without a prefix is decimal, and leading zeros are allowed only in zero itself.
  if (decimal_by_default && !prefixed && text[digits_begin] == '0' && !all_zero)
    bad_literal(original, given_base, "leading zero in a decimal literal", digits_begin);

  std::string_view digits = text.substr(digits_begin, end - digits_begin);
  std::string cleaned;
  if (has_underscore) {
    cleaned.reserve(ndigits);
    for (char c : digits)
      if (c != '_') cleaned.push_back(c);
    digits = cleaned;
  }
  Integer r = Integer::from_string(digits, base, ctx);
  if (negative) r.negate();
  return r;
}

}  // namespace mpgpu::py
