// The public dot and matrix products mod p of include/mpgpu/dot.hpp on NumPy,
// CuPy and PyTorch arrays (module mpgpu._mpgpu._dot, re-exported as
// mpgpu.dot): dot (1-D, any positive strides), dot_batched (rows of two 2-D
// arrays), matmul and matvec (row-major, rows may be strided), with the
// library's methods by name. The library checks the elements (a value >= p,
// or a negative, fractional or NaN double, is a ValueError naming it) before
// writing. CUDA arrays are computed on where they are, into results of
// their framework (Result, modp_results.cpp).
#include "modp_arrays.hpp"

#include <mpgpu/dot.hpp>

#include <limits>
#include <string>

namespace mpgpu::py {
namespace {

using namespace nb::literals;
using dot::Method;
using dot::Residue;

constexpr Method kMethods[] = {Method::integer_delayed, Method::fp_naive, Method::fp_lambda, Method::fp_abcd,
                               Method::automatic};

Method method_arg(std::string_view name, const char* fn) {
  for (Method m : kMethods)
    if (name == dot::method_name(m)) return m;
  raise_value(std::string(fn) + ": method must be 'automatic', 'integer_delayed', 'fp_naive', 'fp_lambda' or "
                                "'fp_abcd', not '" + std::string(name) + "'");
}


Residue residue_arg(nb::handle dtype, const char* fn) {
  nb::object name = nb::module_::import_("numpy").attr("dtype")(dtype).attr("name");
  const std::string s = nb::cast<std::string>(name);
  if (s == "uint32") return Residue::u32;
  if (s == "uint64") return Residue::u64;
  if (s == "float64") return Residue::f64;
  raise_type(std::string(fn) + ": dtype must be uint32, uint64 or float64, not " + s);
}

/// One dtype, and both in host memory or both on the device.
void same_word(const ArrayIn& a, const ArrayIn& b, const char* fn, const char* an, const char* bn) {
  require_same_memory(a, b, fn, an, bn);
  if (a.word != b.word)
    raise_type(std::string(fn) + ": " + an + " and " + bn + " must have the same dtype, not " + word_name(a.word) +
               " and " + word_name(b.word));
}

/// Elements from the first to one past the last of a 1-D strided array.
std::size_t span_1d(std::size_t n, std::size_t stride) { return n ? (n - 1) * stride + 1 : 0; }

/// A positive stride in elements (a 1-D operand of dot) whose span, in
/// bytes, fits the address space.
std::size_t stride_arg(const ArrayIn& a, const char* fn, const char* name) {
  if (a.shape[0] <= 1) return 1;
  if (a.strides[0] < 1)
    raise_value(std::string(fn) + ": " + name + " has stride " + std::to_string(a.strides[0]) +
                " (elements); dot takes positive strides: pass " + a.contiguous_hint(name));
  const auto stride = static_cast<std::size_t>(a.strides[0]);
  if (stride > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max()) / word_size(a.word) /
                   (a.shape[0] - 1))
    raise_value(std::string(fn) + ": " + name + " has stride " + std::to_string(stride) + " elements: " +
                std::to_string(a.shape[0]) + " elements that far apart do not fit in memory");
  return stride;
}

/// The leading dimension of a row-major 2-D operand (rows contiguous, row
/// stride >= columns), else a ValueError.
std::size_t leading_dim(const ArrayIn& a, const char* fn, const char* name) {
  const std::size_t rows = a.shape[0], cols = a.shape[1];
  if (cols > 1 && a.strides[1] != 1)
    raise_value(std::string(fn) + ": the rows of " + name + " are not contiguous (column stride " +
                std::to_string(a.strides[1]) + " elements); pass " + a.contiguous_hint(name));
  if (rows <= 1 || cols == 0) return cols;
  if (a.strides[0] < static_cast<std::int64_t>(cols))
    raise_value(std::string(fn) + ": " + name + " has row stride " + std::to_string(a.strides[0]) +
                " elements, below its " + std::to_string(cols) + " columns; pass " + a.contiguous_hint(name));
  return static_cast<std::size_t>(a.strides[0]);
}

template <class T>
std::uint64_t dot_words(const Context& ctx, const ArrayIn& a, std::size_t sa, const ArrayIn& b, std::size_t sb,
                        std::size_t n, std::uint64_t p, Method m) {
  std::uint64_t r = 0;
  without_gil([&] {
    ContextWords da(ctx, a, span_1d(n, sa) * sizeof(T)), db(ctx, b, span_1d(n, sb) * sizeof(T));
    const auto* pa = static_cast<const T*>(da.data());
    const auto* pb = static_cast<const T*>(db.data());
    r = sa == 1 && sb == 1 ? dot::dot(ctx, pa, pb, n, p, m) : dot::dot_strided(ctx, pa, sa, pb, sb, n, p, m);
  });
  return r;
}

std::uint64_t dot_fn(nb::handle a_obj, nb::handle b_obj, nb::handle p_obj, std::string_view method,
                     nb::handle context) {
  const char* fn = "mpgpu.dot.dot";
  const Context ctx = context_arg(context);
  const ArrayIn a = array_arg(a_obj, fn, "a", {Word::u64, Word::u32, Word::f64}, ctx);
  const ArrayIn b = array_arg(b_obj, fn, "b", {Word::u64, Word::u32, Word::f64}, ctx);
  same_word(a, b, fn, "a", "b");
  const Method m = method_arg(method, fn);
  if (a.ndim() != 1 || b.ndim() != 1)
    raise_value(std::string(fn) + ": a and b must be 1-D, not of shapes " + a.shape_text() + " and " +
                b.shape_text() + " (dot_batched takes rows of 2-D arrays)");
  if (a.shape[0] != b.shape[0])
    raise_value(std::string(fn) + ": a and b have different lengths " + std::to_string(a.shape[0]) + " and " +
                std::to_string(b.shape[0]));
  const std::uint64_t p = modulus_arg(p_obj, fn);
  const std::size_t n = a.shape[0], sa = stride_arg(a, fn, "a"), sb = stride_arg(b, fn, "b");
  switch (a.word) {
    case Word::u32: return dot_words<std::uint32_t>(ctx, a, sa, b, sb, n, p, m);
    case Word::u64: return dot_words<std::uint64_t>(ctx, a, sa, b, sb, n, p, m);
    case Word::f64: return dot_words<double>(ctx, a, sa, b, sb, n, p, m);
  }
  return 0;
}

template <class T>
nb::object dot_batched_words(const Context& ctx, const ArrayIn& a, const ArrayIn& b, std::uint64_t p, Method m,
                             const char* fn) {
  const std::size_t count = a.shape[0], n = a.shape[1];
  Result<std::uint64_t> out(ctx, a, {count}, fn);
  without_gil([&] {
    ContextWords da(ctx, a, count * n * sizeof(T)), db(ctx, b, count * n * sizeof(T));
    dot::dot_batched(ctx, out.data(), static_cast<const T*>(da.data()), static_cast<const T*>(db.data()), count, n, p,
                     m);
    out.finish();
  });
  return out.array;
}

nb::object dot_batched_fn(nb::handle a_obj, nb::handle b_obj, nb::handle p_obj, std::string_view method,
                          nb::handle context) {
  const char* fn = "mpgpu.dot.dot_batched";
  const Context ctx = context_arg(context);
  const ArrayIn a = array_arg(a_obj, fn, "a", {Word::u64, Word::u32, Word::f64}, ctx);
  const ArrayIn b = array_arg(b_obj, fn, "b", {Word::u64, Word::u32, Word::f64}, ctx);
  same_word(a, b, fn, "a", "b");
  const Method m = method_arg(method, fn);
  if (a.ndim() != 2 || a.shape != b.shape)
    raise_value(std::string(fn) + ": a and b must be 2-D of one shape (count, n), not " + a.shape_text() + " and " +
                b.shape_text());
  require_contiguous(a, fn, "a");
  require_contiguous(b, fn, "b");
  const std::uint64_t p = modulus_arg(p_obj, fn);
  switch (a.word) {
    case Word::u32: return dot_batched_words<std::uint32_t>(ctx, a, b, p, m, fn);
    case Word::u64: return dot_batched_words<std::uint64_t>(ctx, a, b, p, m, fn);
    case Word::f64: return dot_batched_words<double>(ctx, a, b, p, m, fn);
  }
  return nb::none();
}

/// Elements from the first to one past the last of a rows x cols matrix with leading dimension ld.
std::size_t span_2d(std::size_t rows, std::size_t ld, std::size_t cols) {
  return rows && cols ? (rows - 1) * ld + cols : 0;
}

template <class T>
nb::object matmul_words(const Context& ctx, const ArrayIn& A, std::size_t lda, const ArrayIn& B, std::size_t ldb,
                        std::uint64_t p, Method method, const char* fn) {
  const std::size_t m = A.shape[0], k = A.shape[1], n = B.shape[1];
  Result<T> C(ctx, A, {m, n}, fn);
  without_gil([&] {
    ContextWords dA(ctx, A, span_2d(m, lda, k) * sizeof(T)), dB(ctx, B, span_2d(k, ldb, n) * sizeof(T));
    dot::matmul(ctx, C.data(), n, static_cast<const T*>(dA.data()), lda, static_cast<const T*>(dB.data()), ldb, m, n,
                k, p, method);
    C.finish();
  });
  return C.array;
}

nb::object matmul_fn(nb::handle a_obj, nb::handle b_obj, nb::handle p_obj, std::string_view method,
                     nb::handle context) {
  const char* fn = "mpgpu.dot.matmul";
  const Context ctx = context_arg(context);
  const ArrayIn A = array_arg(a_obj, fn, "A", {Word::u64, Word::f64}, ctx);
  const ArrayIn B = array_arg(b_obj, fn, "B", {Word::u64, Word::f64}, ctx);
  same_word(A, B, fn, "A", "B");
  const Method m = method_arg(method, fn);
  if (A.ndim() != 2 || B.ndim() != 2)
    raise_value(std::string(fn) + ": A and B must be 2-D, not of shapes " + A.shape_text() + " and " +
                B.shape_text() + " (matvec takes a vector)");
  if (A.shape[1] != B.shape[0])
    raise_value(std::string(fn) + ": shapes " + A.shape_text() + " and " + B.shape_text() +
                " do not match (A's columns must be B's rows)");
  const std::size_t lda = leading_dim(A, fn, "A"), ldb = leading_dim(B, fn, "B");
  const std::uint64_t p = modulus_arg(p_obj, fn);
  return A.word == Word::u64 ? matmul_words<std::uint64_t>(ctx, A, lda, B, ldb, p, m, fn)
                             : matmul_words<double>(ctx, A, lda, B, ldb, p, m, fn);
}

template <class T>
nb::object matvec_words(const Context& ctx, const ArrayIn& A, std::size_t lda, const ArrayIn& x, std::uint64_t p,
                        Method method, const char* fn) {
  const std::size_t m = A.shape[0], k = A.shape[1];
  Result<T> y(ctx, A, {m}, fn);
  without_gil([&] {
    ContextWords dA(ctx, A, span_2d(m, lda, k) * sizeof(T)), dx(ctx, x, k * sizeof(T));
    dot::matvec(ctx, y.data(), static_cast<const T*>(dA.data()), lda, static_cast<const T*>(dx.data()), m, k, p,
                method);
    y.finish();
  });
  return y.array;
}

nb::object matvec_fn(nb::handle a_obj, nb::handle x_obj, nb::handle p_obj, std::string_view method,
                     nb::handle context) {
  const char* fn = "mpgpu.dot.matvec";
  const Context ctx = context_arg(context);
  const ArrayIn A = array_arg(a_obj, fn, "A", {Word::u64, Word::f64}, ctx);
  const ArrayIn x = array_arg(x_obj, fn, "x", {Word::u64, Word::f64}, ctx);
  same_word(A, x, fn, "A", "x");
  const Method m = method_arg(method, fn);
  if (A.ndim() != 2 || x.ndim() != 1)
    raise_value(std::string(fn) + ": A must be 2-D and x 1-D, not of shapes " + A.shape_text() + " and " +
                x.shape_text());
  if (A.shape[1] != x.shape[0])
    raise_value(std::string(fn) + ": shapes " + A.shape_text() + " and " + x.shape_text() +
                " do not match (A's columns must be x's length)");
  const std::size_t lda = leading_dim(A, fn, "A");
  require_contiguous(x, fn, "x");
  const std::uint64_t p = modulus_arg(p_obj, fn);
  return A.word == Word::u64 ? matvec_words<std::uint64_t>(ctx, A, lda, x, p, m, fn)
                             : matvec_words<double>(ctx, A, lda, x, p, m, fn);
}

}  // namespace

