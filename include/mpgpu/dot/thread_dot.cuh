// Per-thread dot-product accumulators mod p, one per method of
// mpgpu/dot/dot_host.hpp, for the device kernels (src/cuda/dot_device.cu).
// Each sums the terms one thread sees (add), then turns its sum into one
// residue < p (finish); the kernel then adds the threads' residues mod p.
// The bounds below are per thread, and a thread never sees more terms than
// the whole vector, so the host's bounds (check_admissible) cover them.
// Device code only (nvcc).
//
// Field layer: per-thread values, no memory, no launches.
#pragma once

#if !defined(__CUDACC__)
#error "mpgpu/dot/thread_dot.cuh holds device code: include it from .cu files only"
#endif

#include <cstdint>

#include "mpgpu/dot/eft.cuh"
#include "mpgpu/limb/arith.cuh"

namespace mpgpu::dot::thread {

using u128 = unsigned __int128;

/// Everything a kernel needs about p, computed once on the host
/// (src/cuda/dot_device.cu, make_consts).
struct DotConsts {
  std::uint64_t p;
  double pd;            // p as a double (exact: p - 1 < 2^52 for double methods)
  double pinv;          // fl(1/p)
  std::uint64_t block;  // fp_naive: FFLAS block; fp_lambda: lambda
  // fp_lambda (l = floor(log2(p-1))): sigma = 2^(l+53), inv = 2^-(l+1), two_l = 2^l,
  // pow_l1 = 2^(l+1) mod p, pow_l = 2^l mod p.
  double sigma, inv, two_l;
  std::uint64_t pow_l1, pow_l;
  // fp_abcd: 2^79, 2^53, 2^26 mod p (the units of alpha, beta, gamma).
  std::uint64_t pow79, pow53, pow26;
};

__device__ __forceinline__ std::uint64_t add_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  const std::uint64_t s = a + b;  // a, b < p; may wrap when p > 2^63
  return s < a || s >= p ? s - p : s;
}

__device__ __forceinline__ std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>(u128(a) * b % p);
}

/// (top 2^128 + hi 2^64 + lo) mod p, by Horner in 128-bit remainders (each
/// (r 2^64 + w) < p 2^64 fits 128 bits). Once per thread: cost irrelevant.
__device__ __forceinline__ std::uint64_t reduce_words(std::uint64_t top, std::uint64_t hi, std::uint64_t lo,
                                                      std::uint64_t p) {
  u128 r = top % p;
  r = ((r << 64) | hi) % p;
  r = ((r << 64) | lo) % p;
  return static_cast<std::uint64_t>(r);
}

/// Exact s mod p for an integer double 0 <= s < 2^53: q = trunc(s fl(1/p))
/// is within 2 of floor(s/p) (relative error < 2^-51, s/p < 2^53/p, so the
/// absolute error is < 4/p + 1 ulp <= 2), r = s - q p is computed exactly in
/// 64-bit integers (wrapping; the true value lies in (-2p, 3p)), then moved
/// into [0, p) by at most two corrections each way (not loops: a kernel
/// that met a bad element, whose call will fail, may pass garbage here and
/// must still finish). Cheaper than fmod (a loop) or a 64-bit `%` (a call).
__device__ __forceinline__ std::uint64_t reduce_exact(double s, const DotConsts& c) {
  const std::uint64_t si = __double2ull_rz(s);
  const std::uint64_t q = __double2ull_rz(__dmul_rn(s, c.pinv));
  std::int64_t r = static_cast<std::int64_t>(si - q * c.p);
  const std::int64_t ps = static_cast<std::int64_t>(c.p);
  if (r < 0) r += ps;
  if (r < 0) r += ps;
  if (r >= ps) r -= ps;
  if (r >= ps) r -= ps;
  return static_cast<std::uint64_t>(r);
}

/// Whether x is a residue in [0, p): for doubles also an integer (NaN fails).
__device__ __forceinline__ bool is_residue(std::uint32_t x, const DotConsts& c) { return x < c.p; }
__device__ __forceinline__ bool is_residue(std::uint64_t x, const DotConsts& c) { return x < c.p; }
__device__ __forceinline__ bool is_residue(double x, const DotConsts& c) {
  return x >= 0 && x < c.pd && x == trunc(x);
}

__device__ __forceinline__ std::uint64_t to_u64(std::uint32_t x) { return x; }
__device__ __forceinline__ std::uint64_t to_u64(std::uint64_t x) { return x; }
/// Exact for integers below 2^53 (invalid inputs give some value; the call
/// then fails and no result is written).
__device__ __forceinline__ std::uint64_t to_u64(double x) { return __double2ull_rz(x); }

