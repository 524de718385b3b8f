#include "bench_support.hpp"

#include <bit>
#include <cstdlib>
#include <iostream>
#include <string>

namespace mpgpu::bench {

const Context& bench_context() { return Context::default_context(); }

namespace {
Operands cache;  // freed by release_operands() before main returns
}  // namespace

void release_operands() { cache = Operands{}; }

const Operands& operands(std::uint64_t bits, std::size_t count) {
  if (cache.bits != bits || cache.host.size() < count) {
    cache = Operands{};  // free the previous size first
    cache.bits = bits;
    gmp_randstate_t rand;
    gmp_randinit_default(rand);
    gmp_randseed_ui(rand, 20261122u ^ bits);
    for (std::size_t i = 0; i < count; ++i) {
      Mpz z;
      mpz_urandomb(z.get(), rand, bits);
      mpz_setbit(z.get(), bits - 1);
      cache.in_context.push_back(Integer::from_mpz(z.get(), bench_context()));
      cache.host.push_back(std::move(z));
    }
    gmp_randclear(rand);
  }
  return cache;
}

namespace {

std::uint64_t max_bits_from_env() {
  const char* env = std::getenv("MPGPU_BENCH_MAX_BITS");
  std::uint64_t cap = std::uint64_t{1} << 30;
  if (!env || !*env) return cap;
  std::string s(env);
  try {
    if (s.rfind("2^", 0) == 0) return std::uint64_t{1} << std::stoul(s.substr(2));
    return std::stoull(s);
  } catch (const std::exception&) {
    std::cerr << "MPGPU_BENCH_MAX_BITS=" << s << " is not a bit count (like 1048576 or 2^20); ignored\n";
    return cap;
  }
}

}  // namespace

void bit_sizes(benchmark::internal::Benchmark* b) {
  const std::uint64_t cap = max_bits_from_env();
  b->ArgName("bits");
  for (int e = 16; e <= 30; e += 2)
    if ((std::uint64_t{1} << e) <= cap) b->Arg(std::int64_t{1} << e);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace mpgpu::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  try {
    const mpgpu::Context& ctx = mpgpu::bench::bench_context();
    const mpgpu::DeviceInfo info = ctx.info();
    benchmark::AddCustomContext("mpgpu_context", ctx.describe());
    benchmark::AddCustomContext("gmp_version", info.gmp_release);
  } catch (const std::exception& e) {
    std::cerr << "mpgpu benchmarks: cannot make the context: " << e.what() << "\n";
    return 2;
  }
  benchmark::RunSpecifiedBenchmarks();
  // Device memory goes back while the CUDA runtime is still up (not in static
  // destructors, which may run after it has shut down).
  mpgpu::bench::release_operands();
  benchmark::Shutdown();
  return 0;
}