void bind_dot(nb::module_& m) {
  nb::module_ d = m.def_submodule("_dot", "Dot and matrix products mod p (mpgpu.dot).");
  nb::list names;
  for (Method mt : kMethods) names.append(dot::method_name(mt));
  d.attr("METHODS") = nb::tuple(names);
  d.attr("MAX_LENGTH") = nb::int_(dot::max_length);
  d.attr("ABCD_MAX_LENGTH") = nb::int_(dot::abcd_max_length);
  d.def("dot", &dot_fn, "a"_a.none(), "b"_a.none(), "p"_a.none(), nb::kw_only(), "method"_a = "automatic", "context"_a = nb::none(),
        "sum(a[i] * b[i]) mod p as an int, exactly: 1-D arrays of one length (any positive strides) and one\n"
        "dtype, uint32, uint64 or float64 (integral values), every value in [0, p). method: 'automatic' (the\n"
        "fastest admissible), 'integer_delayed', 'fp_naive', 'fp_lambda' or 'fp_abcd' (docs/dot.md gives\n"
        "their bounds on p and n; a method that does not take them is a ValueError). n <= 2**31.");
  d.def("dot_batched", &dot_batched_fn, "a"_a.none(), "b"_a.none(), "p"_a.none(), nb::kw_only(), "method"_a = "automatic",
        "context"_a = nb::none(),
        "The dot product of each row: out[i] = dot(a[i], b[i]) mod p, for C-contiguous 2-D arrays of one\n"
        "shape (count, n) and dtype; a uint64 array of count values.");
  d.def("matmul", &matmul_fn, "A"_a.none(), "B"_a.none(), "p"_a.none(), nb::kw_only(), "method"_a = "automatic",
        "context"_a = nb::none(),
        "C = A @ B mod p, exactly: A (m, k) and B (k, n) of one dtype, uint64 (p < 2**64) or float64\n"
        "(integral, p - 1 < 2**52), rows contiguous (a row stride of at least the columns is fine); C a\n"
        "new (m, n) array of that dtype. method: 'automatic', 'integer_delayed' or 'fp_naive'\n"
        "(p <= 94906249).");
  d.def("matvec", &matvec_fn, "A"_a.none(), "x"_a.none(), "p"_a.none(), nb::kw_only(), "method"_a = "automatic",
        "context"_a = nb::none(), "y = A @ x mod p for A (m, k) and a contiguous x of length k (as matmul).");
  d.def(
      "choose_method",
      [](nb::handle p_obj, std::size_t n, nb::handle dtype, nb::handle context) {
        const char* fn = "mpgpu.dot.choose_method";
        const Context ctx = context_arg(context);
        const Residue r = residue_arg(dtype, fn);
        const std::uint64_t p = modulus_arg(p_obj, fn);
        return std::string(dot::method_name(ctx.is_cuda() ? dot::choose_device_method(r, p, n)
                                                          : dot::choose_method(r, p, n)));
      },
      "p"_a, "n"_a, "dtype"_a = "uint64", nb::kw_only(), "context"_a = nb::none(),
      "The method dot(method='automatic') runs for vectors of n elements of `dtype` mod p on the\n"
      "context (the CPU's and the GPU's choices differ); ValueError when no method takes p.");
  d.def(
      "is_admissible",
      [](std::string_view method, nb::handle p_obj, std::size_t n, nb::handle dtype) {
        const char* fn = "mpgpu.dot.is_admissible";
        const Method m = method_arg(method, fn);
        if (m == Method::automatic) raise_value(std::string(fn) + ": name a method, not 'automatic'");
        return dot::is_admissible(m, residue_arg(dtype, fn), modulus_arg(p_obj, fn), n);
      },
      "method"_a, "p"_a, "n"_a, "dtype"_a = "uint64",
      "Whether dot takes `method` for n elements of `dtype` mod p (its bounds on p and n).");
}

}  // namespace mpgpu::py