// ---- integer_delayed ---------------------------------------------------------------

/// uint32 residues: products < 2^64 go into a 64-bit word, its carries into
/// a 32-bit counter. Bound: n (p-1)^2 < 2^31 2^64 = 2^95 < 2^96, so the
/// 96-bit sum never overflows and no reduction is needed before finish().
struct IntegerU32 {
  using T = std::uint32_t;
  std::uint64_t lo = 0;
  std::uint32_t top = 0;
  __device__ explicit IntegerU32(const DotConsts&) {}
  __device__ __forceinline__ void add(T a, T b) {
    const std::uint64_t t = static_cast<std::uint64_t>(a) * b;
    lo += t;
    top += lo < t;
  }
  __device__ __forceinline__ std::uint64_t finish(const DotConsts& c) const { return reduce_words(0, top, lo, c.p); }
};

/// uint64 (any p < 2^64) and double (p - 1 < 2^52) residues: 128-bit
/// products summed by limb::mul_add's carry chain into (hi:lo), its carries
/// (at most 1 a term: (hi:lo) + ab < 2^129) into a 32-bit counter. Bound:
/// n (p-1)^2 < 2^31 2^128 = 2^159 < 2^160, so the 160-bit sum never
/// overflows and no reduction is needed before finish().
template <class Elem>
struct IntegerWide {
  using T = Elem;
  std::uint64_t lo = 0, hi = 0;
  std::uint32_t top = 0;
  __device__ explicit IntegerWide(const DotConsts&) {}
  __device__ __forceinline__ void add(T a, T b) {
    top += static_cast<std::uint32_t>(limb::mul_add(to_u64(a), to_u64(b), 0, lo, hi));
  }
  __device__ __forceinline__ std::uint64_t finish(const DotConsts& c) const { return reduce_words(top, hi, lo, c.p); }
};

// ---- fp_naive (FFLAS delayed reduction) ----------------------------------------------

/// Products are exact ((p-1)^2 < 2^53), and c.block = floor((2^53-1)/(p-1)^2)
/// of them sum exactly (the FFLAS bound block (p-1)^2 < 2^53): the running
/// double is reduced exactly after every block terms; the rounding mode is
/// irrelevant (every operation is exact).
struct FpNaive {
  using T = double;
  double s = 0;
  std::uint64_t count = 0, res = 0;
  const DotConsts* c;
  __device__ explicit FpNaive(const DotConsts& k) : c(&k) {}
  __device__ __forceinline__ void add(T a, T b) {
    s = __fma_rn(a, b, s);
    if (++count == c->block) {
      res = add_mod(res, reduce_exact(s, *c), c->p);
      s = 0;
      count = 0;
    }
  }
  __device__ __forceinline__ std::uint64_t finish(const DotConsts& k) const {
    return add_mod(res, reduce_exact(s, k), k.p);
  }
};

// ---- fp_lambda (Jean & Graillat, Sec. IV-B) -----------------------------------------

/// As src/dot/dot_host.cpp's kernel_lambda: with l = floor(log2(p-1)),
/// ab = h + r (TwoProduct, 0 <= r < 2^l), h = alpha + beta (ExtractScalar
/// with sigma = 2^(l+53)), alpha' = alpha 2^-(l+1) < 2^(l+1), beta < 2^(l+1);
/// terms >= 2^l lose 2^l and are counted, so every summed term is < 2^l <= p-1
/// and lambda = c.block of them sum exactly below lambda (p-1) < 2^52
/// (Theorem 3); each sum is then reduced exactly. finish() adds
/// 2^(l+1) A + B + R + (2^(l+1) n_alpha + n_beta) 2^l mod p in integers.
struct FpLambda {
  using T = double;
  double sA = 0, sB = 0, sR = 0;
  std::uint64_t count = 0, rA = 0, rB = 0, rR = 0, n_alpha = 0, n_beta = 0;
  const DotConsts* c;
  __device__ explicit FpLambda(const DotConsts& k) : c(&k) {}
  __device__ __forceinline__ void flush() {
    rA = add_mod(rA, reduce_exact(sA, *c), c->p);
    rB = add_mod(rB, reduce_exact(sB, *c), c->p);
    rR = add_mod(rR, reduce_exact(sR, *c), c->p);
    sA = sB = sR = 0;
    count = 0;
  }
  __device__ __forceinline__ void add(T a, T b) {
    double h, r, alpha, beta;
    eft::two_product(a, b, h, r);
    eft::extract_scalar(c->sigma, h, alpha, beta);
    alpha = __dmul_rz(alpha, c->inv);  // exact: a power-of-two scaling
    const bool ca = alpha >= c->two_l, cb = beta >= c->two_l;
    n_alpha += ca;
    n_beta += cb;
    sA = __dadd_rz(sA, ca ? __dsub_rz(alpha, c->two_l) : alpha);  // all exact: integers < 2^52
    sB = __dadd_rz(sB, cb ? __dsub_rz(beta, c->two_l) : beta);
    sR = __dadd_rz(sR, r);
    if (++count == c->block) flush();
  }
  __device__ __forceinline__ std::uint64_t finish(const DotConsts& k) {
    flush();
    const std::uint64_t p = k.p;
    std::uint64_t sum = mul_mod(k.pow_l1, rA, p);
    sum = add_mod(sum, rB, p);
    sum = add_mod(sum, rR, p);
    // (2^(l+1) n_alpha + n_beta) 2^l: n_alpha, n_beta <= 2^31, l + 1 <= 52.
    const std::uint64_t corr = add_mod(mul_mod(k.pow_l1, n_alpha % p, p), n_beta % p, p);
    return add_mod(sum, mul_mod(corr, k.pow_l, p), p);
  }
};

