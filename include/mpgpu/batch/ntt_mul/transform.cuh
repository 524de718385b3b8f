// The group's cyclic convolution mod one prime (ntt_mul.cuh): the twiddle
// table, the forward stages (decimation in frequency), the fused middle
// with the pointwise product, the inverse stages (decimation in time);
// convolve runs them in order.
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/ntt_mul/butterflies.cuh"
#include "mpgpu/batch/ntt_mul/primes.cuh"

namespace mpgpu::batch {

namespace ntt_detail {

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

}  // namespace ntt_detail

}  // namespace mpgpu::batch
