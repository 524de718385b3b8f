// Matrix products mod p on the device (src/dot/dot_backend.hpp): the residue
// check of an operand, and the choice between the DGEMM path
// (matmul_dgemm.cu) and the integer kernels (matmul_integer.cu).
//
// The check is a separate pass (cuBLAS cannot fuse it): one read of A and B,
// against m n k multiply-adds for the product; the host reads its verdict
// before launching the product, so C is never written from bad inputs.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda/matmul_paths.hpp"
#include "cuda/scoped_memory.cuh"
#include "mpgpu/dot/thread_dot.cuh"

namespace mpgpu::detail::dot_cuda {

namespace {

constexpr int kThreads = 256;
constexpr unsigned long long kNoBad = ~0ull;

/// atomicMin of row * cols + col of every bad element of the rows x cols
/// matrix M (leading dimension ld) into *bad. Each thread walks increasing
/// flat indices, so its first bad one is its smallest.
template <class T>
__global__ void check_kernel(const T* M, std::size_t ld, std::size_t rows, std::size_t cols,
                             dot::thread::DotConsts c, unsigned long long* bad) {
  const std::size_t total = rows * cols;
  for (std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; t < total;
       t += std::size_t{gridDim.x} * blockDim.x) {
    const std::size_t i = t / cols, j = t % cols;
    if (!dot::thread::is_residue(M[i * ld + j], c)) {
      atomicMin(bad, static_cast<unsigned long long>(t));
      return;
    }
  }
}

}  // namespace

BadElement check_matrix(ContextState& st, Stream stream, dot::Residue r, const void* M, std::size_t rows,
                        std::size_t cols, std::size_t ld, std::uint64_t p) {
  BadElement bad;
  if (rows == 0 || cols == 0) return bad;
  activate_device(st.device);
  const cudaStream_t s = stream;
  dot::thread::DotConsts c{};
  c.p = p;
  c.pd = static_cast<double>(p);
  cuda::ScopedDeviceMemory flag(st, s, sizeof(unsigned long long));
  auto* f = flag.as<unsigned long long>();
  MPGPU_CUDA_CHECK(cudaMemsetAsync(f, 0xff, sizeof *f, s));
  const std::size_t total = rows * cols;
  const unsigned grid = static_cast<unsigned>(std::clamp<std::size_t>((total + kThreads - 1) / kThreads, 1, 8192));
  if (r == dot::Residue::f64)
    check_kernel<double><<<grid, kThreads, 0, s>>>(static_cast<const double*>(M), ld, rows, cols, c, f);
  else
    check_kernel<std::uint64_t><<<grid, kThreads, 0, s>>>(static_cast<const std::uint64_t*>(M), ld, rows, cols, c, f);
  MPGPU_CHECK_LAUNCH("check_kernel");
  unsigned long long host = kNoBad;
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(&host, f, sizeof host, cudaMemcpyDeviceToHost, s));
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(s));
  if (host != kNoBad) {
    bad.found = true;
    bad.index = static_cast<std::size_t>(host);
  }
  return bad;
}

void matmul(ContextState& st, Stream stream, const MatArgs& args) {
  activate_device(st.device);
  const cudaStream_t s = stream;
  if (args.m == 0 || args.n == 0) return;
  if (args.k == 0) {  // C = 0: all-zero bits are 0 as uint64 and as double
    MPGPU_CUDA_CHECK(cudaMemset2DAsync(args.C, args.ldc * 8, 0, args.n * 8, args.m, s));
    return;
  }
  if (args.method == dot::Method::fp_naive) matmul_dgemm(st, s, args);
  else matmul_integer(st, s, args);
}

}  // namespace mpgpu::detail::dot_cuda
