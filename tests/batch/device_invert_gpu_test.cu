// The device API's invert (mpgpu/batch/gcd.cuh) called directly in a kernel,
// against GMP's mpz_invert, for groups of several threads (Env<W, G>, G > 1)
// and batches that mix even, odd, zero and unit moduli in one warp. It runs
// the device path whatever the host API's dispatch does.
//
// The counts are not multiples of the instances per warp, so padding
// instances (a = m = 0, status_zero_divisor) share a warp with live ones, and
// zero moduli also sit among live instances: that is the case that broke the
// device path at 2048 bits with G = 8 (invert skipped the group operation
// `equals` behind `status == status_ok &&`, so an instance with m == 0
// desynchronized the lanes of the other instances in its warp).
//
// Part of batch_ops_gpu_test (label gpu); skips itself without a device.
#include <cuda_runtime.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpgpu/batch/batch.cuh"
#include "mpgpu/context.hpp"
#include "support/cuda_assert.hpp"
#include "support/mpz.hpp"
#include "support/operands.hpp"
#include "support/test_size.hpp"

namespace {

namespace mb = mpgpu::batch;
using mb::word_t;
using mpgpu_test::Mpz;
using mpgpu_test::Operands;

bool have_device() { return mpgpu::Context::cuda_device_count() > 0; }

/// r[i] = a[i]^-1 mod m[i], status[i] = invert's status; W words per instance.
struct InvertBody {
  const word_t* a;
  const word_t* m;
  word_t* r;
  word_t* status;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    typename E::Num x, y, z;
    if (live) {
      mb::load(env, x, a + i * E::words);
      mb::load(env, y, m + i * E::words);
    } else {  // padding instances run on zeros (m = 0) and store nothing
      mb::set_zero(env, x);
      mb::set_zero(env, y);
    }
    const word_t s = mb::invert(env, z, x, y);
    if (live) {
      mb::store(env, r + i * E::words, z);
      if (env.rank() == 0) status[i] = s;
    }
  }
};

struct Case {
  Mpz a, m;
};

/// x mod 2^bits as `words` 32-bit words, least significant first.
void put_words(const Mpz& x, int bits, word_t* out, int words) {
  Mpz y;
  mpz_fdiv_r_2exp(y, x, bits);
  for (int i = 0; i < words; ++i) out[i] = 0;
  std::size_t n = 0;
  mpz_export(out, &n, -1, sizeof(word_t), 0, 0, y);
}

Mpz from_words(const word_t* w, int words) {
  Mpz r;
  mpz_import(r, words, -1, sizeof(word_t), 0, 0, w);
  return r;
}

Mpz mod2exp(const Mpz& x, int bits) {
  Mpz r;
  mpz_fdiv_r_2exp(r, x, bits);
  return r;
}

