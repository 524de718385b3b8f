// Dot products mod p on the host (see mpgpu/dot/dot_host.hpp, docs/dot.md).
//
// Rounding: fp_lambda and fp_abcd need rounding toward zero (Jean & Graillat,
// Sec. III: TwoProduct's error and ExtractScalar's low part are then >= 0).
// GCC ignores `#pragma STDC FENV_ACCESS ON`, so src/CMakeLists.txt compiles
// this file with -frounding-math (no constant folding or reassociation that
// assumes round-to-nearest), and the kernels are `noipa` functions called
// between fesetround() and its restore, so no floating-point operation of a
// kernel can be moved across the mode switch.
#include "mpgpu/dot/dot_host.hpp"

#include <cfenv>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "dot_checks.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/field/roots.hpp"

namespace mpgpu::dot {

namespace {

using messages::reject;
using messages::residue_name;
using messages::residue_of;

using u128 = unsigned __int128;

double ldexp1(int e) { return std::ldexp(1.0, e); }

constexpr std::uint64_t two52 = std::uint64_t{1} << 52;
constexpr std::uint64_t two53 = std::uint64_t{1} << 53;



/// Sets rounding toward zero for its lifetime, restores the caller's mode.
class RoundTowardZero {
 public:
  RoundTowardZero() : saved_(std::fegetround()) {
    if (std::fesetround(FE_TOWARDZERO) != 0)
      throw Error("mpgpu::dot: cannot set rounding toward zero (fesetround failed)");
  }
  ~RoundTowardZero() { std::fesetround(saved_); }
  RoundTowardZero(const RoundTowardZero&) = delete;
  RoundTowardZero& operator=(const RoundTowardZero&) = delete;

