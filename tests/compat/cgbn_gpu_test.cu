// CGBN-API kernels through the drop-in header (include/mpgpu/compat/cgbn/
// cgbn.h) on the device, against GMP: the arithmetic the CPU tests check
// (add, mul_wide, div_rem, modular_power, Montgomery, modular_inverse, sqrt,
// the Barrett divisions), here in CGBN's own kernel style (instance = global
// thread / TPI, loads and stores of cgbn_mem_t, 128-thread blocks, an error
// report), at CGBN's common shapes. Instance counts are not multiples of the
// instances a warp holds, so the last warp has idle instances; in `kernel`
// they run the same calls on zeros and skip their stores. `diverging_kernel`
// is CGBN's other style, which the header supports too (docs/cgbn.md,
// "Instances that diverge"): idle instances return at once, and the
// instances of one warp take different branches (a modular power for odd
// instances, a gcd for even ones, nothing for every third), exponents of
// different lengths and loops of different trip counts. Label gpu; skips
// itself without a device.
#include <cuda_runtime.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <vector>

#include "cgbn/cgbn.h"
#include "support/mpz.hpp"
#include "support/operands.hpp"

namespace {

using mpgpu_test::Mpz;
using mpgpu_test::Operands;

/// Standalone (no mpgpu library): scripts/cgbn-dropin --gpu-test builds it
/// with one nvcc command.
bool have_device() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

template <uint32_t BITS>
struct Instance {
  cgbn_mem_t<BITS> a, b, m, e;
  cgbn_mem_t<BITS> sum, lo, hi, q, r, pow, mont, inv, root, bq, br, bwq, bwr;
  uint32_t carry, has_inverse;
};

template <uint32_t BITS, uint32_t TPI>
__global__ void kernel(cgbn_error_report_t* report, Instance<BITS>* in, uint32_t count) {
  using context_t = cgbn_context_t<TPI>;
  using env_t = cgbn_env_t<context_t, BITS>;
  const uint32_t instance = (blockIdx.x * blockDim.x + threadIdx.x) / TPI;
  const bool live = instance < count;
  context_t context(cgbn_report_monitor, report, instance);
  env_t env(context);
  typename env_t::cgbn_t a, b, m, e, r, q;
  typename env_t::cgbn_wide_t w;
  if (live) {
    cgbn_load(env, a, &in[instance].a);
    cgbn_load(env, b, &in[instance].b);
    cgbn_load(env, m, &in[instance].m);
    cgbn_load(env, e, &in[instance].e);
  } else {  // idle instances: m = 1 and b = 1, so nothing is reported
    cgbn_set_ui32(env, a, 0);
    cgbn_set_ui32(env, b, 1);
    cgbn_set_ui32(env, m, 1);
    cgbn_set_ui32(env, e, 0);
  }
  const int32_t carry = cgbn_add(env, r, a, b);
  if (live) cgbn_store(env, &in[instance].sum, r);
  cgbn_mul_wide(env, w, a, b);
  if (live) cgbn_store(env, &in[instance].lo, w._low), cgbn_store(env, &in[instance].hi, w._high);
  cgbn_div_rem(env, q, r, a, b);
  if (live) cgbn_store(env, &in[instance].q, q), cgbn_store(env, &in[instance].r, r);
  cgbn_modular_power(env, r, a, e, m);
  if (live) cgbn_store(env, &in[instance].pow, r);
  // m is odd: a b mod m through Montgomery forms
  typename env_t::cgbn_t am, bm;
  cgbn_rem(env, q, a, m);
  const uint32_t np0 = cgbn_bn2mont(env, am, q, m);
  cgbn_rem(env, q, b, m);
  cgbn_bn2mont(env, bm, q, m);
  cgbn_mont_mul(env, r, am, bm, m, np0);
  cgbn_mont2bn(env, r, r, m, np0);
  if (live) cgbn_store(env, &in[instance].mont, r);
  const bool ok = cgbn_modular_inverse(env, r, a, m);
  if (live) cgbn_store(env, &in[instance].inv, r);
  cgbn_sqrt(env, r, a);
  if (live) cgbn_store(env, &in[instance].root, r);
  // Barrett by b: a / b, and (e + (a mod b) 2^BITS) / b (high below b).
  typename env_t::cgbn_t approx, h;
  const uint32_t clz = cgbn_barrett_approximation(env, approx, b);
  cgbn_barrett_div_rem(env, q, r, a, b, approx, clz);
  if (live) cgbn_store(env, &in[instance].bq, q), cgbn_store(env, &in[instance].br, r);
  cgbn_rem(env, h, a, b);
  w._low = e;
  w._high = h;
  cgbn_barrett_div_rem_wide(env, q, r, w, b, approx, clz);
  if (live) cgbn_store(env, &in[instance].bwq, q), cgbn_store(env, &in[instance].bwr, r);
  if (live && (threadIdx.x & (TPI - 1)) == 0) in[instance].carry = carry, in[instance].has_inverse = ok;
}

/// Instances of one warp on different paths (TPI < 32): CGBN allows it, and
/// so does the header, whose group operations name only the instance's own
/// lanes.
template <uint32_t BITS, uint32_t TPI>
__global__ void diverging_kernel(Instance<BITS>* in, uint32_t count) {
  using context_t = cgbn_context_t<TPI>;
  using env_t = cgbn_env_t<context_t, BITS>;
  const uint32_t instance = (blockIdx.x * blockDim.x + threadIdx.x) / TPI;
  if (instance >= count) return;  // the last warp is partly empty
  context_t context(cgbn_no_checks);
  env_t env(context);
  typename env_t::cgbn_t a, b, m, e, r;
  cgbn_load(env, a, &in[instance].a);
  cgbn_load(env, b, &in[instance].b);
  if (instance % 3 == 2) return;  // stores nothing
  if (instance & 1) {
    cgbn_load(env, m, &in[instance].m);
    cgbn_load(env, e, &in[instance].e);
    cgbn_shift_right(env, e, e, (instance * 37) % BITS);  // a different length in each instance
    cgbn_modular_power(env, r, a, e, m);
  } else {
    cgbn_gcd(env, r, a, b);
  }
  cgbn_store(env, &in[instance].pow, r);
  for (uint32_t k = 0; k < instance % 5; ++k) cgbn_add(env, a, a, b);  // a + (instance % 5) b
  cgbn_store(env, &in[instance].sum, a);
  if (cgbn_compare(env, a, b) > 0) {
    cgbn_sqrt(env, r, a);
    cgbn_store(env, &in[instance].root, r);
  }
}

template <uint32_t BITS>
Mpz mpz_of(const cgbn_mem_t<BITS>& m) {
  Mpz z;
  mpz_import(z, (BITS + 31) / 32, -1, 4, 0, 0, m._limbs);
  return z;
}
template <uint32_t BITS>
void mem_of(cgbn_mem_t<BITS>& m, const Mpz& z) {
  for (auto& w : m._limbs) w = 0;
  mpz_export(m._limbs, nullptr, -1, 4, 0, 0, z);
}

template <uint32_t BITS, uint32_t TPI>
void check(uint32_t count) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  Operands gen(BITS + TPI);
  std::vector<Instance<BITS>> host(count);
  std::vector<Mpz> a(count), b(count), m(count), e(count);
  for (uint32_t i = 0; i < count; ++i) {
    a[i] = i % 7 == 0 ? Mpz::all_ones(BITS) : gen.random_bits(BITS);
    b[i] = i % 5 == 0 ? Mpz::pow2(BITS - 1) : gen.random_bits(1 + gen.below(BITS));
    if (b[i].sgn() == 0) b[i] = Mpz::from_ui(3);
    m[i] = gen.random_bits(BITS);
    mpz_setbit(m[i], 0);
    if (mpz_cmp_ui(m[i].get(), 1) == 0) m[i] = Mpz::from_ui(5);
    e[i] = gen.random_bits(BITS);
    mem_of(host[i].a, a[i]), mem_of(host[i].b, b[i]), mem_of(host[i].m, m[i]), mem_of(host[i].e, e[i]);
  }
  cgbn_error_report_t* report = nullptr;
  ASSERT_EQ(cgbn_error_report_alloc(&report), cudaSuccess);
  Instance<BITS>* dev = nullptr;
  ASSERT_EQ(cudaMalloc(&dev, sizeof(Instance<BITS>) * count), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dev, host.data(), sizeof(Instance<BITS>) * count, cudaMemcpyHostToDevice), cudaSuccess);
  const uint32_t per_block = 128 / TPI;
  kernel<BITS, TPI><<<(count + per_block - 1) / per_block, 128>>>(report, dev, count);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(host.data(), dev, sizeof(Instance<BITS>) * count, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(dev);
  // modular_power with x >= m is reported (CGBN's rule) and still computed.
  cgbn_error_report_free(report);
  for (uint32_t i = 0; i < count; ++i) {
    Mpz t, q, r, mask = Mpz::pow2(BITS);
    mpz_add(t, a[i], b[i]);
    EXPECT_EQ(host[i].carry, mpz_cmp(t, mask) >= 0 ? 1u : 0u) << i;
    mpz_fdiv_r_2exp(t, t, BITS);
    EXPECT_EQ(mpz_of(host[i].sum), t) << "add " << i;
    mpz_mul(t, a[i], b[i]);
    mpz_fdiv_q_2exp(q, t, BITS);
    mpz_fdiv_r_2exp(r, t, BITS);
    EXPECT_EQ(mpz_of(host[i].lo), r) << "mul_wide low " << i;
    EXPECT_EQ(mpz_of(host[i].hi), q) << "mul_wide high " << i;
    mpz_fdiv_qr(q, r, a[i], b[i]);
    EXPECT_EQ(mpz_of(host[i].q), q) << "div " << i;
    EXPECT_EQ(mpz_of(host[i].r), r) << "rem " << i;
    mpz_powm(t, a[i], e[i], m[i]);
    EXPECT_EQ(mpz_of(host[i].pow), t) << "modular_power " << i;
    mpz_mul(t, a[i], b[i]);
    mpz_fdiv_r(t, t, m[i]);
    EXPECT_EQ(mpz_of(host[i].mont), t) << "montgomery " << i;
    const bool exists = mpz_invert(t, a[i], m[i]) != 0;
    EXPECT_EQ(host[i].has_inverse, exists ? 1u : 0u) << i;
    if (exists) EXPECT_EQ(mpz_of(host[i].inv), t) << "modular_inverse " << i;
    mpz_sqrt(t, a[i]);
    EXPECT_EQ(mpz_of(host[i].root), t) << "sqrt " << i;
    mpz_fdiv_qr(q, r, a[i], b[i]);
    EXPECT_EQ(mpz_of(host[i].bq), q) << "barrett_div_rem q " << i;
    EXPECT_EQ(mpz_of(host[i].br), r) << "barrett_div_rem r " << i;
    mpz_mul_2exp(t, r, BITS);
    mpz_add(t, t, e[i]);
    mpz_fdiv_qr(q, r, t, b[i]);
    EXPECT_EQ(mpz_of(host[i].bwq), q) << "barrett_div_rem_wide q " << i;
    EXPECT_EQ(mpz_of(host[i].bwr), r) << "barrett_div_rem_wide r " << i;
    if (::testing::Test::HasFailure()) return;
  }
}

