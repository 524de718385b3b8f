// Products of wide instances through number-theoretic transforms inside the
// group (as in Oancea & Watt's midsize multiplication): the operands' 32-bit
// words are the coefficients of two polynomials, their cyclic convolution of
// length L >= 2W is computed mod three primes below 2^30 by transforms in
// shared memory, and the coefficients are rebuilt by CRT (Garner) and summed
// with their carries. Schoolbook runs (mul.cuh) cost W^2 multiply-adds; this
// costs ~9 L log2(L) / 2 butterflies of one Montgomery product each.
//
// Exactness (the CRT bound): a coefficient of the product is a sum of at
// most W products of two words, so it is below W * 2^64. The three primes'
// product is above 2^88, so every coefficient is recovered exactly while
// W * 2^64 < 2^88, i.e. W < 2^24 words; kNttProductMaxWords asserts a
// smaller width (and the transform length must divide every p - 1: 2^23).
// Tests run all-ones operands, which give the largest coefficients.
//
// Layout in `work` (words): X[L] and Y[L], the transforms of a and b, then
// T[L], the twiddles of every stage, T_h[j] = w_{2h}^j (j < h) at offset h,
// in Montgomery form, so a warp reads consecutive words (no bank conflicts)
// at every stage. Squares use X and T only. A thread's own run of words
// (loading the operand, reading the residues) moves 16 bytes at a time.
//
// Arithmetic: residues in Montgomery form (x R mod p, R = 2^32), kept lazily
// in [0, 2p) (Harvey's butterflies; the primes are below 2^30, so sums below
// 4p fit a word): one PrimeField32::mont_mul_lazy per butterfly (a
// Montgomery twiddle multiplies by the plain root), one unsigned min for
// each reduction, canonical values only where the residues are read out.
// Forward transforms are decimation in frequency from natural to
// bit-reversed order, the pointwise product runs in bit-reversed order, and
// the inverse is decimation in time back to natural order: no permutation
// pass. Stages go in radix-4 pairs (one sync a pair); the last
// forward pair, the pointwise product and the first inverse pair touch four
// consecutive words and run fused, one 16-byte access each.
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/field/prime_field32.cuh"
#include "mpgpu/field/primes.hpp"

namespace mpgpu::batch {

namespace ntt_detail {

constexpr std::uint32_t pow_mod(std::uint64_t b, std::uint64_t e, std::uint64_t p) {
  std::uint64_t r = 1;
  b %= p;
  for (; e != 0; e >>= 1) {
    if (e & 1) r = r * b % p;
    b = b * b % p;
  }
  return static_cast<std::uint32_t>(r);
}
/// c R mod p: the Montgomery form of a constant.
constexpr std::uint32_t mont_form(std::uint64_t c, std::uint64_t p) {
  return static_cast<std::uint32_t>(((c % p) << 32) % p);
}

/// One prime of the product: p = k 2^LogMax + 1 (in field::ntt_primes31)
/// and `root`, a primitive 2^LogMax-th root of unity.
template <std::uint32_t P, std::uint32_t Generator, int LogMax>
struct Prime {
  static constexpr std::uint32_t p = P;
  static constexpr int log_max = LogMax;
  static constexpr std::uint32_t root = pow_mod(Generator, (P - 1) >> LogMax, P);
  static_assert(field::find_ntt_prime(P) != nullptr, "a prime of the table");
  static_assert(pow_mod(root, std::uint64_t{1} << (LogMax - 1), P) == P - 1, "root of order exactly 2^LogMax");

