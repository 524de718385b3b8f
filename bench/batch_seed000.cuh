// Seed 000's batched benchmarks (batch_seed000): the kernels' bodies, the
// timing and the GMP check of one row, and the templates of the table rows
// and of the tuning sweep. Each translation unit of the program instantiates
// a part of them (batch_seed000_*.cu), so that the build compiles the ~200
// kernels in parallel; everything here has internal linkage except the
// entry points at the end, defined in those files.
#pragma once

#include <gmp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mpgpu/batch/batch.cuh"

namespace mb = mpgpu::batch;
using mb::word_t;

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t e_ = (call);                                                              \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, \
                   __LINE__, #call);                                                      \
      std::exit(2);                                                                       \
    }                                                                                     \
  } while (0)

/// Whether every row so far matched GMP (defined in batch_seed000.cu).
extern bool seed000_all_ok;

namespace {

__global__ void fill_random(word_t* p, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (i + 1);  // splitmix64
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    p[i] = static_cast<word_t>(z ^ (z >> 31));
  }
}

/// Makes every instance odd with its top bit set (moduli).
__global__ void make_moduli(word_t* p, std::size_t count, int words) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    p[i * words] |= 1u;
    p[i * words + words - 1] |= 0x80000000u;
  }
}

enum class Kind { add1, add6, add6_lazy, mul1, poly, powm, powm_sliding };

template <Kind K>
struct Body {
  const word_t *a, *b, *m;
  word_t* r;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, y, t1, t2, t3;
    const std::size_t off = i * E::words;
    if (live) {
      mb::load(env, x, a + off);
      mb::load(env, y, b + off);
    } else {
      mb::set_zero(env, x);
      mb::set_zero(env, y);
    }
    if constexpr (K == Kind::add1) {
      mb::add(env, t1, x, y);
    } else if constexpr (K == Kind::add6) {
      // Six dependent additions: t1 = x+y, t2 = t1+x, t3 = t2+y, t1' = t3+t1, ...
      mb::add(env, t1, x, y);
      mb::add(env, t2, t1, x);
      mb::add(env, t3, t2, y);
      mb::add(env, t1, t3, t1);
      mb::add(env, t2, t1, t2);
      mb::add(env, t1, t2, t3);
    } else if constexpr (K == Kind::add6_lazy) {
      // The same chain with the carries between threads delayed to the end.
      mb::LazySum<E> s1, s2, s3;
      mb::to_lazy(env, s1, x);
      mb::add_lazy(env, s1, s1, y);
      mb::add_lazy(env, s2, s1, x);
      mb::add_lazy(env, s3, s2, y);
      mb::add_lazy(env, s1, s3, s1);
      mb::add_lazy(env, s2, s1, s2);
      mb::add_lazy(env, s1, s2, s3);
      mb::normalize(env, t1, s1);
    } else if constexpr (K == Kind::mul1) {
      mb::mul(env, t1, x, y);
    } else if constexpr (K == Kind::poly) {
      // a*b first, so that a and b die early, and the last product
      // accumulates onto it (mul_add): three numbers live at the end instead
      // of five, which with a thread per instance is what bounds the warps
      // an SM (H100, 1024 bits: 1856 -> 2210 M/s; 4096 bits 138 -> 140).
      mb::mul(env, t3, x, y);          // a*b
      mb::sqr(env, t1, x);             // a*a
      mb::add(env, t1, t1, y);         // a*a + b
      mb::sqr(env, t2, y);             // b*b
      mb::add(env, t2, t2, y);         // b*b + b
      mb::mul_add(env, t1, t1, t2, t3);
    } else {
      typename E::Num n;
      if (live) mb::load(env, n, m + off);
      else mb::set_zero(env, n);
      mb::Modulus<E> mod;
      mb::setup_modulus(env, mod, n);
      if constexpr (K == Kind::powm) mb::powm(env, t1, x, y, mod);
      else mb::powm_sliding(env, t1, x, y, mod);
    }
    if (live) mb::store(env, r + off, t1);
  }
};

/// Seed 000's 6-Add for launch_staged: the operands come staged in shared
/// memory, the six additions and the store as in Body<Kind::add6>.
struct StagedAdd6Body {
  word_t* r;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, const word_t* const* staged) const {
    typename E::Num x, y, t1, t2, t3;
    mb::load(env, x, staged[0]);
    mb::load(env, y, staged[1]);
    mb::add(env, t1, x, y);
    mb::add(env, t2, t1, x);
    mb::add(env, t3, t2, y);
    mb::add(env, t1, t3, t1);
    mb::add(env, t2, t1, t2);
    mb::add(env, t1, t2, t3);
    mb::store(env, r + i * E::words, t1);
  }
};

