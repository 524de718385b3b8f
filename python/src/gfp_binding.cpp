// The big prime field FFT of include/mpgpu/gfp.hpp (gfp::DeviceFft) on
// NumPy, CuPy and PyTorch arrays (module mpgpu._mpgpu._gfp, re-exported
// with pure-Python helpers as mpgpu.gfp): forward and inverse transforms
// over Z/pZ, p = r^k + 1 (the table primes p3, p4, p5), of uint64 digit
// arrays in the library's digit-major layout, shape (..., k, N) with
// N = (2k)^e: a[..., d, i] is base-r digit d of element i. Each call
// returns a new array (Result: NumPy for host inputs, the inputs' framework
// for CUDA inputs) and never writes its input; the leading axes are a batch
// of transforms, one DeviceFft call each. The library does not check that
// elements are canonical, so this file does (on the host, or through the
// framework for CUDA arrays: mpgpu/_device_arrays.py).
#include "modp_arrays.hpp"

#include <mpgpu/gfp.hpp>

#include <string>

namespace mpgpu::py {
namespace {

using namespace nb::literals;

struct NamedPrime {
  const char* name;
  gfp::GfpPrime prime;
};
constexpr NamedPrime kPrimes[] = {{"p3", gfp::p3}, {"p4", gfp::p4}, {"p5", gfp::p5}};

/// r^k + 1 as a Python int.
nb::object modulus_of(const gfp::GfpPrime& q) {
  nb::object r = nb::int_(q.radix());
  nb::object k = nb::int_(q.k);
  nb::object rk = nb::steal(PyNumber_Power(r.ptr(), k.ptr(), Py_None));
  if (!rk.is_valid()) throw nb::python_error();
  nb::object one = nb::int_(1);
  nb::object p = nb::steal(PyNumber_Add(rk.ptr(), one.ptr()));
  if (!p.is_valid()) throw nb::python_error();
  return p;
}

/// The prime argument: a table name ("p3", "p4", "p5") or the prime itself
/// (an int, or anything with __index__).
const NamedPrime& prime_arg(nb::handle obj, const char* fn) {
  if (PyUnicode_Check(obj.ptr())) {
    const std::string name = py_str(obj);
    for (const NamedPrime& q : kPrimes)
      if (name == q.name) return q;
    raise_value(std::string(fn) + ": prime must be 'p3', 'p4', 'p5' or one of those primes, not '" + name + "'");
  }
  if (!PyIndex_Check(obj.ptr()))
    raise_type(std::string(fn) + ": prime must be 'p3', 'p4', 'p5' or the int p = r**k + 1, not '" +
               Py_TYPE(obj.ptr())->tp_name + "'");
  nb::object value = nb::steal(PyNumber_Index(obj.ptr()));
  if (!value.is_valid()) throw nb::python_error();
  for (const NamedPrime& q : kPrimes) {
    const int eq = PyObject_RichCompareBool(value.ptr(), modulus_of(q.prime).ptr(), Py_EQ);
    if (eq < 0) throw nb::python_error();
    if (eq) return q;
  }
  raise_value(std::string(fn) + ": the FFT is built for the table primes p3, p4 and p5 (mpgpu.gfp.PRIMES); " +
              "p = " + py_str(value).substr(0, 40) + "... is not one of them");
}

/// "a[2][:, 5]": element i of row `row` of an array `name` of shape (..., k, N).
std::string element_text(const ArrayIn& a, const char* name, std::size_t row, std::size_t i) {
  std::string lead;
  for (std::size_t ax = a.ndim() - 2; ax-- > 0;) {
    lead = "[" + std::to_string(row % a.shape[ax]) + "]" + lead;
    row /= a.shape[ax];
  }
  return name + lead + "[:, " + std::to_string(i) + "]";
}

[[noreturn]] void raise_noncanonical(const char* fn, const std::string& where, std::uint64_t r) {
  raise_value(std::string(fn) + ": " + where + " is not a canonical element: its digits must all be below r = " +
              std::to_string(r) + ", except p - 1 = r**k, which is digit k-1 = r and the others 0 " +
              "(mpgpu.gfp.to_digits makes them)");
}

/// ValueError naming the first element of `a` (C-contiguous, shape (..., k,
/// N)) that is not canonical (gfp::Field::is_canonical): on the host by a
/// scan, on the device through the array's framework.
void require_canonical(const ArrayIn& a, const gfp::GfpPrime& q, const char* fn, const char* name = "a") {
  if (a.size() == 0) return;
  const std::size_t k = static_cast<std::size_t>(q.k), n = a.shape.back();
  const std::size_t rows = a.size() / (k * n);
  const std::uint64_t r = q.radix();
  if (a.on_device) {
    nb::object bad = nb::module_::import_("mpgpu._device_arrays").attr("gfp_first_noncanonical")(a.object, r);
    if (!bad.is_none()) {
      const std::size_t flat = nb::cast<std::size_t>(bad);
      raise_noncanonical(fn, element_text(a, name, flat / n, flat % n), r);
    }
    return;
  }
  const auto* words = static_cast<const std::uint64_t*>(a.data());
  std::size_t bad_row = 0, bad_i = 0;
  bool found = false;
  {
    nb::gil_scoped_release release;
    for (std::size_t row = 0; row < rows && !found; ++row) {
      const std::uint64_t* x = words + row * k * n;
      for (std::size_t i = 0; i < n && !found; ++i) {
        bool ok = true, low_zero = true;
        for (std::size_t d = 0; d + 1 < k; ++d) {
          ok = ok && x[d * n + i] < r;
          low_zero = low_zero && x[d * n + i] == 0;
        }
        const std::uint64_t top = x[(k - 1) * n + i];
        ok = ok && (top < r || (top == r && low_zero));
        if (!ok) bad_row = row, bad_i = i, found = true;
      }
    }
  }
  if (found) raise_noncanonical(fn, element_text(a, name, bad_row, bad_i), r);
}

/// ValueError unless `a` has shape (..., k, N) for the prime.
void require_digit_rows(const ArrayIn& a, const NamedPrime& named, const char* fn, const char* name) {
  const std::size_t k = static_cast<std::size_t>(named.prime.k);
  if (a.ndim() < 2 || a.shape[a.ndim() - 2] != k)
    raise_value(std::string(fn) + ": " + name + " must have shape (..., " + std::to_string(k) + ", N) for " +
                named.name + " (k = " + std::to_string(k) +
                " base-r digits of each of the N elements, digit-major), not " + a.shape_text());
}

nb::object transform(nb::handle a_obj, nb::handle prime_obj, nb::handle context, bool forward) {
  const char* fn = forward ? "mpgpu.gfp.forward" : "mpgpu.gfp.inverse";
  const Context ctx = context_arg(context);
  const NamedPrime& named = prime_arg(prime_obj, fn);
  const gfp::GfpPrime& q = named.prime;
  const ArrayIn a = array_arg(a_obj, fn, "a", {Word::u64}, ctx);
  const std::size_t k = static_cast<std::size_t>(q.k), big_k = 2 * k;
  require_digit_rows(a, named, fn, "a");
  const std::size_t n = a.shape.back();
  int e = 0;
  std::size_t size = 1;
  while (size < n && size <= (std::size_t{1} << 40) / big_k) size *= big_k, ++e;
  if (e == 0 || size != n)
    raise_value(std::string(fn) + ": the last axis has length " + std::to_string(n) + ", not a power (2k)**e = " +
                std::to_string(big_k) + "**e with e >= 1 (a of shape " + a.shape_text() + ")");
  require_contiguous(a, fn, "a");
  require_canonical(a, q, fn);
  Result<std::uint64_t> out(ctx, a, a.shape, fn, /*copy_of_like=*/true);  // the transforms run in place on the copy
  const std::size_t rows = a.size() / (k * n);
  without_gil([&] {
    const gfp::DeviceFft fft(ctx, q, e);  // omega, its N powers (on the device on a CUDA context), N^-1
    std::uint64_t* data = out.data();
    for (std::size_t row = 0; row < rows; ++row) {
      if (forward) fft.forward(data + row * k * n);
      else fft.inverse(data + row * k * n);
    }
    out.finish();
  });
  return out.array;
}

nb::object pointwise_mul(nb::handle a_obj, nb::handle b_obj, nb::handle prime_obj, nb::handle context) {
  const char* fn = "mpgpu.gfp.pointwise_mul";
  const Context ctx = context_arg(context);
  const NamedPrime& named = prime_arg(prime_obj, fn);
  const gfp::GfpPrime& q = named.prime;
  const ArrayIn a = array_arg(a_obj, fn, "a", {Word::u64}, ctx);
  const ArrayIn b = array_arg(b_obj, fn, "b", {Word::u64}, ctx);
  require_same_memory(a, b, fn, "a", "b");
  require_digit_rows(a, named, fn, "a");
  if (a.shape != b.shape)
    raise_value(std::string(fn) + ": a and b have different shapes " + a.shape_text() + " and " + b.shape_text());
  require_contiguous(a, fn, "a");
  require_contiguous(b, fn, "b");
  require_canonical(a, q, fn, "a");
  require_canonical(b, q, fn, "b");
  Result<std::uint64_t> out(ctx, a, a.shape, fn);
  const std::size_t row = static_cast<std::size_t>(q.k) * a.shape.back(), rows = row ? a.size() / row : 0;
  without_gil([&] {
    ContextWords da(ctx, a, a.size() * 8), db(ctx, b, a.size() * 8);
    const auto* pa = static_cast<const std::uint64_t*>(da.data());
    const auto* pb = static_cast<const std::uint64_t*>(db.data());
    for (std::size_t i = 0; i < rows; ++i)  // each row is its own digit-major block of N elements
      gfp::pointwise_mul(ctx, q, out.data() + i * row, pa + i * row, pb + i * row, a.shape.back());
    out.finish();
  });
  return out.array;
}

}  // namespace

void bind_gfp(nb::module_& m) {
  nb::module_ t = m.def_submodule("_gfp", "The big prime field FFT (mpgpu.gfp).");
  nb::list primes;
  for (const NamedPrime& q : kPrimes)
    primes.append(nb::make_tuple(q.name, nb::int_(q.prime.radix()), q.prime.k));
  t.attr("_TABLE") = nb::tuple(primes);  // (name, r, k): mpgpu/gfp.py builds PRIMES from it
  t.def(
      "forward",
      [](nb::handle a, nb::handle prime, nb::handle context) { return transform(a, prime, context, true); },
      "a"_a.none(), "prime"_a.none(), nb::kw_only(), "context"_a = nb::none(),
      "The FFT over Z/pZ, p = r**k + 1, of the N elements of a, as a new array: X[m] = sum_n x[n] *\n"
      "omega**(n*m) with the library's primitive N-th root omega (omega**(N/(2k)) = r). prime: 'p3',\n"
      "'p4', 'p5' or that prime (mpgpu.gfp.PRIMES). a: uint64 digits, shape (..., k, N), digit-major:\n"
      "a[..., d, i] is base-r digit d of element i (mpgpu.gfp.to_digits); N = (2k)**e, e >= 1; the\n"
      "leading axes are a batch of transforms. Elements must be canonical (ValueError otherwise).");
  t.def(
      "inverse",
      [](nb::handle a, nb::handle prime, nb::handle context) { return transform(a, prime, context, false); },
      "a"_a.none(), "prime"_a.none(), nb::kw_only(), "context"_a = nb::none(),
      "The inverse of forward(): x[n] = N**-1 * sum_m X[m] * omega**(-n*m) mod p, as a new array of\n"
      "the same layout.");
  t.def("pointwise_mul", &pointwise_mul, "a"_a.none(), "b"_a.none(), "prime"_a.none(), nb::kw_only(),
        "context"_a = nb::none(),
        "a * b mod p element by element, as a new array: a and b of one shape (..., k, N), digit-major\n"
        "as for forward() (any N), canonical elements (ValueError otherwise). The step between forward()\n"
        "and inverse() of a cyclic convolution.");
}

}  // namespace mpgpu::py
