// Polynomial products mod a word-size prime through the host NTT:
// transform both, multiply pointwise, transform back.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mpgpu/ntt/ntt_host.hpp"

namespace mpgpu::ntt {

/// Cyclic convolution: r[i] = sum over j + k == i (mod n) of a[j] * b[k] mod p,
/// n = plan.size(). r may alias a or b. Throws mpgpu::InvalidArgument, with r
/// untouched, if a coefficient of a or b is not below p.
template <class Field>
void convolve_cyclic(const HostPlan<Field>& plan, typename Field::word* r,
                     const typename Field::word* a, const typename Field::word* b);

/// Acyclic convolution (polynomial product) mod p: a.size() + b.size() - 1
/// coefficients, empty if a or b is. Runs on the cached plan of the smallest
/// power of two >= the product's length. Throws mpgpu::InvalidArgument if a
/// coefficient is not below p or the product is longer than the largest
/// transform mod p.
template <class Field>
std::vector<typename Field::word> convolve_acyclic(std::uint64_t p,
                                                   std::span<const typename Field::word> a,
                                                   std::span<const typename Field::word> b);

extern template void convolve_cyclic<field::PrimeField32>(const HostPlan32&, std::uint32_t*,
                                                          const std::uint32_t*,
                                                          const std::uint32_t*);
extern template void convolve_cyclic<field::PrimeField64>(const HostPlan64&, std::uint64_t*,
                                                          const std::uint64_t*,
                                                          const std::uint64_t*);
extern template std::vector<std::uint32_t> convolve_acyclic<field::PrimeField32>(
    std::uint64_t, std::span<const std::uint32_t>, std::span<const std::uint32_t>);
extern template std::vector<std::uint64_t> convolve_acyclic<field::PrimeField64>(
    std::uint64_t, std::span<const std::uint64_t>, std::span<const std::uint64_t>);

}  // namespace mpgpu::ntt
