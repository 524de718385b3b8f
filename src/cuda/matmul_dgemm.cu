// Matrix products mod p through cuBLAS DGEMM (fp_naive on the device): the
// FFLAS-FFPACK delayed reduction. Residues < p with (p-1)^2 < 2^53 are exact
// doubles, every product is exact, and any sum of at most kb products is an
// integer below 2^53, exact in whatever order DGEMM adds (every partial sum
// is such an integer too). So:
//
//   block 0:  C  = A[:, 0:kb0] B[0:kb0, :]          (beta = 0), kb0 <= kb
//             C  = C mod p                            (exact floor reduction)
//   block j:  C += A[:, l:l+kb1] B[l:l+kb1, :]      (beta = 1), kb1 <= kb'
//             C  = C mod p
//
// with kb = floor((2^53 - 1) / (p-1)^2) (dot::matmul_reduction_block, the
// host's bound) and, since C < p before a beta = 1 block,
// kb' = floor((2^53 - 1 - (p-1)) / (p-1)^2): C + kb' (p-1)^2 <= 2^53 - 1.
// kb' >= 1 for every prime with kb >= 1 (checked exhaustively near
// sqrt(2^53): the largest, 94906249, has kb = kb' = 1).
//
// Row-major operands: cuBLAS is column-major, and a row-major m x n matrix
// with leading dimension ld is its column-major transpose, so we compute
// C^T = B^T A^T: cublasDgemm(N, N, n, m, kb, B, ldb, A, lda, C, ldc).
//
// Handle: one cuBLAS handle per (host thread, device), created on first use
// and kept (cublasCreate costs far more than a small product, and handles
// must not be shared by threads); deliberately never destroyed, because
// thread-exit or static destructors may run after the CUDA runtime is gone.
// Each call binds the handle to its stream and gives it a workspace from
// the context's stream-ordered pool, so calls on different streams never
// share cuBLAS scratch. Math mode CUBLAS_DEFAULT_MATH: native FP64, no
// fixed-point emulation (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH is opt-in).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <string>

#include "cuda/grid_stride.hpp"
#include "cuda/matmul_paths.hpp"
#include "cuda/scoped_memory.cuh"
#include "mpgpu/dot/matmul_host.hpp"
#include "mpgpu/dot/thread_dot.cuh"