/// Moduli of every kind (even random, 2^k, 2, 2 * odd, 1, odd, 2^(bits-1),
/// 2^bits - 2, 0, a one-word even, full-width even, 4, all ones) crossed
/// with operands a of every kind (>= m, 1, m - 1, a multiple of m plus one,
/// a common factor with m, 0, small, all ones, a multiple of m), `count` in all.
std::vector<Case> make_cases(Operands& gen, int bits, std::size_t count) {
  std::vector<Case> cases;
  for (std::size_t k = 0; k < count; ++k) {
    Mpz m;
    switch (k % 13) {
      case 0: m = gen.random_bits(1 + gen.below(bits)); mpz_clrbit(m, 0); break;
      case 1: m = Mpz::pow2(1 + gen.below(bits - 1)); break;
      case 2: m = Mpz::from_ui(2); break;
      case 3: m = gen.random_bits(1 + gen.below(bits - 1)); mpz_setbit(m, 0); mpz_mul_2exp(m, m, 1); break;
      case 4: m = Mpz::from_ui(1); break;
      case 5: m = gen.random_bits(1 + gen.below(bits)); mpz_setbit(m, 0); break;
      case 6: m = Mpz::pow2(bits - 1); break;
      case 7: m = Mpz::all_ones(bits); mpz_clrbit(m, 0); break;
      case 8: m = Mpz(); break;  // zero divisor
      case 9: m = Mpz::from_ui((gen.limb() & 0xfffffffeull) | 2u); break;  // one word, even
      case 10: m = gen.uniform(bits); mpz_setbit(m, bits - 1); mpz_clrbit(m, 0); break;
      case 11: m = Mpz::from_ui(4); break;
      default: m = Mpz::all_ones(bits); break;
    }
    if (m.sgn() == 0 && k % 13 != 8) m = Mpz::from_ui(2);
    Mpz a;
    switch ((k / 13 + k) % 10) {
      case 0: a = gen.random_bits(bits); break;  // usually >= m
      case 1: a = Mpz::from_ui(1); break;
      case 2: a = m; if (a.sgn() > 0) mpz_sub_ui(a, a, 1); break;  // m - 1
      case 3: a = gen.random_bits(1 + gen.below(bits)); mpz_setbit(a, 0); break;
      case 4: mpz_mul_ui(a, m, 1 + gen.below(1000)); mpz_add_ui(a, a, 1); break;  // a mod m = 1, a >= m
      case 5: a = gen.random_bits(1 + gen.below(bits - 1)); mpz_mul_2exp(a, a, 1); break;  // even: no inverse mod even m
      case 6: a = Mpz(); break;
      case 7: a = Mpz::from_ui(3); break;
      case 8: a = Mpz::all_ones(bits); break;
      default: mpz_mul_ui(a, m, 1 + gen.below(7)); break;  // a mod m = 0
    }
    cases.push_back({mod2exp(a, bits), m});
  }
  return cases;
}

/// The host API test's batch at 2048 bits that failed: six instances (moduli
/// all ones, 2^(bits-1), 3, 1, 2, random), then the padding of the warp.
std::vector<Case> host_api_cases(Operands& gen, int bits) {
  std::vector<Case> c(6);
  c[0].m = Mpz::all_ones(bits);
  c[0].a = c[0].m;
  mpz_sub_ui(c[0].a, c[0].a, 1);
  c[1].m = Mpz::pow2(bits - 1);
  c[1].a = Mpz::from_ui(1);
  c[2].m = Mpz::from_ui(3);
  c[2].a = Mpz::from_ui(2);
  c[3].m = Mpz::from_ui(1);
  c[3].a = gen.random_bits(bits);
  c[4].m = Mpz::from_ui(2);
  c[4].a = gen.random_bits(bits);
  mpz_setbit(c[4].a, 0);
  c[5].m = gen.random_bits(bits);
  mpz_setbit(c[5].m, 1);
  c[5].a = gen.random_bits(bits);
  return c;
}

