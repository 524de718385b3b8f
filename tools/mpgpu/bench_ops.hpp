// The operations `mpgpu bench` measures. Each row of the table is one
// operation at one size: the same call made once through mpgpu (in the
// chosen context) and once as a plain GMP mpz call on the host, on the same
// random operands, then the two results compared.
#pragma once

#include <gmp.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mpgpu/mpgpu.hpp"
#include "owned_mpz.hpp"

namespace mpgpu::cli {

using Mpz = mpgpu::tools::Mpz;

/// Shift used by mul_2exp and fdiv_q_2exp: 1000 bits and a few more, so the
/// shift moves whole limbs and also bits within limbs.
inline constexpr std::uint64_t kBenchShift = 1003;
/// Divisor of the `tdiv_q_ui` row: odd, 64 significant bits.
inline constexpr std::uint64_t kBenchLimbDivisor = 0xfedcba9876543211ull;
/// Terms of the `sum` row.
inline constexpr std::size_t kSumTerms = 8;

/// The operands of one size, on the host (GMP) and in the context (mpgpu).
/// Operands have exactly `bits` bits (top bit set), random below.
class Workload {
 public:
  Workload(const Context& ctx, std::uint64_t bits, unsigned long seed);
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;
  ~Workload();

  const Context& context() const { return ctx_; }
  std::uint64_t bits() const { return bits_; }
  mpz_srcptr a() const { return a_.get(); }
  mpz_srcptr b() const { return b_.get(); }
  /// a with its lowest bit flipped: equal to a in every limb but the lowest,
  /// so a comparison has to read both operands to the end.
  mpz_srcptr a_near() const { return a_near_.get(); }
  const Integer& A() const { return A_; }
  const Integer& B() const { return B_; }
  const Integer& A_near() const { return A_near_; }
  /// kSumTerms operands (a, b and more random ones), made on first use.
  const std::vector<Mpz>& gmp_terms();
  const std::vector<Integer>& terms();
  /// Frees the sum terms (they are the largest part of a workload).
  void drop_terms();

 private:
  void random_operand(mpz_ptr z);

  Context ctx_;
  std::uint64_t bits_;
  gmp_randstate_t rand_;
  Mpz a_, b_, a_near_;
  Integer A_, B_, A_near_;
  std::vector<Mpz> gmp_terms_;
  std::vector<Integer> terms_;
};

/// One operation on one workload: run it through mpgpu, run it through GMP,
/// compare the two last results.
class OpCase {
 public:
  virtual ~OpCase() = default;
  virtual void run_mpgpu() = 0;
  virtual void run_gmp() = 0;
  /// True if the last mpgpu result equals the last GMP result (or, when
  /// GMP's side is not run, passes the check named by check()).
  virtual bool verify() = 0;
  /// False when GMP's side is not run at this size (it would take minutes):
  /// verify() then uses a cheaper check.
  virtual bool runs_gmp() const { return true; }
  /// How verify() checks: "GMP", or e.g. "mod 4 primes".
  virtual std::string check() const { return "GMP"; }
  /// True if the case has run_with_transfers().
  virtual bool has_transfers() const { return false; }
  /// The operation from host operands to a host result: uploads, the call,
  /// the download (mpz in, mpz out); verify() also checks its result.
  virtual void run_with_transfers() {}
};

struct OpInfo {
  std::string_view name;
  /// Bytes an operation moves per operand bit, for the effective GB/s
  /// column (3/8: two operands read, one result written); 0 = not reported.
  double bytes_per_bit;
  std::string_view description;
  /// The default table stops this operation above this size (0: never),
  /// because GMP's side would take too long; --ops/--bits still reach it.
  std::uint64_t default_max_bits = 0;
  /// A batch operation (bench_batch.hpp): its rows have their own widths
  /// and instance counts, after the integer rows.
  bool batch = false;
};

/// Every operation, in table order: the integer operations, then batch_ops().
const std::vector<OpInfo>& all_ops();
const OpInfo* find_op(std::string_view name);
/// The case of integer operation `name` on `w` (name must come from all_ops(), not batch).
/// Products and divisions of more than `gmp_max_bits`-bit operands skip GMP (see ProductCase).
std::unique_ptr<OpCase> make_case(std::string_view name, Workload& w, std::uint64_t gmp_max_bits);

}  // namespace mpgpu::cli
