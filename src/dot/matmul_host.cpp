// Matrix products mod p on the host (see mpgpu/dot/matmul_host.hpp,
// docs/dot.md). No BLAS: we do not link a CPU BLAS, so both methods run one
// cache-blocked (i, l, j) loop of our own (blocked_product below), which
// differs only in the accumulator type and the reduction.
//
// Rounding: nothing here changes or depends on the rounding mode. fp_naive's
// products and block sums are exact integers below 2^53 in every mode, and
// its reduction only uses a double quotient estimate that integer
// corrections make exact. So no -frounding-math (unlike dot_host.cpp).
#include "mpgpu/dot/matmul_host.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "dot_checks.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/field/roots.hpp"

namespace mpgpu::dot {

namespace {

using messages::reject;
using messages::residue_name;
using messages::residue_of;

using u128 = unsigned __int128;

constexpr std::uint64_t two52 = std::uint64_t{1} << 52;
constexpr std::uint64_t two53 = std::uint64_t{1} << 53;
constexpr std::uint64_t two63 = std::uint64_t{1} << 63;



// ---- reduction blocks (the bounds) --------------------------------------------

/// FFLAS-FFPACK bound: kb (p-1)^2 < 2^53, so a block of kb products (each
/// <= (p-1)^2) sums to an integer < 2^53, exact in a double:
/// kb = floor((2^53 - 1) / (p-1)^2); 0 when (p-1)^2 >= 2^53 (p > 94906266).
std::uint64_t block_fp64(std::uint64_t p) {
  if (p - 1 >= (std::uint64_t{1} << 27)) return 0;  // (p-1)^2 >= 2^54 > 2^53 - 1
  return (two53 - 1) / ((p - 1) * (p - 1));
}

/// 64-bit accumulators (p - 1 < 2^32, so (p-1)^2 < 2^64): a block of
/// K = floor((2^64 - 1) / (p-1)^2) products sums to <= 2^64 - 1, no
/// overflow. Capped at 2^63 (p = 2), longer than any k.
std::uint64_t block_int64(std::uint64_t p) {
  if (p - 1 >= (std::uint64_t{1} << 32)) return 0;
  const std::uint64_t q = (p - 1) * (p - 1);
  return std::min(std::numeric_limits<std::uint64_t>::max() / q, two63);
}

/// 128-bit accumulators (p < 2^64, so (p-1)^2 < 2^128): a block of
/// K = floor((2^128 - 1) / (p-1)^2) products sums to <= 2^128 - 1, no
/// overflow; K >= 1 for every p < 2^64, K >= 4 for p < 2^63. Capped at 2^63.
std::uint64_t block_int128(std::uint64_t p) {
  const u128 q = u128(p - 1) * (p - 1);
  const u128 k = ~u128(0) / q;
  return k > two63 ? two63 : std::uint64_t(k);
}

/// 64-bit accumulators are used while their block is at least this long:
/// below it (p > ~2^30) a `%` every few terms costs more than 128-bit adds
/// (the same switch as dot_host.cpp's min_block64).
constexpr std::uint64_t min_block64 = 16;

bool use_int64(std::uint64_t p) { return block_int64(p) >= min_block64; }

void check_method(const char* fn, Method m, Residue r, std::uint64_t p) {
  if (m == Method::automatic) reject(fn, m, r, "resolve `automatic` with choose_matmul_method first");
  if (r == Residue::u32) reject(fn, m, r, "matrix products take uint64 or double residues");
  if (m == Method::fp_lambda || m == Method::fp_abcd)
    reject(fn, m, r, "a dot-product method; matrix products take fp_naive or integer_delayed");
  if (p < 2 || !field::is_prime(p)) reject(fn, m, r, "modulus p = " + std::to_string(p) + " is not a prime");
  // Doubles hold residues exactly only below 2^53; as in dot_host.hpp,
  // p - 1 < 2^52.
  if (r == Residue::f64 && p - 1 >= two52)
    reject(fn, m, r, "needs p - 1 < 2^52 for double residues, got p = " + std::to_string(p));
  if (m == Method::fp_naive && block_fp64(p) == 0)
    reject(fn, m, r, "needs (p-1)^2 < 2^53 (FFLAS bound: p <= 94906249), got p = " + std::to_string(p));
}

// ---- reductions ----------------------------------------------------------------
// Each policy: Acc (the block accumulator), V (the element type the kernel
// reads and the reduced value), reduce(Acc) -> [0, p), add(V, V) mod p.

struct Fp64Policy {
  using Acc = double;
  using V = double;
  std::uint64_t p;
  double pinv;  // fl(1/p)
  explicit Fp64Policy(std::uint64_t p_) : p(p_), pinv(1.0 / double(p_)) {}
  /// Exact floor-based reduction of an integer s in [0, 2^53). q = trunc(s
  /// pinv) (truncation is floor for s >= 0): s pinv = (s/p)(1 + e) with
  /// |e| < 2^-51 in any rounding mode, so |s pinv - s/p| < 2^53/p 2^-51
  /// = 4/p <= 2 (p = 2 is exact: pinv = 1/2), q is within 2 of floor(s/p)
  /// and r = s - q p lies in (-2p, 3p): computed exactly in 64-bit integers
  /// (wrapping products, the true value is small), then corrected to [0, p).
  V reduce(double s) const {
    const std::uint64_t si = std::uint64_t(s);
    const std::uint64_t q = std::uint64_t(s * pinv);
    std::int64_t r = std::int64_t(si - q * p);
    const std::int64_t ps = std::int64_t(p);
    while (r < 0) r += ps;
    while (r >= ps) r -= ps;
    return double(r);
  }
  V add(double a, double b) const {  // a, b < p < 2^27: exact
    const double s = a + b;
    return s >= double(p) ? s - double(p) : s;
  }
};

template <class AccT>
struct IntPolicy {
  using Acc = AccT;  // std::uint64_t or u128
  using V = std::uint64_t;
  std::uint64_t p;
  explicit IntPolicy(std::uint64_t p_) : p(p_) {}
  V reduce(Acc s) const { return std::uint64_t(s % p); }
  V add(std::uint64_t a, std::uint64_t b) const {  // a, b < p < 2^64; the sum may wrap
    const std::uint64_t s = a + b;
    return s < a || s >= p ? s - p : s;
  }
};

// ---- the blocked product ----------------------------------------------------------

constexpr std::size_t tile_rows = 16;  // MB: rows of C per tile
constexpr std::size_t tile_cols = 64;  // NB: columns of C per tile
constexpr int micro_rows = 4;          // rows of A per pass over a row of B

/// acc[r][j] += A[r][l] B[l][j] for r < R, l in [l0, l1), j < nw: the (i, l,
/// j) order, each row of B read once for R rows of A; the j loop is
/// contiguous (and vectorizable for doubles).
template <int R, class Acc, class V>
inline void rank_update(Acc* __restrict acc, const V* __restrict a, std::size_t lda,
                        const V* __restrict b, std::size_t ldb, std::size_t nw, std::size_t l0,
                        std::size_t l1) {
  for (std::size_t l = l0; l < l1; ++l) {
    const V* __restrict brow = b + l * ldb;
    Acc av[R];
    for (int r = 0; r < R; ++r) av[r] = Acc(a[r * lda + l]);
    for (std::size_t j = 0; j < nw; ++j) {
      const Acc bj = Acc(brow[j]);
      for (int r = 0; r < R; ++r) acc[r * tile_cols + j] += av[r] * bj;
    }
  }
}

/// C = A B mod p, tile by tile (tile_rows x tile_cols of C): the inner
/// dimension runs in segments of `block` terms (the policy's bound), after
/// each of which every accumulator of the tile is reduced and added mod p to
/// the tile's running residues. A tile's column strip of B (k x tile_cols)
/// is reused by every row tile.
template <class Policy, class Out>
void blocked_product(Out* C, std::size_t ldc, const typename Policy::V* A, std::size_t lda,
                     const typename Policy::V* B, std::size_t ldb, std::size_t m, std::size_t n,
                     std::size_t k, std::uint64_t block, const Policy& pol) {
  using Acc = typename Policy::Acc;
  using V = typename Policy::V;
  Acc acc[tile_rows * tile_cols];
  V res[tile_rows * tile_cols];
  for (std::size_t j0 = 0; j0 < n; j0 += tile_cols) {
    const std::size_t nw = std::min(tile_cols, n - j0);
    for (std::size_t i0 = 0; i0 < m; i0 += tile_rows) {
      const std::size_t mh = std::min(tile_rows, m - i0);
      std::fill(acc, acc + tile_rows * tile_cols, Acc(0));
      std::fill(res, res + tile_rows * tile_cols, V(0));
      const V* a = A + i0 * lda;
      const V* b = B + j0;
      for (std::size_t l = 0; l < k;) {
        const std::size_t seg = std::size_t(std::min<std::uint64_t>(k - l, block));
        std::size_t i = 0;
        for (; i + micro_rows <= mh; i += micro_rows)
          rank_update<micro_rows>(acc + i * tile_cols, a + i * lda, lda, b, ldb, nw, l, l + seg);
        for (; i < mh; ++i) rank_update<1>(acc + i * tile_cols, a + i * lda, lda, b, ldb, nw, l, l + seg);
        l += seg;
        for (std::size_t r = 0; r < mh; ++r)
          for (std::size_t j = 0; j < nw; ++j) {
            const std::size_t t = r * tile_cols + j;
            res[t] = pol.add(res[t], pol.reduce(acc[t]));
            acc[t] = Acc(0);
          }
      }
      for (std::size_t r = 0; r < mh; ++r)
        for (std::size_t j = 0; j < nw; ++j) C[(i0 + r) * ldc + j0 + j] = Out(res[r * tile_cols + j]);
    }
  }
}

// ---- validation ---------------------------------------------------------------

template <class T>
bool is_residue(T x, std::uint64_t p) {
  if constexpr (std::is_same_v<T, double>)
    // false for NaN; the conversion is defined since 0 <= x < p < 2^53.
    return x >= 0 && x < double(p) && x == double(std::uint64_t(x));
  else
    return x < p;
}

template <class T>
void check_residues(const char* fn, const char* name, const T* v, std::size_t rows, std::size_t cols,
                    std::size_t ld, std::uint64_t p, bool vector) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t l = 0; l < cols; ++l)
      if (!is_residue(v[i * ld + l], p)) messages::reject_element(fn, name, vector, i * ld + l, i, l, p);
}