template <uint32_t BITS, uint32_t TPI>
void check_diverging(uint32_t count) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  Operands gen(BITS * 3 + TPI);
  std::vector<Instance<BITS>> host(count);
  std::vector<Mpz> a(count), b(count), m(count), e(count);
  for (uint32_t i = 0; i < count; ++i) {
    a[i] = i % 11 == 0 ? Mpz() : gen.random_bits(1 + gen.below(BITS));
    b[i] = i % 13 == 0 ? Mpz() : gen.random_bits(1 + gen.below(BITS));
    m[i] = gen.random_bits(BITS);
    if (i % 4 == 1) mpz_setbit(m[i], 0);  // odd moduli and, in other instances, even ones
    if (mpz_cmp_ui(m[i].get(), 1) <= 0) m[i] = Mpz::from_ui(6);
    e[i] = gen.random_bits(BITS);
    Instance<BITS> zero{};
    host[i] = zero;
    mem_of(host[i].a, a[i]), mem_of(host[i].b, b[i]), mem_of(host[i].m, m[i]), mem_of(host[i].e, e[i]);
  }
  Instance<BITS>* dev = nullptr;
  ASSERT_EQ(cudaMalloc(&dev, sizeof(Instance<BITS>) * count), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dev, host.data(), sizeof(Instance<BITS>) * count, cudaMemcpyHostToDevice), cudaSuccess);
  const uint32_t per_block = 128 / TPI;
  diverging_kernel<BITS, TPI><<<(count + per_block - 1) / per_block, 128>>>(dev, count);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(host.data(), dev, sizeof(Instance<BITS>) * count, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(dev);
  for (uint32_t i = 0; i < count; ++i) {
    Mpz r, s, t;
    if (i % 3 == 2) {
      EXPECT_EQ(mpz_of(host[i].pow), Mpz()) << "returned early " << i;
      EXPECT_EQ(mpz_of(host[i].sum), Mpz()) << "returned early " << i;
      continue;
    }
    if (i & 1) {
      mpz_fdiv_q_2exp(t, e[i], (i * 37) % BITS);
      mpz_powm(r, a[i], t, m[i]);
      EXPECT_EQ(mpz_of(host[i].pow), r) << "modular_power " << i;
    } else {
      mpz_gcd(r, a[i], b[i]);
      EXPECT_EQ(mpz_of(host[i].pow), r) << "gcd " << i;
    }
    mpz_mul_ui(s, b[i], i % 5);
    mpz_add(s, s, a[i]);
    mpz_fdiv_r_2exp(s, s, BITS);
    EXPECT_EQ(mpz_of(host[i].sum), s) << "add loop " << i;
    mpz_sqrt(r, s);
    EXPECT_EQ(mpz_of(host[i].root), mpz_cmp(s, b[i]) > 0 ? r : Mpz()) << "sqrt " << i;
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(CgbnGpu, Bits256Tpi4) { check<256, 4>(1001); }
TEST(CgbnGpu, Bits288Tpi8) { check<288, 8>(501); }
TEST(CgbnGpu, Bits1024Tpi8) { check<1024, 8>(1001); }
TEST(CgbnGpu, Bits1024Tpi32) { check<1024, 32>(257); }
TEST(CgbnGpu, Bits2048Tpi32) { check<2048, 32>(257); }
TEST(CgbnGpu, Bits4096Tpi32) { check<4096, 32>(65); }
TEST(CgbnGpu, DivergingBits32Tpi4) { check_diverging<32, 4>(1003); }
TEST(CgbnGpu, DivergingBits256Tpi4) { check_diverging<256, 4>(1003); }
TEST(CgbnGpu, DivergingBits256Tpi8) { check_diverging<256, 8>(1003); }
TEST(CgbnGpu, DivergingBits1024Tpi8) { check_diverging<1024, 8>(501); }
TEST(CgbnGpu, DivergingBits1024Tpi16) { check_diverging<1024, 16>(501); }

}  // namespace
