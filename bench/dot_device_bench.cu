// Dot and matrix products mod p on the device (mpgpu/dot.hpp), against the one-reduction-per-term kernel, the host
// (CPU of the same machine, mpgpu/dot/dot_host.hpp) and, for matrices,
// plain cuBLAS DGEMM of the same shape.
//
// Timing: CUDA events on the context's stream around each call (a dot call
// includes its synchronizing read-back of the element check), one warm-up
// call, median of --reps calls. Inputs larger than the 50 MB L2: below that,
// calls rotate through copies spread over a buffer of >= 4x the L2, so no
// call finds its operands cached. Bandwidth counts the bytes of a and b read
// once; "% copy" compares it with a device-to-device cudaMemcpy of 1 GiB
// measured here (read + write bytes). Every row is checked: device results
// against each other and the host; matrices at 16 entries against a host
// dot. Benchmarks never fail on speed; the exit code is 1 only on a wrong
// result.
//
//   dot_device_bench [--max-log N] [--reps N] [--quick]
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <cmath>
#include <vector>

#include "cuda_timing.cuh"
#include "mpgpu/context.hpp"
#include "mpgpu/dot.hpp"
#include "mpgpu/dot/dot_host.hpp"
#include "mpgpu/dot/matmul_host.hpp"

#define CHECK_BLAS(call)                                                                                   \
  do {                                                                                                     \
    cublasStatus_t e_ = (call);                                                                            \
    if (e_ != CUBLAS_STATUS_SUCCESS) {                                                                     \
      std::fprintf(stderr, "cuBLAS error %d at %s:%d\n", static_cast<int>(e_), __FILE__, __LINE__);       \
      std::exit(2);                                                                                        \
    }                                                                                                      \
  } while (0)

namespace {

namespace dot = mpgpu::dot;
using dot::Method;

bool g_all_ok = true;
int g_reps = 11;

__host__ __device__ std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// v[i] = residue derived from (seed, i): the same on host and device.
template <class T>
__host__ __device__ T residue_at(std::uint64_t seed, std::size_t i, std::uint64_t p) {
  return static_cast<T>(splitmix(seed * 0x100000001b3ull + i) % p);
}

template <class T>
__global__ void fill_kernel(T* v, std::size_t n, std::uint64_t seed, std::uint64_t p) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    v[i] = residue_at<T>(seed, i, p);
}

template <class T>
void fill_device(T* v, std::size_t n, std::uint64_t seed, std::uint64_t p) {
  fill_kernel<T><<<4096, 256>>>(v, n, seed, p);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

template <class T>
std::vector<T> fill_host(std::size_t n, std::uint64_t seed, std::uint64_t p) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = residue_at<T>(seed, i, p);
  return v;
}

/// Median milliseconds of `reps` timed calls of f(rep) after one warm-up.
template <class F>
double time_device(const mpgpu::Context& ctx, F&& f, int reps) {
  return mpgpu_bench::median_ms_indexed(ctx.stream(), reps, f);
}

template <class F>
double time_host(F&& f, int reps) {
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// Device-to-device copy bandwidth (read + write bytes per second), 1 GiB.
double copy_bandwidth(const mpgpu::Context& ctx) {
  const std::size_t bytes = std::size_t{1} << 30;
  void *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMemset(a, 1, bytes));
  CHECK(cudaDeviceSynchronize());
  const double ms = time_device(
      ctx, [&](int) { CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, ctx.stream())); }, g_reps);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return 2.0 * bytes / ms / 1e6;  // GB/s
}

struct DotRow {
  std::string type, method;
  std::uint64_t p;
  int log_n;
  double ms;
  bool ok;
};

void print_dot_row(const DotRow& r, std::size_t elem_bytes, double copy_gbs) {
  const double n = std::ldexp(1.0, r.log_n);
  const double gbs = 2 * n * elem_bytes / r.ms / 1e6;
  std::printf("| %s | %s | %llu | 2^%d | %.4g | %.3g | %.0f | %.0f%% | %s |\n", r.type.c_str(), r.method.c_str(),
              static_cast<unsigned long long>(r.p), r.log_n, r.ms, n / r.ms / 1e6, gbs, 100 * gbs / copy_gbs,
              r.ok ? "yes" : "NO");
  std::fflush(stdout);
}