/// Checks everything, then computes. `vec` names the operands y, A, x.
template <class T>
void product(const char* fn, bool vec, T* C, std::size_t ldc, const T* A, std::size_t lda,
             const T* B, std::size_t ldb, std::size_t m, std::size_t n, std::size_t k,
             std::uint64_t p, Method method) {
  constexpr Residue r = residue_of<T>();
  // automatic: as choose_matmul_method, but a p that neither method takes
  // is rejected below under this function's name.
  const Method m_ = method != Method::automatic ? method
                    : p >= 2 && field::is_prime(p) && (r != Residue::f64 || p - 1 < two52)
                        ? choose_matmul_method(r, p, k, n)
                        : Method::integer_delayed;
  check_method(fn, m_, r, p);
  messages::check_matrix_operands(fn, m_, r, vec, C, ldc, A, lda, B, ldb, m, n, k);
  const char* bn = vec ? "x" : "B";
  check_residues(fn, "A", A, m, k, lda, p, false);
  check_residues(fn, bn, B, k, n, ldb, p, vec);
  if (m == 0 || n == 0) return;

  if (m_ == Method::fp_naive) {
    const Fp64Policy pol(p);
    if constexpr (std::is_same_v<T, double>) {
      blocked_product(C, ldc, A, lda, B, ldb, m, n, k, block_fp64(p), pol);
    } else {  // exact: residues < p < 2^27
      std::vector<double> a(m * k), b(k * n);
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t l = 0; l < k; ++l) a[i * k + l] = double(A[i * lda + l]);
      for (std::size_t l = 0; l < k; ++l)
        for (std::size_t j = 0; j < n; ++j) b[l * n + j] = double(B[l * ldb + j]);
      blocked_product(C, ldc, a.data(), k, b.data(), n, m, n, k, block_fp64(p), pol);
    }
    return;
  }
  // integer_delayed
  const auto run = [&](const std::uint64_t* a, std::size_t la, const std::uint64_t* b, std::size_t lb) {
    if (use_int64(p))
      blocked_product(C, ldc, a, la, b, lb, m, n, k, block_int64(p), IntPolicy<std::uint64_t>(p));
    else
      blocked_product(C, ldc, a, la, b, lb, m, n, k, block_int128(p), IntPolicy<u128>(p));
  };
  if constexpr (std::is_same_v<T, std::uint64_t>) {
    run(A, lda, B, ldb);
  } else {  // exact: integral residues < 2^53
    std::vector<std::uint64_t> a(m * k), b(k * n);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t l = 0; l < k; ++l) a[i * k + l] = std::uint64_t(A[i * lda + l]);
    for (std::size_t l = 0; l < k; ++l)
      for (std::size_t j = 0; j < n; ++j) b[l * n + j] = std::uint64_t(B[l * ldb + j]);
    run(a.data(), k, b.data(), n);
  }
}

}  // namespace

