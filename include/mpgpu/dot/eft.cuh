// Error-free transformations of Jean & Graillat on the device,
// with rounding toward zero written out in every operation (__dmul_rz,
// __fma_rz, __dadd_rz, __dsub_rz): the device has no rounding-mode register,
// and these intrinsics are never contracted or reassociated by nvcc, so the
// arithmetic is exactly the paper's (Sec. III). Device code only (nvcc).
//
// Field layer: per-thread functions of two doubles, no memory, no launches.
#pragma once

#if !defined(__CUDACC__)
#error "mpgpu/dot/eft.cuh holds device code: include it from .cu files only"
#endif

namespace mpgpu::dot::eft {

/// TwoProduct (Algorithm 1) for a, b >= 0: a b = x + y exactly, x = fl_rz(a b),
/// 0 <= y < u ufp(x) (Theorem 1; y >= 0 because x rounds toward zero).
__device__ __forceinline__ void two_product(double a, double b, double& x, double& y) {
  x = __dmul_rz(a, b);
  y = __fma_rz(a, b, -x);  // exact: the error of a product is a double
}

/// ExtractScalar (Algorithm 2), sigma = 2^k >= a >= 0, a an integer: a = x + y,
/// x a multiple of u sigma = 2^(k-52), 0 <= y < u sigma (Theorem 2). In
/// rounding toward zero sigma + a truncates a's bits below u sigma.
__device__ __forceinline__ void extract_scalar(double sigma, double a, double& x, double& y) {
  const double q = __dadd_rz(sigma, a);
  x = __dsub_rz(q, sigma);  // exact (Sterbenz)
  y = __dsub_rz(a, x);      // exact: the low bits of a
}

}  // namespace mpgpu::dot::eft
