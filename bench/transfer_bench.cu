// Host <-> device transfers of Integer values (issue 33): for 2^20 .. 2^30
// bits, each rate in GB/s (bits/8 bytes over the median time of --reps runs
// after a warm-up), in two tables, host -> device and device -> host:
//
//   pinned    cudaMemcpyAsync from or to a pinned host buffer, timed with CUDA
//             events: the roof the staged copies aim at;
//   pageable  the same from or to pageable memory (cudaMemcpyAsync + stream
//             synchronize): the library's path before staging;
//   staged    detail::cuda::staged_copy_to_device / _to_host forced at every
//             size (for tuning kStagingMinBytes against "pageable");
//   copy      detail::cuda::copy_to_device / copy_to_host, the library's
//             choice (staged from kStagingMinBytes up);
//   from_limbs, from_mpz / to_limbs, to_mpz   the public conversions, timed
//             with steady_clock (they return with the value moved). to_mpz
//             writes into a fresh mpz, to_limbs into its fresh vector, so
//             their times include faulting in the destination pages, as a
//             user's first conversion does. The program sets glibc's mmap
//             threshold to 1 MiB (mallopt), so that every such destination
//             is a new mapping whose pages are untouched at every size (by
//             default glibc does that only from 32 MiB up and reuses freed
//             heap memory below);
//   to_limbs into pinned   Integer::to_limbs(out, capacity) into a pinned
//             buffer (one direct DMA);
//   to_mpz reused   to_mpz into an mpz that already has the room (its pages
//             faulted in by the previous call): the copy alone;
//   ratio     from_mpz / pinned (to_mpz fresh / pinned, and to_mpz reused /
//             pinned): the target of issue 33 is >= 0.8 at 2^30 bits.
//
// Every size is checked: from_limbs -> to_limbs and from_mpz -> to_mpz give
// the limbs back exactly, and so do the staged and direct copies; the
// program says so and exits with status 1 on any mismatch.
//
// --sweep adds a table at the largest size over chunk sizes and copy
// threads (MPGPU_STAGING_CHUNK_BYTES and MPGPU_STAGING_THREADS, read by each
// new context), for choosing kStagingChunkBytes and kStagingThreads.
//
// --stores-ab adds a table at the largest size with and without the
// streaming stores of the staged copies (kStagingStreamingStores).
//
//   transfer_bench [--min-log N] [--max-log N] [--reps N] [--sweep] [--stores-ab]
#include <cuda_runtime.h>
#include <gmp.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cuda/backend.hpp"
#include "cuda/staging.hpp"
#include "cuda_timing.cuh"
#include "mpgpu/context.hpp"
#include "mpgpu/integer.hpp"

