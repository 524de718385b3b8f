// The public big prime field FFT: the host entry point of the gfp/ module,
// beside ntt.hpp. The FFT over Z/pZ, p = r^k + 1 (Chen et al.), on data in a
// context's memory: device memory on a CUDA context (the kernels of
// mpgpu/gfp/fft_kernels.cuh), host memory on the CPU context (the same
// stages run by the host, which is how CI checks them). Size N = K^e, K = 2k; the table
// primes p3 (k = 8), p4 (k = 16) and p5 (k = 32).
//
// Layout: digit-major ("transposed", as Chen et al. lay it out): digit d of element i at
// data[d * N + i], N * k words in all. Elements must be canonical
// (gfp::Field::is_canonical); this is not checked. Conventions are those of
// the host FftPlan of the same (prime, e): forward X_m = sum_n x_n omega^(nm)
// with omega^(N/K) = r, natural order in and out; inverse at omega^-1, scaled
// by N^-1. g++-compilable: no CUDA headers.
//
// The field itself (gfp::Field, Element), the host reference FftPlan and
// the GMP conversions are the gfp/ layer's headers (docs/gfp.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "mpgpu/context.hpp"
#include "mpgpu/gfp/primes.hpp"

namespace mpgpu::gfp {

class DeviceFft {
 public:
  /// Makes omega, its N powers (the twiddle table, copied to the device on
  /// a CUDA context) and N^-1. Throws InvalidArgument unless prime.k is 8,
  /// 16 or 32 and 1 <= e with N = (2k)^e dividing p - 1 (and N <= 2^40).
  DeviceFft(const Context& ctx, const GfpPrime& prime, int e);
  /// Frees the device table on the context's stream: destroy the plan only
  /// after work queued on other streams has finished.
  ~DeviceFft();
  DeviceFft(const DeviceFft&) = delete;
  DeviceFft& operator=(const DeviceFft&) = delete;

  std::size_t size() const;  ///< N
  int digits() const;        ///< k: data holds size() * digits() words
  const Context& context() const;

  /// In place on N digit-major elements in the context's memory. Uses
  /// scratch of the same size (pool memory on the device). On a CUDA
  /// context the call is asynchronous on `s` (default: the context's stream).
  void forward(std::uint64_t* data, Stream s = nullptr) const;
  void inverse(std::uint64_t* data, Stream s = nullptr) const;

  /// Internal: the tables (src/gfp/gfp_fft_device.cpp). Public only so that
  /// that file's helper functions can name it; it is incomplete outside
  /// the library, so there is nothing a user can do with it.
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// out[i] = a[i] * b[i] in Z/pZ for n digit-major elements (digit d of
/// element i at x[d * n + i], n * prime.k words each) in the context's
/// memory: the pointwise step of a convolution between forward and
/// inverse. Elements must be canonical, as for the FFT (not checked). out
/// may be a or b (exactly; no other overlap). On a CUDA context the call is
/// asynchronous on `s` (default: the context's stream). Throws
/// InvalidArgument unless prime.k is 8, 16 or 32, or for a null pointer
/// with n > 0. (src/gfp/gfp_pointwise.cpp)
void pointwise_mul(const Context& ctx, const GfpPrime& prime, std::uint64_t* out, const std::uint64_t* a,
                   const std::uint64_t* b, std::size_t n, Stream s = nullptr);

/// out[d * n + i] = in[i * k + d]: element-major (k digits per element,
/// as gfp::Element arrays) to digit-major. Host memory; out != in.
inline void to_digit_major(std::uint64_t* out, const std::uint64_t* in, std::size_t n, int k) {
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < k; ++d) out[static_cast<std::size_t>(d) * n + i] = in[i * k + d];
}

/// The inverse of to_digit_major.
inline void from_digit_major(std::uint64_t* out, const std::uint64_t* in, std::size_t n, int k) {
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < k; ++d) out[i * k + d] = in[static_cast<std::size_t>(d) * n + i];
}

}  // namespace mpgpu::gfp
