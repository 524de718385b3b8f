// Convolutions mod p through the host NTT (see mpgpu/ntt/convolution_host.hpp).
#include "mpgpu/ntt/convolution_host.hpp"

#include <algorithm>
#include <string>

#include "mpgpu/error.hpp"
#include "mpgpu/field/roots.hpp"

namespace mpgpu::ntt {

namespace {

template <class Word>
void require_reduced(const Word* x, std::size_t n, std::uint64_t p, const char* who) {
  for (std::size_t i = 0; i < n; ++i)
    if (x[i] >= p)
      throw InvalidArgument(std::string(who) + ": coefficient " + std::to_string(i) + " = " +
                            std::to_string(x[i]) + " is not below p = " + std::to_string(p));
}

/// fa <- inverse(fa .* forward(fb)) where fa already holds forward(a).
template <class Field>
void multiply_and_invert(const HostPlan<Field>& plan, typename Field::word* fa,
                         typename Field::word* fb) {
  plan.forward(fb);
  const Field& f = plan.field();
  for (std::size_t i = 0; i < plan.size(); ++i) fa[i] = f.mul(fa[i], fb[i]);
  plan.inverse(fa);
}

}  // namespace

template <class Field>
void convolve_cyclic(const HostPlan<Field>& plan, typename Field::word* r,
                     const typename Field::word* a, const typename Field::word* b) {
  using word = typename Field::word;
  const std::size_t n = plan.size();
  const std::uint64_t p = plan.field().p;
  require_reduced(a, n, p, "ntt::convolve_cyclic");
  require_reduced(b, n, p, "ntt::convolve_cyclic");
  std::vector<word> fa(a, a + n), fb(b, b + n);
  plan.forward(fa.data());
  multiply_and_invert(plan, fa.data(), fb.data());
  std::copy(fa.begin(), fa.end(), r);
}

template <class Field>
std::vector<typename Field::word> convolve_acyclic(std::uint64_t p,
                                                   std::span<const typename Field::word> a,
                                                   std::span<const typename Field::word> b) {
  using word = typename Field::word;
  if (a.empty() || b.empty()) return {};
  require_reduced(a.data(), a.size(), p, "ntt::convolve_acyclic");
  require_reduced(b.data(), b.size(), p, "ntt::convolve_acyclic");
  const std::size_t len = a.size() + b.size() - 1;
  int log_n = 0;
  while ((std::size_t{1} << log_n) < len) ++log_n;
  const int largest = std::min(HostPlan<Field>::max_log_n, field::two_adicity(p));
  if (log_n > largest)
    throw InvalidArgument("ntt::convolve_acyclic: product of " + std::to_string(len) +
                          " coefficients needs a transform of 2^" + std::to_string(log_n) +
                          ", more than the 2^" + std::to_string(largest) + " possible mod " +
                          std::to_string(p));
  const auto plan = host_plan<Field>(p, log_n);
  // Zero padding to n >= len makes the cyclic wrap-around empty.
  std::vector<word> fa(plan->size(), 0), fb(plan->size(), 0);
  std::copy(a.begin(), a.end(), fa.begin());
  std::copy(b.begin(), b.end(), fb.begin());
  plan->forward(fa.data());
  multiply_and_invert(*plan, fa.data(), fb.data());
  fa.resize(len);
  return fa;
}

template void convolve_cyclic<field::PrimeField32>(const HostPlan32&, std::uint32_t*,
                                                   const std::uint32_t*, const std::uint32_t*);
template void convolve_cyclic<field::PrimeField64>(const HostPlan64&, std::uint64_t*,
                                                   const std::uint64_t*, const std::uint64_t*);
template std::vector<std::uint32_t> convolve_acyclic<field::PrimeField32>(
    std::uint64_t, std::span<const std::uint32_t>, std::span<const std::uint32_t>);
template std::vector<std::uint64_t> convolve_acyclic<field::PrimeField64>(
    std::uint64_t, std::span<const std::uint64_t>, std::span<const std::uint64_t>);

}  // namespace mpgpu::ntt
