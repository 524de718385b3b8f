// Matrix products mod p on the host (mpgpu/dot/matmul_host.hpp): each method
// against the naive loop that reduces after every term (unsigned __int128,
// % p). n x n x n, row-major, random residues; items = n^3 multiply-adds.
// Args: n, then p. Naive runs only at n <= 256 (it takes seconds at 512).
#include "bench_support.hpp"

#include <cstdint>
#include <random>
#include <vector>

#include "mpgpu/dot/matmul_host.hpp"

namespace {

namespace dot = mpgpu::dot;
using u128 = unsigned __int128;

template <class T>
std::vector<T> random_matrix(std::size_t n, std::uint64_t p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n * n);
  for (auto& x : v) x = T(rng() % p);
  return v;
}

void naive(std::uint64_t* C, const std::uint64_t* A, const std::uint64_t* B, std::size_t n, std::uint64_t p) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      std::uint64_t acc = 0;
      for (std::size_t l = 0; l < n; ++l) acc = std::uint64_t((u128(A[i * n + l]) * B[l * n + j] + acc) % p);
      C[i * n + j] = acc;
    }
}

template <class T>
void bench_method(benchmark::State& state, dot::Method m) {
  const std::size_t n = std::size_t(state.range(0));
  const std::uint64_t p = std::uint64_t(state.range(1));
  const auto a = random_matrix<T>(n, p, 1), b = random_matrix<T>(n, p, 2);
  std::vector<T> c(n * n);
  for (auto _ : state) {
    dot::matmul(c.data(), n, a.data(), n, b.data(), n, n, n, n, p, m);
    benchmark::DoNotOptimize(c.data());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n * n * n));
}

void bench_naive(benchmark::State& state) {
  const std::size_t n = std::size_t(state.range(0));
  const std::uint64_t p = std::uint64_t(state.range(1));
  const auto a = random_matrix<std::uint64_t>(n, p, 1), b = random_matrix<std::uint64_t>(n, p, 2);
  std::vector<std::uint64_t> c(n * n);
  for (auto _ : state) {
    naive(c.data(), a.data(), b.data(), n, p);
    benchmark::DoNotOptimize(c.data());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n * n * n));
}

// p: 65537 (fp_naive block 2^21 - 1), 94906249 (largest fp_naive p, block 1),
// 2^30 - 35 (64-bit accumulators), 2^62 - 57 and 2^64 - 59 (128-bit).
const std::int64_t p16 = 65537, p_fp_max = 94906249, p30 = 1073741789;
const std::int64_t p62 = 4611686018427387847;
// Largest primes with fp_naive blocks of 128 and 32 terms.
const std::int64_t p_b128 = 8388593, p_b32 = 16777213;

void fp_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {256, 512})
    for (std::int64_t p : {p16, p_b128, p_b32, p_fp_max}) b->Args({n, p});
  b->Unit(benchmark::kMillisecond);
}
void int_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {256, 512})
    for (std::int64_t p : {p16, p_fp_max, p30, p62}) b->Args({n, p});
  b->Unit(benchmark::kMillisecond);
}
void naive_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t p : {p16, p62}) b->Args({256, p});
  b->Unit(benchmark::kMillisecond);
}

void fp_naive_f64(benchmark::State& s) { bench_method<double>(s, dot::Method::fp_naive); }
void fp_naive_u64(benchmark::State& s) { bench_method<std::uint64_t>(s, dot::Method::fp_naive); }
void integer_delayed_u64(benchmark::State& s) { bench_method<std::uint64_t>(s, dot::Method::integer_delayed); }

BENCHMARK(fp_naive_f64)->Apply(fp_args);
BENCHMARK(fp_naive_u64)->Apply(fp_args);
BENCHMARK(integer_delayed_u64)->Apply(int_args);
BENCHMARK(bench_naive)->Apply(naive_args);

}  // namespace