// ---- GMP reference on a sample ---------------------------------------------------------
struct Mpz {
  mpz_t z;
  Mpz() { mpz_init(z); }
  ~Mpz() { mpz_clear(z); }
};

void import_words(mpz_t z, const word_t* p, int words) { mpz_import(z, words, -1, 4, 0, 0, p); }

bool check_sample(Kind k, const std::vector<word_t>& a, const std::vector<word_t>& b,
                  const std::vector<word_t>& m, const std::vector<word_t>& r, int words) {
  const int bits = words * 32;
  const std::size_t n = a.size() / words;
  Mpz x, y, mod, want, got, t1, t2;
  for (std::size_t i = 0; i < n; ++i) {
    import_words(x.z, &a[i * words], words);
    import_words(y.z, &b[i * words], words);
    import_words(got.z, &r[i * words], words);
    switch (k) {
      case Kind::add1: mpz_add(want.z, x.z, y.z); break;
      case Kind::add6:
      case Kind::add6_lazy:
        mpz_add(t1.z, x.z, y.z);        // t1
        mpz_add(t2.z, t1.z, x.z);       // t2
        mpz_add(want.z, t2.z, y.z);     // t3
        mpz_add(t1.z, want.z, t1.z);    // t1' = t3 + t1
        mpz_add(t2.z, t1.z, t2.z);      // t2' = t1' + t2
        mpz_add(want.z, t2.z, want.z);  // t2' + t3
        break;
      case Kind::mul1: mpz_mul(want.z, x.z, y.z); break;
      case Kind::poly:
        mpz_mul(t1.z, x.z, x.z);
        mpz_add(t1.z, t1.z, y.z);
        mpz_mul(t2.z, y.z, y.z);
        mpz_add(t2.z, t2.z, y.z);
        mpz_mul(want.z, t1.z, t2.z);
        mpz_addmul(want.z, x.z, y.z);
        break;
      case Kind::powm:
      case Kind::powm_sliding:
        import_words(mod.z, &m[i * words], words);
        mpz_powm(want.z, x.z, y.z, mod.z);
        break;
    }
    if (k != Kind::powm && k != Kind::powm_sliding) mpz_fdiv_r_2exp(want.z, want.z, bits);
    if (mpz_cmp(want.z, got.z) != 0) {
      std::fprintf(stderr, "MISMATCH at sample %zu, %d bits\n", i, bits);
      return false;
    }
  }
  return true;
}

struct Row {
  double ms = 0;
  bool ok = false;
};

