// Probe (issue 38: batch powm 0.38-0.44x CGBN at 1024-4096 bits): batch powm and chains of
// Montgomery products through the device API, for several G a width, with the products by rows
// (batch/montgomery/rows.cuh) or, built with -DMPGPU_MONTGOMERY_BY_REDC, by REDC of whole
// products (the form before rows). Instances as in ANCHORS.md's CGBN table: random odd moduli
// of the full width, random bases below them, full-width random exponents. A sample of each
// row is checked against mpz_powm.
// Build: nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I../../include powm_rows.cu -lgmp
//        [-DMPGPU_MONTGOMERY_BY_REDC]
// Run:   ./a.out [--chain]   (prints a markdown table)
#include <gmp.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../cuda_timing.cuh"
#include "mpgpu/batch/batch.cuh"
#include "mpgpu/batch/launch.cuh"
#include "library_instance.cuh"

namespace mb = mpgpu::batch;
using mb::word_t;

namespace {

enum class Kind { powm, powm_sliding, powm_sliding6, chain };
constexpr int kChainLength = 64;

template <Kind K>
struct Body {
  const word_t *base, *exp, *mod;
  word_t* out;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, e, r;
    mb::Modulus<E> m;
    probes::load_instance(env, x, e, m, base, exp, mod, i, live);
    const std::size_t off = i * E::words;
    if constexpr (K == Kind::powm) {
      mb::powm(env, r, x, e, m);
    } else if constexpr (K == Kind::powm_sliding) {
      mb::powm_sliding(env, r, x, e, m);
    } else if constexpr (K == Kind::powm_sliding6) {
      mb::powm_sliding<E, 6>(env, r, x, e, m);
    } else {
      r = x;
      for (int k = 0; k < kChainLength; ++k) mb::montgomery_mul_step(env, r, r, e, m);
    }
    if (live) mb::store(env, out + off, r);
  }
};

using probes::splitmix;

void to_mpz(mpz_t z, const word_t* w, int W) { mpz_import(z, W, -1, 4, 0, 0, w); }

template <int W, int G, Kind K>
void row(std::size_t count, const char* name) {
  using E = mb::Env<W, G>;
  const std::size_t n = count * W;
  std::vector<word_t> hb(n), he(n), hm(n), hr(n);
  std::uint64_t s = 0x1234 + W * 7 + G;
  for (std::size_t i = 0; i < count; ++i) {
    for (int k = 0; k < W; ++k) {
      hm[i * W + k] = static_cast<word_t>(splitmix(s));
      he[i * W + k] = static_cast<word_t>(splitmix(s));
      hb[i * W + k] = static_cast<word_t>(splitmix(s));
    }
    hm[i * W] |= 1u;
    hm[i * W + W - 1] |= 0x80000000u;
    hb[i * W + W - 1] &= 0x7fffffffu;  // below the modulus
  }
  word_t *db, *de, *dm, *dr;
  CHECK(cudaMalloc(&db, n * 4));
  CHECK(cudaMalloc(&de, n * 4));
  CHECK(cudaMalloc(&dm, n * 4));
  CHECK(cudaMalloc(&dr, n * 4));
  CHECK(cudaMemcpy(db, hb.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(de, he.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dm, hm.data(), n * 4, cudaMemcpyHostToDevice));
  Body<K> body{db, de, dm, dr};
  const double ms = mpgpu_bench::median_ms(nullptr, 5, [&] {
    CHECK(mb::launch<E>(body, count, nullptr));
  });
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hr.data(), dr, n * 4, cudaMemcpyDeviceToHost));
  // Check a sample against GMP.
  bool ok = true;
  mpz_t b, e, m, r, want, rinv, rr;
  mpz_inits(b, e, m, r, want, rinv, rr, nullptr);
  for (std::size_t i = 0; i < count && i < 64; i += (i < 8 ? 1 : 7)) {
    to_mpz(b, &hb[i * W], W);
    to_mpz(e, &he[i * W], W);
    to_mpz(m, &hm[i * W], W);
    to_mpz(r, &hr[i * W], W);
    if (K == Kind::chain) {
      // r = b e^64 / R^64 mod m
      mpz_set_ui(rr, 1);
      mpz_mul_2exp(rr, rr, 32 * W);
      mpz_invert(rinv, rr, m);
      mpz_mul(rinv, rinv, e);
      mpz_powm_ui(want, rinv, kChainLength, m);
      mpz_mul(want, want, b);
      mpz_mod(want, want, m);
      mpz_mod(r, r, m);  // the products skip the comparison with n: y < R only
    } else {
      mpz_powm(want, b, e, m);
    }
    if (mpz_cmp(r, want) != 0) ok = false;
  }
  mpz_clears(b, e, m, r, want, rinv, rr, nullptr);
  CHECK(cudaFree(db));
  CHECK(cudaFree(de));
  CHECK(cudaFree(dm));
  CHECK(cudaFree(dr));
  const double rate = count / (ms * 1e-3);
  std::printf("| %s | %d | %d | %zu | %.4f | %.4g | %s |\n", name, 32 * W, G, count, ms, rate, ok ? "yes" : "NO");
  std::fflush(stdout);
}

template <int W, int G>
void rows_for(std::size_t count, bool chain, bool fixed = false, bool six = false) {
  if (chain) {
    row<W, G, Kind::chain>(count, "mont chain x64");
    return;
  }
  if (fixed) row<W, G, Kind::powm>(count, "powm fixed");
  row<W, G, Kind::powm_sliding>(count, "powm sliding");
  if (six) row<W, G, Kind::powm_sliding6>(count, "powm sliding k=6");
}

}  // namespace

int main(int argc, char** argv) {
  const bool chain = argc > 1 && std::strcmp(argv[1], "--chain") == 0;
#if defined(MPGPU_MONTGOMERY_BY_REDC)
  std::printf("products: REDC of whole products\n\n");
#else
  std::printf("products: rows\n\n");
#endif
  std::printf("| kernel | bits | G | instances | ms | instances/s | verified |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  rows_for<8, 1>(131072, chain, true);
  rows_for<8, 2>(131072, chain);
  rows_for<16, 1>(32768, chain, true);
  rows_for<16, 2>(32768, chain);
  rows_for<32, 1>(16384, chain);
  rows_for<32, 2>(16384, chain);
  rows_for<32, 4>(16384, chain, true, true);
  rows_for<32, 4>(65536, chain);
  rows_for<32, 8>(65536, chain);
  rows_for<64, 4>(4096, chain);
  rows_for<64, 8>(4096, chain, true, true);
  rows_for<64, 8>(16384, chain);
  rows_for<64, 16>(16384, chain);
  rows_for<96, 8>(2048, chain, false, true);
  rows_for<96, 16>(2048, chain);
  rows_for<128, 8>(1024, chain);
  rows_for<128, 16>(1024, chain, true, true);
  rows_for<128, 32>(1024, chain);
  rows_for<128, 16>(4096, chain);
  rows_for<128, 32>(4096, chain);
  rows_for<256, 16>(1024, chain, false, true);
  rows_for<256, 32>(1024, chain);
  return 0;
}