 private:
  int saved_;
};

// ---- reduction blocks (the bounds) --------------------------------------------

/// 64-bit accumulator, products <= (p-1)^2 < 2^64 (p < 2^32): a block of K
/// products sums to <= K (p-1)^2 <= 2^64 - 1 with K = floor((2^64-1)/(p-1)^2)
/// (K >= 1 for p < 2^32; K >= 4 for p <= 2^31 + 1).
std::uint64_t block64(std::uint64_t p) {
  const std::uint64_t q = (p - 1) * (p - 1);  // < 2^64 since p - 1 < 2^32
  return std::numeric_limits<std::uint64_t>::max() / q;
}

/// Below this 64-bit block (p > ~2^30) the per-block % costs more than
/// 128-bit adds: at p = 2^32 - 5 (block 1) 64-bit accumulators took more
/// than twice the time a term of 128-bit ones (docs/dot.md, "Methods and
/// bounds"; docs/tuning-history.md, "Dot products").
constexpr std::uint64_t min_block64 = 16;

/// 128-bit accumulator, products <= (p-1)^2 < 2^128 (p < 2^64): blocks of
/// K = floor((2^128-1)/(p-1)^2) products, >= 4 for p < 2^63 and >= 1 up to
/// 2^64 - 59; capped at 2^63 (longer than any vector) so it fits a uint64.
std::uint64_t block128(std::uint64_t p) {
  const u128 q = u128(p - 1) * (p - 1);
  const u128 k = ~u128(0) / q;
  return k > (u128(1) << 63) ? std::uint64_t{1} << 63 : std::uint64_t(k);
}

/// FFLAS bound: K (p-1)^2 < 2^53, so a block of K products is an exact
/// integer in a double: K = floor((2^53 - 1) / (p-1)^2).
std::uint64_t block_naive(std::uint64_t p) { return (two53 - 1) / ((p - 1) * (p - 1)); }

/// Jean & Graillat, Theorem 3: lambda (p-1) < 2^(M-1) = 2^52, lambda = floor((2^52-1)/(p-1)).
std::uint64_t block_lambda(std::uint64_t p) { return (two52 - 1) / (p - 1); }

void check_prime(Method m, Residue r, std::uint64_t p) {
  if (p < 3 || p % 2 == 0 || !field::is_prime(p))
    reject(m, r, "modulus p = " + std::to_string(p) + " is not an odd prime");
}

// ---- kernels ------------------------------------------------------------------
// Each takes (pointer, stride) pairs and a length already checked; Unit =
// true is the contiguous instance (strides ignored, loops vectorizable).

template <bool Unit, class T>
__attribute__((noipa)) std::uint64_t kernel_int64(const T* a, std::size_t sa, const T* b,
                                                  std::size_t sb, std::size_t n, std::uint64_t p,
                                                  std::uint64_t block) {
  std::uint64_t acc = 0;  // < p
  for (std::size_t i = 0; i < n;) {
    const std::size_t end = n - i > block ? i + block : n;
    std::uint64_t s = 0;  // <= block * (p-1)^2 <= 2^64 - 1
    for (; i < end; ++i) s += std::uint64_t(a[Unit ? i : i * sa]) * std::uint64_t(b[Unit ? i : i * sb]);
    acc += s % p;  // < 2p < 2^33
    if (acc >= p) acc -= p;
  }
  return acc;
}

template <bool Unit, class T>
__attribute__((noipa)) std::uint64_t kernel_int128(const T* a, std::size_t sa, const T* b,
                                                   std::size_t sb, std::size_t n, std::uint64_t p,
                                                   std::uint64_t block) {
  std::uint64_t acc = 0;  // < p < 2^64
  for (std::size_t i = 0; i < n;) {
    const std::size_t end = n - i > block ? i + block : n;
    u128 s = 0;  // <= block * (p-1)^2 <= 2^128 - 1
    for (; i < end; ++i) s += u128(std::uint64_t(a[Unit ? i : i * sa])) * std::uint64_t(b[Unit ? i : i * sb]);
    // acc + r mod p without forming acc + r, which can pass 2^64 when p > 2^63.
    const std::uint64_t r = std::uint64_t(s % p);
    acc = acc >= p - r ? acc - (p - r) : acc + r;
  }
  return acc;
}

/// FFLAS delayed reduction in doubles: a block of K products (each exact,
/// (p-1)^2 < 2^53) sums exactly to < 2^53; fmod is exact; acc + fmod < 2p.
template <bool Unit>
__attribute__((noipa)) std::uint64_t kernel_naive(const double* a, std::size_t sa, const double* b,
                                                  std::size_t sb, std::size_t n, std::uint64_t p,
                                                  std::uint64_t block) {
  const double pd = double(p);
  double acc = 0;
  for (std::size_t i = 0; i < n;) {
    const std::size_t end = n - i > block ? i + block : n;
    double s = 0;
    for (; i < end; ++i) s += a[Unit ? i : i * sa] * b[Unit ? i : i * sb];
    acc += std::fmod(s, pd);
    if (acc >= pd) acc -= pd;
  }
  return std::uint64_t(acc);
}

/// TwoProduct (Algorithm 1): ab = x + y exactly, 0 <= y < u ufp(x) in
/// rounding toward zero.
inline void two_product(double a, double b, double& x, double& y) {
  x = a * b;
  y = std::fma(a, b, -x);
}

/// ExtractScalar (Algorithm 2), sigma = 2^k >= a: a = x + y, x a multiple of
/// u sigma = 2^(k-52), 0 <= y < u sigma (rounding toward zero).
inline void extract_scalar(double sigma, double a, double& x, double& y) {
  const double q = sigma + a;
  x = q - sigma;
  y = a - x;
}

struct LambdaSums {
  double A, B, R;  // each < p
  std::uint64_t n_alpha, n_beta;
};

/// The lambda-algorithm (Jean & Graillat, Sec. IV-B, serial form of its ref. [2]).
/// l = floor(log2(p-1)), so 2^l <= p-1 < 2^(l+1) and l <= 51. With
/// a, b < 2^(l+1): ab < 2^(2l+2). TwoProduct gives ab = h + r with
/// 0 <= r < u ufp(h) <= 2^(2l+1-52) <= 2^l. ExtractScalar(2^(l+53), h)
/// (valid: h < 2^(2l+2) <= 2^(l+53)) gives h = alpha + beta with alpha a
/// multiple of 2^(l+1) and beta < 2^(l+1); alpha' = alpha 2^-(l+1) < 2^(l+1).
/// alpha' or beta >= 2^l lose 2^l and are counted (n_alpha, n_beta), so
///   ab = 2^(l+1) alpha' + beta + r + (2^(l+1) n_alpha + n_beta) 2^l
/// with every summed term < 2^l <= p - 1. Summing lambda such terms from 0
/// stays < lambda (p-1) < 2^52 (Theorem 3): exact; then acc + block < 2^53
/// is exact and fmod reduces it exactly.
template <bool Unit>
__attribute__((noipa)) LambdaSums kernel_lambda(const double* a, std::size_t sa, const double* b,
                                                std::size_t sb, std::size_t n, std::uint64_t p,
                                                std::uint64_t lambda, int l) {
  const double pd = double(p);
  const double sigma = ldexp1(l + 53);
  const double inv = ldexp1(-(l + 1));
  const double two_l = ldexp1(l);
  LambdaSums out{0, 0, 0, 0, 0};
  for (std::size_t i = 0; i < n;) {
    const std::size_t end = n - i > lambda ? i + lambda : n;
    double sA = 0, sB = 0, sR = 0;
    std::uint64_t na = 0, nb = 0;
    for (; i < end; ++i) {
      double h, r, alpha, beta;
      two_product(a[Unit ? i : i * sa], b[Unit ? i : i * sb], h, r);
      extract_scalar(sigma, h, alpha, beta);
      alpha *= inv;  // exact: a power-of-two scaling of a multiple of 2^(l+1)
      const bool ca = alpha >= two_l, cb = beta >= two_l;
      na += ca;
      nb += cb;
      sA += ca ? alpha - two_l : alpha;
      sB += cb ? beta - two_l : beta;
      sR += r;
    }
    out.A = std::fmod(out.A + sA, pd);
    out.B = std::fmod(out.B + sB, pd);
    out.R = std::fmod(out.R + sR, pd);
    out.n_alpha += na;
    out.n_beta += nb;
  }
  return out;
}

/// The (alpha, beta, gamma, delta)-algorithm (Jean & Graillat, Sec. IV-C, Algorithm
/// 3) with M = 53, s1 = 26: sigma = 2^(s5-1) = 2^131, 2^(s4-1) = 2^105,
/// 2^(s3-1) = 2^78. Per term (p - 1 < 2^52, so ab < 2^104):
///   alpha = A 2^79,  A < 2^25
///   beta  = B 2^53,  B < 2^26
///   gamma = C 2^26,  C < 2^27 + 2^25  (case alpha > 0: gamma' + eps with
///                                      eps < 2^53, gamma' <= r < 2^51)
///   delta < 2^27                       (case 2.1: eps + r, both < 2^26)
/// so with n <= 2^25 every one of the four sums, in its unit, stays below
/// 2^52 + 2^50 < 2^53: exact with no reduction. Returns the sums reduced.
template <bool Unit>
__attribute__((noipa)) std::uint64_t kernel_abcd(const double* a, std::size_t sa, const double* b,
                                                 std::size_t sb, std::size_t n, std::uint64_t p) {
  const double sig5 = ldexp1(131), sig4 = ldexp1(105), sig3 = ldexp1(78);
  double A = 0, B = 0, C = 0, D = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double h, r, alpha, beta, gamma, delta, eps;
    two_product(a[Unit ? i : i * sa], b[Unit ? i : i * sb], h, r);
    extract_scalar(sig5, h, alpha, beta);
    if (alpha != 0) {  // case 1
      extract_scalar(sig4, beta, beta, eps);
      extract_scalar(sig3, r, gamma, delta);
      gamma = gamma + eps;
    } else if (beta != 0) {  // case 2.1 (h < 2^79; also covers h < 2^53, where r = 0)
      extract_scalar(sig4, h, beta, gamma);
      extract_scalar(sig3, gamma, gamma, eps);
      delta = r + eps;
    } else {  // case 2.2 as listed (h = 0)
      beta = 0;
      extract_scalar(sig3, h, gamma, delta);
    }
    A += alpha;
    B += beta;
    C += gamma;
    D += delta;
  }
  // Algorithm 3's tail: 7 exact fmods and 3 sums of two values < p.
  const double pd = double(p);
  A = std::fmod(A, pd);
  B = std::fmod(B, pd);
  C = std::fmod(C, pd);
  D = std::fmod(D, pd);
  A = std::fmod(A + B, pd);
  C = std::fmod(C + D, pd);
  return std::uint64_t(std::fmod(A + C, pd));
}

// ---- validation ---------------------------------------------------------------

template <class T>
bool is_residue(T x, std::uint64_t p) {
  if constexpr (std::is_same_v<T, double>)
    // false for NaN; the conversion truncates (cvttsd2si, no libm floor call)
    // and is defined because 0 <= x < p < 2^53 is checked first.
    return x >= 0 && x < double(p) && x == double(std::uint64_t(x));
  else
    return std::uint64_t(x) < p;
}

template <class T>
void check_residues(const T* v, std::size_t stride, std::size_t n, std::uint64_t p,
                    const char* name, std::size_t batch, bool batched) {
  for (std::size_t i = 0; i < n; ++i)
    if (!is_residue(v[i * stride], p)) {
      std::string where = batched ? "dot " + std::to_string(batch) + ", " : std::string();
      throw InvalidArgument("mpgpu::dot: " + where + name + "[" + std::to_string(i) +
                            "] is not a residue in [0, p) for p = " + std::to_string(p));
    }
}


/// One dot product with a resolved, checked method.
template <bool Unit, class T>
std::uint64_t run_unit(Method m, const T* a, std::size_t sa, const T* b, std::size_t sb, std::size_t n,
                  std::uint64_t p) {
  if constexpr (std::is_same_v<T, double>) {
    switch (m) {
      case Method::fp_naive: return kernel_naive<Unit>(a, sa, b, sb, n, p, block_naive(p));
      case Method::fp_lambda: {
        const int l = 63 - __builtin_clzll(p - 1);
        const LambdaSums s = kernel_lambda<Unit>(a, sa, b, sb, n, p, block_lambda(p), l);
        // ab = 2^(l+1) A + B + R + (2^(l+1) n_alpha + n_beta) 2^l, mod p, in integers.
        const std::uint64_t t = (u128(1) << (l + 1)) % p, tl = (std::uint64_t{1} << l) % p;
        const u128 corr = (u128(s.n_alpha) << (l + 1)) + s.n_beta;  // < 2^84
        u128 sum = u128(t) * std::uint64_t(s.A) % p;
        sum += std::uint64_t(s.B);
        sum += std::uint64_t(s.R);
        sum += u128(std::uint64_t(corr % p)) * tl % p;
        return std::uint64_t(sum % p);
      }
      case Method::fp_abcd: return kernel_abcd<Unit>(a, sa, b, sb, n, p);
      default: break;
    }
    return kernel_int128<Unit>(a, sa, b, sb, n, p, block128(p));
  } else if constexpr (std::is_same_v<T, std::uint32_t>) {
    if (block64(p) < min_block64) return kernel_int128<Unit>(a, sa, b, sb, n, p, block128(p));
    return kernel_int64<Unit>(a, sa, b, sb, n, p, block64(p));
  } else {
    return kernel_int128<Unit>(a, sa, b, sb, n, p, block128(p));
  }
}

template <class T>
std::uint64_t run(Method m, const T* a, std::size_t sa, const T* b, std::size_t sb, std::size_t n,
                  std::uint64_t p) {
  return sa == 1 && sb == 1 ? run_unit<true>(m, a, sa, b, sb, n, p)
                            : run_unit<false>(m, a, sa, b, sb, n, p);
}

template <class T>
void dot_impl(std::uint64_t* out, const T* a, std::size_t sa, const T* b, std::size_t sb,
              std::size_t count, std::size_t batch_stride, std::size_t n, std::uint64_t p,
              Method m, bool batched) {
  constexpr Residue r = residue_of<T>();
  if (m == Method::automatic) m = choose_method(r, p, n);
  check_admissible(m, r, p, n);
  if (sa == 0 || sb == 0) reject(m, r, "strides must be >= 1");
  if (count > 0 && n > 0 && (a == nullptr || b == nullptr)) reject(m, r, "null input pointer");
  if (batched && count > 0 && out == nullptr) reject(m, r, "null output pointer");
  for (std::size_t k = 0; k < count; ++k) {
    check_residues(a + k * batch_stride, sa, n, p, "a", k, batched);
    check_residues(b + k * batch_stride, sb, n, p, "b", k, batched);
  }
  const bool fenv = m == Method::fp_lambda || m == Method::fp_abcd;
  if (fenv) {
    RoundTowardZero rz;
    for (std::size_t k = 0; k < count; ++k)
      out[k] = run(m, a + k * batch_stride, sa, b + k * batch_stride, sb, n, p);
  } else {
    for (std::size_t k = 0; k < count; ++k)
      out[k] = run(m, a + k * batch_stride, sa, b + k * batch_stride, sb, n, p);
  }
}

template <class T>
std::uint64_t dot_one(const T* a, std::size_t sa, const T* b, std::size_t sb, std::size_t n,
                      std::uint64_t p, Method m) {
  std::uint64_t out = 0;
  dot_impl(&out, a, sa, b, sb, 1, 0, n, p, m, false);
  return out;
}

}  // namespace

