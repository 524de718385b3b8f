// Host FFT over Z/pZ, p = r^k + 1, of size N = K^e (K = 2k), Chen et al.'s
// Cooley-Tukey factorization DFT_N = (DFT_J (x) I_K) D_(J,K) (I_J (x) DFT_K) L
// with J = N/K, applied recursively: the DFT_K's are shift-only (base_dft),
// the twiddles D are general products (Field::mul) except those that are
// powers of omega^(N/K) = r, which are shifts too. Reference implementation
// for correctness (vectors, copies); the staged device version is
// mpgpu/gfp.hpp's DeviceFft (Stockham stages in fft_stages.cuh).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mpgpu/gfp/base_dft.cuh"
#include "mpgpu/gfp/convert_host.hpp"
#include "mpgpu/gfp/field.cuh"
#include "mpgpu/gfp/host_errors.hpp"
#include "mpgpu/gfp/primes.hpp"

namespace mpgpu::gfp {

/// A transform size N = K^e with its root and cached powers omega^0..N-1.
template <int Digits>
struct FftPlan {
  Field<Digits> field;
  int e = 0;
  std::size_t n = 0;                         ///< N = K^e
  Element<Digits> omega{};                   ///< primitive N-th root, omega^(N/K) = r
  std::vector<Element<Digits>> omega_power;  ///< omega^i, 0 <= i < N
  Element<Digits> n_inverse{};               ///< N^-1 mod p

  /// Throws mpgpu::InvalidArgument unless e >= 1 and N = (2k)^e divides p - 1.
  static FftPlan make(const GfpPrime& prime, int e) {
    FftPlan plan;
    plan.field = make_field<Digits>(prime);
    if (e < 1 || e * __builtin_ctz(2 * Digits) > 40)
      detail::throw_invalid_argument("gfp::FftPlan: e = " + std::to_string(e) + " out of range");
    plan.e = e;
    plan.n = 1;
    for (int i = 0; i < e; ++i) plan.n *= 2 * Digits;
    plan.omega = root_of_unity_element<Digits>(prime, plan.n);  // checks N | p - 1
    plan.omega_power.resize(plan.n);
    plan.omega_power[0] = plan.field.one();
    for (std::size_t i = 1; i < plan.n; ++i)
      plan.omega_power[i] = plan.field.mul(plan.omega_power[i - 1], plan.omega);
    plan.n_inverse = inverse(plan.field, plan.field.small(plan.n));
    return plan;
  }

  /// x * omega^t (t mod N), a shift when t is a multiple of N/K.
  Element<Digits> twiddle(const Element<Digits>& x, std::size_t t) const {
    t %= n;
    const std::size_t per_r = n / (2 * Digits);  // omega^per_r = r
    if (t % per_r == 0) return field.mul_pow_r(x, static_cast<long long>(t / per_r));
    return field.mul(x, omega_power[t]);
  }
};

namespace detail {

/// DFT of size m = K^level on x (contiguous), at omega^(dir * N/m).
template <int Digits>
void fft_recursive(const FftPlan<Digits>& plan, Element<Digits>* x, std::size_t m, int dir) {
  constexpr std::size_t K = 2 * Digits;
  if (m == K) {
    base_dft(plan.field, x, 1, dir);
    return;
  }
  // Input index J n2 + n1, output index m1 + K m2 (n1, m2 < J; n2, m1 < K):
  // omega_m^(nm) = r^(n2 m1) * omega_m^(n1 m1) * (omega_m^K)^(n1 m2).
  const std::size_t j_size = m / K, root_step = plan.n / m;
  std::vector<Element<Digits>> y(m);
  for (std::size_t n1 = 0; n1 < j_size; ++n1) {
    Element<Digits>* row = &y[n1 * K];
    for (std::size_t n2 = 0; n2 < K; ++n2) row[n2] = x[j_size * n2 + n1];
    base_dft(plan.field, row, 1, dir);  // I_J (x) DFT_K
    for (std::size_t m1 = 1; m1 < K && n1 != 0; ++m1) {  // D_(J,K)
      const std::size_t t = root_step * n1 * m1 % plan.n;
      row[m1] = plan.twiddle(row[m1], dir > 0 ? t : plan.n - t);
    }
  }
  std::vector<Element<Digits>> column(j_size);
  for (std::size_t m1 = 0; m1 < K; ++m1) {  // DFT_J (x) I_K
    for (std::size_t n1 = 0; n1 < j_size; ++n1) column[n1] = y[n1 * K + m1];
    fft_recursive(plan, column.data(), j_size, dir);
    for (std::size_t m2 = 0; m2 < j_size; ++m2) x[m1 + K * m2] = column[m2];
  }
}

template <int Digits>
void check_size(const FftPlan<Digits>& plan, std::size_t size, const char* who) {
  if (size != plan.n)
    detail::throw_invalid_argument(std::string(who) + ": vector of " + std::to_string(size) +
                                   " elements, plan size " + std::to_string(plan.n));
}

}  // namespace detail

/// x <- DFT_N(x) at omega: X_m = sum_n x_n omega^(nm), natural order.
template <int Digits>
void fft_forward(const FftPlan<Digits>& plan, std::vector<Element<Digits>>& x) {
  detail::check_size(plan, x.size(), "gfp::fft_forward");
  detail::fft_recursive(plan, x.data(), plan.n, +1);
}

/// x <- DFT_N^-1(x) = N^-1 * DFT_N(x) at omega^-1.
template <int Digits>
void fft_inverse(const FftPlan<Digits>& plan, std::vector<Element<Digits>>& x) {
  detail::check_size(plan, x.size(), "gfp::fft_inverse");
  detail::fft_recursive(plan, x.data(), plan.n, -1);
  for (auto& v : x) v = plan.field.mul(v, plan.n_inverse);
}

/// The cyclic convolution c_i = sum_(j + l = i mod N) a_j b_l mod p.
template <int Digits>
std::vector<Element<Digits>> cyclic_convolution(const FftPlan<Digits>& plan,
                                                std::vector<Element<Digits>> a,
                                                std::vector<Element<Digits>> b) {
  fft_forward(plan, a);
  fft_forward(plan, b);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = plan.field.mul(a[i], b[i]);
  fft_inverse(plan, a);
  return a;
}

}  // namespace mpgpu::gfp