/// Every device method for residues of type T at modulus p, the per-term
/// baseline and the host, for lengths 2^20 .. 2^max_log.
template <class T>
void dot_rows(const mpgpu::Context& ctx, const char* type, std::uint64_t p, const std::vector<Method>& methods,
              int max_log, std::size_t l2, double copy_gbs, bool host_rows) {
  constexpr dot::Residue R = sizeof(T) == 4 ? dot::Residue::u32
                             : std::is_same_v<T, double> ? dot::Residue::f64
                                                         : dot::Residue::u64;
  const std::size_t n_max = std::size_t{1} << max_log;
  // Room to rotate: at least 4 L2s of operands (or the largest vector).
  const std::size_t cap = std::max(n_max, 4 * l2 / sizeof(T));
  T *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, cap * sizeof(T)));
  CHECK(cudaMalloc(&b, cap * sizeof(T)));
  fill_device(a, cap, 1, p);
  fill_device(b, cap, 2, p);
  for (int log_n : {20, 22, 24, 26, 28}) {
    if (log_n > max_log) break;
    const std::size_t n = std::size_t{1} << log_n;
    const std::size_t copies = std::max<std::size_t>(1, cap / n);
    const auto at = [&](const T* base, int rep) { return base + (rep % copies) * n; };
    // Reference: the per-term kernel on the first copy.
    const std::uint64_t want = dot::dot_reduce_every_term(ctx, a, b, n, p);
    const double base_ms = time_device(ctx, [&](int r) { dot::dot_reduce_every_term(ctx, at(a, r), at(b, r), n, p); }, g_reps);
    print_dot_row({type, "reduce every term", p, log_n, base_ms, true}, sizeof(T), copy_gbs);
    for (Method m : methods) {
      if (m != Method::automatic && !dot::is_admissible(m, R, p, n)) continue;  // fp_abcd past 2^25
      const std::uint64_t got = dot::dot(ctx, a, b, n, p, m);
      const bool ok = got == want;
      g_all_ok &= ok;
      const double ms = time_device(ctx, [&](int r) { dot::dot(ctx, at(a, r), at(b, r), n, p, m); }, g_reps);
      std::string name = dot::method_name(m);
      if (m == Method::automatic) name += std::string(" (") + dot::method_name(dot::choose_device_method(R, p, n)) + ")";
      print_dot_row({type, name, p, log_n, ms, ok}, sizeof(T), copy_gbs);
    }
    if (host_rows) {  // the CPU of this machine, its own automatic choice, same data
      const auto ha = fill_host<T>(n, 1, p), hb = fill_host<T>(n, 2, p);
      std::uint64_t got = 0;
      const double ms = time_host([&] { got = dot::dot(ha.data(), hb.data(), n, p); }, log_n >= 26 ? 1 : 3);
      const bool ok = got == want;
      g_all_ok &= ok;
      std::printf("| %s | host CPU (%s) | %llu | 2^%d | %.4g | %.3g | %.0f | - | %s |\n", type,
                  dot::method_name(dot::choose_method(R, p, n)),
                  static_cast<unsigned long long>(p), log_n, ms, double(n) / ms / 1e6, 2.0 * n * sizeof(T) / ms / 1e6,
                  ok ? "yes" : "NO");
      std::fflush(stdout);
    }
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
}

/// 16 entries of C against a host dot of a row of A and a column of B.
template <class T>
bool spot_check(const std::vector<T>& A, const std::vector<T>& B, const T* dC, std::size_t n, std::size_t k,
                std::uint64_t p) {
  bool ok = true;
  for (int t = 0; t < 16; ++t) {
    const std::size_t i = splitmix(100 + t) % n, j = splitmix(200 + t) % n;
    unsigned __int128 acc = 0;
    for (std::size_t l = 0; l < k; ++l)
      acc = (acc + static_cast<unsigned __int128>(static_cast<std::uint64_t>(A[i * k + l])) *
                       static_cast<std::uint64_t>(B[l * n + j])) % p;
    T got;
    CHECK(cudaMemcpy(&got, dC + i * n + j, sizeof(T), cudaMemcpyDeviceToHost));
    ok &= static_cast<std::uint64_t>(got) == static_cast<std::uint64_t>(acc);
  }
  return ok;
}