// ---- fp_abcd (Jean & Graillat, Sec. IV-C, Algorithm 3) ----------------------------

/// As src/dot/dot_host.cpp's kernel_abcd (M = 53, s1 = 26; sigmas 2^131, 2^105,
/// 2^78): each product splits exactly into alpha = A 2^79 (A < 2^25),
/// beta = B 2^53 (B < 2^26), gamma = C 2^26 (C < 2^27 + 2^25), delta < 2^27;
/// with n <= 2^25 each of the four sums, in its unit, stays below
/// 2^52 + 2^50 < 2^53: exact, no reduction at all. Case 2.2 (h = 0) is
/// folded into case 2.1, which gives 0 for it too (r = 0, both splits of 0
/// are 0). finish() scales each sum to its integer count (exact) and adds
/// count * unit mod p in integers instead of Algorithm 3's fmod tail.
struct FpAbcd {
  using T = double;
  double A = 0, B = 0, C = 0, D = 0;
  __device__ explicit FpAbcd(const DotConsts&) {}
  __device__ __forceinline__ void add(T a, T b) {
    constexpr double sig5 = 0x1p131, sig4 = 0x1p105, sig3 = 0x1p78;
    double h, r, alpha, beta, gamma, delta, eps;
    eft::two_product(a, b, h, r);
    eft::extract_scalar(sig5, h, alpha, beta);
    if (alpha != 0) {  // case 1
      eft::extract_scalar(sig4, beta, beta, eps);
      eft::extract_scalar(sig3, r, gamma, delta);
      gamma = __dadd_rz(gamma, eps);
    } else {  // cases 2.1 and 2.2 (h < 2^79)
      eft::extract_scalar(sig4, h, beta, gamma);
      eft::extract_scalar(sig3, gamma, gamma, eps);
      delta = __dadd_rz(r, eps);
    }
    A = __dadd_rz(A, alpha);  // exact by the bound above
    B = __dadd_rz(B, beta);
    C = __dadd_rz(C, gamma);
    D = __dadd_rz(D, delta);
  }
  __device__ __forceinline__ std::uint64_t finish(const DotConsts& k) const {
    const std::uint64_t p = k.p;
    // Scalings by powers of two are exact; the counts are integers < 2^53.
    const std::uint64_t a = __double2ull_rz(__dmul_rz(A, 0x1p-79)) % p;
    const std::uint64_t b = __double2ull_rz(__dmul_rz(B, 0x1p-53)) % p;
    const std::uint64_t g = __double2ull_rz(__dmul_rz(C, 0x1p-26)) % p;
    const std::uint64_t d = __double2ull_rz(D) % p;
    std::uint64_t s = mul_mod(a, k.pow79, p);
    s = add_mod(s, mul_mod(b, k.pow53, p), p);
    s = add_mod(s, mul_mod(g, k.pow26, p), p);
    return add_mod(s, d, p);
  }
};

// ---- the benchmark baseline: one reduction per term ---------------------------------

template <class Elem>
struct PerTerm {
  using T = Elem;
  std::uint64_t res = 0;
  const DotConsts* c;
  __device__ explicit PerTerm(const DotConsts& k) : c(&k) {}
  __device__ __forceinline__ void add(T a, T b) {
    res = add_mod(res, mul_mod(to_u64(a), to_u64(b), c->p), c->p);
  }
  __device__ __forceinline__ std::uint64_t finish(const DotConsts&) const { return res; }
};

}  // namespace mpgpu::dot::thread
