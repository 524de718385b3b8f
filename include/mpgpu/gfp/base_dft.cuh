// The base DFT_K of the big prime FFT, K = 2k, at the K-th root r (or r^-1):
// X_m = sum_n x_n r^(dir * n m). Fuerer's trick (Chen et al.): every twiddle is
// a power of r, so a radix-2 FFT of size K needs only mul_pow_r (a digit
// shift with a sign change, O(k)) and add/sub: O(K log K * k) word
// operations and no general multiplication. Host and device (MPGPU_HD).
#pragma once

#include "mpgpu/gfp/field.cuh"

namespace mpgpu::gfp {

/// In place on x[0], x[stride], ..., x[(K-1) stride]; dir = +1 uses r,
/// dir = -1 uses r^-1 = r^(2k-1) (no 1/K scaling).
template <int Digits>
MPGPU_HD void base_dft(const Field<Digits>& f, Element<Digits>* x, long long stride, int dir) {
  constexpr int K = 2 * Digits;  // a power of two for every table prime
  static_assert((K & (K - 1)) == 0, "base_dft: K = 2k must be a power of two");
  // Decimation in time: bit-reverse the inputs, then log2 K butterfly stages.
  for (int i = 1, j = 0; i < K; ++i) {
    int bit = K >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const Element<Digits> t = x[i * stride];
      x[i * stride] = x[j * stride];
      x[j * stride] = t;
    }
  }
  for (int len = 2; len <= K; len <<= 1) {
    const int half = len / 2, step = K / len;  // stage root r^(K/len) has order len
    for (int b = 0; b < K; b += len)
      for (int j = 0; j < half; ++j) {
        Element<Digits>& lo = x[(b + j) * stride];
        Element<Digits>& hi = x[(b + j + half) * stride];
        const Element<Digits> t = f.mul_pow_r(hi, static_cast<long long>(dir) * j * step);
        hi = f.sub(lo, t);
        lo = f.add(lo, t);
      }
  }
}

}  // namespace mpgpu::gfp
