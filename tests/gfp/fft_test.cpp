// The shift-only base DFT_K and the host FFT of size N = K^e over Z/pZ, against
// a naive DFT computed by GMP (every output for small N, sampled outputs for
// the large sizes), the inverse round trip, and cyclic and linear
// convolutions through the FFT against GMP's schoolbook products.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "gfp_oracle.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/gfp/base_dft.cuh"
#include "mpgpu/gfp/fft_host.hpp"

namespace {

using namespace gfp_test;

template <class P>
class GfpFft : public ::testing::Test {};
using Primes = ::testing::Types<P3, P4, P5>;
TYPED_TEST_SUITE(GfpFft, Primes);

template <class C>
std::vector<Mpz> values(const C& c, const std::vector<typename C::Elt>& x) {
  std::vector<Mpz> v;
  for (const auto& e : x) v.push_back(c.value(e));
  return v;
}

/// GMP: X_m = sum_n x_n w^(nm) mod p for the output indices `which`.
std::vector<Mpz> naive_dft(const std::vector<Mpz>& x, const Mpz& w, const Mpz& p,
                           const std::vector<std::size_t>& which) {
  const std::size_t n = x.size();
  std::vector<Mpz> wp(n);
  wp[0] = Mpz::from_ui(1);
  for (std::size_t i = 1; i < n; ++i) {
    mpz_mul(wp[i], wp[i - 1], w);
    mpz_mod(wp[i], wp[i], p);
  }
  std::vector<Mpz> out;
  for (std::size_t m : which) {
    Mpz s;
    for (std::size_t i = 0; i < n; ++i) mpz_addmul(s, x[i], wp[i * m % n]);
    mpz_mod(s, s, p);
    out.push_back(s);
  }
  return out;
}

template <class C>
std::vector<typename C::Elt> random_vector(const C& c, Operands& ops, std::size_t n) {
  std::vector<typename C::Elt> v(n);
  for (auto& e : v) e = ops.below(4) == 0 ? c.edgy(ops) : c.random(ops);
  if (n > 2) v[1] = c.f.minus_one();  // the special case goes through too
  return v;
}

TYPED_TEST(GfpFft, BaseDftIsShiftOnlyDftAtR) {
  Ctx<TypeParam> c;
  Operands ops(10);
  const std::size_t big_k = 2 * c.k;
  std::vector<std::size_t> all(big_k);
  for (std::size_t i = 0; i < big_k; ++i) all[i] = i;
  Mpz r = Mpz::from_ui(c.f.r), r_inv;
  mpz_invert(r_inv, r, c.p);
  for (int dir : {+1, -1}) {
    auto x = random_vector(c, ops, big_k);
    const auto expect = naive_dft(values(c, x), dir > 0 ? r : r_inv, c.p, all);
    gfp::base_dft(c.f, x.data(), 1, dir);
    EXPECT_EQ(values(c, x), expect) << "dir " << dir;
  }
}

/// Forward FFT of size K^e against GMP on `checked` outputs, then the
/// inverse must give the input back.
template <class P>
void check_fft(const Ctx<P>& c, int e, Operands& ops, std::size_t samples) {
  const auto plan = gfp::FftPlan<Ctx<P>::k>::make(P::prime, e);
  ASSERT_EQ(c.f.pow(plan.omega, plan.n / (2 * Ctx<P>::k)), c.f.radix_power(1));  // omega^(N/K) = r
  std::vector<std::size_t> which;
  for (std::size_t i = 0; i < plan.n; ++i)
    if (samples == 0 || i < 3 || i + 1 == plan.n || ops.below(plan.n) < samples) which.push_back(i);
  auto x = random_vector(c, ops, plan.n);
  const auto in = x;
  const auto expect = naive_dft(values(c, x), c.value(plan.omega), c.p, which);
  gfp::fft_forward(plan, x);
  for (std::size_t i = 0; i < which.size(); ++i)
    ASSERT_EQ(c.value(x[which[i]]), expect[i]) << "N=" << plan.n << " output " << which[i];
  gfp::fft_inverse(plan, x);
  EXPECT_TRUE(x == in) << "inverse(forward(x)) != x, N=" << plan.n;
}

TYPED_TEST(GfpFft, ForwardMatchesNaiveDftAndInverts) {
  Ctx<TypeParam> c;
  Operands ops(11);
  check_fft(c, 1, ops, 0);  // N = K: every output
  // N = K^2: every output for k = 8 (256), 8 sampled ones beyond.
  check_fft(c, 2, ops, c.k == 8 ? 0 : 8);
  if (c.k == 8) check_fft(c, 3, ops, 6);  // N = 4096
}

/// GMP's cyclic convolution of a and b (length n), mod p.
std::vector<Mpz> naive_cyclic(const std::vector<Mpz>& a, const std::vector<Mpz>& b, const Mpz& p) {
  const std::size_t n = a.size();
  std::vector<Mpz> c(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i].sgn() == 0) continue;
    for (std::size_t j = 0; j < n; ++j) mpz_addmul(c[(i + j) % n], a[i], b[j]);
  }
  for (auto& v : c) mpz_mod(v, v, p);
  return c;
}

TYPED_TEST(GfpFft, ConvolutionMatchesGmp) {
  Ctx<TypeParam> c;
  Operands ops(12);
  for (int e : {1, 2}) {
    const auto plan = gfp::FftPlan<Ctx<TypeParam>::k>::make(TypeParam::prime, e);
    // Dense cyclic; for the larger sizes a is sparse so GMP's side stays cheap.
    auto a = random_vector(c, ops, plan.n);
    const auto b = random_vector(c, ops, plan.n);
    if (plan.n > 256)
      for (std::size_t i = 0; i < plan.n; ++i)
        if (ops.below(64) != 0) a[i] = c.f.zero();
    EXPECT_EQ(values(c, gfp::cyclic_convolution(plan, a, b)), naive_cyclic(values(c, a), values(c, b), c.p))
        << "cyclic, N=" << plan.n;
    // Linear product: both halves zero-padded, so nothing wraps around.
    auto a2 = a, b2 = b;
    for (std::size_t i = plan.n / 2; i < plan.n; ++i) a2[i] = b2[i] = c.f.zero();
    EXPECT_EQ(values(c, gfp::cyclic_convolution(plan, a2, b2)), naive_cyclic(values(c, a2), values(c, b2), c.p))
        << "linear, N=" << plan.n;
  }
}

TEST(GfpFftPlan, RejectsMismatchedSizes) {
  const auto plan = gfp::FftPlan<8>::make(gfp::p3, 1);
  std::vector<gfp::Element<8>> x(8);
  EXPECT_THROW(gfp::fft_forward(plan, x), mpgpu::InvalidArgument);
  EXPECT_THROW(gfp::FftPlan<8>::make(gfp::p3, 0), mpgpu::InvalidArgument);
}

}  // namespace
