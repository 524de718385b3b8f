// PartSteps over CUDA parts (src/distributed/part_steps.hpp): device memory and kernels on
// each part's stream, the part's device current while its work is queued. The carries are a
// scan of per-limb statuses (limb/carry_status.cuh) with Thrust, as long runs of all-ones
// limbs (squares of all-ones operands) would make a sequential pass as long as the run.
#include <thrust/execution_policy.h>
#include <thrust/find.h>
#include <thrust/logical.h>
#include <thrust/scan.h>

#include <algorithm>
#include <string>
#include <memory>
#include <unordered_map>
#include <vector>

#include "cuda/check.cuh"
#include "cuda/grid_stride.hpp"
#include "distributed/part_steps.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/limb/carry_status.cuh"
#include "mpgpu/ntt/crt_many.cuh"

namespace mpgpu::distributed {

namespace {

using detail::cuda::grid_for;
using detail::cuda::kGridStrideThreads;

/// One rectangle (part_steps.hpp): a thread a word, rows by blockIdx.y (grid-strided).
/// A plain strided copy, for the rectangles that do not transpose (and for all of them with
/// CudaPartStepsOptions::tiled_transposes off).
__global__ void copy_rect_kernel(std::uint64_t* dst, const std::uint64_t* src, Rect r) {
  for (std::size_t i = blockIdx.y; i < r.rows; i += gridDim.y)
    for (std::size_t j = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; j < r.columns;
         j += std::size_t{gridDim.x} * blockDim.x)
      dst[r.to.offset + i * r.to.row_stride + j * r.to.col_stride] =
          src[r.from.offset + i * r.from.row_stride + j * r.from.col_stride];
}

/// dst[c n2 + k2] = w^((first + c) k2): one power a word (twiddle_word).
/// A rectangle that transposes (one side contiguous along j, the other along i) through a
/// 32 x 33 shared tile, so that both the reads and the writes are coalesced: 32 x 8 threads a
/// tile, tiles over (i, j) by blockIdx (x: j, y: i, each grid-strided).
/// ReadAlongJ: transposes_along_j (part_steps.hpp), else transposes_along_i; tile_word says
/// which word each thread moves.
template <bool ReadAlongJ>
__global__ void transpose_rect_kernel(std::uint64_t* dst, const std::uint64_t* src, Rect r) {
  __shared__ std::uint64_t tile[32][33];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  for (std::size_t i0 = std::size_t{blockIdx.y} * 32; i0 < r.rows; i0 += std::size_t{gridDim.y} * 32)
    for (std::size_t j0 = std::size_t{blockIdx.x} * 32; j0 < r.columns; j0 += std::size_t{gridDim.x} * 32) {
      std::size_t i, j;
      for (unsigned k = ty; k < 32; k += 8) {
        tile_word(ReadAlongJ, true, i0, j0, tx, k, i, j);
        if (i < r.rows && j < r.columns)
          tile[k][tx] = src[r.from.offset + i * r.from.row_stride + j * r.from.col_stride];
      }
      __syncthreads();
      for (unsigned k = ty; k < 32; k += 8) {
        tile_word(ReadAlongJ, false, i0, j0, tx, k, i, j);
        if (i < r.rows && j < r.columns) dst[r.to.offset + i * r.to.row_stride + j * r.to.col_stride] = tile[tx][k];
      }
      __syncthreads();
    }
}

__global__ void twiddle_kernel(std::uint64_t* dst, std::size_t first, std::size_t columns, std::size_t n2,
                               std::uint64_t order_mask, std::uint64_t w, field::PrimeField64 f) {
  const std::size_t n = columns * n2;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    dst[i] = twiddle_word(f, w, order_mask, first, n2, i);
}

__global__ void pointwise_kernel(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
                                 field::PrimeField64 f) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = f.mul(a[i], b[i]);
}

/// dst[c n2 + j] = digit_residue(src, c, j, ...) for every digit of the columns.
__global__ void reduce_kernel(std::uint64_t* dst, const std::uint64_t* src, std::size_t columns, std::size_t n2,
                              std::size_t d, std::uint64_t p, std::uint64_t radix) {
  const std::size_t n = columns * n2;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    dst[i] = digit_residue(src, i / n2, i % n2, n2, d, p, radix);
}

/// Garner's value of each coefficient, its P = 2 d + 1 words stored apart: word t of
/// coefficient k at c[t n + k].
/// The residue arrays of one crt_sum, passed by value (no upload, no wait).
struct ResidueArrays {
  const std::uint64_t* r[ntt::kCrtMaxPrimes];
};

template <int P>
__global__ void crt_kernel(std::uint64_t* c, ResidueArrays r, std::size_t n, ntt::CrtMany<P> crt) {
  for (std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; k < n; k += std::size_t{gridDim.x} * blockDim.x) {
    std::uint64_t residues[P], out[P];
#pragma unroll
    for (int i = 0; i < P; ++i) residues[i] = r.r[i][k];
    crt.template combine<P>(residues, out);
#pragma unroll
    for (int t = 0; t < P; ++t) c[static_cast<std::size_t>(t) * n + k] = out[t];
  }
}

/// column_word for every limb m < n d + d + 1: the low word to low[m], the rest (<= 2) to
/// high[m].
__global__ void column_kernel(std::uint64_t* low, std::uint64_t* high, const std::uint64_t* c, std::size_t n,
                              std::size_t d) {
  const std::size_t limbs = n * d + d + 1;
  for (std::size_t m = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; m < limbs;
       m += std::size_t{gridDim.x} * blockDim.x) {
    const unsigned __int128 t = column_word(c, n, d, m);
    low[m] = static_cast<std::uint64_t>(t);
    high[m] = static_cast<std::uint64_t>(t >> 64);
  }
}

/// acc[k] = a[k] + b[k] (b: `b_count` words, zero past them), wrapped, with the status of
/// each limb (generate when it wrapped). n + 1 statuses: the last is kill (the scan's end).
__global__ void add_status_kernel(std::uint64_t* acc, std::uint32_t* status, const std::uint64_t* a,
                                  const std::uint64_t* b, std::size_t b_offset, std::size_t b_count, std::size_t n) {
  for (std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; k <= n; k += std::size_t{gridDim.x} * blockDim.x) {
    if (k == n) {
      status[k] = limb::carry_kill;
      continue;
    }
    const std::uint64_t x = a[k];
    const std::uint64_t y = k >= b_offset && k - b_offset < b_count ? b[k - b_offset] : 0;
    const std::uint64_t s = x + y;
    acc[k] = s;
    status[k] = y == 0 ? (s == ~std::uint64_t{0} ? limb::carry_propagate : limb::carry_kill) : limb::add_status(x, s);
  }
}

/// acc[k] += 1 where the carry into limb k (the exclusive scan of the statuses) is a
/// generate.
__global__ void apply_carries_kernel(std::uint64_t* acc, const std::uint32_t* carry_in, std::size_t n) {
  for (std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; k < n; k += std::size_t{gridDim.x} * blockDim.x)
    if (carry_in[k] == limb::carry_generate) ++acc[k];
}

struct IsAllOnes {
  __device__ bool operator()(std::uint64_t v) const { return v == ~std::uint64_t{0}; }
};

struct IsNotAllOnes {
  __device__ bool operator()(std::uint64_t v) const { return v != ~std::uint64_t{0}; }
};

class CudaPartSteps final : public PartSteps {
 public:
  CudaPartSteps(const std::vector<Context>& parts, CudaPartStepsOptions options) : parts_(parts), options_(options) {
    for (std::size_t g = 0; g < parts_.size(); ++g)
      if (!parts_[g].is_cuda())
        throw InvalidArgument("make_cuda_part_steps: part " + std::to_string(g) + " is not a CUDA context");
  }
  ~CudaPartSteps() override {
    for (auto& [p, g] : buffers_) {
      cudaSetDevice(parts_[g].device());
      cudaFreeAsync(p, stream(g));
    }
  }

