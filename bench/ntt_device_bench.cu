// The public NTT on the device (mpgpu/ntt.hpp): forward and inverse
// transforms of 2^log_n points over the first table prime, batched so each
// call moves at least 2^24 points, timed with CUDA events (warm-up, median
// of the runs). Reports points/s and two bandwidths: "data" counts one read
// and one write of the points per call (16 bytes a point, what a one-pass
// transform would move), "moved" counts every pass over memory the
// implementation makes (the block passes of include/mpgpu/ntt/block_plan.hpp).
// Checked against the host plan on the first transform of the batch (up to
// 2^26 points; 2^27 and 2^28 by the round trip on the device).
//
// Two times per row: "ms/call", one call between two events (so it includes
// the launch latency of the call's first kernel on an idle device, a few
// microseconds), and "in bursts", the time per call of kBurst calls between
// two events (back-to-back calls, as a user transforming many arrays issues
// them: the launch latency overlaps the previous call). The rates are of the
// single call.
//
// A second table does the same on 32-bit words (a 31-bit prime; 8 bytes a
// point). A third times each pass of a single transform on its own (forward,
// bit-reversed order), with the bandwidth of that pass (16 bytes a point);
// the device copy bandwidth is printed as the roof.
//
//   ntt_device_bench [--max-log N] [--reps N] [--log N] [--only-32]
//
// --only-32 prints the 32-bit table alone.
// --log N measures only transforms of 2^N points (for a profiler: the first
// kernels launched are then the passes of one forward natural-order call).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "cuda_timing.cuh"
#include "mpgpu/context.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt.hpp"
#include "mpgpu/ntt/block_ntt.cuh"
#include "mpgpu/ntt/ntt_host.hpp"


namespace {

using mpgpu_bench::median_ms;

/// Longest transform checked against the host plan; longer ones check the
/// device round trip instead.
constexpr int kHostCheckMaxLog = 26;

/// Calls per burst of the "in bursts" column.
constexpr int kBurst = 8;

/// Median time per call of `call` in bursts of kBurst back-to-back calls.
template <class F>
double burst_ms(cudaStream_t s, int reps, F&& call) {
  return median_ms(s, reps, [&] {
             for (int b = 0; b < kBurst; ++b) call();
           }) /
         kBurst;
}


}  // namespace