template <int W, Kind K, class E = mb::TunedLinearEnv<W>>
Row run(std::size_t count, int reps, std::uint64_t seed) {
  const std::size_t n = count * W;
  word_t *a, *b, *r, *m = nullptr;
  CHECK(cudaMalloc(&a, n * 4));
  CHECK(cudaMalloc(&b, n * 4));
  CHECK(cudaMalloc(&r, n * 4));
  fill_random<<<4096, 256>>>(a, n, seed);
  fill_random<<<4096, 256>>>(b, n, seed ^ 0x5555);
  CHECK(cudaGetLastError());
  if (K == Kind::powm || K == Kind::powm_sliding) {
    CHECK(cudaMalloc(&m, n * 4));
    fill_random<<<4096, 256>>>(m, n, seed ^ 0xaaaa);
    make_moduli<<<1024, 256>>>(m, count, W);
    CHECK(cudaGetLastError());
  }
  Body<K> body{a, b, m, r};
  constexpr bool linear = K == Kind::add1 || K == Kind::add6 || K == Kind::add6_lazy;
  constexpr bool products = K == Kind::mul1 || K == Kind::poly;
  constexpr int scratch = linear ? E::comm_words : products ? E::product_scratch_words : E::scratch_words;
  // Poly with a thread per instance in registers: 128 registers a thread
  // (four 128-thread blocks an SM) instead of the compiler's ~186 (two), a
  // few bytes spilled (H100, 1024 bits: 2210 -> 2474 M/s).
  // Seed 000's 6-Add chains: the tuned minimum (tuning_table.hpp).
  constexpr int min_blocks = K == Kind::poly && E::register_products ? 4
                             : K == Kind::add6 && E::threads > 32 ? mb::tuned_chain_min_blocks(W)
                                                                  : 0;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  // Warm-up: three calls. (The first calls on fresh allocations run slow:
  // 1-Add medians of 3-5 runs after one warm-up read 2.6-2.7 TB/s, of 11
  // runs 3.0 TB/s, on the H100.)
  constexpr bool staged = K == Kind::add6 && E::threads > 32 && mb::tuned_staged_chain(W);
  const word_t* staged_inputs[2] = {a, b};
  auto call = [&] {
    if constexpr (staged) CHECK((mb::launch_staged<E, 2>(StagedAdd6Body{r}, staged_inputs, count, nullptr)));
    else CHECK((mb::launch<E, scratch, min_blocks>(body, count, nullptr)));
  };
  for (int w = 0; w < 3; ++w) call();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> times;
  for (int rep = 0; rep < reps; ++rep) {
    CHECK(cudaEventRecord(start));
    call();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  Row row;
  row.ms = times[times.size() / 2];
  // Sample: up to 64 instances spread over the batch, and the last one.
  const std::size_t samples = std::min<std::size_t>(count, 64);
  std::vector<word_t> ha(samples * W), hb(samples * W), hm(samples * W), hr(samples * W);
  for (std::size_t s = 0; s < samples; ++s) {
    std::size_t i = s + 1 == samples ? count - 1 : s * (count / samples);
    CHECK(cudaMemcpy(&ha[s * W], a + i * W, W * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hb[s * W], b + i * W, W * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hr[s * W], r + i * W, W * 4, cudaMemcpyDeviceToHost));
    if (m) CHECK(cudaMemcpy(&hm[s * W], m + i * W, W * 4, cudaMemcpyDeviceToHost));
  }
  row.ok = check_sample(K, ha, hb, hm, hr, W);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(r));
  if (m) CHECK(cudaFree(m));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return row;
}

// Best of proto/CGBN from ANCHORS.md (M instances/s), for the comparison columns.
double anchor_mul(int bits) {
  switch (bits) {
    case 512: return 6738; case 1024: return 6035; case 2048: return 1614; case 4096: return 434;
    case 8192: return 105; case 16384: return 28.4; case 32768: return 7.74; case 65536: return 3.06;
    case 131072: return 1.45; case 262144: return 0.65; default: return 0;
  }
}
double anchor_poly(int bits) {
  switch (bits) {
    case 512: return 1799; case 1024: return 1487; case 2048: return 391; case 4096: return 111;
    case 8192: return 26.1; case 16384: return 7.00; case 32768: return 1.81; case 65536: return 0.79;
    case 131072: return 0.38; case 262144: return 0.151; default: return 0;
  }
}

bool& all_ok = seed000_all_ok;


template <int W>
void seed_row(int reps, bool quick) {
  constexpr int bits = W * 32;
  const std::size_t count = (std::size_t{1} << 32) / bits;
  const double gb = 3.0 * count * bits / 8 / 1e9;
  const int slow_reps = bits >= 65536 ? 1 : (bits >= 16384 ? std::max(1, reps / 3) : reps);
  Row add1 = run<W, Kind::add1>(count, reps, 1);
  Row add6 = run<W, Kind::add6>(count, reps, 2);
  Row lazy6 = run<W, Kind::add6_lazy>(count, reps, 2);
  Row mul1 = run<W, Kind::mul1, mb::TunedProductEnv<W>>(count, quick ? 1 : slow_reps, 3);
  Row poly = run<W, Kind::poly, mb::TunedProductEnv<W>>(count, quick ? 1 : slow_reps, 4);
  bool ok = add1.ok && add6.ok && lazy6.ok && mul1.ok && poly.ok;
  all_ok &= ok;
  double mul_rate = count / (mul1.ms / 1e3) / 1e6, poly_rate = count / (poly.ms / 1e3) / 1e6;
  std::printf("| %d | %zu | %d / %d | %.0f | %.0f | %.0f | %.4g | %.2fx | %.4g | %.2fx | %s |\n", bits, count,
              mb::tuned_product_group_size(W), mb::tuned_linear_group_size(W), gb / (add1.ms / 1e3), gb / (add6.ms / 1e3),
              gb / (lazy6.ms / 1e3), mul_rate, mul_rate / anchor_mul(bits), poly_rate, poly_rate / anchor_poly(bits),
              ok ? "yes" : "NO");
  std::fflush(stdout);
}

