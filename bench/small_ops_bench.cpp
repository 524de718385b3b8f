// Loops of 10^5 dependent operations on ~1000-bit values, mpgpu against the
// same loop of mpz calls: what a small operation costs beyond its GMP call.
// On a CUDA context the values stay in host memory (docs/integer.md, "Where
// values live"), so both loops run GMP on the host. The samples of the two
// loops alternate (one GMP loop, one mpgpu loop, ...) so that a change of
// the host's speed during the run hits both; the table gives the median and
// the best sample of each, in ns per step of the loop (one operation; for
// mul+mask a product and an and), and GMP's median over mpgpu's (1.00x: no
// overhead; issue 33's bar for the additions is 0.83x).
//
//   small_ops_bench [--device cpu|cuda|cuda:N|auto] [--runs N] [--steps N]
//
// The default device is the default context's (MPGPU_DEVICE, else auto).
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "mpgpu/mpgpu.hpp"

namespace {

using namespace mpgpu;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// One row: `gmp_step(z)` and `mpgpu_step(x)` are one step of the loop on
/// the running value, which starts at a0 each sample.
template <class GmpStep, class MpgpuStep>
void row(const char* op, const Context& ctx, int runs, int steps, mpz_srcptr a0, GmpStep gmp_step,
         MpgpuStep mpgpu_step) {
  mpz_t z;
  mpz_init(z);
  Integer x(ctx);
  std::vector<double> tg, tm;
  for (int r = 0; r <= runs; ++r) {  // sample 0 warms up and is dropped
    mpz_set(z, a0);
    const auto t0 = Clock::now();
    for (int i = 0; i < steps; ++i) gmp_step(z);
    const auto t1 = Clock::now();
    x = Integer::from_mpz(a0, ctx);
    ctx.synchronize();
    const auto t2 = Clock::now();
    for (int i = 0; i < steps; ++i) mpgpu_step(x);
    ctx.synchronize();
    const auto t3 = Clock::now();
    if (r == 0) continue;
    tg.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / steps);
    tm.push_back(std::chrono::duration<double, std::nano>(t3 - t2).count() / steps);
  }
  mpz_t got;
  mpz_init(got);
  x.to_mpz(got);
  const bool same = mpz_cmp(got, z) == 0;
  const double g = median(tg), m = median(tm);
  std::printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2fx | %s |\n", op, g, *std::min_element(tg.begin(), tg.end()), m,
              *std::min_element(tm.begin(), tm.end()), g / m, same ? "yes" : "NO");
  std::fflush(stdout);
  mpz_clears(got, z, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  Context ctx = Context::default_context();
  int runs = 101, steps = 100000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--device") == 0) ctx = Context::from_string(argv[i + 1]);
    else if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));
    else if (std::strcmp(argv[i], "--steps") == 0) steps = std::max(1, std::atoi(argv[i + 1]));
    else {
      std::fprintf(stderr, "small_ops_bench: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  mpz_t a0, b0, m0;
  mpz_inits(a0, b0, m0, nullptr);
  mpz_ui_pow_ui(a0, 3, 630);  // ~1000 bits, as whole_bench --ops loop
  mpz_ui_pow_ui(b0, 7, 356);
  mpz_setbit(m0, 1000);
  mpz_sub_ui(m0, m0, 1);
  const Integer y = Integer::from_mpz(b0, ctx), mask = Integer::from_mpz(m0, ctx);

  std::printf("small_ops_bench on %s: %d steps a loop, %d samples each, alternated\n\n", ctx.describe().c_str(),
              steps, runs);
  std::printf("| loop | GMP ns/step | GMP best | mpgpu ns/step | mpgpu best | GMP / mpgpu | verified |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  row("add", ctx, runs, steps, a0, [&](mpz_ptr z) { mpz_add(z, z, b0); }, [&](Integer& x) { add(x, x, y); });
  row("sub", ctx, runs, steps, a0, [&](mpz_ptr z) { mpz_sub(z, z, b0); }, [&](Integer& x) { sub(x, x, y); });
  row("xor", ctx, runs, steps, a0, [&](mpz_ptr z) { mpz_xor(z, z, b0); }, [&](Integer& x) { xor_(x, x, y); });
  // Both sides mask with an and (whole_bench's GMP loop uses mpz_tdiv_r_2exp).
  row("mul+mask", ctx, runs, steps / 10, a0,
      [&](mpz_ptr z) {
        mpz_mul(z, z, b0);
        mpz_and(z, z, m0);
      },
      [&](Integer& x) {
        mul(x, x, y);
        and_(x, x, mask);
      });
  mpz_clears(a0, b0, m0, nullptr);
  return 0;
}