const char* method_name(Method m) {
  switch (m) {
    case Method::integer_delayed: return "integer_delayed";
    case Method::fp_naive: return "fp_naive";
    case Method::fp_lambda: return "fp_lambda";
    case Method::fp_abcd: return "fp_abcd";
    case Method::automatic: return "automatic";
  }
  return "?";
}

void check_admissible(Method m, Residue r, std::uint64_t p, std::size_t n) {
  if (m == Method::automatic) reject(m, r, "resolve `automatic` with choose_method first");
  if (n > max_length)
    reject(m, r, "length n = " + std::to_string(n) + " exceeds the maximum 2^31");
  check_prime(m, r, p);
  switch (r) {
    case Residue::u32:
      if (m != Method::integer_delayed)
        reject(m, r, "only integer_delayed takes uint32 residues (fp methods take doubles)");
      if (p >= (std::uint64_t{1} << 32)) reject(m, r, "needs p < 2^32, got p = " + std::to_string(p));
      return;
    case Residue::u64:
      if (m != Method::integer_delayed)
        reject(m, r, "only integer_delayed takes uint64 residues (fp methods take doubles)");
      return;  // any p < 2^64: 128-bit blocks hold >= 1 product, residues add without overflow
    case Residue::f64:
      break;
  }
  // Doubles hold residues exactly only below 2^53; Jean & Graillat's hypothesis (1)
  // is p - 1 < 2^(M-1) = 2^52 (room to add two residues exactly).
  if (p - 1 >= two52)
    reject(m, r, "needs p - 1 < 2^52 (residues and sums of two must be exact doubles), got p = " +
                     std::to_string(p));
  switch (m) {
    case Method::fp_naive:
      if (block_naive(p) == 0)
        reject(m, r, "needs (p-1)^2 < 2^53 (FFLAS bound: p <= 94906266), got p = " +
                         std::to_string(p));
      return;
    case Method::fp_abcd:
      if (n > abcd_max_length)
        reject(m, r, "needs n <= 2^25 (each product's gamma part is < 2^28 in units of 2^26 and the "
                     "sum of n of them must stay an exact double, < 2^53), got n = " + std::to_string(n));
      return;
    default:  // integer_delayed (128-bit) and fp_lambda: p - 1 < 2^52 suffices
      return;
  }
}