void check_matmul_admissible(Method m, Residue r, std::uint64_t p) { check_method("matmul", m, r, p); }

bool is_matmul_admissible(Method m, Residue r, std::uint64_t p) noexcept {
  try {
    check_method("matmul", m, r, p);
    return true;
  } catch (const InvalidArgument&) {
    return false;
  }
}

// fp_naive where admissible and its reductions are rare enough: all k terms
// in one block, or blocks of >= 64 terms: fp_naive's rate falls with its
// block and meets integer_delayed's near a block of 48 terms (docs/dot.md,
// "Matrix products mod p", has the bench/matmul_host_bench table). uint64
// matvec (n = 1) stays integer: fp_naive would first copy A into doubles,
// as much memory traffic as the product itself.
constexpr std::uint64_t fp64_min_block = 64;

Method choose_matmul_method(Residue r, std::uint64_t p, std::size_t k, std::size_t n) {
  if (is_matmul_admissible(Method::fp_naive, r, p) && !(r == Residue::u64 && n == 1)) {
    const std::uint64_t kb = block_fp64(p);
    if (kb >= fp64_min_block || kb >= k) return Method::fp_naive;
  }
  check_method("matmul", Method::integer_delayed, r, p);  // throws with the reason
  return Method::integer_delayed;
}

