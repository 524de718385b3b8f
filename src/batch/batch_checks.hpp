// What the batch operations check before they touch anything, and how they
// give a destination the right shape. Private to batch_ops.cpp.
//
// Every check throws InvalidArgument naming the function and the reason
// before any result is written, so a failed call leaves its destination and
// its operands as they were.
#pragma once

#include <cstddef>
#include <string>

#include "context/context_state.hpp"
#include "batch_backend.hpp"
#include "batch_parts.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/batch.hpp"
#include "mpgpu/error.hpp"

namespace mpgpu::detail::batch {

[[noreturn]] inline void invalid(const char* fn, const std::string& why) {
  throw InvalidArgument(std::string("mpgpu::") + fn + ": " + why);
}

/// An operand and the name the messages give it.
struct Named {
  const char* name;
  const Batch& batch;
};

/// The operand has a width (it is not a default-constructed or moved-from Batch).
inline void require_width(const char* fn, Named x) {
  if (x.batch.bits() == 0)
    invalid(fn, std::string(x.name) + " has no width (a default-constructed or moved-from Batch)");
}

/// x shares ref's context and count, and its width when `same_bits`.
inline void require_like(const char* fn, Named ref, Named x, bool same_bits = true) {
  require_width(fn, x);
  if (x.batch.context() != ref.batch.context())
    invalid(fn, std::string(ref.name) + " and " + x.name + " belong to different contexts (" +
                    ref.batch.context().describe() + " and " + x.batch.context().describe() +
                    "); move one with to_context()");
  if (x.batch.count() != ref.batch.count())
    invalid(fn, std::string(ref.name) + " has " + std::to_string(ref.batch.count()) + " instances and " +
                    x.name + " has " + std::to_string(x.batch.count()));
  if (same_bits && x.batch.bits() != ref.batch.bits())
    invalid(fn, std::string(ref.name) + " is " + std::to_string(ref.batch.bits()) + " bits wide and " + x.name +
                    " is " + std::to_string(x.batch.bits()) + " bits wide; they must be equal");
}

/// On a context over several devices every part runs on its own device's
/// stream, which a caller's stream (of one device) cannot stand for: such a
/// call passes none (nullptr, or the context's own, ctx.stream()).
inline void require_own_stream(const char* fn, const Context& ctx, Stream s) {
  if (s && s != ctx.stream() && ctx.part_count() > 1)
    invalid(fn, "the context spans " + std::to_string(ctx.part_count()) + " devices (" + ctx.describe() +
                    "), whose parts run on their own devices' streams: pass no stream (nullptr)");
}

/// Every instance of m is odd and > 1 (Montgomery needs m odd; m == 1 has
/// no residues to speak of). On a device this reads one flag back (one a
/// device, part after part, on a context over several). `first` is the
/// index of m's instance 0 in the batch the message names (a part's offset).
inline void require_good_moduli(const char* fn, const Batch& m, Stream s, std::size_t first = 0) {
  if (m.count() == 0) return;
  if (BatchAccess::split(m)) {
    for (std::size_t i = 0; i < m.part_count(); ++i)
      require_good_moduli(fn, m.part(i), nullptr, part_begin(m.count(), m.part_count(), i));
    return;
  }
  const std::size_t stride = m.stride_limbs();
  if (m.context().is_cuda()) {
    if (cuda::any_bad_modulus(detail::ContextAccess::state(m.context()), m.context().resolve(s), m.data(), m.count(),
                              stride))
      invalid(fn, "every modulus must be odd and > 1, and at least one instance of m is even or 1");
    return;
  }
  for (std::size_t i = 0; i < m.count(); ++i) {
    const limb_t* x = m.data() + i * stride;
    if ((x[0] & 1) == 0)
      invalid(fn, "every modulus must be odd and > 1, and instance " + std::to_string(first + i) + " of m is even");
    bool one = x[0] == 1;
    for (std::size_t j = 1; one && j < m.limbs_per_instance(); ++j) one = x[j] == 0;
    if (one)
      invalid(fn, "every modulus must be odd and > 1, and instance " + std::to_string(first + i) + " of m is 1");
  }
}

/// The first instance of b that is zero (b.count() if none). On a device
/// this reads one index back (one a device on a context over several).
inline std::size_t first_zero_instance(const Batch& b, Stream s) {
  if (BatchAccess::split(b)) {
    for (std::size_t i = 0; i < b.part_count(); ++i) {
      const Batch& p = b.part(i);
      const std::size_t first = first_zero_instance(p, nullptr);
      if (first < p.count()) return part_begin(b.count(), b.part_count(), i) + first;
    }
    return b.count();
  }
  const std::size_t stride = b.stride_limbs();
  if (b.context().is_cuda())
    return cuda::first_zero_instance(detail::ContextAccess::state(b.context()), b.context().resolve(s), b.data(),
                                     b.count(), stride);
  for (std::size_t i = 0; i < b.count(); ++i) {
    const limb_t* p = b.data() + i * stride;
    bool zero = true;
    for (std::size_t j = 0; zero && j < b.limbs_per_instance(); ++j) zero = p[j] == 0;
    if (zero) return i;
  }
  return b.count();
}

/// No instance of the divisor `x` is zero (fn's message: "division by zero").
/// On a device this reads one index back.
inline void require_nonzero(const char* fn, Named x, Stream s) {
  const Batch& b = x.batch;
  if (b.count() == 0) return;
  const std::size_t first = first_zero_instance(b, s);
  if (first < b.count())
    invalid(fn, "division by zero: instance " + std::to_string(first) + " of " + x.name + " is 0");
}

/// The batch a call writes: `r` itself when its count, width and context
/// already fit (written in place: every backend reads an instance completely
/// before writing it, so r may be an operand), otherwise a fresh zeroed batch
/// that replaces r only once the work is queued. A call that throws before
/// commit() leaves a reshaped r as it was.
class Destination {
 public:
  Destination(Batch& r, std::size_t count, std::size_t bits, const Context& ctx, Stream s)
      : r_(r), ctx_(ctx), stream_(ctx.resolve(s)) {
    const bool fits =
        r.count() == count && r.bits() == bits && r.context() == ctx && (count == 0 || BatchAccess::has_storage(r));
    if (fits) return;
    fresh_ = Batch(count, bits, ctx);
    reshaped_ = true;
    // The zero fill was queued on the context's own stream: finish it before
    // another stream writes the storage.
    if (ctx.is_cuda() && count && stream_ != ctx.stream()) detail::cuda::synchronize(ctx.stream());
  }
  Destination(const Destination&) = delete;
  Destination& operator=(const Destination&) = delete;

  Batch& get() { return reshaped_ ? fresh_ : r_; }
  bool fresh() const { return reshaped_; }

  void commit() {
    if (!reshaped_) return;
    // r's old storage is freed on the context's own stream; if it was an
    // operand of work queued on another stream, that work must finish first.
    if (ctx_.is_cuda() && r_.data() && r_.context() == ctx_ && stream_ != ctx_.stream())
      detail::cuda::synchronize(stream_);
    r_ = std::move(fresh_);
    reshaped_ = false;
  }

 private:
  Batch& r_;
  Context ctx_;  // a copy: r may be the operand whose context was passed
  Stream stream_;
  Batch fresh_;
  bool reshaped_ = false;
};

}  // namespace mpgpu::detail::batch
