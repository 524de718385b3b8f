// A thread's pieces of the in-group transforms (ntt_mul.cuh): 16-byte
// accesses of its runs of shared words, and the lazy butterflies on
// residues in [0, 2p), in Montgomery form.
#pragma once

#include "mpgpu/batch/word.cuh"
#include "mpgpu/field/prime_field32.cuh"

namespace mpgpu::batch {

namespace ntt_detail {

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

/// The last forward pair (halves 2 and 1) of four consecutive words, with
/// w_4 = T[3] (T_2[1]) the only nontrivial twiddle.
MPGPU_HD void forward_last_pair(const field::PrimeField32& F, word_t w4, word_t& x0, word_t& x1, word_t& x2,
                                word_t& x3) {
  dif1(F, x0, x2);
  dif(F, x1, x3, w4);
  dif1(F, x0, x1);
  dif1(F, x2, x3);
}

}  // namespace ntt_detail

}  // namespace mpgpu::batch
