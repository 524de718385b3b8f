// Dot products mod p in a Context (mpgpu/dot.hpp): parameter
// checks (dot_host.hpp's check_admissible and the host's messages), then the
// host implementation (CPU context) or the device kernels (CUDA context,
// src/cuda/dot_device.cu through src/dot/dot_backend.hpp).
#include <limits>
#include <string>
#include <type_traits>

#include "context/context_state.hpp"
#include "dot_backend.hpp"
#include "mpgpu/dot.hpp"
#include "dot_checks.hpp"
#include "mpgpu/error.hpp"

namespace mpgpu::dot {

namespace {

using messages::reject;
using messages::residue_name;
using messages::residue_of;

using u128 = unsigned __int128;




[[noreturn]] void reject_element(bool batched, std::size_t k, const char* name, std::size_t i, std::uint64_t p) {
  const std::string where = batched ? "dot " + std::to_string(k) + ", " : std::string();
  throw InvalidArgument("mpgpu::dot: " + where + name + "[" + std::to_string(i) +
                        "] is not a residue in [0, p) for p = " + std::to_string(p));
}

/// What every entry point does: resolve the method, check the parameters
/// (before any element is read), then run on the context's backend.
template <class T>
void run(const Context& ctx, Stream s, std::uint64_t* out, std::uint64_t* result, const T* a, std::size_t sa,
         const T* b, std::size_t sb, std::size_t count, std::size_t n, std::uint64_t p, Method m, bool batched,
         bool per_term) {
  constexpr Residue r = residue_of<T>();
  if (per_term) m = Method::integer_delayed;  // its bounds: p < 2^32 / 2^64 / p - 1 < 2^52
  else if (m == Method::automatic) m = choose_device_method(r, p, n);
  check_admissible(m, r, p, n);
  if (sa == 0 || sb == 0) reject(m, r, "strides must be >= 1");
  if (count > 0 && n > 0 && (a == nullptr || b == nullptr)) reject(m, r, "null input pointer");
  if (batched && count > 0 && out == nullptr) reject(m, r, "null output pointer");
  // Flat indices k n + i (and twice them, in the device's flag) must fit.
  if (n > 0 && count > (std::numeric_limits<std::size_t>::max() >> 2) / n)
    reject(m, r, "count * n = " + std::to_string(count) + " * " + std::to_string(n) + " overflows");
  if (count == 0) return;

  detail::dot_cuda::DotArgs args{m, r, a, b, sa, sb, count, n, n, p, per_term};
  const detail::dot_cuda::BadElement bad =
      detail::dot_cuda::dot(detail::ContextAccess::state(ctx), ctx.resolve(s), args, batched ? out : nullptr, result);
  if (bad.found) {
    const std::size_t k = n ? bad.index / n : 0, i = n ? bad.index % n : 0;
    reject_element(batched, k, bad.in_b ? "b" : "a", i, p);
  }
}

// ---- the CPU side of the per-term baseline ---------------------------------------------

template <class T>
bool host_is_residue(T x, std::uint64_t p) {
  if constexpr (std::is_same_v<T, double>)
    return x >= 0 && x < double(p) && x == double(std::uint64_t(x));
  else
    return std::uint64_t(x) < p;
}

template <class T>
std::uint64_t host_every_term(const T* a, const T* b, std::size_t n, std::uint64_t p) {
  check_admissible(Method::integer_delayed, residue_of<T>(), p, n);
  if (n > 0 && (a == nullptr || b == nullptr)) reject(Method::integer_delayed, residue_of<T>(), "null input pointer");
  for (std::size_t i = 0; i < n; ++i) {
    if (!host_is_residue(a[i], p)) reject_element(false, 0, "a", i, p);
    if (!host_is_residue(b[i], p)) reject_element(false, 0, "b", i, p);
  }
  std::uint64_t acc = 0;
  for (std::size_t i = 0; i < n; ++i)
    acc = std::uint64_t((u128(acc) + u128(std::uint64_t(a[i])) * std::uint64_t(b[i])) % p);
  return acc;
}

}  // namespace

// Device order for `automatic` (docs/dot.md): integer residues have one
// method. For doubles, long vectors (n >= 2^25) are bandwidth-bound and
// fp_lambda, which moves the fewest bytes, streams best; shorter ones
// favour fp_naive while its FFLAS block holds >= 16 terms, else
// integer_delayed (close to the best there), then fp_abcd and fp_lambda as
// fallbacks. Figures: docs/tuning-history.md, "Dot products".
constexpr std::uint64_t device_naive_min_block = 16;
constexpr std::size_t device_lambda_min_length = std::size_t{1} << 25;

Method choose_device_method(Residue r, std::uint64_t p, std::size_t n) {
  if (r != Residue::f64) {
    check_admissible(Method::integer_delayed, r, p, n);
    return Method::integer_delayed;
  }
  if (n >= device_lambda_min_length && is_admissible(Method::fp_lambda, r, p, n)) return Method::fp_lambda;
  if (is_admissible(Method::fp_naive, r, p, n) &&
      reduction_block(Method::fp_naive, r, p) >= device_naive_min_block)
    return Method::fp_naive;
  for (Method m : {Method::integer_delayed, Method::fp_abcd, Method::fp_naive, Method::fp_lambda})
    if (is_admissible(m, r, p, n)) return m;
  check_admissible(Method::integer_delayed, r, p, n);  // throws with the reason
  return Method::integer_delayed;
}

#define MPGPU_DOT_DEVICE_DEFINE(T)                                                                          \
  std::uint64_t dot(const Context& ctx, const T* a, const T* b, std::size_t n, std::uint64_t p, Method m,  \
                    Stream s) {                                                                            \
    if (!ctx.is_cuda()) return dot(a, b, n, p, m);                                                         \
    std::uint64_t result = 0;                                                                              \
    run(ctx, s, nullptr, &result, a, 1, b, 1, 1, n, p, m, false, false);                                  \
    return result;                                                                                         \
  }                                                                                                        \
  std::uint64_t dot_strided(const Context& ctx, const T* a, std::size_t sa, const T* b, std::size_t sb,    \
                            std::size_t n, std::uint64_t p, Method m, Stream s) {                          \
    if (!ctx.is_cuda()) return dot_strided(a, sa, b, sb, n, p, m);                                         \
    std::uint64_t result = 0;                                                                              \
    run(ctx, s, nullptr, &result, a, sa, b, sb, 1, n, p, m, false, false);                                 \
    return result;                                                                                         \
  }                                                                                                        \
  void dot_batched(const Context& ctx, std::uint64_t* out, const T* a, const T* b, std::size_t count,      \
                   std::size_t n, std::uint64_t p, Method m, Stream s) {                                   \
    if (!ctx.is_cuda()) return dot_batched(out, a, b, count, n, p, m);                                     \
    run(ctx, s, out, nullptr, a, 1, b, 1, count, n, p, m, true, false);                                    \
  }                                                                                                        \
  std::uint64_t dot_reduce_every_term(const Context& ctx, const T* a, const T* b, std::size_t n,           \
                                      std::uint64_t p, Stream s) {                                         \
    if (!ctx.is_cuda()) return host_every_term(a, b, n, p);                                                \
    std::uint64_t result = 0;                                                                              \
    run(ctx, s, nullptr, &result, a, 1, b, 1, 1, n, p, Method::integer_delayed, false, true);              \
    return result;                                                                                         \
  }
MPGPU_DOT_DEVICE_DEFINE(std::uint32_t)
MPGPU_DOT_DEVICE_DEFINE(std::uint64_t)
MPGPU_DOT_DEVICE_DEFINE(double)
#undef MPGPU_DOT_DEVICE_DEFINE

}  // namespace mpgpu::dot
