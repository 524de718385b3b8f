// Reductions over huge integers: cmp, popcount, and the sum of many terms.
// mpgpu/<op> runs in the default context; gmp/<op> is the plain GMP code on
// the host, same operands. Bytes processed: cmp 2 x bits/8 (both operands
// read: they differ only in the lowest bit), popcount bits/8, sum of 8
// terms 9 x bits/8 (eight reads, one write).
#include "bench_support.hpp"

namespace {

using namespace mpgpu;
using mpgpu::bench::operands;

constexpr std::size_t kTerms = 8;

/// a and a ^ 1: equal in every limb but the lowest, so cmp reads everything.
struct NearPair {
  bench::Mpz near_host;
  Integer near;
  explicit NearPair(const bench::Operands& o)
      : near(bench::bench_context()) {
    mpz_set(near_host.get(), o.host[0].get());
    mpz_combit(near_host.get(), 0);
    near = Integer::from_mpz(near_host.get(), bench::bench_context());
  }
};

void BM_mpgpu_cmp(benchmark::State& state) {
  const std::uint64_t bits = state.range(0);
  const auto& o = operands(bits, 2);
  NearPair p(o);
  int got = 0;
  bench::timed_loop(state, 2.0 * double(bits) / 8, [&] { got = cmp(o.in_context[0], p.near); });
  const int want = mpz_cmp(o.host[0].get(), p.near_host.get());
  if ((got > 0) != (want > 0) || (got < 0) != (want < 0)) state.SkipWithError("cmp differs from GMP's");
}

void BM_gmp_cmp(benchmark::State& state) {
  const std::uint64_t bits = state.range(0);
  const auto& o = operands(bits, 2);
  NearPair p(o);
  bench::gmp_loop(state, 2.0 * double(bits) / 8,
                  [&] { benchmark::DoNotOptimize(mpz_cmp(o.host[0].get(), p.near_host.get())); });
}

void BM_mpgpu_popcount(benchmark::State& state) {
  const std::uint64_t bits = state.range(0);
  const auto& o = operands(bits, 2);
  std::uint64_t got = 0;
  bench::timed_loop(state, double(bits) / 8, [&] { got = popcount(o.in_context[0]); });
  if (got != mpz_popcount(o.host[0].get())) state.SkipWithError("popcount differs from GMP's");
}

void BM_gmp_popcount(benchmark::State& state) {
  const std::uint64_t bits = state.range(0);
  const auto& o = operands(bits, 2);
  bench::gmp_loop(state, double(bits) / 8, [&] { benchmark::DoNotOptimize(mpz_popcount(o.host[0].get())); });
}

/// The plain GMP loop a GMP user writes for a sum.
void gmp_sum(mpz_ptr r, const bench::Operands& o) {
  mpz_add(r, o.host[0].get(), o.host[1].get());
  for (std::size_t i = 2; i < kTerms; ++i) mpz_add(r, r, o.host[i].get());
}

void BM_mpgpu_sum(benchmark::State& state) {
  const std::uint64_t bits = state.range(0);
  const auto& o = operands(bits, kTerms);
  const std::span<const Integer> terms(o.in_context.data(), kTerms);
  Integer r(bench::bench_context());
  bench::timed_loop(state, double(kTerms + 1) * double(bits) / 8, [&] { sum(r, terms); });
  bench::Mpz want, got;
  gmp_sum(want.get(), o);
  r.to_mpz(got.get());
  if (mpz_cmp(got.get(), want.get()) != 0) state.SkipWithError("sum differs from GMP's");
}

void BM_gmp_sum(benchmark::State& state) {
  const std::uint64_t bits = state.range(0);
  const auto& o = operands(bits, kTerms);
  bench::Mpz r;
  bench::gmp_loop(state, double(kTerms + 1) * double(bits) / 8, [&] { gmp_sum(r.get(), o); });
}

}  // namespace

BENCHMARK(BM_mpgpu_cmp)->Name("mpgpu/cmp")->Apply(mpgpu::bench::bit_sizes);
BENCHMARK(BM_gmp_cmp)->Name("gmp/cmp")->Apply(mpgpu::bench::bit_sizes);
BENCHMARK(BM_mpgpu_popcount)->Name("mpgpu/popcount")->Apply(mpgpu::bench::bit_sizes);
BENCHMARK(BM_gmp_popcount)->Name("gmp/popcount")->Apply(mpgpu::bench::bit_sizes);
BENCHMARK(BM_mpgpu_sum)->Name("mpgpu/sum")->Apply(mpgpu::bench::bit_sizes);
BENCHMARK(BM_gmp_sum)->Name("gmp/sum")->Apply(mpgpu::bench::bit_sizes);