template <class T>
void matmul_row(const mpgpu::Context& ctx, const char* what, std::size_t size, std::uint64_t p, Method m, int reps,
                double dgemm_ms) {
  const std::size_t n = size, elems = n * n;
  const auto A = fill_host<T>(elems, 3, p), B = fill_host<T>(elems, 4, p);
  T *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, elems * sizeof(T)));
  CHECK(cudaMalloc(&dB, elems * sizeof(T)));
  CHECK(cudaMalloc(&dC, elems * sizeof(T)));
  CHECK(cudaMemcpy(dA, A.data(), elems * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), elems * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSynchronize());
  const double ms = time_device(ctx, [&](int) { dot::matmul(ctx, dC, n, dA, n, dB, n, n, n, n, p, m); }, reps);
  const bool ok = spot_check(A, B, dC, n, n, p);
  g_all_ok &= ok;
  const double tflops = 2.0 * n * n * n / ms / 1e9;
  if (dgemm_ms > 0)
    std::printf("| %s | %zu^3 | %llu | %.4g | %.3g | %.2f | %s |\n", what, n, static_cast<unsigned long long>(p), ms,
                tflops, dgemm_ms / ms, ok ? "yes" : "NO");
  else
    std::printf("| %s | %zu^3 | %llu | %.4g | %.3g | - | %s |\n", what, n, static_cast<unsigned long long>(p), ms,
                tflops, ok ? "yes" : "NO");
  std::fflush(stdout);
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
}

/// The same product on the host (matmul_host.hpp, one thread of this
/// machine's CPU) and on the device, at a size the host finishes in seconds.
void host_vs_device_matmul_rows(const mpgpu::Context& ctx, std::size_t n, std::uint64_t p) {
  const std::size_t elems = n * n;
  const auto A = fill_host<double>(elems, 7, p), B = fill_host<double>(elems, 8, p);
  std::vector<double> C(elems);
  const auto t0 = std::chrono::steady_clock::now();
  dot::matmul(C.data(), n, A.data(), n, B.data(), n, n, n, n, p, Method::automatic);
  const double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  double *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, elems * 8));
  CHECK(cudaMalloc(&dB, elems * 8));
  CHECK(cudaMalloc(&dC, elems * 8));
  CHECK(cudaMemcpy(dA, A.data(), elems * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), elems * 8, cudaMemcpyHostToDevice));
  const double dev_ms =
      time_device(ctx, [&](int) { dot::matmul(ctx, dC, n, dA, n, dB, n, n, n, n, p, Method::automatic); }, 5);
  std::vector<double> D(elems);
  CHECK(cudaMemcpy(D.data(), dC, elems * 8, cudaMemcpyDeviceToHost));
  const bool ok = D == C;  // every entry, against the host result
  g_all_ok &= ok;
  const double flop = 2.0 * n * n * n;
  std::printf("| host CPU, automatic (1 thread) | %zu^3 | %llu | %.4g | %.3g | - | %s |\n", n,
              static_cast<unsigned long long>(p), host_ms, flop / host_ms / 1e9, ok ? "yes" : "NO");
  std::printf("| device, automatic (speed-up over the host: %.0fx) | %zu^3 | %llu | %.4g | %.3g | - | %s |\n",
              host_ms / dev_ms, n, static_cast<unsigned long long>(p), dev_ms, flop / dev_ms / 1e9, ok ? "yes" : "NO");
  std::fflush(stdout);
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
}