  /// (make's `%` and Newton steps fold away: P is a constant.)
  MPGPU_HD static field::PrimeField32 field() { return field::PrimeField32::make(P); }
  /// w_L R and L^-1 for transforms of 2^log_len points.
  static constexpr std::uint32_t root_mont(int log_len) {
    return mont_form(pow_mod(root, std::uint64_t{1} << (LogMax - log_len), P), P);
  }
  static constexpr std::uint32_t inverse_length(int log_len) { return P - ((P - 1) >> log_len); }
};

// Below 2^30 (lazy values below 4p fit a word), smallest first: r1 < p2
// and r1 < p3 need no reduction in the Garner step.
using P1 = Prime<469762049u, 3, 26>;   //   7 * 2^26 + 1
using P2 = Prime<754974721u, 11, 24>;  //  45 * 2^24 + 1
using P3 = Prime<998244353u, 3, 23>;   // 119 * 2^23 + 1
static_assert(P1::p < P2::p && P2::p < P3::p && P3::p < (1u << 30));
inline constexpr int kLogMaxLength = P3::log_max;  // the smallest 2-adic valuation

// Garner: x = r1 + p1 (v2 + p2 v3), v2 = (r2 - r1) / p1 mod p2,
// v3 = (r3 - r1 - p1 v2) / (p1 p2) mod p3; constants in Montgomery form.
inline constexpr std::uint32_t kInvP1ModP2 = mont_form(pow_mod(P1::p, P2::p - 2, P2::p), P2::p);
inline constexpr std::uint32_t kP1ModP3 = mont_form(P1::p, P3::p);
inline constexpr std::uint32_t kInvP1P2ModP3 =
    mont_form(pow_mod(std::uint64_t{P1::p} * P2::p % P3::p, P3::p - 2, P3::p), P3::p);
inline constexpr std::uint64_t kP1P2 = std::uint64_t{P1::p} * P2::p;

/// Four consecutive words at p (16-byte aligned): one 16-byte shared-memory
/// access on the device, so a warp's accesses of a thread's run of words
/// do not all fall in a few banks.
MPGPU_HD void load4(const word_t* p, word_t& a, word_t& b, word_t& c, word_t& d) {
#if defined(__CUDA_ARCH__)
  const uint4 v = *reinterpret_cast<const uint4*>(p);
  a = v.x, b = v.y, c = v.z, d = v.w;
#else
  a = p[0], b = p[1], c = p[2], d = p[3];
#endif
}
MPGPU_HD void store4(word_t* p, word_t a, word_t b, word_t c, word_t d) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<uint4*>(p) = make_uint4(a, b, c, d);
#else
  p[0] = a, p[1] = b, p[2] = c, p[3] = d;
#endif
}
/// A thread's n consecutive words from p (16-byte aligned when n % 4 == 0).
template <int N>
MPGPU_HD void load_run(const word_t* p, word_t (&r)[N]) {
  if constexpr (N % 4 == 0) {
#pragma unroll
    for (int i = 0; i < N; i += 4) load4(p + i, r[i], r[i + 1], r[i + 2], r[i + 3]);
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) r[i] = p[i];
  }
}
template <int N>
MPGPU_HD void store_run(word_t* p, const word_t (&r)[N]) {
  if constexpr (N % 4 == 0) {
#pragma unroll
    for (int i = 0; i < N; i += 4) store4(p + i, r[i], r[i + 1], r[i + 2], r[i + 3]);
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) p[i] = r[i];
  }
}

/// T_h[j] = w_{2h}^j R for every stage h = 1 .. L/2, at T + h (T[0] is
/// unused, so every level from h = 4 starts 16-byte aligned): the largest
/// stage's powers first (thread t: w^t, then steps of w^G), then every
/// smaller stage from it, T_h[j] = T_{L/2}[j L / 2h] (two syncs).
template <class E, class Pr, int LogLen>
MPGPU_HD void fill_twiddles(const E& env, const field::PrimeField32& F, word_t* T) {
  constexpr int half = 1 << (LogLen - 1);
  constexpr std::uint32_t w = Pr::root_mont(LogLen);
  constexpr std::uint32_t step =
      mont_form(pow_mod(Pr::root, (std::uint64_t{E::threads} % half) << (Pr::log_max - LogLen), Pr::p), Pr::p);
  word_t* top = T + half;
  // w^rank R by square and multiply in Montgomery form.
  word_t x = F.r1, base = w;
  for (int e = env.rank() % half; e != 0; e >>= 1) {
    if (e & 1) x = F.mont_mul(x, base);
    base = F.mont_mul(base, base);
  }
  for (int j = env.rank(); j < half; j += E::threads) {
    top[j] = x;
    x = F.mont_mul(x, step);
  }
  env.group.sync();
  // Entries 1 .. half - 1: level h = 2^lh holds i in [h, 2h).
  for (int i = env.rank() + 1; i < half; i += E::threads) {
    const int lh = 31 - clz_word(static_cast<word_t>(i));
    T[i] = top[(i - (1 << lh)) << (LogLen - 1 - lh)];
  }
  env.group.sync();
}

