// Device kernels of the huge-product NTT over a ~62-bit prime (values in
// Montgomery form): one pass of the schedule in radix2_passes.hpp per
// launch, with all its stages in shared memory, plus the element-wise steps
// of a product (operand load, pointwise product, scaling, CRT, columns).
// The non-template kernels are static: several .cu files include this header.
#pragma once

#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/ntt/crt3.cuh"

namespace mpgpu::ntt {

inline constexpr int kPassThreads = 256;

/// One pass: stages with half-sizes 2^hi down to 2^(hi-k+1) (forward, DIF)
/// or up from 2^(hi-k+1) to 2^hi (inverse, DIT). A block holds 2^log_c
/// groups of 2^k elements (2^(k+log_c) <= 2048). tw[e] = w^e in Montgomery
/// form for e < n/2, w a primitive n-th root; the inverse uses
/// w^-e = -w^(n/2 - e). Batched: blockIdx.y picks transform number
/// blockIdx.y of x (each 2^log_n words).
template <bool kForward>
__global__ void __launch_bounds__(kPassThreads)
    radix2_pass_kernel(std::uint64_t* __restrict__ x, field::PrimeField64 f, const std::uint64_t* __restrict__ tw,
                       int log_n, int hi, int k, int log_c) {
  __shared__ std::uint64_t sm[2048];
  x += std::size_t(blockIdx.y) << log_n;
  const int log_s = hi - k + 1;  // log2 of the stride between a group's elements
  const int log_e = k + log_c;
  const int e_count = 1 << log_e;
  const std::size_t g0 = std::size_t(blockIdx.x) << log_c;
  const std::size_t s_mask = (std::size_t{1} << log_s) - 1;
  auto global_index = [&](int t, int c) {
    const std::size_t g = g0 + c;
    return ((g >> log_s) << (hi + 1)) | (std::size_t(t) << log_s) | (g & s_mask);
  };
  for (int e = threadIdx.x; e < e_count; e += kPassThreads) sm[e] = x[global_index(e >> log_c, e & ((1 << log_c) - 1))];
  __syncthreads();
  const std::size_t half_n = std::size_t{1} << (log_n - 1);
  for (int s = 0; s < k; ++s) {
    const int log_hs = kForward ? k - 1 - s : s;  // half-size in group steps
    const int log_h = log_hs + log_s;             // real half-size
    for (int b = threadIdx.x; b < e_count / 2; b += kPassThreads) {
      const int c = b & ((1 << log_c) - 1);
      const int q = b >> log_c;
      const int t = ((q >> log_hs) << (log_hs + 1)) | (q & ((1 << log_hs) - 1));
      const std::size_t j = (std::size_t(q & ((1 << log_hs) - 1)) << log_s) + ((g0 + c) & s_mask);
      const std::size_t exponent = j << (log_n - 1 - log_h);
      std::uint64_t& u_ref = sm[(t << log_c) + c];
      std::uint64_t& v_ref = sm[((t + (1 << log_hs)) << log_c) + c];
      const std::uint64_t u = u_ref, v = v_ref;
      if constexpr (kForward) {
        u_ref = f.add(u, v);
        v_ref = f.mont_mul(f.sub(u, v), tw[exponent]);
      } else {
        const std::uint64_t w = exponent == 0 ? f.r1 : f.neg(tw[half_n - exponent]);
        const std::uint64_t vw = f.mont_mul(v, w);
        u_ref = f.add(u, vw);
        v_ref = f.sub(u, vw);
      }
    }
    __syncthreads();
  }
  for (int e = threadIdx.x; e < e_count; e += kPassThreads) x[global_index(e >> log_c, e & ((1 << log_c) - 1))] = sm[e];
}

/// tw[e] = w^e (Montgomery form) for e < count; each thread makes 64 in a row.
static __global__ void twiddle_kernel(std::uint64_t* tw, field::PrimeField64 f, std::uint64_t w, std::size_t count) {
  const std::size_t first = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) * 64;
  if (first >= count) return;
  const std::uint64_t w_mont = f.to_mont(w);
  std::uint64_t cur = f.to_mont(f.pow(w, first));
  for (std::size_t e = first; e < first + 64 && e < count; ++e) {
    tw[e] = cur;
    cur = f.mont_mul(cur, w_mont);
  }
}

/// x[i] = limbs[i] (any 64-bit value) in Montgomery form, 0 from n to len.
static __global__ void load_operand_kernel(std::uint64_t* x, field::PrimeField64 f, const std::uint64_t* limbs,
                                    std::size_t n, std::size_t len) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < len;
       i += std::size_t{gridDim.x} * blockDim.x)
    x[i] = i < n ? f.to_mont(limbs[i]) : 0;  // to_mont accepts any a < 2^64 (a * r2 < p * 2^64)
}

/// x[i] = x[i] * y[i] (Montgomery), or x[i]^2 when y == x.
static __global__ void pointwise_kernel(std::uint64_t* x, const std::uint64_t* y, field::PrimeField64 f, std::size_t len) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < len;
       i += std::size_t{gridDim.x} * blockDim.x)
    x[i] = f.mont_mul(x[i], y[i]);
}

/// x[i] = plain value of x[i] / n: multiplying the Montgomery form by the
/// plain residue n^-1 leaves the plain, scaled value.
static __global__ void scale_kernel(std::uint64_t* x, field::PrimeField64 f, std::uint64_t n_inv, std::size_t len) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < len;
       i += std::size_t{gridDim.x} * blockDim.x)
    x[i] = f.mont_mul(x[i], n_inv);
}

/// In place: (x1[i], x2[i], x3[i]) residues -> the three limbs of c_i.
static __global__ void crt_kernel(std::uint64_t* x1, std::uint64_t* x2, std::uint64_t* x3, Crt3 crt, std::size_t len) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < len;
       i += std::size_t{gridDim.x} * blockDim.x) {
    std::uint64_t c[3];
    crt.combine(x1[i], x2[i], x3[i], c);
    x1[i] = c[0];
    x2[i] = c[1];
    x3[i] = c[2];
  }
}

/// Column sums of sum_i c_i * 2^(64 i): lo[i] = low word of
/// c0[i] + c1[i-1] + c2[i-2], carry[i+1] = its high word (< 3), carry[0] = 0.
static __global__ void column_kernel(std::uint64_t* lo, std::uint64_t* carry, const std::uint64_t* c0,
                              const std::uint64_t* c1, const std::uint64_t* c2, std::size_t len) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < len;
       i += std::size_t{gridDim.x} * blockDim.x) {
    std::uint64_t s = c0[i];
    std::uint64_t h = 0;
    if (i >= 1) h += limb::add_with_carry(s, c1[i - 1], 0, s);
    if (i >= 2) h += limb::add_with_carry(s, c2[i - 2], 0, s);
    lo[i] = s;
    carry[i + 1] = h;
    if (i == 0) carry[0] = 0;
  }
}

}  // namespace mpgpu::ntt
