// Products mod a word-size prime on the device (include/mpgpu/ntt.hpp;
// checks in src/ntt/ntt_poly_api.cpp): the residue scan, pointwise products,
// schoolbook polynomial products, and products through the public NTT
// (zero-padded copies in pool scratch, forward with bit-reversed output,
// pointwise, inverse with bit-reversed input, the low coefficients copied
// out). Scratch is stream-ordered pool memory; c is written last, so it may
// overlap a or b.
#include <algorithm>
#include <cstdint>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/grid_stride.hpp"
#include "cuda/scoped_memory.cuh"
#include "cuda/result_words.cuh"
#include "mpgpu/field/prime_field64.cuh"

namespace mpgpu::detail::cuda {

namespace {

constexpr unsigned kThreads = kGridStrideThreads;

/// *first = min(*first, i) over the i with x[i] >= p (*first starts at ~0).
template <class Word>
__global__ void first_unreduced_kernel(const Word* x, std::size_t n, Word p, unsigned long long* first) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    if (x[i] >= p) {
      atomicMin(first, static_cast<unsigned long long>(i));
      return;  // later indices of this thread are larger
    }
}

/// out[i] = a[i] * b[i] mod p; out[i] is written by the thread that read
/// a[i] and b[i], so out == a or out == b is safe.
__global__ void pointwise_kernel(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b,
                                 field::PrimeField64 f, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = f.mul(a[i], b[i]);
}

/// One thread per output coefficient of each product: c_i = sum_j a_j
/// b_(i-j). Montgomery products sum a_j b_l / R; one product by R^2 at the
/// end (to_mont) gives the plain residue. c must not overlap a or b.
__global__ void schoolbook_kernel(std::uint64_t* c, const std::uint64_t* a, std::size_t la, const std::uint64_t* b,
                                  std::size_t lb, std::size_t batch, field::PrimeField64 f) {
  const std::size_t lc = la + lb - 1;
  for (std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; t < batch * lc;
       t += std::size_t{gridDim.x} * blockDim.x) {
    const std::size_t inst = t / lc, i = t % lc;
    const std::uint64_t* ai = a + inst * la;
    const std::uint64_t* bi = b + inst * lb;
    const std::size_t lo = i + 1 > lb ? i + 1 - lb : 0, hi = i < la - 1 ? i : la - 1;
    std::uint64_t acc = 0;
    for (std::size_t j = lo; j <= hi; ++j) acc = f.add(acc, f.mont_mul(ai[j], bi[i - j]));
    c[t] = f.to_mont(acc);
  }
}

/// rows x width words from src (row pitch src_pitch words) to dst (dst_pitch).
/// One 2D copy, except for a single row or pitches of 2^30 bytes and more
/// (cudaMemcpy2D limits the pitch; such rows are few, as they fill memory).
void copy_rows(Stream s, std::uint64_t* dst, std::size_t dst_pitch, const std::uint64_t* src, std::size_t src_pitch,
               std::size_t width, std::size_t rows) {
  constexpr std::size_t kMaxPitchWords = (std::size_t{1} << 30) / sizeof(std::uint64_t);
  if (rows == 1 || dst_pitch >= kMaxPitchWords || src_pitch >= kMaxPitchWords) {
    for (std::size_t i = 0; i < rows; ++i)
      MPGPU_CUDA_CHECK(cudaMemcpyAsync(dst + i * dst_pitch, src + i * src_pitch, width * sizeof(std::uint64_t),
                                       cudaMemcpyDeviceToDevice, s));
    return;
  }
  MPGPU_CUDA_CHECK(cudaMemcpy2DAsync(dst, dst_pitch * sizeof(std::uint64_t), src, src_pitch * sizeof(std::uint64_t),
                                     width * sizeof(std::uint64_t), rows, cudaMemcpyDeviceToDevice, s));
}

/// dst[i * n + j] = src[i * len + j] for j < len, 0 for len <= j < n.
void pad_rows(Stream s, std::uint64_t* dst, std::size_t n, const std::uint64_t* src, std::size_t len,
              std::size_t rows) {
  MPGPU_CUDA_CHECK(cudaMemsetAsync(dst, 0, rows * n * sizeof(std::uint64_t), s));
  copy_rows(s, dst, n, src, len, len, rows);
}

}  // namespace

