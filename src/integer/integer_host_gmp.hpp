// Operations that run through GMP on the host for both backends (division,
// powers, roots, number theory in this release). A CUDA operand is copied
// into a host mpz, GMP computes into fresh host results, and those become
// Integers of the operands' context only once every result is ready, so a
// failure anywhere leaves operands and destinations as they were. On the CPU
// context the operand is the Integer's own mpz (no copy) and a result is
// swapped in (no copy either). Private to the library.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <string>

#include "integer_internal.hpp"

namespace mpgpu::detail {

/// An operand as a read-only host mpz.
class HostOperand {
 public:
  explicit HostOperand(const Integer& x) {
    if (!detail::IntegerAccess::host_valid(x)) {
      mpz_init(copy_);
      owned_ = true;
      try {
        device_to_mpz(x, copy_);
      } catch (...) {
        mpz_clear(copy_);
        throw;
      }
      ptr_ = copy_;
    } else {
      ptr_ = detail::IntegerAccess::cpu_mpz(x);
    }
  }
  HostOperand(const HostOperand&) = delete;
  HostOperand& operator=(const HostOperand&) = delete;
  ~HostOperand() {
    if (owned_) mpz_clear(copy_);
  }
  mpz_srcptr get() const { return ptr_; }
  operator mpz_srcptr() const { return ptr_; }

 private:
  mpz_t copy_;
  mpz_srcptr ptr_ = nullptr;
  bool owned_ = false;
};

/// A host result, turned into an Integer of `ctx` by `take`.
class HostResult {
 public:
  HostResult() { mpz_init(z_); }
  HostResult(const HostResult&) = delete;
  HostResult& operator=(const HostResult&) = delete;
  ~HostResult() { mpz_clear(z_); }
  mpz_ptr get() { return z_; }
  operator mpz_ptr() { return z_; }

  /// The value as an Integer of ctx: the mpz itself on the CPU and, on a
  /// CUDA context, for values of at most kHostValueMaxLimbs limbs (kept in
  /// host memory); a device copy (queued on `s`) of larger ones.
  Integer take(const Context& ctx, Stream s) {
    Integer out(ctx);
    if (ctx.is_cuda() && mpz_size(z_) > kHostValueMaxLimbs) {
      mpz_to_device(out, z_, s);
    } else {
      mpz_swap(detail::IntegerAccess::cpu_mpz(out), z_);
      detail::IntegerAccess::refresh_cpu_meta(out);
    }
    return out;
  }

 private:
  mpz_t z_;
};

/// Before reading CUDA operands on the host: work the caller queued on its own
/// stream `s` (which may have produced them) must be finished. The copies
/// themselves run on the context's stream.
inline void wait_for_caller_stream(const Context& ctx, Stream s) {
  if (ctx.is_cuda() && s && s != ctx.stream()) cuda::synchronize(s);
}

/// The largest result, in bits, of the operations that estimate their
/// result's size before GMP computes it (pow_ui, fac_ui, fib_ui, lucnum_ui,
/// bin_uiui, bin_ui): GMP's limit (kGmpMaxLimbs, require_gmp_room) less two
/// limbs for the rounding of GMP's own reservations.
inline constexpr double kHostGmpMaxBits = 64.0 * (static_cast<double>(kGmpMaxLimbs) - 2.0);

inline void require_host_bits(const char* op, double bits) {
  if (!(bits <= kHostGmpMaxBits)) {  // also catches NaN
    const double shown = bits == bits ? std::min(bits, 1e19) : 1e19;
    throw_beyond_gmp(op, static_cast<std::uint64_t>(std::ceil(shown / 64)) + 2,
                     "a result of about " + std::to_string(static_cast<std::uint64_t>(shown)) + " bits");
  }
}

}  // namespace mpgpu::detail