  std::uint64_t* allocate(std::size_t g, std::size_t words) override {
    on(g);
    void* p = nullptr;
    const std::size_t bytes = std::max<std::size_t>(words, 1) * sizeof(std::uint64_t);
    MPGPU_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream(g)));
    buffers_.emplace(p, g);
    MPGPU_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, stream(g)));
    return static_cast<std::uint64_t*>(p);
  }
  void release(std::size_t g, std::uint64_t* p) override {
    if (buffers_.erase(p) == 0) return;
    on(g);
    MPGPU_CUDA_CHECK(cudaFreeAsync(p, stream(g)));
  }
  void copy_rects(std::size_t g, std::uint64_t* dst, const std::uint64_t* src, const std::vector<Rect>& rects) override {
    on(g);
    for (const Rect& r : rects) {
      if (r.rows == 0 || r.columns == 0) continue;
      const bool along_j = transposes_along_j(r), along_i = transposes_along_i(r);
      if (options_.tiled_transposes && (along_j || along_i)) {
        const dim3 grid(static_cast<unsigned>(std::min<std::size_t>((r.columns + 31) / 32, 65535)),
                        static_cast<unsigned>(std::min<std::size_t>((r.rows + 31) / 32, 65535)));
        if (along_j) transpose_rect_kernel<true><<<grid, dim3(32, 8), 0, stream(g)>>>(dst, src, r);
        else transpose_rect_kernel<false><<<grid, dim3(32, 8), 0, stream(g)>>>(dst, src, r);
        MPGPU_CHECK_LAUNCH("transpose_rect_kernel");
        continue;
      }
      const dim3 grid(std::min<unsigned>(grid_for(r.columns), 1024),
                      static_cast<unsigned>(std::min<std::size_t>(r.rows, 65535)));
      copy_rect_kernel<<<grid, kGridStrideThreads, 0, stream(g)>>>(dst, src, r);
      MPGPU_CHECK_LAUNCH("copy_rect_kernel");
    }
  }
  void twiddles(std::size_t g, std::uint64_t* dst, std::size_t first, std::size_t columns, std::size_t n2,
                std::uint64_t w, std::uint64_t p) override {
    const std::size_t n = columns * n2;
    if (n == 0) return;
    const field::PrimeField64 f = field::PrimeField64::make(p);
    on(g);
    twiddle_kernel<<<grid_for(n), kGridStrideThreads, 0, stream(g)>>>(dst, first, columns, n2, root_order_mask(f, w), w, f);
    MPGPU_CHECK_LAUNCH("twiddle_kernel");
  }
  void pointwise_mul(std::size_t g, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
                     std::uint64_t p) override {
    if (n == 0) return;
    on(g);
    pointwise_kernel<<<grid_for(n), kGridStrideThreads, 0, stream(g)>>>(out, a, b, n, field::PrimeField64::make(p));
    MPGPU_CHECK_LAUNCH("pointwise_kernel");
  }
  void reduce(std::size_t g, std::uint64_t* dst, const std::uint64_t* src, std::size_t columns, std::size_t n2,
              std::size_t d, std::uint64_t p) override {
    const std::size_t n = columns * n2;
    if (n == 0) return;
    on(g);
    const std::uint64_t radix = static_cast<std::uint64_t>((static_cast<unsigned __int128>(1) << 64) % p);
    reduce_kernel<<<grid_for(n), kGridStrideThreads, 0, stream(g)>>>(dst, src, columns, n2, d, p, radix);
    MPGPU_CHECK_LAUNCH("reduce_kernel");
  }
  void crt_sum(std::size_t g, std::uint64_t* acc, const std::vector<const std::uint64_t*>& r, std::size_t n,
               std::size_t d) override {
    // Digits of 1, 2 and 4 limbs take 3, 5 and 9 primes: P = 2 d + 1, the coefficient's limbs too.
    if (r.size() != 2 * d + 1 || (d != 1 && d != 2 && d != 4))
      throw InvalidArgument("crt_sum: " + std::to_string(r.size()) + " primes for digits of " + std::to_string(d) +
                            " limbs");
    const std::size_t P = r.size(), limbs = n * d + d + 1;
    std::uint64_t* c = allocate(g, P * n);
    std::uint64_t* low = allocate(g, limbs);
    std::uint64_t* high = allocate(g, limbs);
    ResidueArrays rp{};
    for (std::size_t i = 0; i < P; ++i) rp.r[i] = r[i];
    on(g);
    if (n != 0) {
      if (P == 3) crt_kernel<3><<<grid_for(n), kGridStrideThreads, 0, stream(g)>>>(c, rp, n, ntt::CrtMany<3>::make());
      else if (P == 5) crt_kernel<5><<<grid_for(n), kGridStrideThreads, 0, stream(g)>>>(c, rp, n, ntt::CrtMany<5>::make());
      else crt_kernel<9><<<grid_for(n), kGridStrideThreads, 0, stream(g)>>>(c, rp, n, ntt::CrtMany<9>::make());
      MPGPU_CHECK_LAUNCH("crt_kernel");
    }
    column_kernel<<<grid_for(limbs), kGridStrideThreads, 0, stream(g)>>>(low, high, c, n, d);
    MPGPU_CHECK_LAUNCH("column_kernel");
    // low + high 2^64 (high's words <= 2): one addition with single-bit carries, no carry out
    // of the n d + d + 1 limbs (the sum is below 2^(64 (n d + d + 1))).
    add_and_carry(g, acc, low, high, 1, limbs - 1, limbs);
    for (std::uint64_t* p : {c, low, high}) release(g, p);
  }
  std::pair<bool, bool> add_incoming(std::size_t g, std::uint64_t* acc, std::size_t n, const std::uint64_t* in,
                                     std::size_t m) override {
    const bool carry_out = add_and_carry(g, acc, acc, in, 0, m, n);
    on(g);
    const bool all_ones = thrust::all_of(thrust::cuda::par.on(stream(g)), acc, acc + n, IsAllOnes{});
    return {carry_out, all_ones};
  }
  void add_one(std::size_t g, std::uint64_t* acc, std::size_t n) override {
    on(g);
    // The lowest limb that is not all ones takes the 1; those below it become 0.
    const std::uint64_t* first = thrust::find_if(thrust::cuda::par.on(stream(g)), acc, acc + n, IsNotAllOnes{});
    const std::size_t k = static_cast<std::size_t>(first - acc);
    if (k != 0) MPGPU_CUDA_CHECK(cudaMemsetAsync(acc, 0, k * sizeof(std::uint64_t), stream(g)));
    if (k < n) {
      std::uint64_t v = 0;
      to_host(g, &v, acc + k, 1);
      ++v;
      from_host(g, acc + k, &v, 1);
    }
  }
  void copy(std::size_t g, std::uint64_t* dst, const std::uint64_t* src, std::size_t n) override {
    if (n == 0) return;
    on(g);
    MPGPU_CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice, stream(g)));
  }
  void to_host(std::size_t g, std::uint64_t* host, const std::uint64_t* src, std::size_t n) override {
    if (n == 0) return;
    on(g);
    MPGPU_CUDA_CHECK(cudaMemcpyAsync(host, src, n * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream(g)));
    MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream(g)));
  }
  void from_host(std::size_t g, std::uint64_t* dst, const std::uint64_t* host, std::size_t n) override {
    if (n == 0) return;
    on(g);
    MPGPU_CUDA_CHECK(cudaMemcpyAsync(dst, host, n * sizeof(std::uint64_t), cudaMemcpyHostToDevice, stream(g)));
    // The host words may be a temporary of the caller: wait before it goes.
    MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream(g)));
  }

 private:
  void on(std::size_t g) const { MPGPU_CUDA_CHECK(cudaSetDevice(parts_[g].device())); }
  cudaStream_t stream(std::size_t g) const { return parts_[g].stream(); }

  /// acc[0, n) = a[0, n) + (b[0, b_count) << 64 b_offset), carries resolved by the scan; the
  /// carry out of the n limbs, read back (synchronous). acc may be a.
  bool add_and_carry(std::size_t g, std::uint64_t* acc, const std::uint64_t* a, const std::uint64_t* b,
                     std::size_t b_offset, std::size_t b_count, std::size_t n) {
    on(g);
    std::uint32_t* status = reinterpret_cast<std::uint32_t*>(allocate(g, n / 2 + 1));
    std::uint32_t* carry_in = reinterpret_cast<std::uint32_t*>(allocate(g, n / 2 + 1));
    add_status_kernel<<<grid_for(n + 1), kGridStrideThreads, 0, stream(g)>>>(acc, status, a, b, b_offset, b_count, n);
    MPGPU_CHECK_LAUNCH("add_status_kernel");
    thrust::exclusive_scan(thrust::cuda::par.on(stream(g)), status, status + n + 1, carry_in,
                           static_cast<std::uint32_t>(limb::carry_kill), limb::CarryCombine{});
    if (n != 0) {
      apply_carries_kernel<<<grid_for(n), kGridStrideThreads, 0, stream(g)>>>(acc, carry_in, n);
      MPGPU_CHECK_LAUNCH("apply_carries_kernel");
    }
    std::uint32_t out = 0;
    MPGPU_CUDA_CHECK(cudaMemcpyAsync(&out, carry_in + n, sizeof(out), cudaMemcpyDeviceToHost, stream(g)));
    MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream(g)));
    release(g, reinterpret_cast<std::uint64_t*>(status));
    release(g, reinterpret_cast<std::uint64_t*>(carry_in));
    return out == limb::carry_generate;
  }

  std::vector<Context> parts_;
  CudaPartStepsOptions options_;
  std::unordered_map<void*, std::size_t> buffers_;  // live allocations and their parts
};

}  // namespace

std::unique_ptr<PartSteps> make_cuda_part_steps(const std::vector<Context>& parts, CudaPartStepsOptions options) {
  return std::make_unique<CudaPartSteps>(parts, options);
}

}  // namespace mpgpu::distributed
