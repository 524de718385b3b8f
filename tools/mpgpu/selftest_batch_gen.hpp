// `mpgpu selftest`: what the batch families share: operands drawn on the
// host (a shape per instance), the instance count of a case, the GMP oracle
// split over host threads, and the comparison of every instance.
#pragma once

#include <gmp.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "selftest_case.hpp"

namespace mpgpu::cli::selftest {

/// count instances of `limbs` limbs (ceil(bits / 64)), each below 2^bits:
/// the host image of a batch and the oracle's input.
struct HostBatch {
  std::uint64_t bits = 0;
  std::size_t count = 0, limbs = 0;
  std::vector<limb_t> data;

  HostBatch() = default;
  HostBatch(std::uint64_t bits, std::size_t count);
  limb_t* at(std::size_t i) { return data.data() + i * limbs; }
  const limb_t* at(std::size_t i) const { return data.data() + i * limbs; }
  /// Instance i as a read-only mpz (normalized view of its limbs).
  mpz_srcptr view(std::size_t i, __mpz_struct& storage) const;
  /// Instance i as "0x...".
  std::string hex(std::size_t i) const;
  Batch upload(const Context& ctx) const;
};

/// Instances of `bits` bits, each of a shape of its own: zero, one, all-ones,
/// a power of two, mpz_rrandomb-style runs, uniform; at full width or shorter.
HostBatch random_batch(CaseRng& rng, std::uint64_t bits, std::size_t count);

/// An instance count for a case whose oracle costs `cost` limb operations
/// an instance: up to the case budget (at most 2^20), often all of it,
/// sometimes 1 or a warp's size and its neighbours.
std::size_t pick_count(CaseEnv& env, double cost);

/// Runs fn(begin, end) over [0, count) split into `threads` ranges.
void parallel_instances(std::size_t count, unsigned threads, const std::function<void(std::size_t, std::size_t)>& fn);

/// Writes z mod 2^bits (two's complement for z < 0) into out[0, limbs);
/// bits <= 64 limbs.
void store_instance(limb_t* out, std::size_t limbs, std::uint64_t bits, mpz_srcptr z);

/// r = f(a, b) for one instance (b is null for unary operations).
using InstanceOracle = std::function<void(mpz_ptr r, mpz_srcptr a, mpz_srcptr b)>;
/// want[i] = f(a[i], b[i]) mod 2^rbits for every instance (b may be null),
/// computed with GMP on env.oracle_threads host threads.
HostBatch oracle(const CaseEnv& env, const HostBatch& a, const HostBatch* b, std::uint64_t rbits,
                 const InstanceOracle& f);
/// out = a read as a `bits`-bit two's complement number.
void to_signed(mpz_ptr out, mpz_srcptr a, std::uint64_t bits);
/// Describes instance i of the operands given: "a = 0x..., b = 0x...".
std::function<std::string(std::size_t)> describe_instances(const HostBatch& a, const HostBatch* b = nullptr,
                                                           const HostBatch* c = nullptr);

/// Compares every instance of got with want (limbs each). A mismatch records
/// the first differing instance (with describe(i): its operands), its two
/// values and the number of differing instances. Returns whether all match.
bool expect_instances(CaseOutcome& out, std::string_view what, const std::vector<limb_t>& got,
                      const std::vector<limb_t>& want, std::size_t limbs,
                      const std::function<std::string(std::size_t)>& describe);

/// Per-instance answers (compare, popcount...) compared the same way.
template <class T>
bool expect_answers(CaseOutcome& out, std::string_view what, const std::vector<T>& got, const std::vector<T>& want,
                    const std::function<std::string(std::size_t)>& describe) {
  if (got.size() != want.size()) {
    out.fail(std::string(what) + ": " + std::to_string(got.size()) + " answers, want " + std::to_string(want.size()));
    return false;
  }
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && bad++ == 0) first = i;
  if (bad == 0) return true;
  out.fail(std::string(what) + ": " + std::to_string(bad) + " of " + std::to_string(got.size()) +
           " instances differ; first: instance " + std::to_string(first) + " (" + describe(first) + "): got " +
           std::to_string(static_cast<long long>(got[first])) + ", want " +
           std::to_string(static_cast<long long>(want[first])));
  return false;
}

/// "257 bits x 4096 instances".
std::string describe_batch(std::uint64_t bits, std::size_t count);

}  // namespace mpgpu::cli::selftest
