// The public NTT on the device (mpgpu/ntt.hpp): forward transforms of
// 2^log_n points over the first table prime, batched so each call moves at
// least 2^24 points, timed with CUDA events (warm-up, median of the runs).
// Reports points/s and two bandwidths: "data" counts one read and one write
// of the points per call (16 bytes a point, what a one-pass transform would
// move), "moved" counts every pass over memory the implementation makes
// (conversions, radix-2 passes, bit reversal). Checked against the host plan
// on the first transform of the batch.
//
//   ntt_device_bench [--max-log N] [--reps N]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "mpgpu/context.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt.hpp"
#include "mpgpu/ntt/ntt_host.hpp"
#include "mpgpu/ntt/radix2_passes.hpp"

#define CHECK(call)                                                                                        \
  do {                                                                                                     \
    cudaError_t e_ = (call);                                                                               \
    if (e_ != cudaSuccess) {                                                                               \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorName(e_), __FILE__, __LINE__);         \
      std::exit(2);                                                                                        \
    }                                                                                                      \
  } while (0)

int main(int argc, char** argv) {
  int max_log = 26, reps = 11;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--max-log") && i + 1 < argc) max_log = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--max-log N] [--reps N]\n", argv[0]);
      return 2;
    }
  }
  mpgpu::Context ctx = mpgpu::Context::cuda(0);
  const std::uint64_t p = mpgpu::field::ntt_primes62[0].p;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("Device: %s. Forward NTT mod p = %llu, median of %d calls after a warm-up.\n\n", prop.name,
              static_cast<unsigned long long>(p), reps);
  std::printf("| log_n | batch | order | ms/call | Gpoints/s | data GB/s | passes | moved GB/s | verified |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  bool all_ok = true;
  for (int log_n : {10, 12, 16, 20, 22, 24, 26}) {
    if (log_n > max_log) break;
    const std::size_t n = std::size_t{1} << log_n;
    const std::size_t batch = std::max<std::size_t>(1, (std::size_t{1} << 24) / n);
    std::vector<std::uint64_t> host(n * batch);
    std::mt19937_64 gen(log_n);
    for (auto& x : host) x = gen() % p;
    std::uint64_t* d = nullptr;
    CHECK(cudaMalloc(&d, host.size() * 8));
    for (mpgpu::NttOrder order : {mpgpu::NttOrder::natural, mpgpu::NttOrder::bit_reversed}) {
      CHECK(cudaMemcpy(d, host.data(), host.size() * 8, cudaMemcpyHostToDevice));
      CHECK(cudaDeviceSynchronize());  // the context's stream does not wait for the legacy stream
      // The first call (also the warm-up: it makes and caches the twiddles) is the one checked.
      mpgpu::ntt_forward(ctx, d, batch, log_n, p, order);
      ctx.synchronize();
      std::vector<std::uint64_t> got(n), want(host.begin(), host.begin() + n);
      CHECK(cudaMemcpy(got.data(), d, n * 8, cudaMemcpyDeviceToHost));
      mpgpu::ntt_forward(mpgpu::Context::cpu(), want.data(), 1, log_n, p, order);
      const bool ok = got == want;
      all_ok &= ok;
      cudaEvent_t start, stop;
      CHECK(cudaEventCreate(&start));
      CHECK(cudaEventCreate(&stop));
      std::vector<float> times;
      for (int r = 0; r < reps; ++r) {  // values keep transforming: the cost does not depend on them
        CHECK(cudaEventRecord(start, ctx.stream()));
        mpgpu::ntt_forward(ctx, d, batch, log_n, p, order);
        CHECK(cudaEventRecord(stop, ctx.stream()));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        times.push_back(ms);
      }
      std::sort(times.begin(), times.end());
      const double ms = times[times.size() / 2];
      const double points = static_cast<double>(n) * batch;
      const int passes = static_cast<int>(mpgpu::ntt::forward_passes(log_n).size()) + 2 +
                         (order == mpgpu::NttOrder::natural ? 1 : 0);
      std::printf("| %d | %zu | %s | %.4g | %.3g | %.0f | %d | %.0f | %s |\n", log_n, batch,
                  order == mpgpu::NttOrder::natural ? "natural" : "bit-reversed", ms, points / ms / 1e6,
                  16 * points / ms / 1e6, passes, 16 * points * passes / ms / 1e6, ok ? "yes" : "NO");
      std::fflush(stdout);
      CHECK(cudaEventDestroy(start));
      CHECK(cudaEventDestroy(stop));
    }
    CHECK(cudaFree(d));
  }
  std::printf("\nAll rows verified against the host plan: %s\n", all_ok ? "yes" : "NO");
  return all_ok ? 0 : 1;
}