/// Plain cuBLAS DGEMM of an n^3 product (the rate the mod-p product is held to).
double plain_dgemm_ms(const mpgpu::Context& ctx, std::size_t n, int reps) {
  double *A, *B, *C;
  CHECK(cudaMalloc(&A, n * n * 8));
  CHECK(cudaMalloc(&B, n * n * 8));
  CHECK(cudaMalloc(&C, n * n * 8));
  fill_device(A, n * n, 5, 1048573);
  fill_device(B, n * n, 6, 1048573);
  cublasHandle_t h;
  CHECK_BLAS(cublasCreate(&h));
  CHECK_BLAS(cublasSetStream(h, ctx.stream()));
  const double one = 1, zero = 0;
  const int ni = static_cast<int>(n);
  const double ms = time_device(
      ctx, [&](int) { CHECK_BLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, B, ni, A, ni, &zero, C, ni)); },
      reps);
  CHECK_BLAS(cublasDestroy(h));
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  int max_log = 28;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--max-log") && i + 1 < argc) max_log = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) g_reps = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--quick")) quick = true;
    else {
      std::fprintf(stderr, "usage: %s [--max-log N] [--reps N] [--quick]\n", argv[0]);
      return 2;
    }
  }
  if (quick) max_log = std::min(max_log, 24);
  if (mpgpu::Context::cuda_device_count() == 0) {
    std::printf("dot_device_bench: no CUDA device, nothing to measure\n");
    return 0;
  }
  mpgpu::Context ctx = mpgpu::Context::cuda(0);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const std::size_t l2 = static_cast<std::size_t>(prop.l2CacheSize);
  const double copy_gbs = copy_bandwidth(ctx);
  std::printf("Device: %s, L2 %zu MB. Device-to-device copy: %.0f GB/s (read + write). Median of %d calls after a "
              "warm-up.\n\n",
              prop.name, l2 >> 20, copy_gbs, g_reps);

  std::printf("### Dot products mod p\n\n");
  std::printf("| residues | method | p | n | ms | Gterms/s | GB/s | %% copy | verified |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  dot_rows<std::uint32_t>(ctx, "uint32", 2147483647, {Method::integer_delayed}, max_log, l2, copy_gbs, true);
  dot_rows<std::uint64_t>(ctx, "uint64", 4611686018427387847ull, {Method::integer_delayed}, max_log, l2, copy_gbs, true);
  const std::vector<Method> fp = {Method::fp_naive, Method::fp_lambda, Method::fp_abcd, Method::integer_delayed,
                                  Method::automatic};
  dot_rows<double>(ctx, "double", 1048573, fp, max_log, l2, copy_gbs, true);
  dot_rows<double>(ctx, "double", 2147483647, fp, max_log, l2, copy_gbs, false);

  std::printf("\n### Matrix products mod p (ratio = cuBLAS DGEMM time / our time)\n\n");
  const std::size_t big = quick ? 4096 : 8192;
  const int mreps = quick ? 3 : 5;
  const double dgemm_ms = plain_dgemm_ms(ctx, big, mreps);
  std::printf("| product | shape | p | ms | TFLOP/s (2n^3) | ratio | verified |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  std::printf("| plain cuBLAS DGEMM | %zu^3 | - | %.4g | %.3g | 1.00 | - |\n", big, dgemm_ms,
              2.0 * big * big * big / dgemm_ms / 1e9);
  matmul_row<double>(ctx, "mod p, fp_naive (double)", big, 1048573, Method::fp_naive, mreps, dgemm_ms);
  matmul_row<std::uint64_t>(ctx, "mod p, fp_naive (uint64)", big, 1048573, Method::fp_naive, mreps, dgemm_ms);
  const std::size_t isize = quick ? 1024 : 4096;
  matmul_row<std::uint64_t>(ctx, "mod p, integer_delayed (uint64, 62-bit p)", isize, 4611686018427387847ull,
                            Method::integer_delayed, 3, -1);
  host_vs_device_matmul_rows(ctx, quick ? 256 : 1024, 1048573);
  std::printf("\nAll rows verified: %s\n", g_all_ok ? "yes" : "NO");
  return g_all_ok ? 0 : 1;
}
