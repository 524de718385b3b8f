// Linear-time operations on huge integers: add, sub, and/ior/xor, shifts.
// mpgpu/<op> runs in the default context; gmp/<op> is the plain GMP call on
// the host, same operands. Bytes processed: 3 x bits/8 per call for the
// two-operand operations (two reads, one write), 2 x bits/8 for shifts
// (one read, one write).
#include "bench_support.hpp"

#include <string>

namespace {

using namespace mpgpu;
using mpgpu::bench::operands;

/// Shift count: 1000 bits and a few, so limbs move and bits move inside limbs.
constexpr std::uint64_t kShift = 1003;

using BinaryOp = void (*)(Integer&, const Integer&, const Integer&, Stream);
using GmpBinaryOp = void (*)(mpz_ptr, mpz_srcptr, mpz_srcptr);
using ShiftOp = void (*)(Integer&, const Integer&, std::uint64_t, Stream);
using GmpShiftOp = void (*)(mpz_ptr, mpz_srcptr, mp_bitcnt_t);

/// Checks the last mpgpu result against GMP once, after the timing loop.
void check(benchmark::State& state, const Integer& got, mpz_srcptr want) {
  bench::Mpz z;
  got.to_mpz(z.get());
  if (mpz_cmp(z.get(), want) != 0) state.SkipWithError("result differs from GMP's");
}

/// Registers mpgpu/<name> and gmp/<name> for one operation given as two
/// callables over the operand pair: run(Integer& r, const Operands&) and
/// run_gmp(mpz_ptr r, const Operands&).
template <class RunMpgpu, class RunGmp>
void register_pair(const char* name, double bytes_per_bit, RunMpgpu run, RunGmp run_gmp) {
  benchmark::RegisterBenchmark((std::string("mpgpu/") + name).c_str(), [=](benchmark::State& state) {
    const std::uint64_t bits = state.range(0);
    const auto& o = operands(bits, 2);
    Integer r(bench::bench_context());
    bench::timed_loop(state, bytes_per_bit * double(bits), [&] { run(r, o); });
    bench::Mpz want;
    run_gmp(want.get(), o);
    check(state, r, want.get());
  })->Apply(bench::bit_sizes);
  benchmark::RegisterBenchmark((std::string("gmp/") + name).c_str(), [=](benchmark::State& state) {
    const std::uint64_t bits = state.range(0);
    const auto& o = operands(bits, 2);
    bench::Mpz r;
    bench::gmp_loop(state, bytes_per_bit * double(bits), [&] { run_gmp(r.get(), o); });
  })->Apply(bench::bit_sizes);
}

void register_binary(const char* name, BinaryOp op, GmpBinaryOp gmp) {
  register_pair(
      name, 3.0 / 8, [op](Integer& r, const auto& o) { op(r, o.in_context[0], o.in_context[1], nullptr); },
      [gmp](mpz_ptr r, const auto& o) { gmp(r, o.host[0].get(), o.host[1].get()); });
}

void register_shift(const char* name, ShiftOp op, GmpShiftOp gmp) {
  register_pair(
      name, 2.0 / 8, [op](Integer& r, const auto& o) { op(r, o.in_context[0], kShift, nullptr); },
      [gmp](mpz_ptr r, const auto& o) { gmp(r, o.host[0].get(), kShift); });
}

const bool registered = [] {
  register_binary("add", add, mpz_add);
  register_binary("sub", sub, mpz_sub);
  register_binary("and", and_, mpz_and);
  register_binary("ior", ior, mpz_ior);
  register_binary("xor", xor_, mpz_xor);
  register_shift("mul_2exp", mul_2exp, mpz_mul_2exp);
  register_shift("fdiv_q_2exp", fdiv_q_2exp, mpz_fdiv_q_2exp);
  return true;
}();

}  // namespace
