// The batch rows of `mpgpu bench`: operations over whole mpgpu::Batch values
// (many fixed-width unsigned integers) through the public host API, against
// the same operation done instance by instance with plain GMP mpn/mpz calls
// on one host thread, then every instance compared.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bench_ops.hpp"
#include "bench_table.hpp"
#include "mpgpu/mpgpu.hpp"

namespace mpgpu::cli {

/// The batch operations (OpInfo::batch), in table order. all_ops() lists
/// them after the integer operations, so --ops and --help know them.
const std::vector<OpInfo>& batch_ops();

/// One batch row: an operation at one width and instance count.
struct BatchShape {
  const OpInfo* op;
  std::uint64_t bits;
  std::uint64_t count;
};

/// The batch rows of a run over `ops` (non-batch operations are ignored),
/// ordered by width, then by operation. Widths: each operation's defaults,
/// or the --bits sizes when --bits is given (an operation skips widths it
/// cannot take); none above --max-bits. Without --ops, --bits means integer
/// sizes only and there are no batch rows. Instance counts come from
/// batch_count().
std::vector<BatchShape> plan_batch_rows(const std::vector<const OpInfo*>& ops, const BenchOptions& opt,
                                        bool cpu_context);
/// Instances of `op` at `bits`: a power of two that keeps one call's work
/// near a fixed budget per operation (add: limbs; mul, mul_wide, powm:
/// limbs^2), capped; 1/16 of it with --quick, and 1/4 of that on the CPU context.
std::uint64_t batch_count(std::string_view op, std::uint64_t bits, bool quick, bool cpu_context);
/// Legend lines for a report that has batch rows.
std::vector<std::string> batch_notes(bool cpu_context);

/// The operands of one batch shape: in the context (Batch) and as plain
/// host limb arrays for GMP, limbs() limbs per instance. Every operand has
/// its top bit set; moduli are also odd. Seeded per shape.
class BatchWorkload {
 public:
  BatchWorkload(const Context& ctx, std::uint64_t bits, std::uint64_t count, unsigned long seed);

  const Context& context() const { return ctx_; }
  std::uint64_t bits() const { return bits_; }
  std::uint64_t count() const { return count_; }
  std::size_t limbs() const { return limbs_; }
  const Batch& A() const { return A_; }
  const Batch& B() const { return B_; }
  const std::vector<limb_t>& a() const { return a_; }
  const std::vector<limb_t>& b() const { return b_; }
  /// Moduli for powm, made on first use.
  const Batch& M();
  const std::vector<limb_t>& m();

 private:
  std::vector<limb_t> random_limbs(std::uint64_t stream, bool odd) const;

  Context ctx_;
  std::uint64_t bits_, count_;
  std::size_t limbs_;
  unsigned long seed_;
  std::vector<limb_t> a_, b_, m_;
  Batch A_, B_, M_;
};

/// The case of batch operation `name` on `w` (name must come from batch_ops()).
std::unique_ptr<OpCase> make_batch_case(std::string_view name, BatchWorkload& w);

}  // namespace mpgpu::cli