template <int W>
void powm_row(std::size_t count, int reps) {
  Row p = run<W, Kind::powm, mb::TunedEnv<W>>(count, reps, 5);
  Row s = run<W, Kind::powm_sliding, mb::TunedEnv<W>>(count, reps, 5);  // the same operands
  all_ok &= p.ok && s.ok;
  std::printf("| %d | %zu | %d | %.4g | %.4g | %.4g | %.4g | %.2fx | %s |\n", W * 32, count, mb::tuned_group_size(W),
              p.ms, count / (p.ms / 1e3), s.ms, count / (s.ms / 1e3), p.ms / s.ms, p.ok && s.ok ? "yes" : "NO");
  std::fflush(stdout);
}

/// Instances of the powm rows: fewer for wider classes (about 0.1-1 s a run).
constexpr std::size_t powm_instances(int words) {
  return words <= 8 ? std::size_t{1} << 17 : words <= 16 ? std::size_t{1} << 15 : words <= 32 ? std::size_t{1} << 14
       : words <= 64 ? std::size_t{1} << 12 : words <= 128 ? std::size_t{1} << 10 : std::size_t{1} << 8;
}

/// The tuning sweep: 1-Mul, Poly, 1-Add, 6-Add and powm (fixed windows,
/// one run; not for the classes of 2^14 bits and more, where one run would
/// take minutes: "-") for each group size that fits the class.
template <int W, int G>
void tune_one(int reps) {
  if constexpr (W % G == 0 && W / G >= 4 && W / G <= 32 && G <= 1024) {
    constexpr int bits = W * 32;
    const std::size_t count = (std::size_t{1} << 32) / bits;
    Row mul1 = run<W, Kind::mul1, mb::Env<W, G>>(count, reps, 3);
    Row poly = run<W, Kind::poly, mb::Env<W, G>>(count, reps, 4);
    Row add1 = run<W, Kind::add1, mb::Env<W, G>>(count, reps, 1);
    Row add6 = run<W, Kind::add6, mb::Env<W, G>>(count, reps, 2);
    constexpr bool with_powm = W <= 256;
    const std::size_t powm_count = powm_instances(W);
    Row pw;
    if constexpr (with_powm) pw = run<W, Kind::powm, mb::Env<W, G>>(powm_count, 1, 5);
    const bool ok = mul1.ok && poly.ok && add1.ok && add6.ok && (!with_powm || pw.ok);
    all_ok &= ok;
    const double gb = 3.0 * count * bits / 8 / 1e9;
    char powm_rate[32] = "-";
    if (with_powm) std::snprintf(powm_rate, sizeof powm_rate, "%.4g", powm_count / (pw.ms / 1e3));
    // The columns after `verified` came later: scripts/tune-batch reads them by position.
    std::printf("| %d | %d | %d | %.4g | %.4g | %s | %.0f | %.0f | %s |\n", bits, G, W / G,
                count / (mul1.ms / 1e3) / 1e6, count / (poly.ms / 1e3) / 1e6, ok ? "yes" : "NO",
                gb / (add1.ms / 1e3), gb / (add6.ms / 1e3), powm_rate);
    std::fflush(stdout);
  }
}

/// The wide classes (2^14 bits and more): 32, 16, 8 and 4 words a thread.
template <int W>
void tune_wide_class(int reps) {
  tune_one<W, W / 32>(reps);
  tune_one<W, W / 16>(reps);
  tune_one<W, W / 8>(reps);
  tune_one<W, W / 4>(reps);
}

template <int W>
void tune_class(int reps) {
  tune_one<W, 1>(reps);
  tune_one<W, 2>(reps);
  tune_one<W, 4>(reps);
  tune_one<W, 8>(reps);
  tune_one<W, 16>(reps);
  tune_one<W, 32>(reps);
}

}  // namespace

// ---- the parts, one translation unit each --------------------------------------------------
/// Table rows of 512 .. 8192 bits (narrow) and 2^14 .. 2^18 bits (wide)
/// between min_bits and max_bits.
void seed000_rows_narrow(int reps, bool quick, int min_bits, int max_bits);
void seed000_rows_wide(int reps, bool quick, int min_bits, int max_bits);
/// The powm rows, 256 .. 8192 bits.
void seed000_powm_rows(bool quick);
/// The tuning sweep over the classes of min_bits .. max_bits bits: up to
/// 8192 bits (narrow), from 2^14 bits (wide).
void seed000_tune_narrow(int reps, int min_bits, int max_bits);
void seed000_tune_wide(int reps, int min_bits, int max_bits);