bool is_admissible(Method m, Residue r, std::uint64_t p, std::size_t n) noexcept {
  try {
    check_admissible(m, r, p, n);
    return true;
  } catch (const InvalidArgument&) {
    return false;
  }
}

// Order for `automatic`: integer residues have one method. For double
// residues integer_delayed, admissible wherever a double method is, measured
// fastest on the CPU for every p (fp_naive degrades as its FFLAS block
// shrinks, fp_lambda as lambda does); the rest follow as fallbacks in
// measured order (docs/tuning-history.md, "Dot products"). The fp methods
// exist for FP64-rich hardware (Jean & Graillat: "we cannot compete with
// integer computations if integer arithmetic units are available").
Method choose_method(Residue r, std::uint64_t p, std::size_t n) {
  if (r != Residue::f64) {
    check_admissible(Method::integer_delayed, r, p, n);
    return Method::integer_delayed;
  }
  for (Method m : {Method::integer_delayed, Method::fp_abcd, Method::fp_naive, Method::fp_lambda})
    if (is_admissible(m, r, p, n)) return m;
  check_admissible(Method::fp_lambda, r, p, n);  // throws with the reason
  return Method::fp_lambda;
}

std::uint64_t reduction_block(Method m, Residue r, std::uint64_t p) {
  check_admissible(m, r, p, 0);
  switch (m) {
    case Method::integer_delayed:
      return r == Residue::u32 && block64(p) >= min_block64 ? block64(p) : block128(p);
    case Method::fp_naive: return block_naive(p);
    case Method::fp_lambda: return block_lambda(p);
    default: return abcd_max_length;
  }
}

#define MPGPU_DOT_DEFINE(T)                                                                      \
  std::uint64_t dot(const T* a, const T* b, std::size_t n, std::uint64_t p, Method m) {         \
    return dot_one(a, 1, b, 1, n, p, m);                                                         \
  }                                                                                              \
  std::uint64_t dot_strided(const T* a, std::size_t sa, const T* b, std::size_t sb,             \
                            std::size_t n, std::uint64_t p, Method m) {                          \
    return dot_one(a, sa, b, sb, n, p, m);                                                       \
  }                                                                                              \
  void dot_batched(std::uint64_t* out, const T* a, const T* b, std::size_t count, std::size_t n, \
                   std::uint64_t p, Method m) {                                                  \
    dot_impl(out, a, 1, b, 1, count, n, n, p, m, true);                                          \
  }
MPGPU_DOT_DEFINE(std::uint32_t)
MPGPU_DOT_DEFINE(std::uint64_t)
MPGPU_DOT_DEFINE(double)
#undef MPGPU_DOT_DEFINE

}  // namespace mpgpu::dot
