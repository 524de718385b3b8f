// The distributed four-step product over every GPU (src/distributed/, docs/multi-gpu.md part
// 2) against one GPU's product of the same operands (`mpgpu::mul` on cuda:0): where the
// correctness-first form stands against issue 36's targets (a 2^34-bit product on 2 GPUs
// faster than on 1; a 2^36-bit product on 4 GPUs, which does not fit one, in <= 2 s).
//
//   distributed_product_bench [--min-log-bits K0] [--max-log-bits K] [--one-gpu-max-log-bits K1] [--reps N]
//
// Products of two operands of 2^(k-1) bits each (a 2^k-bit product) for k from K0 (default
// 20) to K (default 28) in steps of 2, with digits of 1, 2 and 4 limbs (a row each; and one
// with the transposes as plain strided copies, the tiles' A/B). Time: host wall clock after a
// warm-up, median of
// --reps (default 5): one GPU from the call to the context's synchronize(); several GPUs the
// whole four_step_mul (it returns after reading the carries back; the parts' streams are then
// synchronized), the operands already in the parts' memory. One GPU runs up to K1 (default
// 34; "-" above, or where it runs out of memory). Verified against the one-GPU product, every
// limb, where it ran; otherwise modulo four ~62-bit primes that no part of mpgpu uses (the
// check of `mpgpu bench`'s huge products) and the low 256 limbs against GMP. Prints a
// markdown table; never fails on speed (exit status 1 only if a result is wrong).
#include <cuda_runtime.h>
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "distributed/four_step_product.hpp"
#include "distributed/nccl_communicator.hpp"
#include "mpgpu/mpgpu.hpp"

namespace {

using namespace mpgpu;
using Clock = std::chrono::steady_clock;
using Words = std::vector<std::uint64_t>;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

/// Four primes just above 2^62 - 2^12 (as `mpgpu bench` takes them).
std::vector<std::uint64_t> check_primes() {
  std::vector<std::uint64_t> v;
  mpz_t q;
  mpz_init_set_ui(q, 0x3ffffffffffff000ul);
  for (int i = 0; i < 4; ++i) {
    mpz_nextprime(q, q);
    v.push_back(mpz_get_ui(q));
  }
  mpz_clear(q);
  return v;
}

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t q) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % q);
}

/// (sum of words[i] 2^(64 i)) mod q, for words placed `shift` limbs up.
std::uint64_t residue(const std::uint64_t* words, std::size_t n, std::size_t shift, std::uint64_t q) {
  const std::uint64_t r =
      n == 0 ? 0 : mpn_mod_1(reinterpret_cast<const mp_limb_t*>(words), static_cast<mp_size_t>(n), q);
  // 2^(64 shift) mod q by squaring.
  std::uint64_t base = static_cast<std::uint64_t>((static_cast<unsigned __int128>(1) << 64) % q), scale = 1;
  for (std::size_t e = shift; e != 0; e >>= 1, base = mul_mod(base, base, q))
    if (e & 1) scale = mul_mod(scale, base, q);
  return mul_mod(r, scale, q);
}

}  // namespace

