// Shared pieces of the Google Benchmark programs: random operands cached per
// size, the size list, and the manual-timing loop for device work.
#pragma once

#include <benchmark/benchmark.h>
#include <gmp.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "mpgpu/mpgpu.hpp"
#include "owned_mpz.hpp"

namespace mpgpu::bench {

using Mpz = mpgpu::tools::Mpz;

/// Random operands of exactly `bits` bits, on the host and in the default
/// context. Google Benchmark calls a benchmark function several times per
/// size, so the operands of the most recent size are kept (one size at a
/// time bounds memory: 8 terms of 2^30 bits are 1 GiB on each side).
struct Operands {
  std::uint64_t bits = 0;
  std::vector<Mpz> host;         ///< `count` random operands
  std::vector<Integer> in_context;  ///< the same values in the default context
};
const Operands& operands(std::uint64_t bits, std::size_t count);
/// Frees the cached operands.
void release_operands();

/// The context the benchmarks run in.
const Context& bench_context();

/// Sizes 2^16, 2^18, ..., 2^30 bits, capped by MPGPU_BENCH_MAX_BITS
/// ("1048576" or "2^20"), as the benchmark's `bits` argument.
void bit_sizes(benchmark::internal::Benchmark* b);

/// Runs `op` once per iteration, timing only the call itself: the context's
/// stream is drained before the clock starts and after the call returns.
/// Reports `bytes_per_call` as bytes processed (0: none).
template <class Op>
void timed_loop(benchmark::State& state, double bytes_per_call, Op&& op) {
  const Context& ctx = bench_context();
  op();  // warm-up: pools, lazy CUDA initialization
  for (auto _ : state) {
    ctx.synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    op();
    ctx.synchronize();
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  if (bytes_per_call > 0)
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes_per_call * double(state.iterations())));
}

/// Plain GMP calls on the host (wall time; nothing to synchronize).
template <class Op>
void gmp_loop(benchmark::State& state, double bytes_per_call, Op&& op) {
  op();
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    op();
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  if (bytes_per_call > 0)
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes_per_call * double(state.iterations())));
}

}  // namespace mpgpu::bench
