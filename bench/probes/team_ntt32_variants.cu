// Probe: the team NTT on 32-bit words at 2^5, 2^8, 2^10 points, 2^25 points a call: canonical
// butterflies (p > 2^31 form) against lazy ones, at __launch_bounds__ minimums of 2 and 3 blocks.
// CUDA events, median of 11 calls after 2 warm-ups. Outputs of each variant compared with the
// canonical form's on the same input.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt/team_ntt32.cuh"

using namespace mpgpu;
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

template <class F>
float time_ms(F launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  launch();
  launch();
  std::vector<float> v;
  for (int r = 0; r < 11; ++r) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    v.push_back(ms);
  }
  CHECK(cudaGetLastError());
  std::sort(v.begin(), v.end());
  return v[5];
}

template <int L>
void row(std::uint32_t p, std::uint64_t g, std::uint32_t* d, const std::vector<std::uint32_t>& host, double copy_gbs) {
  const std::size_t n = std::size_t{1} << L, batch = (std::size_t{1} << 25) / n;
  const field::PrimeField32 f = field::PrimeField32::make(p);
  uint2* tw;
  CHECK(cudaMalloc(&tw, n / 2 * sizeof(uint2)));
  const std::uint32_t w = f.pow(static_cast<std::uint32_t>(g), (p - 1) >> L);
  ntt::team_ntt32_table_kernel<<<(n / 2 + 255) / 256, 256>>>(tw, f, w, L);
  constexpr std::size_t per_block = ntt::kTeamNtt32Warps * ntt::TeamShape32<L>::kTeamsPerWarp;
  const unsigned blocks = static_cast<unsigned>((batch + per_block - 1) / per_block);
  std::vector<std::uint32_t> ref(host.size()), got(host.size());
  const char* names[4] = {"canonical, min 2", "lazy, min 2", "lazy, min 3", "canonical, min 3"};
  for (int v = 0; v < 4; ++v) {
    auto launch = [&] {
      if (v == 0) ntt::team_ntt32_kernel<L, false, 2><<<blocks, 256>>>(d, batch, tw, f, 1, f.shoup(1), false, false, false);
      if (v == 1) ntt::team_ntt32_kernel<L, true, 2><<<blocks, 256>>>(d, batch, tw, f, 1, f.shoup(1), false, false, false);
      if (v == 2) ntt::team_ntt32_kernel<L, true, 3><<<blocks, 256>>>(d, batch, tw, f, 1, f.shoup(1), false, false, false);
      if (v == 3) ntt::team_ntt32_kernel<L, false, 3><<<blocks, 256>>>(d, batch, tw, f, 1, f.shoup(1), false, false, false);
    };
    CHECK(cudaMemcpy(d, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
    launch();
    CHECK(cudaMemcpy(v == 0 ? ref.data() : got.data(), d, host.size() * 4, cudaMemcpyDeviceToHost));
    const bool same = v == 0 || got == ref;
    const float ms = time_ms(launch);
    const double gbs = 8.0 * n * batch / ms / 1e6;
    std::printf("| 2^%d | %s | %.4f | %.0f | %.0f%% | %s |\n", L, names[v], ms, gbs, 100 * gbs / copy_gbs, same ? "yes" : "NO");
  }
  CHECK(cudaFree(tw));
}

int main() {
  const std::uint32_t p = 2013265921;  // 15 * 2^27 + 1, generator 31
  const std::size_t words = std::size_t{1} << 25;
  std::vector<std::uint32_t> host(words);
  unsigned long long z = 88172645463325252ull;
  for (auto& x : host) z ^= z << 13, z ^= z >> 7, z ^= z << 17, x = static_cast<std::uint32_t>(z % p);
  std::uint32_t *d, *e;
  CHECK(cudaMalloc(&d, words * 4));
  CHECK(cudaMalloc(&e, words * 4));
  const float copy_ms = time_ms([&] { CHECK(cudaMemcpyAsync(e, d, words * 4, cudaMemcpyDeviceToDevice)); });
  const double copy_gbs = 8.0 * words / copy_ms / 1e6;
  std::printf("device copy %.0f GB/s\n| n | variant | ms | data GB/s | %% of copy | same output |\n| --- | --- | --- | --- | --- | --- |\n", copy_gbs);
  row<5>(p, 31, d, host, copy_gbs);
  row<8>(p, 31, d, host, copy_gbs);
  row<9>(p, 31, d, host, copy_gbs);
  row<10>(p, 31, d, host, copy_gbs);
  return 0;
}
