// Seed 003's comparison on the device: the same N elements of Z/pZ,
// p = r^k + 1, through
//   (a) the big prime FFT of size N = K^e (gfp::DeviceFft: shift-only DFT_K
//       stages, general products only for the twiddles), and
//   (b) the small-prime route's transforms: s NTTs of length N over 62-bit
//       primes (mpgpu::ntt_forward, one batched call), s = ceil(bits(p) / 62)
//       so the s primes carry as many bits as p (seed 003 used 2k half-word
//       primes for the same reason). Input: digit d of every element, reduced
//       mod the prime, is row d (d < k; rows k.. s-1 repeat digit 0). Every
//       row uses the first table prime: an NTT's cost does not depend on which
//       62-bit prime it runs over.
// (b) leaves out the projection of the 64k-bit elements onto the s primes and
// the CRT (or mixed-radix) recombination, O(s N k) word operations each: it
// is a lower bound of route (b), so ratios (a)/(b) above 1 overstate (b)'s lead.
// CUDA events on the context's stream after a warm-up; the median of --reps
// calls. (a) is checked against the host FFT for e <= 2. Benchmarks never
// fail on speed; the exit status is 1 only on a wrong result.
//
//   gfp_fft_bench [--max-e E] [--reps N]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "cuda_timing.cuh"
#include "mpgpu/context.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/gfp.hpp"
#include "mpgpu/gfp/fft_host.hpp"
#include "mpgpu/gfp/primes.hpp"
#include "mpgpu/ntt.hpp"


namespace {

using mpgpu_bench::median_ms;


/// Whether the device result (digit-major) equals the host FFT of x.
template <int D>
bool check_against_host(const mpgpu::gfp::GfpPrime& prime, int e, const std::vector<std::uint64_t>& input_dm,
                        const std::vector<std::uint64_t>& output_dm) {
  const auto plan = mpgpu::gfp::FftPlan<D>::make(prime, e);
  std::vector<mpgpu::gfp::Element<D>> x(plan.n);
  mpgpu::gfp::from_digit_major(&x[0].digit[0], input_dm.data(), plan.n, D);
  mpgpu::gfp::fft_forward(plan, x);
  std::vector<std::uint64_t> want(plan.n * D);
  mpgpu::gfp::to_digit_major(want.data(), &x[0].digit[0], plan.n, D);
  return want == output_dm;
}

struct Row {
  const char* name;
  mpgpu::gfp::GfpPrime prime;
};

}  // namespace

int main(int argc, char** argv) {
  int max_e = 4, reps = 21;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--max-e") && i + 1 < argc) max_e = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--max-e E] [--reps N]\n", argv[0]);
      return 2;
    }
  }
  if (mpgpu::Context::cuda_device_count() == 0) {
    std::printf("gfp_fft_bench: no CUDA device; nothing to measure.\n");
    return 0;
  }
  mpgpu::Context ctx = mpgpu::Context::cuda(0);
  cudaStream_t s = ctx.stream();
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const std::uint64_t q = mpgpu::field::ntt_primes62[0].p;
  std::printf("Device: %s. Forward transforms of N elements of Z/pZ, median of %d calls after a warm-up.\n", prop.name,
              reps);
  std::printf("(a) big prime FFT (gfp::DeviceFft); (b) s NTTs of length N mod 62-bit primes (ntt_forward, one\n"
              "batched call), s = ceil(bits(p)/62), without projection and CRT: a lower bound of route (b).\n\n");
  std::printf("| prime | K | N | bits(p) | s | (a) ms | (b) ms | (a)/(b) | (a) ns/element | checked |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  bool all_ok = true;
  const Row rows[] = {{"P3", mpgpu::gfp::p3}, {"P4", mpgpu::gfp::p4}};
  for (const Row& row : rows) {
    const int k = row.prime.k, big_k = 2 * k;
    const std::uint64_t r = row.prime.radix();
    const int bits = static_cast<int>(std::floor(k * std::log2(static_cast<double>(r)))) + 1;
    const int primes = (bits + 61) / 62;
    for (int e = 2; e <= max_e; ++e) {
      const mpgpu::gfp::DeviceFft fft(ctx, row.prime, e);
      const std::size_t n = fft.size();
      int log_n = 0;
      while ((std::size_t{1} << log_n) < n) ++log_n;
      // Same data for both routes: random digits below r (canonical elements).
      std::vector<std::uint64_t> host(n * k), ntt_rows(n * primes);
      std::mt19937_64 gen(1000 * k + e);
      for (auto& d : host) d = gen() % r;
      for (int row_i = 0; row_i < primes; ++row_i)
        for (std::size_t i = 0; i < n; ++i) ntt_rows[row_i * n + i] = host[(row_i < k ? row_i : 0) * n + i] % q;
      std::uint64_t *d_fft = nullptr, *d_in = nullptr, *d_ntt = nullptr;
      CHECK(cudaMalloc(&d_fft, host.size() * 8));
      CHECK(cudaMalloc(&d_in, host.size() * 8));
      CHECK(cudaMalloc(&d_ntt, ntt_rows.size() * 8));
      CHECK(cudaMemcpy(d_in, host.data(), host.size() * 8, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(d_ntt, ntt_rows.data(), ntt_rows.size() * 8, cudaMemcpyHostToDevice));
      CHECK(cudaDeviceSynchronize());
      // (a): each call transforms a fresh copy of the input (the copy is timed too: one pass, small
      // next to the FFT's e stages), so the checked result is that of one forward transform.
      const double ms_a = median_ms(s, reps, [&] {
        CHECK(cudaMemcpyAsync(d_fft, d_in, host.size() * 8, cudaMemcpyDeviceToDevice, s));
        fft.forward(d_fft, s);
      });
      // (b): repeated transforms of the same rows (values stay residues; the cost is data independent).
      const double ms_b = median_ms(s, reps, [&] { mpgpu::ntt_forward(ctx, d_ntt, primes, log_n, q); });
      const char* checked = "-";
      if (e <= 2) {
        std::vector<std::uint64_t> out(host.size());
        CHECK(cudaMemcpy(out.data(), d_fft, out.size() * 8, cudaMemcpyDeviceToHost));
        const bool ok = k == 8 ? check_against_host<8>(row.prime, e, host, out)
                               : check_against_host<16>(row.prime, e, host, out);
        checked = ok ? "yes" : "WRONG";
        all_ok = all_ok && ok;
      }
      std::printf("| %s | %d | %d^%d = %zu | %d | %d | %.4f | %.4f | %.2f | %.2f | %s |\n", row.name, big_k, big_k, e,
                  n, bits, primes, ms_a, ms_b, ms_a / ms_b, ms_a * 1e6 / static_cast<double>(n), checked);
      std::fflush(stdout);
      CHECK(cudaFree(d_fft));
      CHECK(cudaFree(d_in));
      CHECK(cudaFree(d_ntt));
    }
  }
  if (!all_ok) std::printf("\nA big prime FFT result differed from the host FFT.\n");
  return all_ok ? 0 : 1;
}