/// The forward transform's first stage, fused with the load: the upper half
/// of the input is zero (L >= 2W), so (x, 0) -> (x, x w^k). `a` is this
/// thread's words of the operand.
template <class E, int LogLen>
MPGPU_HD void load_first_stage(const E& env, const field::PrimeField32& F, const word_t* T, word_t* X,
                               const word_t (&a)[E::per_thread]) {
  constexpr int half = 1 << (LogLen - 1), n = E::per_thread;
  const int k0 = env.first_word();
  word_t w[n], x[n];
  load_run(T + half + k0, w);
#pragma unroll
  for (int i = 0; i < n; ++i) x[i] = F.mont_mul(a[i], F.r2);  // a R mod p, canonical for any 32-bit word
  store_run(X + k0, x);
#pragma unroll
  for (int i = 0; i < n; ++i) x[i] = F.mont_mul_lazy(x[i], w[i]);
  store_run(X + half + k0, x);
  for (int k = E::words + env.rank(); k < half; k += E::threads) X[k] = X[k + half] = 0;
}

/// min(s, s - 2p) as unsigned words: s in [0, 4p) to [0, 2p).
MPGPU_HD word_t reduce_twice_p(const field::PrimeField32& F, word_t s) {
  const word_t t = s - 2 * F.p;
  return t < s ? t : s;
}
/// Decimation in frequency on lazy values (in [0, 2p), out too):
/// (u, v) -> (u + v, (u - v) w).
MPGPU_HD void dif(const field::PrimeField32& F, word_t& u, word_t& v, word_t w) {
  const word_t d = u + 2 * F.p - v;  // (0, 4p)
  u = reduce_twice_p(F, u + v);
  v = F.mont_mul_lazy(d, w);  // d w < 4p^2 < p 2^32
}
/// The same with w = 1.
MPGPU_HD void dif1(const field::PrimeField32& F, word_t& u, word_t& v) {
  const word_t d = u + 2 * F.p - v;
  u = reduce_twice_p(F, u + v);
  v = reduce_twice_p(F, d);
}
/// Decimation in time with the inverse twiddle w, lazily:
/// (u, v) -> (u + v w, u - v w).
MPGPU_HD void dit(const field::PrimeField32& F, word_t& u, word_t& v, word_t w) {
  const word_t t = F.mont_mul_lazy(v, w);
  v = reduce_twice_p(F, u + 2 * F.p - t);
  u = reduce_twice_p(F, u + t);
}
MPGPU_HD void dit1(const field::PrimeField32& F, word_t& u, word_t& v) {
  const word_t t = v;
  v = reduce_twice_p(F, u + 2 * F.p - t);
  u = reduce_twice_p(F, u + t);
}
/// w_{2h}^-j R = -w_{2h}^(h - j) R from the stage's table (j < h).
MPGPU_HD word_t inverse_twiddle(const field::PrimeField32& F, const word_t* Th, int h, int j) {
  return j == 0 ? F.r1 : F.p - Th[h - j];
}

/// Two forward stages at once (halves 2h and h, h = 2^lh), on the four
/// words j, j + h, j + 2h, j + 3h of each radix-4 unit: half the syncs and
/// shared-memory round trips of radix-2 stages.
template <class E, int LogLen>
MPGPU_HD void forward_pair(const E& env, const field::PrimeField32& F, const word_t* T, word_t* X, int lh) {
  const int h = 1 << lh;
  const word_t* T1 = T + h;
  const word_t* T2 = T + 2 * h;
  for (int b = env.rank(); b < (1 << (LogLen - 2)); b += E::threads) {
    const int jl = b & (h - 1);
    const int j = ((b >> lh) << (lh + 2)) | jl;
    word_t x0 = X[j], x1 = X[j + h], x2 = X[j + 2 * h], x3 = X[j + 3 * h];
    dif(F, x0, x2, T2[jl]);
    dif(F, x1, x3, T2[jl + h]);
    const word_t w = T1[jl];
    dif(F, x0, x1, w);
    dif(F, x2, x3, w);
    X[j] = x0, X[j + h] = x1, X[j + 2 * h] = x2, X[j + 3 * h] = x3;
  }
}
template <class E, int LogLen>
MPGPU_HD void forward_single(const E& env, const field::PrimeField32& F, const word_t* T, word_t* X, int lh) {
  const int h = 1 << lh;
  const word_t* Th = T + h;
  for (int b = env.rank(); b < (1 << (LogLen - 1)); b += E::threads) {
    const int jl = b & (h - 1);
    const int j = ((b >> lh) << (lh + 1)) | jl;
    word_t u = X[j], v = X[j + h];
    dif(F, u, v, Th[jl]);
    X[j] = u, X[j + h] = v;
  }
}

