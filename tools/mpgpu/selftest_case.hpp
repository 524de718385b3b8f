// `mpgpu selftest`: what one case sees and reports, and the operation
// families. A case runs one operation of one family on operands drawn from
// its own generator, computes the same thing with GMP on the host thread
// that runs it, and compares.
#pragma once

#include <gmp.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mpgpu/mpgpu.hpp"
#include "owned_mpz.hpp"
#include "selftest_gen.hpp"

namespace mpgpu::cli::selftest {

using tools::Mpz;

/// What a case runs on.
struct CaseEnv {
  const Context& ctx;
  CaseRng& rng;
  /// The stream operations are queued on: nullptr (the context's own) or a
  /// stream owned by the worker (`stream_owner`'s, another Context on the device).
  Stream stream = nullptr;
  const Context* stream_owner = nullptr;
  /// Host threads a batch case may split its GMP oracle over.
  unsigned oracle_threads = 1;
  /// Batch cases: work per case, in limb operations of the oracle.
  double batch_budget = 1 << 20;
  /// Batch cases: the widest width drawn.
  std::uint64_t batch_max_bits = 1 << 14;

  /// Waits for work queued on a worker's own stream (batches do not wait
  /// for it before their host conversions read the results).
  void sync_stream() const {
    if (stream_owner) stream_owner->synchronize();
  }
};

/// What a case did: the operation, its operands' sizes, and any failures.
struct CaseOutcome {
  std::string op;
  std::string sizes;
  std::uint64_t instances = 0;  ///< batch instances checked; 0 for Integer cases
  std::vector<std::string> failures;

  bool passed() const { return failures.empty(); }
  void fail(std::string what) { failures.push_back(std::move(what)); }
};

/// Hexadecimal, shortened to its first and last 24 digits when long.
std::string short_hex(mpz_srcptr z);

/// The value of an Integer as an mpz (its to_mpz).
void read_integer(mpz_ptr out, const Integer& x);

/// x == want; otherwise records "<what>: got ..., want ...". Returns whether equal.
bool expect_equal(CaseOutcome& out, std::string_view what, const Integer& got, mpz_srcptr want);
bool expect_equal(CaseOutcome& out, std::string_view what, long long got, long long want);
bool expect_true(CaseOutcome& out, std::string_view what, bool ok);

/// An operand: its oracle copy and a description for failure messages.
struct Operand {
  Mpz value;
  std::string what;

  Operand() = default;
  Operand(Operand&&) = default;
  Operand& operator=(Operand&& o) noexcept {
    mpz_swap(value.get(), o.value.get());
    what = std::move(o.what);
    return *this;
  }
};

/// A random signed operand of `bits` bits (0 sometimes), described as
/// "2049 limbs runs, negative".
Operand random_operand(CaseRng& rng, std::uint64_t bits, bool allow_negative = true);
/// The operand in the case's context. On a CUDA context half of the values
/// are moved into device memory first, so that small operands take the
/// device paths as well as GMP's.
Integer make_integer(CaseEnv& env, mpz_srcptr z);

/// One operation family: its name (for --ops and the table), whether it is a
/// batch family, its share of its group's time, and the function that runs
/// one case.
struct Family {
  std::string_view name;
  bool batch;
  unsigned weight;  ///< of 100 for the group (Integer or batch)
  std::string_view ops;  ///< the operations it covers, for --help and the docs
  void (*run)(CaseEnv& env, CaseOutcome& out);
};

/// Every family, in table order.
const std::vector<Family>& all_families();
/// The family that case `n` runs: family n mod (number of families), in
/// table order (selftest_schedule.hpp), whatever the seed and --ops.
const Family& family_of_case(std::uint64_t n);
/// Each family's share of the workers' time (summing to 1; 0 where not
/// selected): `batch_share` of it to the selected batch families and the
/// rest to the selected Integer families (all of it to one group when the
/// other has nothing selected), split within a group by weight.
std::vector<double> time_shares(const std::vector<bool>& selected, double batch_share);

// The family runners (selftest_int_*.cpp, selftest_batch_*.cpp).
void run_add_case(CaseEnv&, CaseOutcome&);
void run_mul_case(CaseEnv&, CaseOutcome&);
void run_div_case(CaseEnv&, CaseOutcome&);
void run_shift_case(CaseEnv&, CaseOutcome&);
void run_bitwise_case(CaseEnv&, CaseOutcome&);
void run_pow_case(CaseEnv&, CaseOutcome&);
void run_powm_case(CaseEnv&, CaseOutcome&);
void run_sqrt_case(CaseEnv&, CaseOutcome&);
void run_root_case(CaseEnv&, CaseOutcome&);
void run_sequence_case(CaseEnv&, CaseOutcome&);
void run_gcd_case(CaseEnv&, CaseOutcome&);
void run_gcdext_case(CaseEnv&, CaseOutcome&);
void run_invert_case(CaseEnv&, CaseOutcome&);
void run_string_case(CaseEnv&, CaseOutcome&);
void run_convert_case(CaseEnv&, CaseOutcome&);
void run_batch_linear_case(CaseEnv&, CaseOutcome&);
void run_batch_mul_case(CaseEnv&, CaseOutcome&);
void run_batch_div_case(CaseEnv&, CaseOutcome&);
void run_batch_compare_case(CaseEnv&, CaseOutcome&);
void run_batch_gcd_case(CaseEnv&, CaseOutcome&);
void run_batch_montgomery_case(CaseEnv&, CaseOutcome&);
void run_batch_powm_case(CaseEnv&, CaseOutcome&);

}  // namespace mpgpu::cli::selftest
