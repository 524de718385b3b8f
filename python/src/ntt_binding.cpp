// The public NTT and the products mod p of include/mpgpu/ntt.hpp on NumPy,
// CuPy and PyTorch arrays (module mpgpu._mpgpu._ntt, re-exported as
// mpgpu.ntt): forward and inverse transforms of uint64 or uint32 words along
// the last axis, the pointwise product and polynomial products of uint64
// coefficients. Each call returns a new array (Result: NumPy for host
// inputs, the inputs' framework for CUDA inputs); the inputs are never
// written. Host arrays on a CUDA context go to the device and back
// (ContextWords); CUDA arrays are computed on where they are.
#include "modp_arrays.hpp"

#include <mpgpu/field/primes.hpp>
#include <mpgpu/field/roots.hpp>
#include <mpgpu/ntt.hpp>

#include <algorithm>
#include <cstring>
#include <string>

namespace mpgpu::py {
namespace {

using namespace nb::literals;

constexpr int kMaxLogN = 28;  // include/mpgpu/ntt.hpp: lengths 2^0 .. 2^28

NttOrder order_arg(std::string_view order, const char* fn) {
  if (order == "natural") return NttOrder::natural;
  if (order == "bit_reversed") return NttOrder::bit_reversed;
  raise_value(std::string(fn) + ": order must be 'natural' or 'bit_reversed', not '" + std::string(order) + "'");
}

template <class T>
nb::object transform_words(const ArrayIn& a, std::uint64_t p, int log_n, NttOrder order, const Context& ctx,
                           bool forward, const char* fn) {
  Result<T> out(ctx, a, a.shape, fn, /*copy_of_like=*/true);  // the transforms run in place on the copy
  const std::size_t batch = a.size() >> log_n;
  without_gil([&] {
    if (forward) ntt_forward(ctx, out.data(), batch, log_n, static_cast<T>(p), order);
    else ntt_inverse(ctx, out.data(), batch, log_n, static_cast<T>(p), order);
    out.finish();
  });
  return out.array;
}

nb::object transform(nb::handle a_obj, nb::handle p_obj, std::string_view order_text, nb::handle context,
                     bool forward) {
  const char* fn = forward ? "mpgpu.ntt.forward" : "mpgpu.ntt.inverse";
  const Context ctx = context_arg(context);
  const ArrayIn a = array_arg(a_obj, fn, "a", {Word::u64, Word::u32}, ctx);
  const NttOrder order = order_arg(order_text, fn);
  if (a.ndim() == 0) raise_value(std::string(fn) + ": a must have at least one axis (transforms along the last)");
  require_contiguous(a, fn, "a");
  const std::size_t n = a.shape.back();
  if (n == 0 || (n & (n - 1)) != 0 || n > (std::size_t{1} << kMaxLogN))
    raise_value(std::string(fn) + ": the last axis has length " + std::to_string(n) +
                ", not a power of two from 1 to 2**28 (a of shape " + a.shape_text() + ")");
  int log_n = 0;
  while ((std::size_t{1} << log_n) < n) ++log_n;
  const std::uint64_t p = modulus_arg(p_obj, fn, a.word == Word::u32 ? 32 : 64);
  require_residues(a, p, fn, "a", ctx);
  return a.word == Word::u32 ? transform_words<std::uint32_t>(a, p, log_n, order, ctx, forward, fn)
                             : transform_words<std::uint64_t>(a, p, log_n, order, ctx, forward, fn);
}

nb::object pointwise_mul(nb::handle a_obj, nb::handle b_obj, nb::handle p_obj, nb::handle context) {
  const char* fn = "mpgpu.ntt.pointwise_mul";
  const Context ctx = context_arg(context);
  const ArrayIn a = array_arg(a_obj, fn, "a", {Word::u64}, ctx);
  const ArrayIn b = array_arg(b_obj, fn, "b", {Word::u64}, ctx);
  require_same_memory(a, b, fn, "a", "b");
  if (a.shape != b.shape)
    raise_value(std::string(fn) + ": a and b have different shapes " + a.shape_text() + " and " + b.shape_text());
  require_contiguous(a, fn, "a");
  require_contiguous(b, fn, "b");
  const std::uint64_t p = modulus_arg(p_obj, fn);
  if (!a.on_device) {  // the library checks them too; on the device its scan alone (one pass fewer), flat indices
    require_residues(a, p, fn, "a", ctx);
    require_residues(b, p, fn, "b", ctx);
  }
  Result<std::uint64_t> out(ctx, a, a.shape, fn);
  const std::size_t count = a.size(), bytes = count * 8;
  without_gil([&] {
    ContextWords da(ctx, a, bytes), db(ctx, b, bytes);
    ntt_pointwise_mul(ctx, out.data(), static_cast<const std::uint64_t*>(da.data()),
                      static_cast<const std::uint64_t*>(db.data()), count, p);
    out.finish();
  });
  return out.array;
}

nb::object poly_mul(nb::handle a_obj, nb::handle b_obj, nb::handle p_obj, nb::handle context) {
  const char* fn = "mpgpu.ntt.poly_mul";
  const Context ctx = context_arg(context);
  const ArrayIn a = array_arg(a_obj, fn, "a", {Word::u64}, ctx);
  const ArrayIn b = array_arg(b_obj, fn, "b", {Word::u64}, ctx);
  require_same_memory(a, b, fn, "a", "b");
  if (a.ndim() == 0 || b.ndim() == 0)
    raise_value(std::string(fn) + ": a and b must have at least one axis (coefficients along the last)");
  if (a.ndim() != b.ndim() || !std::equal(a.shape.begin(), a.shape.end() - 1, b.shape.begin()))
    raise_value(std::string(fn) + ": a " + a.shape_text() + " and b " + b.shape_text() +
                " must have the same leading axes (one product per row)");
  require_contiguous(a, fn, "a");
  require_contiguous(b, fn, "b");
  const std::uint64_t p = modulus_arg(p_obj, fn);
  if (!a.on_device) {  // the library checks them too; on the device its scan alone (one pass fewer), flat indices
    require_residues(a, p, fn, "a", ctx);
    require_residues(b, p, fn, "b", ctx);
  }
  const std::size_t la = a.shape.back(), lb = b.shape.back();
  const std::size_t lc = la && lb ? la + lb - 1 : 0;
  std::vector<std::size_t> shape = a.shape;
  shape.back() = lc;
  std::size_t batch = 1;
  for (std::size_t i = 0; i + 1 < a.ndim(); ++i) batch *= a.shape[i];
  Result<std::uint64_t> out(ctx, a, shape, fn);
  without_gil([&] {
    ContextWords da(ctx, a, batch * la * 8), db(ctx, b, batch * lb * 8);
    const auto* pa = static_cast<const std::uint64_t*>(da.data());
    const auto* pb = static_cast<const std::uint64_t*>(db.data());
    if (a.ndim() == 1) mpgpu::poly_mul(ctx, out.data(), pa, la, pb, lb, p);
    else poly_mul_batch(ctx, out.data(), pa, la, pb, lb, batch, p);
    out.finish();
  });
  return out.array;
}

int max_log_n(nb::handle p_obj) {
  const char* fn = "mpgpu.ntt.max_log_n";
  const std::uint64_t p = modulus_arg(p_obj, fn);
  if (const field::NttPrime* known = field::find_ntt_prime(p)) return std::min(kMaxLogN, known->n);
  bool prime = false;
  without_gil([&] { prime = p % 2 == 1 && field::is_prime(p); });
  if (!prime) raise_value(std::string(fn) + ": p = " + std::to_string(p) + " is not an odd prime");
  return std::min(kMaxLogN, field::two_adicity(p));
}

template <std::size_t N>
nb::tuple primes_of(const field::NttPrime (&table)[N]) {
  nb::list l;
  for (const field::NttPrime& q : table) l.append(nb::int_(q.p));
  return nb::tuple(l);
}

}  // namespace

void bind_ntt(nb::module_& m) {
  nb::module_ t = m.def_submodule("_ntt", "The NTT and products mod p (mpgpu.ntt).");
  t.attr("MAX_LOG_N") = kMaxLogN;
  t.attr("PRIMES31") = primes_of(field::ntt_primes31);
  t.attr("PRIMES32") = primes_of(field::ntt_primes32);
  t.attr("PRIMES62") = primes_of(field::ntt_primes62);
  t.attr("GOLDILOCKS") = nb::int_(field::goldilocks.p);
  t.def(
      "forward",
      [](nb::handle a, nb::handle p, std::string_view order, nb::handle context) {
        return transform(a, p, order, context, true);
      },
      "a"_a.none(), "p"_a.none(), nb::kw_only(), "order"_a = "natural", "context"_a = nb::none(),
      "The NTT mod p along the last axis of a (uint64, or uint32 with p < 2**32), as a new array:\n"
      "X[k] = sum_j a[j] * w**(j*k) mod p, w = g**((p-1)/n) for the primitive root g of the library's\n"
      "table (the smallest one for other primes). The last axis has n = 2**log_n points, 1 <= n <= 2**28,\n"
      "n dividing p - 1; the others are a batch of transforms. Values must be in [0, p).\n"
      "order='bit_reversed' leaves the output in bit-reversed index order (no permutation pass).");
  t.def(
      "inverse",
      [](nb::handle a, nb::handle p, std::string_view order, nb::handle context) {
        return transform(a, p, order, context, false);
      },
      "a"_a.none(), "p"_a.none(), nb::kw_only(), "order"_a = "natural", "context"_a = nb::none(),
      "The inverse of forward(): a[j] = n**-1 * sum_k X[k] * w**(-j*k) mod p, as a new array.\n"
      "order='bit_reversed' takes the input in bit-reversed index order (forward's with that order).");
  t.def("pointwise_mul", &pointwise_mul, "a"_a.none(), "b"_a.none(), "p"_a.none(), nb::kw_only(), "context"_a = nb::none(),
        "a * b mod p element by element (uint64 arrays of one shape, values in [0, p); p prime).");
  t.def("poly_mul", &poly_mul, "a"_a.none(), "b"_a.none(), "p"_a.none(), nb::kw_only(), "context"_a = nb::none(),
        "The polynomial product a * b mod p (coefficient i of x**i along the last axis, uint64):\n"
        "len(a) + len(b) - 1 coefficients (none when a or b has none). Arrays of more axes hold one\n"
        "product per row (the same leading axes). The padded length 2**n >= len(a) + len(b) - 1 must\n"
        "divide p - 1 and be at most 2**28.");
  t.def("max_log_n", &max_log_n, "p"_a,
        "The largest log_n with transforms of 2**log_n points mod the prime p: min(28, the 2-adic\n"
        "valuation of p - 1).");
}

}  // namespace mpgpu::py
