// Matrix products mod p with integer arithmetic (integer_delayed on the
// device), for every prime p < 2^64 (uint64 residues) or p - 1 < 2^52
// (integral doubles, converted exactly as they are loaded).
//
// Delayed reduction: each entry sums its k products (< 2^128 each) in a
// 192-bit accumulator, (hi:lo) through limb::mul_add's carry chain and the
// carries in a 64-bit word: k (p-1)^2 < 2^64 2^128, so no reduction is ever
// required before the end, where each entry is reduced once (3 128-bit
// remainders, nothing next to k multiply-adds).
//
// Matrix-matrix: 64 x 64 tiles of C per block of 16 x 16 threads, each
// thread 4 x 4 entries (rows ty + 16 i, columns tx + 16 j), the inner
// dimension in slices of 16 staged in shared memory (A transposed, so a
// thread's 4 values of a column of A and 4 of a row of B are 8 shared loads
// for 16 multiply-adds). Edges are zero-filled: any m, n, k.
// Matrix-vector (n = 1): one warp per row of A, lanes strided along k
// (coalesced), a warp sum mod p at the end.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda/matmul_paths.hpp"
#include "mpgpu/dot/thread_dot.cuh"

namespace mpgpu::detail::dot_cuda {

namespace {

constexpr int kTile = 64;       // rows and columns of C per block
constexpr int kSlice = 16;      // inner-dimension slice staged in shared memory
constexpr int kSide = 16;       // threads per block side (16 x 16)
constexpr int kPerThread = kTile / kSide;  // 4 x 4 entries a thread
constexpr int kVecThreads = 256;           // matvec: 8 warps, 8 rows per block

__device__ __forceinline__ std::uint64_t load_u64(const std::uint64_t* p, std::size_t i) { return p[i]; }
__device__ __forceinline__ std::uint64_t load_u64(const double* p, std::size_t i) { return __double2ull_rz(p[i]); }

template <class T>
__global__ void __launch_bounds__(kSide * kSide)
    matmul_tile_kernel(T* C, std::size_t ldc, const T* A, std::size_t lda, const T* B, std::size_t ldb,
                       std::size_t m, std::size_t n, std::size_t k, std::uint64_t p) {
  __shared__ std::uint64_t As[kSlice][kTile + 1];  // As[l][r] = A[row0 + r][l0 + l]; +1: no bank conflicts on the transposing stores
  __shared__ std::uint64_t Bs[kSlice][kTile];  // Bs[l][c] = B[l0 + l][col0 + c]
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kSide + tx;
  const std::size_t row0 = std::size_t{blockIdx.y} * kTile, col0 = std::size_t{blockIdx.x} * kTile;
  std::uint64_t lo[kPerThread][kPerThread] = {}, hi[kPerThread][kPerThread] = {},
                top[kPerThread][kPerThread] = {};
  for (std::size_t l0 = 0; l0 < k; l0 += kSlice) {
    // 1024 elements of each tile, 4 per thread. A: consecutive threads take
    // consecutive l (coalesced along a row of A); B: consecutive columns.
#pragma unroll
    for (int e = 0; e < kTile * kSlice / (kSide * kSide); ++e) {
      const int idx = tid + e * kSide * kSide;
      const int ar = idx / kSlice, al = idx % kSlice;
      const std::size_t gr = row0 + ar, gl = l0 + al;
      As[al][ar] = gr < m && gl < k ? load_u64(A, gr * lda + gl) : 0;
      const int bl = idx / kTile, bc = idx % kTile;
      const std::size_t gbl = l0 + bl, gbc = col0 + bc;
      Bs[bl][bc] = gbl < k && gbc < n ? load_u64(B, gbl * ldb + gbc) : 0;
    }
    __syncthreads();
#pragma unroll 4
    for (int l = 0; l < kSlice; ++l) {
      std::uint64_t a[kPerThread], b[kPerThread];
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) a[i] = As[l][ty + kSide * i];
#pragma unroll
      for (int j = 0; j < kPerThread; ++j) b[j] = Bs[l][tx + kSide * j];
#pragma unroll
      for (int i = 0; i < kPerThread; ++i)
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) top[i][j] += limb::mul_add(a[i], b[j], 0, lo[i][j], hi[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kPerThread; ++i)
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const std::size_t r = row0 + ty + kSide * i, c = col0 + tx + kSide * j;
      if (r < m && c < n) C[r * ldc + c] = static_cast<T>(dot::thread::reduce_words(top[i][j], hi[i][j], lo[i][j], p));
    }
}

template <class T>
__global__ void __launch_bounds__(kVecThreads)
    matvec_kernel(T* y, std::size_t ldy, const T* A, std::size_t lda, const T* x, std::size_t m, std::size_t k, std::uint64_t p) {
  const int lane = threadIdx.x & 31;
  const std::size_t row = std::size_t{blockIdx.x} * (kVecThreads / 32) + (threadIdx.x >> 5);
  if (row >= m) return;  // whole warps leave together
  const T* a = A + row * lda;
  std::uint64_t lo = 0, hi = 0, top = 0;
  for (std::size_t l = lane; l < k; l += 32) top += limb::mul_add(load_u64(a, l), load_u64(x, l), 0, lo, hi);
  std::uint64_t r = dot::thread::reduce_words(top, hi, lo, p);
  for (int o = 16; o > 0; o >>= 1) r = dot::thread::add_mod(r, __shfl_down_sync(~0u, r, o), p);
  if (lane == 0) y[row * ldy] = static_cast<T>(r);
}

template <class T>
void launch(cudaStream_t s, const MatArgs& a) {
  T* C = static_cast<T*>(a.C);
  const T* A = static_cast<const T*>(a.A);
  const T* B = static_cast<const T*>(a.B);
  if (a.n == 1 && a.ldb == 1) {  // matrix-vector (also a one-column matmul)
    const std::size_t rows_per_block = kVecThreads / 32;
    for (std::size_t r0 = 0; r0 < a.m; r0 += rows_per_block * 65535) {  // keep the grid modest
      const std::size_t rows = std::min(a.m - r0, rows_per_block * 65535);
      const unsigned blocks = static_cast<unsigned>((rows + rows_per_block - 1) / rows_per_block);
      matvec_kernel<T><<<blocks, kVecThreads, 0, s>>>(C + r0 * a.ldc, a.ldc, A + r0 * a.lda, a.lda, B, rows, a.k, a.p);
      MPGPU_CHECK_LAUNCH("matvec_kernel");
    }
    return;
  }
  const std::size_t tiles_n = (a.n + kTile - 1) / kTile;
  for (std::size_t r0 = 0; r0 < a.m; r0 += std::size_t{kTile} * 65535) {  // gridDim.y limit
    const std::size_t rows = std::min(a.m - r0, std::size_t{kTile} * 65535);
    const dim3 grid(static_cast<unsigned>(tiles_n), static_cast<unsigned>((rows + kTile - 1) / kTile));
    matmul_tile_kernel<T><<<grid, dim3(kSide, kSide), 0, s>>>(C + r0 * a.ldc, a.ldc, A + r0 * a.lda, a.lda, B,
                                                              a.ldb, rows, a.n, a.k, a.p);
    MPGPU_CHECK_LAUNCH("matmul_tile_kernel");
  }
}

}  // namespace

void matmul_integer(ContextState& st, cudaStream_t s, const MatArgs& a) {
  activate_device(st.device);
  if (a.residue == dot::Residue::f64) launch<double>(s, a);
  else launch<std::uint64_t>(s, a);
}

}  // namespace mpgpu::detail::dot_cuda
