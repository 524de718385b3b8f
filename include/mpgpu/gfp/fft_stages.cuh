// The stages of the big prime FFT of size N = K^e (K = 2k) on digit-major
// ("transposed", as Chen et al. lay it out) data: digit d of element i at x[d * N + i], so
// that consecutive threads touching consecutive elements read consecutive
// words. One source for the device kernels (fft_kernels.cuh) and the host
// twin that runs the same stages on a CPU context (src/gfp/gfp_fft_device.cpp).
//
// The schedule is a radix-K Stockham decimation in frequency (natural order
// in and out, no bit-reversal pass, one ping-pong buffer). Stage t (s = K^t)
// takes, for each group g < N/K, the K elements g + m N/K (m < K), does a
// DFT_K at r (shifts only: omega^(N/K) = r), and writes output j to
//   o = K (g - q) + q + s j,  q = g mod s,
// multiplied by the twiddle omega^((g - q) j). Checked against the naive
// DFT by the host FFT tests (tests/gfp/fft_device_test.cpp). Twiddles are a
// separate pass so that the costly general products (O(k^2) word operations)
// run one per thread over all N elements; exponents that are multiples of
// N/K are shifts, and the last stage has none (g - q = 0).
#pragma once

#include <cstddef>

#include "mpgpu/gfp/field.cuh"

namespace mpgpu::gfp::stages {

MPGPU_HD int bit_reverse(int j, int big_k) {
  int r = 0;
  for (int b = 1; b < big_k; b <<= 1) {
    r = (r << 1) | (j & 1);
    j >>= 1;
  }
  return r;
}

/// Where output j of group g goes in the stage of stride s.
MPGPU_HD std::size_t output_index(std::size_t g, int j, std::size_t s, int big_k) {
  const std::size_t q = g % s;
  return (g - q) * big_k + q + s * static_cast<std::size_t>(j);
}

/// The twiddle exponent of output position o in the stage of stride s:
/// o = K s p' + q + s j gives (g - q) j = s p' j, always < N.
MPGPU_HD std::size_t twiddle_exponent(std::size_t o, std::size_t s, int big_k) {
  const std::size_t j = (o / s) % big_k;
  return s * (o / (s * big_k)) * j;
}

template <int D>
MPGPU_HD Element<D> load(const limb_t* x, std::size_t n, std::size_t i) {
  Element<D> e;
  for (int d = 0; d < D; ++d) e.digit[d] = x[d * n + i];
  return e;
}

template <int D>
MPGPU_HD void store(limb_t* x, std::size_t n, std::size_t i, const Element<D>& e) {
  for (int d = 0; d < D; ++d) x[d * n + i] = e.digit[d];
}

/// DFT_K at r^dir by radix-2 decimation in frequency (Gentleman-Sande):
/// natural order in, X_m at x[bit_reverse(m)] out. Every twiddle is a power
/// of r, i.e. mul_pow_r: O(K log K k) word operations, no general product.
template <int D>
MPGPU_HD void dif_dft(const Field<D>& f, Element<D>* x, int dir) {
  constexpr int K = 2 * D;
  for (int h = K / 2; h >= 1; h /= 2) {
    const int step = K / (2 * h);  // r^step has order 2h
    for (int b = 0; b < K; b += 2 * h)
      for (int j = 0; j < h; ++j) {
        const Element<D> diff = f.sub(x[b + j], x[b + j + h]);
        x[b + j] = f.add(x[b + j], x[b + j + h]);
        x[b + j + h] = f.mul_pow_r(diff, static_cast<long long>(dir) * j * step);
      }
  }
}

/// Group g of the stage of stride s: in -> out (twiddles not applied).
/// in and out are different buffers of N = n elements each.
template <int D>
MPGPU_HD void group_dft(const Field<D>& f, const limb_t* in, limb_t* out, std::size_t n, std::size_t s,
                        std::size_t g, int dir) {
  constexpr int K = 2 * D;
  const std::size_t groups = n / K;
  Element<D> x[K];
  for (int m = 0; m < K; ++m) x[m] = load<D>(in, n, g + static_cast<std::size_t>(m) * groups);
  dif_dft(f, x, dir);
  for (int j = 0; j < K; ++j) store(out, n, output_index(g, j, s, K), x[bit_reverse(j, K)]);
}

/// x * omega^(dir t), 0 <= t < N: a shift by r^(t / (N/K)) when N/K divides
/// t, else a product with table[t] (dir > 0) or table[N - t] = omega^-t.
/// table: omega^0 .. omega^(N-1), element-major (k digits each).
template <int D>
MPGPU_HD Element<D> twiddle(const Field<D>& f, const Element<D>& x, std::size_t t, std::size_t n,
                            const limb_t* table, int dir) {
  if (t == 0) return x;
  const std::size_t per_r = n / (2 * D);
  if (t % per_r == 0) return f.mul_pow_r(x, static_cast<long long>(dir) * static_cast<long long>(t / per_r));
  const std::size_t at = dir > 0 ? t : n - t;
  Element<D> w;
  for (int d = 0; d < D; ++d) w.digit[d] = table[at * D + d];
  return f.mul(x, w);
}

/// Element o after the stage of stride s: times its twiddle, then times
/// *scale when scale is given (N^-1 after the inverse's last stage).
template <int D>
MPGPU_HD void twiddle_element(const Field<D>& f, limb_t* x, std::size_t n, std::size_t s, std::size_t o,
                              const limb_t* table, int dir, const Element<D>* scale) {
  const std::size_t t = twiddle_exponent(o, s, 2 * D);
  if (t == 0 && scale == nullptr) return;
  Element<D> v = twiddle(f, load<D>(x, n, o), t, n, table, dir);
  if (scale != nullptr) v = f.mul(v, *scale);
  store(x, n, o, v);
}

/// Whether the stage of stride s has any twiddle other than 1 (all but the last).
MPGPU_HD bool stage_has_twiddles(std::size_t n, std::size_t s, int big_k) { return s * big_k < n; }

}  // namespace mpgpu::gfp::stages
