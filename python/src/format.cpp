// Integer -> text and bytes, and bytes -> Integer, with int's conventions:
// format() specs, int.to_bytes / int.from_bytes (lengths, byte orders,
// two's complement for signed=True, the same errors).
#include "common.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>

namespace mpgpu::py {
namespace {

Endian byte_order(std::string_view byteorder) {
  if (byteorder == "little") return Endian::little;
  if (byteorder == "big") return Endian::big;
  throw nb::value_error("byteorder must be either 'little' or 'big'");
}

[[noreturn]] void overflow(const char* message) {
  PyErr_SetString(PyExc_OverflowError, message);
  throw nb::python_error();
}

}  // namespace

nb::object format_integer(const Integer& x, std::string_view spec) {
  // The fast forms: [sign][#][type] with type one of d x X o b (or none).
  std::size_t k = 0;
  char sign = '-';
  if (k < spec.size() && (spec[k] == '+' || spec[k] == '-' || spec[k] == ' ')) sign = spec[k++];
  const bool alternate = k < spec.size() && spec[k] == '#';
  if (alternate) ++k;
  char type = 'd';
  if (k < spec.size()) type = spec[k++];
  const bool fast = k == spec.size() && std::strchr("dxXob", type) != nullptr;
  if (!fast) {  // fill, alignment, width, grouping, 'n', 'c', float types: Python's int does it
    nb::object value = pylong_from_integer(x);
    nb::object s = nb::steal(PyObject_Format(value.ptr(), nb::str(spec.data(), spec.size()).ptr()));
    if (!s.is_valid()) throw nb::python_error();
    return s;
  }
  const int base = type == 'd' ? 10 : (type == 'o' ? 8 : (type == 'b' ? 2 : 16));
  std::string digits = x.to_string(base);
  std::string out;
  out.reserve(digits.size() + 3);
  std::string_view magnitude = digits;
  if (!magnitude.empty() && magnitude[0] == '-') {
    out.push_back('-');
    magnitude.remove_prefix(1);
  } else if (sign != '-') {
    out.push_back(sign);
  }
  if (alternate && type != 'd') {
    out.push_back('0');
    out.push_back(type == 'X' ? 'X' : type);
  }
  const std::size_t start = out.size();
  out.append(magnitude);
  if (type == 'X')
    std::transform(out.begin() + static_cast<std::ptrdiff_t>(start), out.end(), out.begin() + static_cast<std::ptrdiff_t>(start),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  else if (type == 'x')
    std::transform(out.begin() + static_cast<std::ptrdiff_t>(start), out.end(), out.begin() + static_cast<std::ptrdiff_t>(start),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return nb::str(out.data(), out.size());
}

nb::bytes integer_to_bytes(const Integer& x, std::size_t length, std::string_view byteorder, bool is_signed) {
  const Endian order = byte_order(byteorder);
  const int sign = x.sign();
  if (sign < 0 && !is_signed) overflow("can't convert negative int to unsigned");
  const std::vector<std::uint8_t> magnitude = x.to_bytes(Endian::little);
  // CPython writes -1 into zero bytes when signed (all its sign bits are implicit).
  if (length == 0 && is_signed && sign < 0 && magnitude.size() == 1 && magnitude[0] == 1) return nb::bytes("", 0);
  if (magnitude.size() > length) overflow("int too big to convert");
  std::string out(length, '\0');  // little-endian first, reversed at the end for "big"
  std::memcpy(out.data(), magnitude.data(), magnitude.size());
  if (sign < 0) {  // 2^(8 length) - |x|: invert, add one
    bool carry = true;
    for (char& c : out) {
      const unsigned v = static_cast<unsigned char>(~static_cast<unsigned char>(c)) + (carry ? 1u : 0u);
      c = static_cast<char>(v & 0xff);
      carry = v > 0xff;
    }
  }
  if (is_signed && length > 0) {
    // The top bit must be the sign: x < 2^(8 length - 1) and x >= -2^(8 length - 1).
    const bool top = (static_cast<unsigned char>(out[length - 1]) & 0x80) != 0;
    if (sign != 0 && top != (sign < 0)) overflow("int too big to convert");
  } else if (is_signed && sign != 0) {
    overflow("int too big to convert");
  }
  if (order == Endian::big) std::reverse(out.begin(), out.end());
  return nb::bytes(out.data(), out.size());
}

Integer integer_from_bytes(nb::handle data, std::string_view byteorder, bool is_signed, const Context& ctx) {
  const Endian order = byte_order(byteorder);
  nb::object holder = nb::borrow(data);
  if (!PyObject_CheckBuffer(data.ptr())) {  // an iterable of small ints, as int.from_bytes takes
    holder = nb::steal(PyBytes_FromObject(data.ptr()));
    if (!holder.is_valid()) throw nb::python_error();
  }
  Py_buffer view;
  if (PyObject_GetBuffer(holder.ptr(), &view, PyBUF_SIMPLE) != 0) throw nb::python_error();
  struct Release {
    Py_buffer* v;
    ~Release() { PyBuffer_Release(v); }
  } release{&view};
  const auto* bytes = static_cast<const std::uint8_t*>(view.buf);
  const std::size_t n = static_cast<std::size_t>(view.len);
  Integer r = Integer::from_bytes(bytes, n, order, ctx);
  if (is_signed && n > 0) {
    const std::uint8_t top = order == Endian::big ? bytes[0] : bytes[n - 1];
    if (top & 0x80) r -= Integer::power_of_two(8 * n, ctx);
  }
  return r;
}

}  // namespace mpgpu::py