namespace {

using mpgpu::Context;
using mpgpu::Integer;
using mpgpu::limb_t;
namespace dc = mpgpu::detail::cuda;

bool g_all_exact = true;

void expect(bool ok, const char* what, int log_bits) {
  if (ok) return;
  g_all_exact = false;
  std::printf("MISMATCH: %s at 2^%d bits\n", what, log_bits);
}

/// Median seconds of `reps` calls of f after one warm-up call, by steady_clock.
/// `between` runs untimed after each call (freeing what the call made).
template <class F, class G>
double median_s(int reps, F&& f, G&& between) {
  f();
  between();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto a = std::chrono::steady_clock::now();
    f();
    const auto b = std::chrono::steady_clock::now();
    between();
    t.push_back(std::chrono::duration<double>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
template <class F>
double median_s(int reps, F&& f) {
  return median_s(reps, f, [] {});
}

double gbps(std::size_t bytes, double seconds) { return bytes / seconds / 1e9; }

struct Buffers {
  std::size_t limbs;
  limb_t* pinned;  // cudaMallocHost
  std::vector<limb_t> source;   // pageable, random
  std::vector<limb_t> landing;  // pageable, reused
  limb_t* device;
};

struct Row {
  double pinned, pageable, staged, copy, from_limbs, from_mpz;
  double reused;  // device -> host only: to_mpz into an mpz with room
  double into_pinned;  // device -> host only: to_limbs(out, capacity) into pinned memory
};

/// Host -> device rates at one size (and the checks).
Row upload_row(const Context& ctx, Buffers& b, int reps, int log_bits) {
  auto& st = mpgpu::detail::ContextAccess::state(ctx);
  cudaStream_t s = ctx.stream();
  const std::size_t bytes = b.limbs * sizeof(limb_t);
  Row r{};
  r.pinned = gbps(bytes, 1e-3 * mpgpu_bench::median_ms(s, reps, [&] {
                            CHECK(cudaMemcpyAsync(b.device, b.pinned, bytes, cudaMemcpyHostToDevice, s));
                          }));
  r.pageable = gbps(bytes, median_s(reps, [&] {
                      CHECK(cudaMemcpyAsync(b.device, b.source.data(), bytes, cudaMemcpyHostToDevice, s));
                      CHECK(cudaStreamSynchronize(s));
                    }));
  bool staged_ran = true;
  r.staged = gbps(bytes, median_s(reps, [&] {
                    staged_ran &= dc::staged_copy_to_device(st, s, b.device, b.source.data(), bytes);
                  }));
  if (!staged_ran) r.staged = 0;
  dc::copy_to_host(st, s, b.landing.data(), b.device, bytes);
  expect(b.landing == b.source, "staged_copy_to_device -> copy_to_host", log_bits);
  // Small copies return before their transfer (the upload ring): the rates
  // include the wait for it, as the copies of larger sizes do.
  r.copy = gbps(bytes, median_s(reps, [&] {
                  dc::copy_to_device(st, s, b.device, b.source.data(), bytes);
                  CHECK(cudaStreamSynchronize(s));
                }));

  Integer x(ctx);
  r.from_limbs = gbps(bytes, median_s(reps, [&] {
                        x = Integer::from_limbs(b.source.data(), b.limbs, 1, ctx);
                        x.place_on_device();  // small values stay on the host otherwise
                        CHECK(cudaStreamSynchronize(s));
                      }));
  expect(x.to_limbs() == b.source, "from_limbs -> to_limbs", log_bits);

  mpz_t z, back;
  mpz_init(z);
  mpz_init(back);
  std::memcpy(mpz_limbs_write(z, b.limbs), b.source.data(), bytes);
  mpz_limbs_finish(z, b.limbs);
  r.from_mpz = gbps(bytes, median_s(reps, [&] {
                      x = Integer::from_mpz(z, ctx);
                      x.place_on_device();
                      CHECK(cudaStreamSynchronize(s));
                    }));
  x.to_mpz(back);
  expect(mpz_cmp(z, back) == 0, "from_mpz -> to_mpz", log_bits);
  mpz_clear(z);
  mpz_clear(back);
  return r;
}

/// Device -> host rates at one size (and the checks): to_limbs in the
/// from_limbs column, to_mpz in from_mpz's.
Row download_row(const Context& ctx, Buffers& b, int reps, int log_bits) {
  auto& st = mpgpu::detail::ContextAccess::state(ctx);
  cudaStream_t s = ctx.stream();
  const std::size_t bytes = b.limbs * sizeof(limb_t);
  CHECK(cudaMemcpy(b.device, b.source.data(), bytes, cudaMemcpyHostToDevice));
  Row r{};
  r.pinned = gbps(bytes, 1e-3 * mpgpu_bench::median_ms(s, reps, [&] {
                            CHECK(cudaMemcpyAsync(b.pinned, b.device, bytes, cudaMemcpyDeviceToHost, s));
                          }));
  r.pageable = gbps(bytes, median_s(reps, [&] {
                      CHECK(cudaMemcpyAsync(b.landing.data(), b.device, bytes, cudaMemcpyDeviceToHost, s));
                      CHECK(cudaStreamSynchronize(s));
                    }));
  expect(b.landing == b.source, "direct device -> pageable copy", log_bits);
  std::fill(b.landing.begin(), b.landing.end(), 0);
  bool staged_ran = true;
  r.staged = gbps(bytes, median_s(reps, [&] {
                    staged_ran &= dc::staged_copy_to_host(st, s, b.landing.data(), b.device, bytes);
                  }));
  if (!staged_ran) r.staged = 0;
  expect(b.landing == b.source, "staged_copy_to_host", log_bits);
  std::fill(b.landing.begin(), b.landing.end(), 0);
  r.copy = gbps(bytes, median_s(reps, [&] { dc::copy_to_host(st, s, b.landing.data(), b.device, bytes); }));
  expect(b.landing == b.source, "copy_to_host", log_bits);

  Integer x = Integer::from_limbs(b.source.data(), b.limbs, 1, ctx);
  x.place_on_device();
  std::vector<limb_t> out;
  r.from_limbs = gbps(bytes, median_s(
                                 reps, [&] { out = x.to_limbs(); },
                                 [&] {
                                   expect(out == b.source, "to_limbs", log_bits);
                                   std::vector<limb_t>().swap(out);  // the next call gets fresh pages
                                 }));
  mpz_t z;
  mpz_init(z);
  r.from_mpz = gbps(bytes, median_s(
                               reps, [&] { x.to_mpz(z); },
                               [&] {
                                 expect(mpz_size(z) == b.limbs &&
                                            std::memcmp(mpz_limbs_read(z), b.source.data(), bytes) == 0,
                                        "to_mpz", log_bits);
                                 mpz_clear(z);  // the next call writes into a fresh mpz
                                 mpz_init(z);
                               }));
  x.to_mpz(z);  // z now has the room, its pages faulted in
  r.reused = gbps(bytes, median_s(reps, [&] { x.to_mpz(z); }));
  expect(mpz_size(z) == b.limbs && std::memcmp(mpz_limbs_read(z), b.source.data(), bytes) == 0, "to_mpz reused",
         log_bits);
  mpz_clear(z);
  std::memset(b.pinned, 0, bytes);
  r.into_pinned = gbps(bytes, median_s(reps, [&] { x.to_limbs(b.pinned, b.limbs); }));
  expect(std::memcmp(b.pinned, b.source.data(), bytes) == 0, "to_limbs into pinned memory", log_bits);
  return r;
}

void print_header(const char* title, const char* a, const char* b) {
  std::printf("\n%s\n\n", title);
  std::printf("| bits | MiB | pinned GB/s | pageable GB/s | staged GB/s | copy GB/s | %s GB/s | %s GB/s | ratio |\n", a, b);
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
}

void print_row(int log_bits, std::size_t bytes, const Row& r) {
  std::printf("| 2^%d | %.3g | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f |\n", log_bits, bytes / 1048576.0,
              r.pinned, r.pageable, r.staged, r.copy, r.from_limbs, r.from_mpz, r.from_mpz / r.pinned);
}

void print_download_header() {
  std::printf("\nDevice -> host (to_limbs and to_mpz fresh: into new, untouched memory; ratios: to_mpz / pinned)\n\n");
  std::printf("| bits | MiB | pinned GB/s | pageable GB/s | staged GB/s | copy GB/s | to_limbs fresh GB/s | "
              "to_mpz fresh GB/s | to_mpz reused GB/s | to_limbs into pinned GB/s | ratio fresh | ratio reused |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
}

void print_download_row(int log_bits, std::size_t bytes, const Row& r) {
  std::printf("| 2^%d | %.3g | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f |\n", log_bits,
              bytes / 1048576.0, r.pinned, r.pageable, r.staged, r.copy, r.from_limbs, r.from_mpz, r.reused,
              r.into_pinned, r.from_mpz / r.pinned, r.reused / r.pinned);
}

Buffers make_buffers(int log_bits) {
  Buffers b;
  b.limbs = std::size_t{1} << (log_bits - 6);
  const std::size_t bytes = b.limbs * sizeof(limb_t);
  CHECK(cudaMallocHost(&b.pinned, bytes));
  CHECK(cudaMalloc(&b.device, bytes));
  std::mt19937_64 rng(log_bits);
  b.source.resize(b.limbs);
  for (limb_t& l : b.source) l = rng();
  b.source.back() |= limb_t{1} << 63;  // normalized: the round trips keep every limb
  b.landing.assign(b.limbs, 0);
  std::memcpy(b.pinned, b.source.data(), bytes);
  return b;
}

void free_buffers(Buffers& b) {
  CHECK(cudaFreeHost(b.pinned));
  CHECK(cudaFree(b.device));
}

/// Staged copies at 2^log_bits over chunk sizes and thread counts, each in
/// a new context (which reads the two knobs when it makes its buffers).
void sweep(int log_bits, int reps) {
  Buffers b = make_buffers(log_bits);
  const std::size_t bytes = b.limbs * sizeof(limb_t);
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  std::printf("\nStaged copies at 2^%d bits by chunk size and copy threads (hardware threads: %u), GB/s "
              "H2D / D2H:\n\n| chunk KiB |", log_bits, hw);
  const unsigned thread_counts[] = {1, 2, 4, 6, 8, 12, 16};
  for (unsigned t : thread_counts)
    if (t <= hw) std::printf(" %u threads |", t);
  std::printf("\n| --- |");
  for (unsigned t : thread_counts)
    if (t <= hw) std::printf(" --- |");
  std::printf("\n");
  for (std::size_t kib : {512, 1024, 2048, 4096, 8192, 16384}) {
    std::printf("| %zu |", kib);
    for (unsigned t : thread_counts) {
      if (t > hw) continue;
      setenv("MPGPU_STAGING_CHUNK_BYTES", std::to_string(kib << 10).c_str(), 1);
      setenv("MPGPU_STAGING_THREADS", std::to_string(t).c_str(), 1);
      Context ctx = Context::cuda(0);
      auto& st = mpgpu::detail::ContextAccess::state(ctx);
      cudaStream_t s = ctx.stream();
      const double up = gbps(bytes, median_s(reps, [&] { dc::staged_copy_to_device(st, s, b.device, b.source.data(), bytes); }));
      const double down = gbps(bytes, median_s(reps, [&] { dc::staged_copy_to_host(st, s, b.landing.data(), b.device, bytes); }));
      expect(b.landing == b.source, "sweep round trip", log_bits);
      std::printf(" %.1f / %.1f |", up, down);
      std::fflush(stdout);
    }
    std::printf("\n");
  }
  unsetenv("MPGPU_STAGING_CHUNK_BYTES");
  unsetenv("MPGPU_STAGING_THREADS");
  free_buffers(b);
}

/// The staged copies with and without streaming stores (staging.hpp,
/// kStagingStreamingStores) at 2^log_bits, the settings alternated round by
/// round so that each sees the same machine state; median of the rounds.
void stores_ab(const Context& ctx, int log_bits, int reps) {
  Buffers b = make_buffers(log_bits);
  const std::size_t bytes = b.limbs * sizeof(limb_t);
  auto& st = mpgpu::detail::ContextAccess::state(ctx);
  cudaStream_t s = ctx.stream();
  mpz_t z;
  mpz_init(z);
  std::memcpy(mpz_limbs_write(z, b.limbs), b.source.data(), bytes);
  mpz_limbs_finish(z, b.limbs);
  Integer x = Integer::from_mpz(z, ctx);
  x.place_on_device();
  const unsigned settings[] = {0, dc::kStreamUploads, dc::kStreamDownloads};
  const char* names[] = {"cached stores", "streaming uploads", "streaming downloads"};
  std::vector<double> t[3][4];  // per setting: staged up, staged down (warm landing), from_mpz, to_mpz fresh
  for (int round = 0; round <= reps; ++round)
    for (int k = 0; k < 3; ++k) {
      dc::set_staging_streaming_stores(settings[k]);
      const auto time = [](auto&& f) {
        const auto a = std::chrono::steady_clock::now();
        f();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
      };
      const double up = time([&] { dc::staged_copy_to_device(st, s, b.device, b.source.data(), bytes); });
      const double down = time([&] { dc::staged_copy_to_host(st, s, b.landing.data(), b.device, bytes); });
      expect(b.landing == b.source, "stores A/B round trip", log_bits);
      Integer y(ctx);
      const double from = time([&] {
        y = Integer::from_mpz(z, ctx);
        y.place_on_device();
        CHECK(cudaStreamSynchronize(s));
      });
      mpz_t fresh;
      mpz_init(fresh);
      const double to = time([&] { y.to_mpz(fresh); });
      expect(mpz_cmp(fresh, z) == 0, "stores A/B from_mpz -> to_mpz", log_bits);
      mpz_clear(fresh);
      if (round == 0) continue;  // warm-up
      t[k][0].push_back(up);
      t[k][1].push_back(down);
      t[k][2].push_back(from);
      t[k][3].push_back(to);
    }
  dc::set_staging_streaming_stores(dc::kStagingStreamingStores);
  std::printf("\nStreaming stores A/B at 2^%d bits (median of %d alternated rounds), GB/s; default: %u\n\n"
              "| setting | staged H2D | staged D2H (warm) | from_mpz | to_mpz fresh |\n| --- | --- | --- | --- | --- |\n",
              log_bits, reps, dc::kStagingStreamingStores);
  for (int k = 0; k < 3; ++k) {
    std::printf("| %s |", names[k]);
    for (auto& v : t[k]) {
      std::sort(v.begin(), v.end());
      std::printf(" %.1f |", gbps(bytes, v[v.size() / 2]));
    }
    std::printf("\n");
  }
  mpz_clear(z);
  free_buffers(b);
}

}  // namespace

int main(int argc, char** argv) {
  int min_log = 20, max_log = 30, reps = 7;
  bool do_sweep = false, do_stores_ab = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--min-log") && i + 1 < argc) min_log = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--max-log") && i + 1 < argc) max_log = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--sweep")) do_sweep = true;
    else if (!std::strcmp(argv[i], "--stores-ab")) do_stores_ab = true;
    else {
      std::fprintf(stderr, "usage: %s [--min-log N] [--max-log N] [--reps N] [--sweep] [--stores-ab]\n", argv[0]);
      return 2;
    }
  }
  min_log = std::max(min_log, 7);
  reps = std::max(reps, 1);
  if (Context::cuda_device_count() == 0) {
    std::printf("transfer_bench: no CUDA device; nothing to measure.\n");
    return 0;
  }
  // Fresh destinations at every size (see the top comment): each malloc of
  // 1 MiB or more is a new mapping, returned to the kernel when freed.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  Context ctx = Context::cuda(0);
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("Device: %s. Median of %d runs after a warm-up. Staging: %zu KiB chunks x %d buffers, "
              "%u copy threads (of %u hardware threads), from %zu KiB (env knobs may override).\n",
              p.name, reps, dc::kStagingChunkBytes >> 10, dc::kStagingBuffers, dc::kStagingThreads,
              std::max(1u, std::thread::hardware_concurrency()), dc::kStagingMinBytes >> 10);
  std::vector<Row> up, down;
  for (int lb = min_log; lb <= max_log; ++lb) {
    Buffers b = make_buffers(lb);
    up.push_back(upload_row(ctx, b, reps, lb));
    down.push_back(download_row(ctx, b, reps, lb));
    free_buffers(b);
  }
  print_header("Host -> device (ratio: from_mpz / pinned)", "from_limbs", "from_mpz");
  for (int lb = min_log; lb <= max_log; ++lb)
    print_row(lb, (std::size_t{1} << lb) / 8, up[lb - min_log]);
  print_download_header();
  for (int lb = min_log; lb <= max_log; ++lb)
    print_download_row(lb, (std::size_t{1} << lb) / 8, down[lb - min_log]);
  if (do_sweep) sweep(max_log, reps);
  if (do_stores_ab) stores_ab(ctx, max_log, reps);
  std::printf("\nRound trips (from_limbs/to_limbs, from_mpz/to_mpz, staged and direct copies): %s\n",
              g_all_exact ? "all exact" : "MISMATCHES (see above)");
  return g_all_exact ? 0 : 1;
}