/// The last forward pair (halves 2 and 1) of four consecutive words, with
/// w_4 = T[3] (T_2[1]) the only nontrivial twiddle.
MPGPU_HD void forward_last_pair(const field::PrimeField32& F, word_t w4, word_t& x0, word_t& x1, word_t& x2,
                                word_t& x3) {
  dif1(F, x0, x2);
  dif(F, x1, x3, w4);
  dif1(F, x0, x1);
  dif1(F, x2, x3);
}

/// The forward stages after the first (halves L/4 .. 4): a radix-2 stage
/// first when their count is odd, so that pairs end with the (8, 4) pair
/// and the (2, 1) pair is left for the fused middle.
template <class E, int LogLen, bool Two>
MPGPU_HD void forward_stages(const E& env, const field::PrimeField32& F, const word_t* T, word_t* X, word_t* Y) {
  int lh = LogLen - 2;  // the next stage: half 2^lh
  if (lh % 2 == 0 && lh >= 2) {
    forward_single<E, LogLen>(env, F, T, X, lh);
    if constexpr (Two) forward_single<E, LogLen>(env, F, T, Y, lh);
    env.group.sync();
    --lh;
  }
  for (; lh >= 3; lh -= 2) {
    forward_pair<E, LogLen>(env, F, T, X, lh - 1);
    if constexpr (Two) forward_pair<E, LogLen>(env, F, T, Y, lh - 1);
    env.group.sync();
  }
}

/// The middle of the convolution on each unit of four consecutive words:
/// the last forward pair of X (and Y), the pointwise product X * Y (X * X
/// for squares), and the first inverse pair (halves 1 and 2), one 16-byte
/// load and store per array.
template <class E, int LogLen, bool Square>
MPGPU_HD void fused_middle(const E& env, const field::PrimeField32& F, const word_t* T, word_t* X, const word_t* Y) {
  const word_t w4 = T[3], w4_inverse = F.p - T[3];
  for (int b = env.rank(); b < (1 << (LogLen - 2)); b += E::threads) {
    word_t x0, x1, x2, x3;
    load4(X + 4 * b, x0, x1, x2, x3);
    forward_last_pair(F, w4, x0, x1, x2, x3);
    if constexpr (Square) {
      x0 = F.mont_mul_lazy(x0, x0), x1 = F.mont_mul_lazy(x1, x1);
      x2 = F.mont_mul_lazy(x2, x2), x3 = F.mont_mul_lazy(x3, x3);
    } else {
      word_t y0, y1, y2, y3;
      load4(Y + 4 * b, y0, y1, y2, y3);
      forward_last_pair(F, w4, y0, y1, y2, y3);
      x0 = F.mont_mul_lazy(x0, y0), x1 = F.mont_mul_lazy(x1, y1);
      x2 = F.mont_mul_lazy(x2, y2), x3 = F.mont_mul_lazy(x3, y3);
    }
    dit1(F, x0, x1);
    dit1(F, x2, x3);
    dit1(F, x0, x2);
    dit(F, x1, x3, w4_inverse);  // w_4^-1 = -w_4
    store4(X + 4 * b, x0, x1, x2, x3);
  }
  env.group.sync();
}

