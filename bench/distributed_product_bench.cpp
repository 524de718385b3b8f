// The distributed four-step product over every GPU (src/distributed/, docs/multi-gpu.md part
// 2) against one GPU's product of the same operands (`mpgpu::mul` on cuda:0): where the
// correctness-first form stands against issue 36's targets (a 2^34-bit product on 2 GPUs
// faster than on 1).
//
//   distributed_product_bench [--max-log-bits K] [--reps N]
//
// Products of two operands of 2^(k-1) bits each (a 2^k-bit product) for k from 20 to K
// (default 28), by powers of 4. Time: host wall clock after a warm-up, median of --reps
// (default 5): one GPU from the call to the context's synchronize(); several GPUs the whole
// four_step_mul (which returns with every part's work done, as it reads the carries back),
// the operands already in the parts' memory. Verified: the distributed product's limbs equal
// the one-GPU product's, every limb. Prints a markdown table; never fails on speed.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

}  // namespace

int main(int argc, char** argv) {
  int max_log_bits = 28, reps = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--max-log-bits" && i + 1 < argc) max_log_bits = std::atoi(argv[++i]);
    else if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: %s [--max-log-bits K] [--reps N]\n", argv[0]);
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
  std::printf("# The distributed four-step product over %zu GPUs against one GPU's product (%s), median of %d "
              "after a warm-up\n\n",
              G, parts[0].describe().c_str(), reps);
  std::printf("| product bits | 1 GPU ms | %zu GPUs ms | speed-up | verified |\n| ---: | ---: | ---: | ---: | --- |\n", G);
  bool all_ok = true;
  std::mt19937_64 rng(20261129);
  for (int k = 20; k <= max_log_bits; k += 2) {
    const std::size_t n = (std::size_t{1} << (k - 1)) / 64;  // limbs an operand
    Words a(n), b(n);
    for (auto& v : a) v = rng();
    for (auto& v : b) v = rng();
    // One GPU.
    const Integer ia = Integer::from_limbs(a.data(), n, 1, parts[0]), ib = Integer::from_limbs(b.data(), n, 1, parts[0]);
    Integer ip(parts[0]);
    std::vector<double> one;
    for (int r = 0; r <= reps; ++r) {
      parts[0].synchronize();
      const auto t0 = Clock::now();
      mul(ip, ia, ib);
      parts[0].synchronize();
      if (r > 0) one.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    Words want = ip.to_limbs();
    want.resize(2 * n, 0);
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
    std::vector<double> several;
    for (int r = 0; r <= reps; ++r) {
      const auto t0 = Clock::now();
      const std::unique_ptr<distributed::PartSteps> steps = distributed::make_cuda_part_steps(parts);
      distributed::four_step_mul(parts, comm, *steps, ra, rb, rp);
      for (std::size_t g = 0; g < G; ++g) parts[g].synchronize();
      if (r > 0) several.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    bool ok = true;
    for (std::size_t g = 0; g < G && ok; ++g) {
      const distributed::PartRange out = distributed::part_range(2 * n, G, g);
      Words got(out.count);
      cuda_ok(cudaSetDevice(static_cast<int>(g)), "cudaSetDevice");
      cuda_ok(cudaMemcpy(got.data(), rp[g].data, out.count * 8, cudaMemcpyDeviceToHost), "cudaMemcpy");
      ok = std::equal(got.begin(), got.end(), want.begin() + static_cast<std::ptrdiff_t>(out.begin));
    }
    for (std::size_t i = 0; i < mem.size(); ++i) {
      cuda_ok(cudaSetDevice(static_cast<int>(i / 3)), "cudaSetDevice");
      cuda_ok(cudaFree(mem[i]), "cudaFree");
    }
    all_ok = all_ok && ok;
    const double t1 = median(one), tg = median(several);
    std::printf("| 2^%d | %.3f | %.3f | %.2fx | %s |\n", k, t1, tg, t1 / tg, ok ? "yes" : "NO");
    std::fflush(stdout);
  }
  return all_ok ? 0 : 1;
}
