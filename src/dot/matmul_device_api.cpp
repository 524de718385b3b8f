// Matrix products mod p in a Context (mpgpu/dot.hpp): the
// host's checks and messages (src/dot/matmul_host.cpp), then the host product
// (CPU context) or the device paths (CUDA context, src/cuda/matmul_*.cu
// through src/dot/dot_backend.hpp): element check of A and B on the device,
// then the product.
#include <climits>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "context/context_state.hpp"
#include "dot_backend.hpp"
#include "mpgpu/dot.hpp"
#include "dot_checks.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/field/roots.hpp"

namespace mpgpu::dot {

namespace {

using messages::reject;
using messages::residue_name;
using messages::residue_of;

constexpr std::uint64_t two52 = std::uint64_t{1} << 52;



/// check_matmul_admissible, its message under `fn` (matmul or matvec).
void check_method(const char* fn, Method m, Residue r, std::uint64_t p) {
  try {
    check_matmul_admissible(m, r, p);
  } catch (const InvalidArgument& e) {
    std::string msg = e.what();
    const std::string host_prefix = "mpgpu::dot::matmul:";
    if (msg.rfind(host_prefix, 0) == 0) msg = std::string("mpgpu::dot::") + fn + ":" + msg.substr(host_prefix.size());
    throw InvalidArgument(msg);
  }
}

bool fits_int(std::size_t x) { return x <= static_cast<std::size_t>(INT_MAX); }

template <class T>
void product(const char* fn, bool vec, const Context& ctx, Stream s, T* C, std::size_t ldc, const T* A,
             std::size_t lda, const T* B, std::size_t ldb, std::size_t m, std::size_t n, std::size_t k,
             std::uint64_t p, Method method) {
  constexpr Residue r = std::is_same_v<T, double> ? Residue::f64 : Residue::u64;
  const bool takes_p = p >= 2 && field::is_prime(p) && (r != Residue::f64 || p - 1 < two52);
  Method m_ = method;
  if (method == Method::automatic) {
    // A p that neither method takes is rejected below under this function's name.
    m_ = takes_p ? choose_device_matmul_method(r, p, m, n, k) : Method::integer_delayed;
    if (m_ == Method::fp_naive && !(fits_int(lda) && fits_int(ldb) && fits_int(ldc))) m_ = Method::integer_delayed;
  }
  check_method(fn, m_, r, p);
  messages::check_matrix_operands(fn, m_, r, vec, C, ldc, A, lda, B, ldb, m, n, k);
  const char* bn = vec ? "x" : "B";
  if (m_ == Method::fp_naive &&
      !(fits_int(m) && fits_int(n) && fits_int(k) && fits_int(lda) && fits_int(ldb) && fits_int(ldc)))
    reject(fn, m_, r, "cuBLAS takes dimensions and leading dimensions up to 2^31 - 1 (use integer_delayed)");

  detail::ContextState& st = detail::ContextAccess::state(ctx);
  const Stream stream = ctx.resolve(s);
  const auto report = [&](const detail::dot_cuda::BadElement& bad, const char* name, std::size_t cols, bool as_vector) {
    if (!bad.found) return;
    messages::reject_element(fn, name, as_vector, bad.index, bad.index / cols, bad.index % cols, p);
  };
  report(detail::dot_cuda::check_matrix(st, stream, r, A, m, k, lda, p), "A", k, false);
  report(detail::dot_cuda::check_matrix(st, stream, r, B, k, n, ldb, p), bn, n, vec);
  if (m == 0 || n == 0) return;
  detail::dot_cuda::matmul(st, stream, {m_, r, C, ldc, A, lda, B, ldb, m, n, k, p});
}

}  // namespace

// On the device fp_naive wins wherever admissible (docs/dot.md): even with
// kb = 1 a k-block costs one DGEMM rank-kb update plus one pass over C,
// about 1e-14 s an entry, against roughly 1e-12 s per multiply-add for
// the emulated 64-bit integer products (docs/dot.md, "Automatic choice on
// the GPU"). Matrix-vector
// products are memory-bound: the integer warp-per-row kernel reads A once
// with no double copies and no k-blocks.
Method choose_device_matmul_method(Residue r, std::uint64_t p, std::size_t m, std::size_t n, std::size_t k) {
  if (n != 1 && is_matmul_admissible(Method::fp_naive, r, p) && fits_int(m) && fits_int(n) && fits_int(k))
    return Method::fp_naive;
  check_matmul_admissible(Method::integer_delayed, r, p);  // throws with the reason
  return Method::integer_delayed;
}

void matmul(const Context& ctx, std::uint64_t* C, std::size_t ldc, const std::uint64_t* A, std::size_t lda,
            const std::uint64_t* B, std::size_t ldb, std::size_t m, std::size_t n, std::size_t k, std::uint64_t p,
            Method method, Stream s) {
  if (!ctx.is_cuda()) return matmul(C, ldc, A, lda, B, ldb, m, n, k, p, method);
  product("matmul", false, ctx, s, C, ldc, A, lda, B, ldb, m, n, k, p, method);
}

void matmul(const Context& ctx, double* C, std::size_t ldc, const double* A, std::size_t lda, const double* B,
            std::size_t ldb, std::size_t m, std::size_t n, std::size_t k, std::uint64_t p, Method method,
            Stream s) {
  if (!ctx.is_cuda()) return matmul(C, ldc, A, lda, B, ldb, m, n, k, p, method);
  product("matmul", false, ctx, s, C, ldc, A, lda, B, ldb, m, n, k, p, method);
}

void matvec(const Context& ctx, std::uint64_t* y, const std::uint64_t* A, std::size_t lda, const std::uint64_t* x,
            std::size_t m, std::size_t k, std::uint64_t p, Method method, Stream s) {
  if (!ctx.is_cuda()) return matvec(y, A, lda, x, m, k, p, method);
  product("matvec", true, ctx, s, y, 1, A, lda, x, 1, m, 1, k, p, method);
}

void matvec(const Context& ctx, double* y, const double* A, std::size_t lda, const double* x, std::size_t m,
            std::size_t k, std::uint64_t p, Method method, Stream s) {
  if (!ctx.is_cuda()) return matvec(y, A, lda, x, m, k, p, method);
  product("matvec", true, ctx, s, y, 1, A, lda, x, 1, m, 1, k, p, method);
}

}  // namespace mpgpu::dot