/// The inverse stages after the middle (halves 4 .. L/2, decimation in
/// time) in pairs, unscaled. With Low, a last single stage writes only the
/// outputs below L/2 (the low half of a product lies in X[0, W), W <= L/2).
template <class E, int LogLen, bool Low>
MPGPU_HD void inverse_stages(const E& env, const field::PrimeField32& F, const word_t* T, word_t* X) {
  constexpr int L = 1 << LogLen;
  int lh = 2;
  for (; lh + 1 < LogLen; lh += 2) {
    const int h = 1 << lh;
    const word_t* T1 = T + h;
    const word_t* T2 = T + 2 * h;
    for (int b = env.rank(); b < L / 4; b += E::threads) {
      const int jl = b & (h - 1);
      const int j = ((b >> lh) << (lh + 2)) | jl;
      word_t x0 = X[j], x1 = X[j + h], x2 = X[j + 2 * h], x3 = X[j + 3 * h];
      const word_t w = inverse_twiddle(F, T1, h, jl);
      dit(F, x0, x1, w);
      dit(F, x2, x3, w);
      dit(F, x0, x2, inverse_twiddle(F, T2, 2 * h, jl));
      dit(F, x1, x3, F.p - T2[h - jl]);  // inverse_twiddle(T2, 2h, jl + h), jl + h > 0
      X[j] = x0, X[j + h] = x1, X[j + 2 * h] = x2, X[j + 3 * h] = x3;
    }
    env.group.sync();
  }
  if (lh < LogLen) {  // the last stage, h = L/2
    const int h = L / 2;
    const word_t* Th = T + h;
    for (int j = env.rank(); j < h; j += E::threads) {
      word_t u = X[j], v = X[j + h];
      dit(F, u, v, inverse_twiddle(F, Th, h, j));
      X[j] = u;
      if (!Low) X[j + h] = v;
    }
    env.group.sync();
  }
}

/// The convolution mod one prime into X: coefficient k of a * b, times
/// L (the inverse is unscaled), lazily in Montgomery form.
template <class E, class Pr, int LogLen, bool Square, bool Low>
MPGPU_HD void convolve(const E& env, word_t* X, word_t* Y, word_t* T, const word_t (&a)[E::per_thread],
                       const word_t (&b)[E::per_thread]) {
  const field::PrimeField32 F = Pr::field();
  env.group.sync();  // earlier readers of X, Y and T are done
  fill_twiddles<E, Pr, LogLen>(env, F, T);
  load_first_stage<E, LogLen>(env, F, T, X, a);
  if constexpr (!Square) load_first_stage<E, LogLen>(env, F, T, Y, b);
  env.group.sync();
  forward_stages<E, LogLen, !Square>(env, F, T, X, Y);
  fused_middle<E, LogLen, Square>(env, F, T, X, Y);
  inverse_stages<E, LogLen, Low>(env, F, T, X);
}

/// Residue k of the product mod prime Pr, from the unscaled inverse.
template <class Pr, int LogLen>
MPGPU_HD word_t residue(const field::PrimeField32& F, word_t y) {
  // y = L c R (lazy, < 2p): times L^-1 (plain), Montgomery's R^-1 cancels
  // the R, and the result is canonical.
  return F.mont_mul(y, Pr::inverse_length(LogLen));
}

/// This thread's coefficients (k0 .. k0 + n - 1 of each part) mod Pr.
template <class E, class Pr, int LogLen, int Parts>
MPGPU_HD void read_residues(const E& env, const word_t* X, word_t (&R)[Parts][E::per_thread]) {
  const field::PrimeField32 F = Pr::field();
#pragma unroll
  for (int part = 0; part < Parts; ++part) {
    load_run(X + part * E::words + env.first_word(), R[part]);
#pragma unroll
    for (int i = 0; i < E::per_thread; ++i) R[part][i] = residue<Pr, LogLen>(F, R[part][i]);
  }
}

/// 96-bit value of one coefficient from its three residues (Garner).
struct Coefficient {
  word_t w[3];
};
MPGPU_HD Coefficient garner(word_t r1, word_t r2, word_t r3) {
  const field::PrimeField32 F2 = P2::field(), F3 = P3::field();
  const word_t v2 = F2.mont_mul(F2.sub(r2, r1), kInvP1ModP2);  // r1 < p1 < p2
  const word_t s = F3.add(r1, F3.mont_mul(v2, kP1ModP3));  // r1 < p1 < p3
  const word_t v3 = F3.mont_mul(F3.sub(r3, s), kInvP1P2ModP3);
  // x = r1 + p1 v2 + p1 p2 v3 < 2^89.
  const std::uint64_t low = static_cast<std::uint64_t>(P1::p) * v2 + r1;  // < 2^62
  const std::uint64_t m0 = (kP1P2 & 0xffffffffu) * v3, m1 = (kP1P2 >> 32) * v3;
  const std::uint64_t s0 = (low & 0xffffffffu) + (m0 & 0xffffffffu);
  const std::uint64_t s1 = (low >> 32) + (m0 >> 32) + (m1 & 0xffffffffu) + (s0 >> 32);
  const std::uint64_t s2 = (m1 >> 32) + (s1 >> 32);
  return {{static_cast<word_t>(s0), static_cast<word_t>(s1), static_cast<word_t>(s2)}};
}

