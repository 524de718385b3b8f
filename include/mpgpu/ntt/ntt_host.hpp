// The host NTT: the same math as the device transforms, for the CPU backend
// and as their reference in tests. Radix-2 Cooley-Tukey over the word-size
// prime fields, lengths n = 2^log_n for 0 <= log_n <= min(28, two_adicity(p)).
//
// Conventions (shared with the device NTT):
//   forward:  X[k] = sum_j x[j] * w^(j*k)            natural order in and out
//   inverse:  x[j] = n^-1 * sum_k X[k] * w^(-j*k)    natural order in and out
// with w = root() = g^((p-1)/n), g the table's primitive root (or the one
// find_generator gives for a prime not in the table). All values are
// canonical residues in [0, p); inputs outside it are a precondition
// violation (not checked on this hot path).
//
// Twiddle layout (for device code that wants to reuse it): twiddles()[m + j]
// = w_(2m)^j for each stage half-length m = 1, 2, 4, ..., n/2 and j < m,
// where w_(2m) = w^(n/(2m)); entry 0 is 1. twiddles_shoup() holds the Shoup
// quotients of the same entries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "mpgpu/field/prime_field32.cuh"
#include "mpgpu/field/prime_field64.cuh"

namespace mpgpu::ntt {

template <class Field>
class HostPlan {
 public:
  using field_type = Field;
  using word = typename Field::word;
  static constexpr int max_log_n = 28;

  /// Precomputes the twiddles for length 2^log_n mod the prime p. Throws
  /// mpgpu::InvalidArgument if p does not fit the word, is not prime (checked
  /// for primes outside the table), or 2^log_n is not a supported length.
  HostPlan(std::uint64_t p, int log_n);

  const Field& field() const noexcept { return field_; }
  std::uint64_t generator() const noexcept { return generator_; }
  int log_n() const noexcept { return log_n_; }
  std::size_t size() const noexcept { return std::size_t{1} << log_n_; }
  /// w, a primitive size()-th root of unity mod p.
  word root() const noexcept { return root_; }
  /// n^-1 mod p.
  word size_inverse() const noexcept { return n_inv_; }
  const std::vector<word>& twiddles() const noexcept { return tw_; }
  const std::vector<word>& twiddles_shoup() const noexcept { return tw_shoup_; }

  /// In place on `count` contiguous transforms: data[i*n .. (i+1)*n).
  void forward(word* data, std::size_t count = 1) const;
  void inverse(word* data, std::size_t count = 1) const;

 private:
  void forward_one(word* x) const;

  Field field_;
  std::uint64_t generator_;
  int log_n_;
  word root_;
  word n_inv_, n_inv_shoup_;
  std::vector<word> tw_, tw_shoup_;
};

extern template class HostPlan<field::PrimeField32>;
extern template class HostPlan<field::PrimeField64>;
using HostPlan32 = HostPlan<field::PrimeField32>;
using HostPlan64 = HostPlan<field::PrimeField64>;

/// The plan for (p, log_n), built on first use and shared afterwards (plans
/// are immutable). Thread-safe. Plans stay cached until clear_host_plans().
template <class Field>
std::shared_ptr<const HostPlan<Field>> host_plan(std::uint64_t p, int log_n);

extern template std::shared_ptr<const HostPlan32> host_plan<field::PrimeField32>(std::uint64_t,
                                                                                 int);
extern template std::shared_ptr<const HostPlan64> host_plan<field::PrimeField64>(std::uint64_t,
                                                                                 int);

/// Drops every cached plan (plans still held by callers stay alive).
void clear_host_plans();

}  // namespace mpgpu::ntt