namespace mpgpu::detail::dot_cuda {

namespace {

using detail::cuda::grid_for;
constexpr int kThreads = detail::cuda::kGridStrideThreads;
/// cuBLAS asks for a 32 MiB workspace on Hopper.
constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;

void check_cublas(cublasStatus_t e, const char* what, int line) {
  if (e != CUBLAS_STATUS_SUCCESS)
    throw CudaError(std::string("mpgpu: cuBLAS error ") + cublasGetStatusName(e) + " (" + cublasGetStatusString(e) +
                        ") in " + what + " at " + __FILE__ + ":" + std::to_string(line),
                    static_cast<int>(e));
}
#define MPGPU_CUBLAS_CHECK(call) check_cublas((call), #call, __LINE__)

cublasHandle_t cached_handle(int device) {
  thread_local std::map<int, cublasHandle_t> handles;
  auto it = handles.find(device);
  if (it != handles.end()) return it->second;
  cublasHandle_t h = nullptr;
  MPGPU_CUBLAS_CHECK(cublasCreate(&h));
  MPGPU_CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  MPGPU_CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  handles.emplace(device, h);
  return h;
}

/// dst[i][j] = Dst(src[i][j]) for a rows x cols matrix (exact both ways:
/// residues < 2^27 here).
template <class Src, class Dst>
__global__ void convert_kernel(const Src* src, std::size_t lds, Dst* dst, std::size_t ldd, std::size_t rows,
                               std::size_t cols) {
  const std::size_t total = rows * cols;
  for (std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; t < total;
       t += std::size_t{gridDim.x} * blockDim.x) {
    const std::size_t i = t / cols, j = t % cols;
    if constexpr (std::is_same_v<Dst, double>)
      dst[i * ldd + j] = static_cast<double>(src[i * lds + j]);
    else
      dst[i * ldd + j] = __double2ull_rz(src[i * lds + j]);
  }
}

/// C = C mod p in place (entries: integers in [0, 2^53)).
__global__ void reduce_kernel(double* C, std::size_t ldc, std::size_t rows, std::size_t cols,
                              dot::thread::DotConsts c) {
  const std::size_t total = rows * cols;
  for (std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; t < total;
       t += std::size_t{gridDim.x} * blockDim.x) {
    double& x = C[(t / cols) * ldc + t % cols];
    x = static_cast<double>(dot::thread::reduce_exact(x, c));
  }
}

void launch_reduce(cudaStream_t s, double* C, std::size_t ldc, std::size_t m, std::size_t n,
                   const dot::thread::DotConsts& c) {
  reduce_kernel<<<grid_for(m * n), kThreads, 0, s>>>(C, ldc, m, n, c);
  MPGPU_CHECK_LAUNCH("reduce_kernel");
}

}  // namespace

void matmul_dgemm(ContextState& st, cudaStream_t s, const MatArgs& a) {
  activate_device(st.device);
  const std::uint64_t p = a.p;
  const std::uint64_t q = (p - 1) * (p - 1);  // < 2^53
  const std::uint64_t two53 = std::uint64_t{1} << 53;
  const std::uint64_t kb = dot::matmul_reduction_block(dot::Method::fp_naive, a.residue, p);
  const std::uint64_t kb1 = (two53 - 1 - (p - 1)) / q;
  if (kb == 0 || kb1 == 0) throw InvalidArgument("mpgpu::dot::matmul: fp_naive block bound is 0 for p = " + std::to_string(p));
  dot::thread::DotConsts c{};
  c.p = p;
  c.pd = static_cast<double>(p);
  c.pinv = 1.0 / c.pd;

  // Double views of the operands (copies for uint64 residues).
  const bool u64 = a.residue == dot::Residue::u64;
  const double* A = static_cast<const double*>(a.A);
  const double* B = static_cast<const double*>(a.B);
  double* C = static_cast<double*>(a.C);
  std::size_t lda = a.lda, ldb = a.ldb, ldc = a.ldc;
  const std::size_t m = a.m, n = a.n, k = a.k;
  cuda::ScopedDeviceMemory copies(st, s, u64 ? (m * k + k * n + m * n) * sizeof(double) : 0);
  if (u64) {
    double* Ad = copies.as<double>();
    double* Bd = Ad + m * k;
    convert_kernel<<<grid_for(m * k), kThreads, 0, s>>>(static_cast<const std::uint64_t*>(a.A), a.lda, Ad, k, m, k);
    MPGPU_CHECK_LAUNCH("convert_kernel");
    convert_kernel<<<grid_for(k * n), kThreads, 0, s>>>(static_cast<const std::uint64_t*>(a.B), a.ldb, Bd, n, k, n);
    MPGPU_CHECK_LAUNCH("convert_kernel");
    A = Ad;
    B = Bd;
    C = Bd + k * n;
    lda = k;
    ldb = n;
    ldc = n;
  }

  cublasHandle_t h = cached_handle(st.device);
  MPGPU_CUBLAS_CHECK(cublasSetStream(h, s));
  cuda::ScopedDeviceMemory workspace(st, s, kWorkspaceBytes);
  MPGPU_CUBLAS_CHECK(cublasSetWorkspace(h, workspace.p, kWorkspaceBytes));
  const double one = 1.0, zero = 0.0;
  const auto gemm = [&](std::size_t l, std::size_t kk, const double* beta, double* out, std::size_t ldo) {
    MPGPU_CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m),
                                   static_cast<int>(kk), &one, B + l * ldb, static_cast<int>(ldb), A + l,
                                   static_cast<int>(lda), beta, out, static_cast<int>(ldo)));
  };

  std::size_t l = static_cast<std::size_t>(std::min<std::uint64_t>(k, kb));
  gemm(0, l, &zero, C, ldc);
  launch_reduce(s, C, ldc, m, n, c);
  for (; l < k;) {
    const std::size_t kk = static_cast<std::size_t>(std::min<std::uint64_t>(k - l, kb1));
    gemm(l, kk, &one, C, ldc);
    launch_reduce(s, C, ldc, m, n, c);
    l += kk;
  }
  if (u64) {
    convert_kernel<<<grid_for(m * n), kThreads, 0, s>>>(static_cast<const double*>(C), ldc,
                                                         static_cast<std::uint64_t*>(a.C), a.ldc, m, n);
    MPGPU_CHECK_LAUNCH("convert_kernel");
  }
  // Leave no dangling workspace pointer in the cached handle: the pool
  // memory is freed (stream-ordered) when `workspace` goes.
  MPGPU_CUBLAS_CHECK(cublasSetWorkspace(h, nullptr, 0));
}

}  // namespace mpgpu::detail::dot_cuda
