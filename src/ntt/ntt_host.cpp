// Host NTT plans and transforms (see mpgpu/ntt/ntt_host.hpp).
#include "mpgpu/ntt/ntt_host.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "mpgpu/error.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/field/roots.hpp"

namespace mpgpu::ntt {

namespace {

/// The table's primitive root for p, or a search for a prime not in it.
std::uint64_t generator_of(std::uint64_t p) {
  if (const field::NttPrime* q = field::find_ntt_prime(p)) return q->generator;
  return field::find_generator(p);
}

/// Reorders x[0..n) by bit-reversed index. j walks the bit-reversed
/// counter (amortized O(1) per step), so no table of n indices is needed.
template <class Word>
void bit_reverse_permute(Word* x, std::size_t n) {
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
}

}  // namespace

template <class Field>
HostPlan<Field>::HostPlan(std::uint64_t p, int log_n) : log_n_(log_n) {
  if (p < 3 || p % 2 == 0 || p > std::numeric_limits<word>::max())
    throw InvalidArgument("ntt::HostPlan: modulus " + std::to_string(p) +
                          " is not an odd prime that fits a " +
                          std::to_string(Field::word_bits) + "-bit word");
  const int adicity = field::two_adicity(p);
  if (log_n < 0 || log_n > max_log_n || log_n > adicity)
    throw InvalidArgument("ntt::HostPlan: length 2^" + std::to_string(log_n) +
                          " is not supported mod " + std::to_string(p) + " (at most 2^" +
                          std::to_string(std::min(max_log_n, adicity)) + ")");
  field_ = Field::make(static_cast<word>(p));
  generator_ = generator_of(p);
  root_ = static_cast<word>(field::root_of_unity(p, generator_, log_n));
  const std::size_t n = size();
  n_inv_ = field_.inv(static_cast<word>(n % p));
  n_inv_shoup_ = field_.shoup(n_inv_);

  // Top stage: w^j for j < n/2 by repeated (exact) multiplication; each
  // lower stage takes every other entry of the one above: w_(m)^j = w_(2m)^(2j).
  tw_.assign(std::max<std::size_t>(n, 1), 0);
  tw_[0] = 1;
  if (n >= 2) {
    const word root_shoup = field_.shoup(root_);
    word x = 1;
    for (std::size_t j = 0; j < n / 2; ++j) {
      tw_[n / 2 + j] = x;
      x = field_.mul_shoup(x, root_, root_shoup);
    }
    for (std::size_t m = n / 4; m >= 1; m /= 2)
      for (std::size_t j = 0; j < m; ++j) tw_[m + j] = tw_[2 * m + 2 * j];
  }
  tw_shoup_.resize(tw_.size());
  for (std::size_t i = 0; i < tw_.size(); ++i) tw_shoup_[i] = field_.shoup(tw_[i]);
}

/// Decimation in time on bit-reversed input: after the stage with half-length
/// m, each block of 2m holds the length-2m transform of its inputs.
template <class Field>
void HostPlan<Field>::forward_one(word* x) const {
  const std::size_t n = size();
  bit_reverse_permute(x, n);
  for (std::size_t m = 1; m < n; m *= 2) {
    const word* w = tw_.data() + m;
    const word* ws = tw_shoup_.data() + m;
    for (std::size_t block = 0; block < n; block += 2 * m) {
      word* lo = x + block;
      word* hi = lo + m;
      for (std::size_t j = 0; j < m; ++j) {
        const word t = field_.mul_shoup(hi[j], w[j], ws[j]);
        hi[j] = field_.sub(lo[j], t);
        lo[j] = field_.add(lo[j], t);
      }
    }
  }
}

template <class Field>
void HostPlan<Field>::forward(word* data, std::size_t count) const {
  const std::size_t n = size();
  for (std::size_t i = 0; i < count; ++i) forward_one(data + i * n);
}

/// The inverse is the forward transform read backwards: sum_k X[k] w^(-jk)
/// is entry (n - j) mod n of the forward transform of X, then scaled by n^-1.
template <class Field>
void HostPlan<Field>::inverse(word* data, std::size_t count) const {
  const std::size_t n = size();
  for (std::size_t i = 0; i < count; ++i) {
    word* x = data + i * n;
    forward_one(x);
    std::reverse(x + 1, x + n);
    for (std::size_t j = 0; j < n; ++j) x[j] = field_.mul_shoup(x[j], n_inv_, n_inv_shoup_);
  }
}

template class HostPlan<field::PrimeField32>;
template class HostPlan<field::PrimeField64>;

namespace {

template <class Field>
struct PlanCache {
  std::mutex mutex;
  std::map<std::pair<std::uint64_t, int>, std::shared_ptr<const HostPlan<Field>>> plans;
};

template <class Field>
PlanCache<Field>& plan_cache() {
  static PlanCache<Field> cache;
  return cache;
}

}  // namespace

template <class Field>
std::shared_ptr<const HostPlan<Field>> host_plan(std::uint64_t p, int log_n) {
  PlanCache<Field>& cache = plan_cache<Field>();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.plans.find({p, log_n});
    if (it != cache.plans.end()) return it->second;
  }
  // Built outside the lock (large plans take a while); if two threads race,
  // the first one stored wins and both return it.
  auto plan = std::make_shared<const HostPlan<Field>>(p, log_n);
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.plans.emplace(std::make_pair(p, log_n), std::move(plan)).first->second;
}

template std::shared_ptr<const HostPlan32> host_plan<field::PrimeField32>(std::uint64_t, int);
template std::shared_ptr<const HostPlan64> host_plan<field::PrimeField64>(std::uint64_t, int);

namespace {

template <class Field>
void clear_cache() {
  PlanCache<Field>& cache = plan_cache<Field>();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.plans.clear();
}

}  // namespace

void clear_host_plans() {
  clear_cache<field::PrimeField32>();
  clear_cache<field::PrimeField64>();
}

}  // namespace mpgpu::ntt