int main(int argc, char** argv) {
  int max_log = 28, reps = 11, only_log = 0;
  bool only_32 = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--max-log") && i + 1 < argc) max_log = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--log") && i + 1 < argc) only_log = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--only-32")) only_32 = true;
    else {
      std::fprintf(stderr, "usage: %s [--max-log N] [--reps N] [--log N] [--only-32]\n", argv[0]);
      return 2;
    }
  }
  if (mpgpu::Context::cuda_device_count() == 0) {
    std::printf("ntt_device_bench: no CUDA device; nothing to measure.\n");
    return 0;
  }
  mpgpu::Context ctx = mpgpu::Context::cuda(0);
  const auto& prime = mpgpu::field::ntt_primes62[0];
  const std::uint64_t p = prime.p;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));

  // The roof: a device-to-device copy of 2^24 words (read + write).
  double copy_gbs = 0;
  {
    const std::size_t words = std::size_t{1} << 24;
    std::uint64_t *a = nullptr, *b = nullptr;
    CHECK(cudaMalloc(&a, words * 8));
    CHECK(cudaMalloc(&b, words * 8));
    const double ms = median_ms(ctx.stream(), reps, [&] {
      CHECK(cudaMemcpyAsync(b, a, words * 8, cudaMemcpyDeviceToDevice, ctx.stream()));
    });
    copy_gbs = 16.0 * words / ms / 1e6;
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
  }
  std::printf("Device: %s. NTT mod p = %llu, median of %d calls after a warm-up. Device copy: %.0f GB/s.\n\n",
              prop.name, static_cast<unsigned long long>(p), reps, copy_gbs);
  std::printf(
      "| log_n | batch | dir | order | ms/call | in bursts of %d | Gpoints/s | data GB/s | %% of copy | passes | moved "
      "GB/s | verified |\n",
      kBurst);
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  bool all_ok = true;
  for (int log_n : {10, 11, 12, 13, 16, 20, 22, 24, 25, 26, 27, 28}) {
    if (log_n > max_log || only_32) break;
    if (only_log != 0 && log_n != only_log) continue;
    const std::size_t n = std::size_t{1} << log_n;
    const std::size_t batch = std::max<std::size_t>(1, (std::size_t{1} << 24) / n);
    std::vector<std::uint64_t> host(n * batch);
    std::mt19937_64 gen(log_n);
    for (auto& x : host) x = gen() % p;
    std::uint64_t* d = nullptr;
    CHECK(cudaMalloc(&d, host.size() * 8));
    for (bool forward : {true, false})
      for (mpgpu::NttOrder order : {mpgpu::NttOrder::natural, mpgpu::NttOrder::bit_reversed}) {
        CHECK(cudaMemcpy(d, host.data(), host.size() * 8, cudaMemcpyHostToDevice));
        CHECK(cudaDeviceSynchronize());  // the context's stream does not wait for the legacy stream
        bool ok = false;
        if (log_n <= kHostCheckMaxLog) {
          // The first call (it also makes and caches the twiddles) is the one checked.
          if (forward) mpgpu::ntt_forward(ctx, d, batch, log_n, p, order);
          else mpgpu::ntt_inverse(ctx, d, batch, log_n, p, order);
          ctx.synchronize();
          std::vector<std::uint64_t> got(n), want(host.begin(), host.begin() + n);
          CHECK(cudaMemcpy(got.data(), d, n * 8, cudaMemcpyDeviceToHost));
          if (forward) mpgpu::ntt_forward(mpgpu::Context::cpu(), want.data(), 1, log_n, p, order);
          else mpgpu::ntt_inverse(mpgpu::Context::cpu(), want.data(), 1, log_n, p, order);
          ok = got == want;
        } else {
          // Too long for the host plan within the bench's time: the round trip
          // inverse(forward(x)) = x on the device, every word compared.
          mpgpu::ntt_forward(ctx, d, batch, log_n, p, order);
          mpgpu::ntt_inverse(ctx, d, batch, log_n, p, order);
          ctx.synchronize();
          std::vector<std::uint64_t> got(host.size());
          CHECK(cudaMemcpy(got.data(), d, got.size() * 8, cudaMemcpyDeviceToHost));
          ok = got == host;
        }
        all_ok &= ok;
        // Values keep transforming: the cost does not depend on them.
        auto call = [&] {
          if (forward) mpgpu::ntt_forward(ctx, d, batch, log_n, p, order);
          else mpgpu::ntt_inverse(ctx, d, batch, log_n, p, order);
        };
        const double ms = median_ms(ctx.stream(), reps, call);
        const double ms_burst = burst_ms(ctx.stream(), reps, call);
        const double points = static_cast<double>(n) * batch;
        const int passes =
            static_cast<int>(mpgpu::ntt::block_passes(log_n, batch, order == mpgpu::NttOrder::natural).size());
        std::printf("| %d | %zu | %s | %s | %.4g | %.4g | %.3g | %.0f | %.0f%% | %d | %.0f | %s |\n", log_n, batch,
                    forward ? "fwd" : "inv", order == mpgpu::NttOrder::natural ? "natural" : "bit-reversed", ms,
                    ms_burst, points / ms / 1e6, 16 * points / ms / 1e6, 100 * (16 * points / ms / 1e6) / copy_gbs, passes,
                    16 * points * passes / ms / 1e6, ok ? "yes" : "NO");
        std::fflush(stdout);
      }
    CHECK(cudaFree(d));
  }

  // 32-bit words (p < 2^32): up to 2^10 points the team kernel (one pass),
  // beyond column passes of up to 6 stages and a team pass (1 + ceil((log_n
  // - 10) / 6) passes, one more for natural order). 2^25 points a call (128
  // MiB, as the table above), data GB/s at 8 bytes a point (4 read, 4
  // written: a one-pass transform).
  const std::uint32_t p32 = static_cast<std::uint32_t>(mpgpu::field::ntt_primes31[0].p);
  std::printf("\n32-bit words, p = %u:\n\n", p32);
  std::printf("| log_n | batch | dir | order | ms/call | Gpoints/s | data GB/s | %% of copy | verified |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int log_n : {5, 8, 10, 11, 12, 13, 16, 20, 24}) {
    if (log_n > max_log) break;
    if (only_log != 0 && log_n != only_log) continue;
    const std::size_t n = std::size_t{1} << log_n, batch = (std::size_t{1} << 25) / n;
    std::vector<std::uint32_t> host(n * batch);
    std::mt19937_64 gen(log_n);
    for (auto& x : host) x = static_cast<std::uint32_t>(gen() % p32);
    std::uint32_t* d = nullptr;
    CHECK(cudaMalloc(&d, host.size() * 4));
    for (bool forward : {true, false})
      for (mpgpu::NttOrder order : {mpgpu::NttOrder::natural, mpgpu::NttOrder::bit_reversed}) {
        CHECK(cudaMemcpy(d, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
        CHECK(cudaDeviceSynchronize());
        if (forward) mpgpu::ntt_forward(ctx, d, batch, log_n, p32, order);
        else mpgpu::ntt_inverse(ctx, d, batch, log_n, p32, order);
        ctx.synchronize();
        // The first and the last transform of the batch against the CPU context.
        bool ok = true;
        for (std::size_t b : {std::size_t{0}, batch - 1}) {
          std::vector<std::uint32_t> got(n), want(host.begin() + b * n, host.begin() + (b + 1) * n);
          CHECK(cudaMemcpy(got.data(), d + b * n, n * 4, cudaMemcpyDeviceToHost));
          if (forward) mpgpu::ntt_forward(mpgpu::Context::cpu(), want.data(), 1, log_n, p32, order);
          else mpgpu::ntt_inverse(mpgpu::Context::cpu(), want.data(), 1, log_n, p32, order);
          ok &= got == want;
        }
        all_ok &= ok;
        const double ms = median_ms(ctx.stream(), reps, [&] {
          if (forward) mpgpu::ntt_forward(ctx, d, batch, log_n, p32, order);
          else mpgpu::ntt_inverse(ctx, d, batch, log_n, p32, order);
        });
        const double points = static_cast<double>(n) * batch;
        std::printf("| %d | %zu | %s | %s | %.4g | %.3g | %.0f | %.0f%% | %s |\n", log_n, batch, forward ? "fwd" : "inv",
                    order == mpgpu::NttOrder::natural ? "natural" : "bit-reversed", ms, points / ms / 1e6,
                    8 * points / ms / 1e6, 100 * (8 * points / ms / 1e6) / copy_gbs, ok ? "yes" : "NO");
        std::fflush(stdout);
      }
    CHECK(cudaFree(d));
  }

  // Each pass alone (forward, bit-reversed order, one transform).
  if (!only_32) {
    std::printf("\n| log_n | pass | hi | k | columns | threads | ms | in bursts of %d | GB/s | %% of copy |\n", kBurst);
    std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  }
  const mpgpu::field::PrimeField64 f = mpgpu::field::PrimeField64::make(p);
  for (int log_n : {16, 20, 24, 25, 26}) {
    if (log_n > max_log || only_32) break;
    if (only_log != 0 && log_n != only_log) continue;
    const std::size_t n = std::size_t{1} << log_n;
    const mpgpu::ntt::BlockTableLayout layout = mpgpu::ntt::BlockTableLayout::make(log_n);
    void* tables_mem = nullptr;
    CHECK(cudaMalloc(&tables_mem, layout.bytes()));
    const std::uint64_t w = mpgpu::field::root_of_unity(p, prime.generator, log_n);
    mpgpu::ntt::block_table_kernel<<<static_cast<unsigned>((layout.entries() + 255) / 256), 256, 0, ctx.stream()>>>(
        static_cast<ulonglong2*>(tables_mem), f, w, f.inv(w), log_n);
    CHECK(cudaGetLastError());
    const mpgpu::ntt::BlockTables tables = mpgpu::ntt::BlockTables::view(tables_mem, log_n);
    std::uint64_t* d = nullptr;
    CHECK(cudaMalloc(&d, n * 8));
    CHECK(cudaMemsetAsync(d, 0, n * 8, ctx.stream()));
    mpgpu::ntt::BlockTransform t{};
    t.dst = t.work = d;
    t.src = d;
    t.src_len = n;
    t.batch = 1;
    t.log_n = log_n;
    t.forward = true;
    t.natural = false;
    t.epilogue = mpgpu::ntt::PassEpilogue::canonical;
    const auto passes = mpgpu::ntt::block_transform_passes(t);
    for (std::size_t i = 0; i < passes.size(); ++i) {
      const mpgpu::ntt::BlockPassArgs args = mpgpu::ntt::block_pass_args(t, passes, i, tables, f);
      auto launch = [&] {
        CHECK(mpgpu::ntt::launch_block_pass(true, mpgpu::ntt::block_ntt_lazy(p), args, ctx.stream()));
      };
      const double ms = median_ms(ctx.stream(), reps, launch);
      const double ms_burst = burst_ms(ctx.stream(), reps, launch);
      const int tile_log = passes[i].k + passes[i].log_c;
      std::printf("| %d | %zu | %d | %d | %d | %d | %.4g | %.4g | %.0f | %.0f%% |\n", log_n, i + 1, passes[i].hi,
                  passes[i].k, 1 << passes[i].log_c, 1 << std::max(0, tile_log - mpgpu::ntt::kBlockPerThreadLog), ms,
                  ms_burst, 16.0 * n / ms / 1e6, 100 * (16.0 * n / ms / 1e6) / copy_gbs);
      std::fflush(stdout);
    }
    CHECK(cudaFree(d));
    CHECK(cudaFree(tables_mem));
  }
  std::printf("\nAll rows verified against the host plan: %s\n", all_ok ? "yes" : "NO");
  return all_ok ? 0 : 1;
}
