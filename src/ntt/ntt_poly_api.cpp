// Pointwise and polynomial products mod a word-size prime (include/mpgpu/ntt.hpp):
// every check first (prime, pointers, overlaps, lengths against the prime's
// 2-adic limit, residues < p), then the host code (CPU context) or the device
// code (src/cuda/ntt_poly.cu). Nothing is written before the checks pass.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "context/context_state.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt.hpp"
#include "mpgpu/ntt/ntt_host.hpp"

namespace mpgpu {

namespace {

constexpr int kMaxLogN = 28;  // the public transforms' limit (ntt_api.cpp)

std::string prefix(const char* fn) { return std::string("mpgpu::") + fn + ": "; }

/// min(28, 2-adicity of p - 1) after checking that p is an odd prime.
int check_prime(const char* fn, std::uint64_t p) {
  if (p < 3 || p % 2 == 0)
    throw InvalidArgument(prefix(fn) + "modulus " + std::to_string(p) + " is not an odd prime");
  if (const field::NttPrime* known = field::find_ntt_prime(p)) return std::min(kMaxLogN, known->n);
  if (!field::is_prime(p)) throw InvalidArgument(prefix(fn) + "modulus " + std::to_string(p) + " is not prime");
  return std::min(kMaxLogN, field::two_adicity(p));
}

std::uint64_t generator_of(std::uint64_t p) {
  if (const field::NttPrime* known = field::find_ntt_prime(p)) return known->generator;
  return field::find_generator(p);
}

/// Whether the word ranges [x, x + nx) and [y, y + ny) share a word.
bool overlaps(const std::uint64_t* x, std::size_t nx, const std::uint64_t* y, std::size_t ny) {
  if (nx == 0 || ny == 0) return false;
  const auto ux = reinterpret_cast<std::uintptr_t>(x), uy = reinterpret_cast<std::uintptr_t>(y);
  return ux < uy + ny * sizeof(std::uint64_t) && uy < ux + nx * sizeof(std::uint64_t);
}

/// The first x[i] >= p (n if none) and its value: a host scan, or a device
/// scan on a CUDA context.
template <class Word>
std::size_t first_unreduced(const Context& ctx, Stream s, const Word* x, std::size_t n, Word p, Word& value) {
  if (n == 0) return n;
  if (!x) throw InvalidArgument("mpgpu::ntt_first_unreduced: null pointer with count > 0");
  if (ctx.is_cuda())
    return detail::cuda::ntt_first_unreduced(detail::ContextAccess::state(ctx), ctx.resolve(s), x, n, p, value);
  for (std::size_t i = 0; i < n; ++i)
    if (x[i] >= p) {
      value = x[i];
      return i;
    }
  return n;
}

/// Throws unless every x[i] < p (host scan, or device scan on a CUDA context).
void require_reduced(const char* fn, const Context& ctx, Stream s, const char* name, const std::uint64_t* x,
                     std::size_t n, std::uint64_t p) {
  std::uint64_t value = 0;
  const std::size_t bad = first_unreduced(ctx, s, x, n, p, value);
  if (bad != n)
    throw InvalidArgument(prefix(fn) + "coefficient " + name + "[" + std::to_string(bad) + "] = " +
                          std::to_string(value) + " is not below p = " + std::to_string(p));
}

/// The cost model behind the method choice (reasoned, not measured): the
/// NTT route costs three transforms of (n/2) log2 n butterflies, each about
/// one modular product, plus n pointwise products, i.e. about
/// n (1.5 log2 n + 1); the schoolbook route len_a * len_b products. The
/// schoolbook route wins when one operand is short (below ~1.5 log2 n +
/// 1 coefficients, 4 .. 43 for n = 2 .. 2^28) or both are tiny. On the
/// device it is also one launch instead of about a dozen.
bool use_schoolbook(std::size_t len_a, std::size_t len_b, int log_n) {
  const double n = static_cast<double>(std::size_t{1} << log_n);
  return static_cast<double>(len_a) * static_cast<double>(len_b) <= n * (1.5 * log_n + 1);
}

// ---- host code -------------------------------------------------------------------

/// c[0 .. la + lb - 1) = a * b, schoolbook. Montgomery products sum
/// a_j b_l / R; one last product by R^2 (to_mont) gives the plain sum.
void schoolbook_host(const field::PrimeField64& f, std::uint64_t* c, const std::uint64_t* a, std::size_t la,
                     const std::uint64_t* b, std::size_t lb) {
  for (std::size_t i = 0; i + 1 < la + lb; ++i) {
    const std::size_t lo = i + 1 > lb ? i + 1 - lb : 0, hi = std::min(i, la - 1);
    std::uint64_t acc = 0;
    for (std::size_t j = lo; j <= hi; ++j) acc = f.add(acc, f.mont_mul(a[j], b[i - j]));
    c[i] = f.to_mont(acc);
  }
}

void poly_mul_host(std::uint64_t* c, const std::uint64_t* a, std::size_t la, const std::uint64_t* b,
                   std::size_t lb, std::size_t batch, std::uint64_t p, int log_n) {
  const field::PrimeField64 f = field::PrimeField64::make(p);
  const std::size_t lc = la + lb - 1, n = std::size_t{1} << log_n;
  std::vector<std::uint64_t> out(batch * lc);  // c may alias a or b: write it last
  if (use_schoolbook(la, lb, log_n)) {
    for (std::size_t i = 0; i < batch; ++i) schoolbook_host(f, out.data() + i * lc, a + i * la, la, b + i * lb, lb);
  } else {
    const auto plan = ntt::host_plan<field::PrimeField64>(p, log_n);
    const bool square = a == b && la == lb;  // one transform fewer
    std::vector<std::uint64_t> fa(batch * n, 0), fb(square ? 0 : batch * n, 0);
    for (std::size_t i = 0; i < batch; ++i) {
      std::copy(a + i * la, a + (i + 1) * la, fa.begin() + i * n);
      if (!square) std::copy(b + i * lb, b + (i + 1) * lb, fb.begin() + i * n);
    }
    plan->forward(fa.data(), batch);
    if (!square) plan->forward(fb.data(), batch);
    const std::uint64_t* g = square ? fa.data() : fb.data();
    for (std::size_t i = 0; i < batch * n; ++i) fa[i] = f.mul(fa[i], g[i]);
    plan->inverse(fa.data(), batch);
    for (std::size_t i = 0; i < batch; ++i)
      std::copy(fa.begin() + i * n, fa.begin() + i * n + lc, out.begin() + i * lc);
  }
  std::copy(out.begin(), out.end(), c);
}

}  // namespace

std::size_t ntt_first_unreduced(const Context& ctx, const std::uint64_t* x, std::size_t count, std::uint64_t p,
                                std::uint64_t* value, Stream s) {
  std::uint64_t v = 0;
  const std::size_t bad = first_unreduced(ctx, s, x, count, p, v);
  if (value && bad != count) *value = v;
  return bad;
}

std::size_t ntt_first_unreduced(const Context& ctx, const std::uint32_t* x, std::size_t count, std::uint32_t p,
                                std::uint32_t* value, Stream s) {
  std::uint32_t v = 0;
  const std::size_t bad = first_unreduced(ctx, s, x, count, p, v);
  if (value && bad != count) *value = v;
  return bad;
}

void ntt_pointwise_mul(const Context& ctx, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b,
                       std::size_t count, std::uint64_t p, Stream s) {
  const char* fn = "ntt_pointwise_mul";
  check_prime(fn, p);
  if (count == 0) return;
  if (!out || !a || !b) throw InvalidArgument(prefix(fn) + "null pointer");
  if ((out != a && overlaps(out, count, a, count)) || (out != b && overlaps(out, count, b, count)))
    throw InvalidArgument(prefix(fn) + "out overlaps an input without being equal to it");
  s = ctx.resolve(s);
  require_reduced(fn, ctx, s, "a", a, count, p);
  require_reduced(fn, ctx, s, "b", b, count, p);
  if (ctx.is_cuda()) {
    detail::cuda::ntt_pointwise(detail::ContextAccess::state(ctx), s, out, a, b, count, p);
    return;
  }
  const field::PrimeField64 f = field::PrimeField64::make(p);
  for (std::size_t i = 0; i < count; ++i) out[i] = f.mul(a[i], b[i]);
}

namespace {

void poly_mul_impl(const char* fn, const Context& ctx, std::uint64_t* c, const std::uint64_t* a, std::size_t len_a,
                   const std::uint64_t* b, std::size_t len_b, std::size_t batch, std::uint64_t p, Stream s) {
  const int limit = check_prime(fn, p);
  if (len_a == 0 || len_b == 0 || batch == 0) return;
  if (!c || !a || !b) throw InvalidArgument(prefix(fn) + "null pointer");
  const std::size_t max_len = std::size_t{1} << kMaxLogN;
  int log_n = 0;
  if (len_a <= max_len && len_b <= max_len)
    while ((std::size_t{1} << log_n) < len_a + len_b - 1) ++log_n;
  else
    log_n = kMaxLogN + 1;  // far too long; the message below says so
  if (log_n > limit)
    throw InvalidArgument(prefix(fn) + "lengths " + std::to_string(len_a) + " and " + std::to_string(len_b) +
                          " need a transform of 2^" + std::to_string(log_n) + " points (at least " +
                          std::to_string(len_a) + " + " + std::to_string(len_b) + " - 1), but p = " +
                          std::to_string(p) + " allows at most 2^" + std::to_string(limit) +
                          (limit == kMaxLogN ? " (the library's limit)" : " (2^n must divide p - 1)"));
  const std::size_t n = std::size_t{1} << log_n;
  if (batch > std::numeric_limits<std::size_t>::max() / (2 * n))
    throw InvalidArgument(prefix(fn) + "batch of " + std::to_string(batch) + " products does not fit in memory");
  s = ctx.resolve(s);
  require_reduced(fn, ctx, s, "a", a, batch * len_a, p);
  require_reduced(fn, ctx, s, "b", b, batch * len_b, p);
  const bool schoolbook = use_schoolbook(len_a, len_b, log_n);
  if (ctx.is_cuda()) {
    if (schoolbook)
      detail::cuda::poly_mul_schoolbook(detail::ContextAccess::state(ctx), s, c, a, len_a, b, len_b, batch, p);
    else
      detail::cuda::poly_mul_ntt(detail::ContextAccess::state(ctx), s, c, a, len_a, b, len_b, batch, log_n, p,
                                 generator_of(p));
    return;
  }
  poly_mul_host(c, a, len_a, b, len_b, batch, p, log_n);
}

}  // namespace

void poly_mul_batch(const Context& ctx, std::uint64_t* c, const std::uint64_t* a, std::size_t len_a,
                    const std::uint64_t* b, std::size_t len_b, std::size_t batch, std::uint64_t p, Stream s) {
  poly_mul_impl("poly_mul_batch", ctx, c, a, len_a, b, len_b, batch, p, s);
}

void poly_mul(const Context& ctx, std::uint64_t* c, const std::uint64_t* a, std::size_t len_a,
              const std::uint64_t* b, std::size_t len_b, std::uint64_t p, Stream s) {
  poly_mul_impl("poly_mul", ctx, c, a, len_a, b, len_b, 1, p, s);
}

}  // namespace mpgpu