std::uint64_t matmul_reduction_block(Method m, Residue r, std::uint64_t p) {
  check_method("matmul", m, r, p);
  if (m == Method::fp_naive) return block_fp64(p);
  return use_int64(p) ? block_int64(p) : block_int128(p);
}

void matmul(std::uint64_t* C, std::size_t ldc, const std::uint64_t* A, std::size_t lda,
            const std::uint64_t* B, std::size_t ldb, std::size_t m, std::size_t n, std::size_t k,
            std::uint64_t p, Method method) {
  product("matmul", false, C, ldc, A, lda, B, ldb, m, n, k, p, method);
}

void matmul(double* C, std::size_t ldc, const double* A, std::size_t lda, const double* B,
            std::size_t ldb, std::size_t m, std::size_t n, std::size_t k, std::uint64_t p,
            Method method) {
  product("matmul", false, C, ldc, A, lda, B, ldb, m, n, k, p, method);
}

void matvec(std::uint64_t* y, const std::uint64_t* A, std::size_t lda, const std::uint64_t* x,
            std::size_t m, std::size_t k, std::uint64_t p, Method method) {
  product("matvec", true, y, 1, A, lda, x, 1, m, 1, k, p, method);
}

void matvec(double* y, const double* A, std::size_t lda, const double* x, std::size_t m,
            std::size_t k, std::uint64_t p, Method method) {
  product("matvec", true, y, 1, A, lda, x, 1, m, 1, k, p, method);
}

}  // namespace mpgpu::dot