/// Adds coefficients k0 .. k0 + n - 1 (their residues in R1, R2, R3) at
/// word offsets 0 .. n - 1: out gets the n words, `carry` the three words
/// that belong at offsets n .. n + 2 (a coefficient is below 2^89, so the
/// pending sum past word n stays below 2^58).
template <int N>
MPGPU_HD void assemble(const word_t (&R1)[N], const word_t (&R2)[N], const word_t (&R3)[N], word_t (&out)[N],
                       word_t (&carry)[3]) {
  std::uint64_t a0 = 0, a1 = 0, a2 = 0;  // the running sum, word by word (each < 2^33)
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const Coefficient c = garner(R1[i], R2[i], R3[i]);
    a0 += c.w[0];
    a1 += c.w[1];
    a2 += c.w[2];
    out[i] = static_cast<word_t>(a0);
    a1 += a0 >> 32;
    a0 = a1, a1 = a2, a2 = 0;
  }
  a1 += a0 >> 32;
  a2 += a1 >> 32;
  carry[0] = static_cast<word_t>(a0), carry[1] = static_cast<word_t>(a1), carry[2] = static_cast<word_t>(a2);
}

}  // namespace ntt_detail

/// lo = a * b mod 2^(32W); with Wide, *high = the upper W words. b is
/// ignored for squares (Square: one forward transform a prime). `work` holds
/// ntt_work_words(W) words, 16-byte aligned (env.work in the library; tests
/// pass their own).
/// lo and high may alias a or b: they are written after the last read.
template <class E, bool Wide, bool Square>
MPGPU_HD void ntt_mul_runs(const E& env, typename E::Num& lo, typename E::Num* high, const typename E::Num& a,
                           const typename E::Num& b, word_t* work) {
  using namespace ntt_detail;
  constexpr int W = E::words, n = E::per_thread, log_len = ntt_log_length(W), L = 1 << log_len;
  static_assert(W <= kNttProductMaxWords && log_len <= kLogMaxLength, "width beyond the NTT product");
  word_t* X = work;
  word_t* Y = work + L;
  word_t* T = work + 2 * L;
  constexpr int parts = Wide ? 2 : 1;  // the low W words, then the high W
  word_t R1[parts][n], R2[parts][n], R3[parts][n];
  convolve<E, P1, log_len, Square, !Wide>(env, X, Y, T, a.w, b.w);
  read_residues<E, P1, log_len, parts>(env, X, R1);
  convolve<E, P2, log_len, Square, !Wide>(env, X, Y, T, a.w, b.w);
  read_residues<E, P2, log_len, parts>(env, X, R2);
  convolve<E, P3, log_len, Square, !Wide>(env, X, Y, T, a.w, b.w);
  read_residues<E, P3, log_len, parts>(env, X, R3);
  // Each thread sums its coefficients; the three words it carries out go to
  // the next thread's lowest words (the low half's last thread feeds the
  // high half's first), and one group addition per half resolves the rest.
  typename E::Num x[parts], y[parts];
  word_t carry[parts][3];
#pragma unroll
  for (int part = 0; part < parts; ++part) assemble<n>(R1[part], R2[part], R3[part], x[part].w, carry[part]);
  env.group.sync();  // every thread has read X
#pragma unroll
  for (int part = 0; part < parts; ++part)
#pragma unroll
    for (int c = 0; c < 3; ++c) work[(part * E::threads + env.rank()) * 3 + c] = carry[part][c];
  env.group.sync();
#pragma unroll
  for (int part = 0; part < parts; ++part) {
    const int from = part * E::threads + env.rank() - 1;  // the previous thread of the whole product
#pragma unroll
    for (int i = 0; i < n; ++i) y[part].w[i] = (i < 3 && from >= 0) ? work[from * 3 + i] : 0u;
  }
  const word_t c = add(env, lo, x[0], y[0]);
  if constexpr (Wide) add(env, *high, x[1], y[1], c);
}

}  // namespace mpgpu::batch