namespace {

template <class Word>
std::size_t first_unreduced(ContextState& st, Stream s, const Word* x, std::size_t n, Word p, Word& value) {
  use_device(st.device);
  ScopedDeviceMemory first(st, s, sizeof(unsigned long long));
  MPGPU_CUDA_CHECK(cudaMemsetAsync(first.p, 0xff, sizeof(unsigned long long), s));
  first_unreduced_kernel<<<grid_for(n), kThreads, 0, s>>>(x, n, p, first.as<unsigned long long>());
  MPGPU_CHECK_LAUNCH("first_unreduced_kernel");
  unsigned long long index = 0;
  copy_to_host(st, s, &index, first.p, sizeof index);  // synchronizes s
  if (index >= n) return n;
  copy_to_host(st, s, &value, x + index, sizeof value);
  return static_cast<std::size_t>(index);
}

}  // namespace

std::size_t ntt_first_unreduced(ContextState& st, Stream s, const std::uint64_t* x, std::size_t n,
                                std::uint64_t p, std::uint64_t& value) {
  return first_unreduced(st, s, x, n, p, value);
}

std::size_t ntt_first_unreduced(ContextState& st, Stream s, const std::uint32_t* x, std::size_t n,
                                std::uint32_t p, std::uint32_t& value) {
  return first_unreduced(st, s, x, n, p, value);
}

void ntt_pointwise(ContextState& st, Stream s, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b,
                   std::size_t count, std::uint64_t p) {
  use_device(st.device);
  if (count == 0) return;
  pointwise_kernel<<<grid_for(count), kThreads, 0, s>>>(out, a, b, field::PrimeField64::make(p), count);
  MPGPU_CHECK_LAUNCH("pointwise_kernel");
}

void poly_mul_schoolbook(ContextState& st, Stream s, std::uint64_t* c, const std::uint64_t* a, std::size_t len_a,
                         const std::uint64_t* b, std::size_t len_b, std::size_t batch, std::uint64_t p) {
  use_device(st.device);
  const std::size_t len_c = len_a + len_b - 1, total = batch * len_c;
  if (batch == 0 || len_a == 0 || len_b == 0) return;
  // Into scratch first: c may overlap a or b.
  ScopedDeviceMemory out(st, s, total * sizeof(std::uint64_t));
  schoolbook_kernel<<<grid_for(total), kThreads, 0, s>>>(out.as<std::uint64_t>(), a, len_a, b, len_b, batch,
                                                          field::PrimeField64::make(p));
  MPGPU_CHECK_LAUNCH("schoolbook_kernel");
  copy_on_device(st, s, c, out.p, total * sizeof(std::uint64_t));
}

void poly_mul_ntt(ContextState& st, Stream s, std::uint64_t* c, const std::uint64_t* a, std::size_t len_a,
                  const std::uint64_t* b, std::size_t len_b, std::size_t batch, int log_n, std::uint64_t p,
                  std::uint64_t generator) {
  use_device(st.device);
  if (batch == 0 || len_a == 0 || len_b == 0) return;
  const std::size_t n = std::size_t{1} << log_n, len_c = len_a + len_b - 1;
  const bool square = a == b && len_a == len_b;  // one transform fewer
  ScopedDeviceMemory fa(st, s, batch * n * sizeof(std::uint64_t));
  ScopedDeviceMemory fb(st, s, square ? 0 : batch * n * sizeof(std::uint64_t));
  std::uint64_t* xa = fa.as<std::uint64_t>();
  std::uint64_t* xb = square ? xa : fb.as<std::uint64_t>();
  pad_rows(s, xa, n, a, len_a, batch);
  if (!square) pad_rows(s, xb, n, b, len_b, batch);
  // Bit-reversed spectra are fine for a pointwise product; the inverse takes
  // them back in that order, so no permutation pass runs.
  ntt_transform(st, s, xa, batch, log_n, p, generator, true, true);
  if (!square) ntt_transform(st, s, xb, batch, log_n, p, generator, true, true);
  ntt_pointwise(st, s, xa, xa, xb, batch * n, p);
  ntt_transform(st, s, xa, batch, log_n, p, generator, false, true);
  copy_rows(s, c, len_c, xa, n, len_c, batch);
}

}  // namespace mpgpu::detail::cuda