int main(int argc, char** argv) {
  int min_log_bits = 20, max_log_bits = 28, one_gpu_max = 34, reps = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--min-log-bits" && i + 1 < argc) min_log_bits = std::atoi(argv[++i]);
    else if (a == "--max-log-bits" && i + 1 < argc) max_log_bits = std::atoi(argv[++i]);
    else if (a == "--one-gpu-max-log-bits" && i + 1 < argc) one_gpu_max = std::atoi(argv[++i]);
    else if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: %s [--min-log-bits K0] [--max-log-bits K] [--one-gpu-max-log-bits K1] [--reps N]\n",
                   argv[0]);
      return 2;
    }
  }
  const int devices = Context::cuda_device_count();
  if (devices < 1) {
    std::printf("no CUDA device: nothing to measure\n");
    return 0;
  }
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  std::vector<Context> parts;
  for (int d = 0; d < devices; ++d) parts.push_back(Context::cuda(d));
  distributed::NcclCommunicator comm(parts);
  const std::size_t G = parts.size();
  const std::vector<std::uint64_t> primes = check_primes();
  std::printf(
      "# The distributed four-step product over %zu GPUs against one GPU's product (%s), median of %d "
      "after a warm-up\n\n",
      G, parts[0].describe().c_str(), reps);
  std::printf(
      "| product bits | digit limbs | 1 GPU ms | %zu GPUs ms | speed-up | verified |\n| ---: | ---: | ---: | ---: | "
      "---: | --- |\n",
      G);
  bool all_ok = true;
  std::mt19937_64 rng(20261129);
  for (int k = min_log_bits; k <= max_log_bits; k += 2) {
    const std::size_t n = (std::size_t{1} << (k - 1)) / 64;  // limbs an operand
    Words a(n), b(n);
    for (auto& v : a) v = rng();
    for (auto& v : b) v = rng();
    // One GPU, where it fits.
    std::optional<double> one_ms;
    Words want;
    if (k <= one_gpu_max) {
      try {
        const Integer ia = Integer::from_limbs(a.data(), n, 1, parts[0]);
        const Integer ib = Integer::from_limbs(b.data(), n, 1, parts[0]);
        Integer ip(parts[0]);
        std::vector<double> one;
        for (int r = 0; r <= reps; ++r) {
          parts[0].synchronize();
          const auto t0 = Clock::now();
          mul(ip, ia, ib);
          parts[0].synchronize();
          if (r > 0) one.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        one_ms = median(one);
        want = ip.to_limbs();
        want.resize(2 * n, 0);
      } catch (const OutOfMemory&) {
        parts[0].synchronize();
      }
    }
    // Several GPUs: each operand's limbs split as a Batch's instances are.
    std::vector<distributed::SendBlock> ra(G), rb(G);
    std::vector<distributed::RecvBlock> rp(G);
    std::vector<std::uint64_t*> mem;
    for (std::size_t g = 0; g < G; ++g) {
      cuda_ok(cudaSetDevice(static_cast<int>(g)), "cudaSetDevice");
      const distributed::PartRange in = distributed::part_range(n, G, g), out = distributed::part_range(2 * n, G, g);
      std::uint64_t *pa = nullptr, *pb = nullptr, *pp = nullptr;
      cuda_ok(cudaMalloc(&pa, std::max<std::size_t>(in.count, 1) * 8), "cudaMalloc");
      cuda_ok(cudaMalloc(&pb, std::max<std::size_t>(in.count, 1) * 8), "cudaMalloc");
      cuda_ok(cudaMalloc(&pp, std::max<std::size_t>(out.count, 1) * 8), "cudaMalloc");
      cuda_ok(cudaMemcpy(pa, a.data() + in.begin, in.count * 8, cudaMemcpyHostToDevice), "cudaMemcpy");
      cuda_ok(cudaMemcpy(pb, b.data() + in.begin, in.count * 8, cudaMemcpyHostToDevice), "cudaMemcpy");
      ra[g] = {pa, in.count};
      rb[g] = {pb, in.count};
      rp[g] = {pp, out.count};
      mem.insert(mem.end(), {pa, pb, pp});
    }
    // Where one GPU did not run: a b mod each check prime, and the low limbs, from the operands.
    std::vector<std::uint64_t> want_residue(primes.size(), 0);
    const std::size_t low_limbs = std::min<std::size_t>(128, n);
    Words want_low(2 * low_limbs);
    if (want.empty()) {
      for (std::size_t i = 0; i < primes.size(); ++i)
        want_residue[i] = mul_mod(residue(a.data(), n, 0, primes[i]), residue(b.data(), n, 0, primes[i]), primes[i]);
      mpn_mul_n(reinterpret_cast<mp_limb_t*>(want_low.data()), reinterpret_cast<const mp_limb_t*>(a.data()),
                reinterpret_cast<const mp_limb_t*>(b.data()), static_cast<mp_size_t>(low_limbs));
    }
    // Each digit size with tiled transposes, and digits of one limb with the plain strided copy
    // (the tiles' A/B).
    const std::pair<std::size_t, bool> variants[] = {{1, true}, {2, true}, {4, true}, {1, false}};
    for (const auto& [digit, tiled] : variants) {
      std::vector<double> several;
      for (int r = 0; r <= reps; ++r) {
        const auto t0 = Clock::now();
        {
          const std::unique_ptr<distributed::PartSteps> steps = distributed::make_cuda_part_steps(parts, {tiled});
          distributed::four_step_mul(parts, comm, *steps, ra, rb, rp, digit);
          for (std::size_t g = 0; g < G; ++g) parts[g].synchronize();
        }
        if (r > 0) several.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      }
      // The check: every limb against one GPU's product, or residues and the low limbs.
      bool ok = true;
      std::vector<std::uint64_t> got_residue(primes.size(), 0);
      Words low;
      for (std::size_t g = 0; g < G && ok; ++g) {
        const distributed::PartRange out = distributed::part_range(2 * n, G, g);
        Words got(out.count);
        cuda_ok(cudaSetDevice(static_cast<int>(g)), "cudaSetDevice");
        cuda_ok(cudaMemcpy(got.data(), rp[g].data, out.count * 8, cudaMemcpyDeviceToHost), "cudaMemcpy");
        if (!want.empty()) {
          ok = std::equal(got.begin(), got.end(), want.begin() + static_cast<std::ptrdiff_t>(out.begin));
          continue;
        }
        for (std::size_t i = 0; i < primes.size(); ++i)
          got_residue[i] = (got_residue[i] + residue(got.data(), got.size(), out.begin, primes[i])) % primes[i];
        if (g == 0)
          low.assign(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(256, got.size())));
      }
      const char* how = "every limb";
      if (want.empty()) {
        how = "mod 4 primes, low limbs";
        ok = ok && got_residue == want_residue;
        // The low limbs of the low halves' product are the product's own.
        const std::size_t m = std::min(low_limbs, low.size());
        ok = ok && std::equal(want_low.begin(), want_low.begin() + static_cast<std::ptrdiff_t>(m), low.begin());
      }
      all_ok = all_ok && ok;
      const double tg = median(several);
      char one_text[32] = "-", speedup[32] = "-";
      if (one_ms) {
        std::snprintf(one_text, sizeof one_text, "%.3f", *one_ms);
        std::snprintf(speedup, sizeof speedup, "%.2fx", *one_ms / tg);
      }
      std::printf("| 2^%d | %zu%s | %s | %.3f | %s | %s (%s) |\n", k, digit, tiled ? "" : ", strided copies", one_text,
                  tg, speedup, ok ? "yes" : "NO", how);
      std::fflush(stdout);
    }
    for (std::size_t i = 0; i < mem.size(); ++i) {
      cuda_ok(cudaSetDevice(static_cast<int>(i / 3)), "cudaSetDevice");
      cuda_ok(cudaFree(mem[i]), "cudaFree");
    }
  }
  return all_ok ? 0 : 1;
}