/// Runs the device invert on `cases` with Env<W, G> and compares every
/// instance with GMP (status and value).
template <int W, int G>
void check_device_invert(const std::vector<Case>& cases, const std::string& what) {
  using E = mb::Env<W, G>;
  constexpr int bits = 32 * W;
  const std::size_t n = cases.size();
  std::vector<word_t> ha(n * W), hm(n * W), hr(n * W, 0xdeadbeefu), hs(n, 0xdeadbeefu);
  for (std::size_t i = 0; i < n; ++i) {
    put_words(cases[i].a, bits, ha.data() + i * W, W);
    put_words(cases[i].m, bits, hm.data() + i * W, W);
  }
  word_t *da = nullptr, *dm = nullptr, *dr = nullptr, *ds = nullptr;
  const std::size_t bytes = n * W * sizeof(word_t);
  CUDA_ASSERT(cudaMalloc(&da, bytes));
  CUDA_ASSERT(cudaMalloc(&dm, bytes));
  CUDA_ASSERT(cudaMalloc(&dr, bytes));
  CUDA_ASSERT(cudaMalloc(&ds, n * sizeof(word_t)));
  CUDA_ASSERT(cudaMemcpy(da, ha.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemcpy(dm, hm.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemcpy(dr, hr.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemcpy(ds, hs.data(), n * sizeof(word_t), cudaMemcpyHostToDevice));
  CUDA_ASSERT((mb::launch<E, E::scratch_words>(InvertBody{da, dm, dr, ds}, n, nullptr)));
  CUDA_ASSERT(cudaDeviceSynchronize());
  CUDA_ASSERT(cudaMemcpy(hr.data(), dr, bytes, cudaMemcpyDeviceToHost));
  CUDA_ASSERT(cudaMemcpy(hs.data(), ds, n * sizeof(word_t), cudaMemcpyDeviceToHost));
  cudaFree(da);
  cudaFree(dm);
  cudaFree(dr);
  cudaFree(ds);

  int failures = 0;
  for (std::size_t i = 0; i < n && failures < 5; ++i) {
    const Mpz& a = cases[i].a;
    const Mpz& m = cases[i].m;
    Mpz want;
    word_t want_status = mb::status_ok;
    if (m.sgn() == 0) {
      want_status = mb::status_zero_divisor;
    } else if (mpz_cmp_ui(m.get(), 1) == 0) {
      want = Mpz();  // a^-1 mod 1 = 0
    } else if (mpz_invert(want, a, m) == 0) {
      want_status = mb::status_no_inverse;
      want = Mpz();
    }
    const Mpz got = from_words(hr.data() + i * W, W);
    if (hs[i] != want_status || !(got == want)) {
      ++failures;
      ADD_FAILURE() << what << ": Env<" << W << ", " << G << "> (" << bits << " bits), instance " << i << " of "
                    << n << ": status " << hs[i] << " (want " << want_status << "), r = " << got
                    << " (want " << want << "); a = " << a << ", m = " << m;
    }
  }
}

template <int W, int G>
void run_config(unsigned long salt) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  Operands gen(salt);
  constexpr int bits = 32 * W;
  // 61 and 253 are multiples of no warp's instance count (32 / G for G > 1).
  // Sanitizer-sized (support/test_size.hpp): 93 instead of 253 (odd too,
  // still several warps of every G), 60 candidates for the even moduli.
  check_device_invert<W, G>(make_cases(gen, bits, 61), "mixed moduli");
  check_device_invert<W, G>(make_cases(gen, bits, mpgpu_test::sized(253, 93)), "mixed moduli, more instances");
  check_device_invert<W, G>(host_api_cases(gen, bits), "the host API test's batch");
  // Only even moduli (and m = 1): the case the host API used to send to the CPU.
  std::vector<Case> even;
  for (const Case& c : make_cases(gen, bits, mpgpu_test::sized(130, 60)))
    if (c.m.sgn() > 0 && (mpz_even_p(c.m.get()) || mpz_cmp_ui(c.m.get(), 1) == 0)) even.push_back(c);
  check_device_invert<W, G>(even, "even moduli only");
}

// 2048 bits at G = 8, 4 and 16 (16: the tuning table's, see tuning.cuh).
static_assert(mb::tuned_group_size(64) == 16, "the 2048-bit test names the tuned G");
TEST(BatchDeviceInvert, EvenModuli2048BitsG8) { run_config<64, 8>(501); }
TEST(BatchDeviceInvert, EvenModuli2048BitsG4) { run_config<64, 4>(502); }
TEST(BatchDeviceInvert, EvenModuli2048BitsG16) { run_config<64, 16>(503); }
// Other widths, at their tuned G and one other.
TEST(BatchDeviceInvert, EvenModuli512BitsG4) { run_config<16, 4>(505); }
TEST(BatchDeviceInvert, EvenModuli1024BitsG4) { run_config<32, 4>(506); }
TEST(BatchDeviceInvert, EvenModuli1024BitsG8) { run_config<32, 8>(507); }
TEST(BatchDeviceInvert, EvenModuli4096BitsG32) { run_config<128, 32>(504); }
TEST(BatchDeviceInvert, EvenModuli3072BitsG8) { run_config<96, 8>(508); }
TEST(BatchDeviceInvert, EvenModuli4096BitsG16) { run_config<128, 16>(509); }
// A group larger than a warp (one instance per block, shared-memory level).
TEST(BatchDeviceInvert, EvenModuli8192BitsG64) { run_config<256, 64>(510); }

}  // namespace
