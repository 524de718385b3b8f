// Helpers shared by the Integer implementation files. Private to the library.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "context/context_state.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/integer.hpp"

namespace mpgpu::detail {

/// Size and sign of an Integer that a queued device operation will publish:
/// its unread result words and how the order key maps to the sign.
struct DeferredSize {
  cuda::Deferred words;       // kSlotSize: the size; kSlotOrder: see below
  int sign_if_ordered = 1;   // the sign when cuda::order_of(words) >= 0
  int sign_if_reversed = 1;  // ... and when it is < 0 (sub of equal sizes)
};

/// The InvalidArgument of require_same_context, out of line: building its
/// message is code that every small operation would otherwise carry.
[[noreturn, gnu::cold]] void throw_different_contexts(const char* op, const Integer& a, const Integer& b);

/// Throws InvalidArgument unless a and b share a context. Inline: on small
/// host values an operation costs about as much as a few calls.
inline void require_same_context(const char* op, const Integer& a, const Integer& b) {
  if (a.context() != b.context()) [[unlikely]]
    throw_different_contexts(op, a, b);
}

/// The Overflow of require_gmp_room, out of line: "mpgpu::<op>: <what> needs
/// room for <room> limbs, more than a GMP mpz holds (...)".
[[noreturn, gnu::cold]] void throw_beyond_gmp(const char* op, std::uint64_t room, const std::string& what);

/// Throws Overflow unless GMP may reserve `room` limbs for a result of `op`:
/// beyond kGmpMaxLimbs GMP aborts the process. Called before any work, with
/// the room GMP takes (often a limb more than the result: mpz_add reserves
/// the larger size + 1 before it adds). `what()` describes the operands
/// and their sizes for the message; it runs only when the check fails.
template <class What>
inline void require_gmp_room(const char* op, std::uint64_t room, What&& what) {
  if (room > kGmpMaxLimbs) [[unlikely]]
    throw_beyond_gmp(op, room, what());
}

/// "a and b of 5 and 7 limbs": operand sizes for require_gmp_room's messages.
inline std::string limbs_of(const char* names, std::uint64_t a, std::uint64_t b) {
  return std::string(names) + " of " + std::to_string(a) + " and " + std::to_string(b) + " limbs";
}

inline cuda::Operand device_operand(const Integer& x) { return {detail::IntegerAccess::device_data(x), x.size()}; }

/// Device storage for a result. Freed on destruction unless handed to an
/// Integer with `commit`, so an exception leaves nothing behind.
///
/// Small operations are dominated by fixed costs, so when the destination
/// already owns a buffer of about the right size and is not one of the
/// operands, that buffer is written in place instead of allocating and
/// freeing (a failed operation then leaves the destination zero; operands
/// are never touched).
class DeviceResult {
 public:
  DeviceResult(const Context& ctx, Stream s, std::size_t limbs, Integer* reuse = nullptr,
               std::initializer_list<const Integer*> operands = {})
      : ctx_(ctx), st_(detail::ContextAccess::state(ctx)), stream_(ctx.resolve(s)), capacity_(limbs ? limbs : 1) {
    if (reuse && reuse->context() == ctx && detail::IntegerAccess::device_buffer(*reuse) &&
        capacity_ <= detail::IntegerAccess::device_capacity(*reuse) &&
        detail::IntegerAccess::device_capacity(*reuse) <= 4 * capacity_ + 64) {
      // A result still being written on the context's stream may be
      // overwritten in stream order; on another stream, wait for it first.
      if (detail::IntegerAccess::has_deferred(*reuse) && stream_ != ctx.stream()) reuse->size();
      bool aliased = false;
      for (const Integer* op : operands)
        aliased |=
            op == reuse || detail::IntegerAccess::device_buffer(*op) == detail::IntegerAccess::device_buffer(*reuse);
      if (!aliased) {
        borrowed_ = reuse;
        ptr_ = detail::IntegerAccess::device_buffer(*reuse);
        capacity_ = detail::IntegerAccess::device_capacity(*reuse);
        return;
      }
    }
    ptr_ = static_cast<limb_t*>(cuda::allocate(st_, stream_, capacity_ * sizeof(limb_t)));
  }
  DeviceResult(const DeviceResult&) = delete;
  DeviceResult& operator=(const DeviceResult&) = delete;
  ~DeviceResult() {
    if (borrowed_)
      detail::IntegerAccess::adopt_device_size(*borrowed_, 0);  // failed half-way: the destination reads zero
    else if (ptr_) cuda::deallocate(st_, stream_, ptr_);
  }
  limb_t* get() const { return ptr_; }
  std::size_t capacity() const { return capacity_; }
  /// Makes the buffer `r`'s value (size limbs, sign); r must be the
  /// destination given to the constructor, if one was.
  /// As commit(r, size, sign) with size and sign still on the device: on the
  /// context's own stream r reads them when first needed; on another stream
  /// they are read now (nothing then orders a later free of an operand on the
  /// context's stream after this operation's kernels).
  void commit(Integer& r, cuda::Deferred deferred, int sign_if_ordered, int sign_if_reversed) {
    if (!deferred) return commit(r, std::size_t{0}, 0);
    if (stream_ != ctx_.stream()) {
      const std::uint64_t* w = deferred->wait();
      const std::size_t size = w[device::kSlotSize];
      commit(r, size, cuda::order_of(w) < 0 ? sign_if_reversed : sign_if_ordered);
      return;
    }
    auto p = std::make_unique<DeferredSize>();
    p->words = std::move(deferred);
    p->sign_if_ordered = sign_if_ordered;
    p->sign_if_reversed = sign_if_reversed;
    if (borrowed_) {
      borrowed_ = nullptr;
    } else {
      detail::IntegerAccess::adopt_device(r, ctx_, ptr_, capacity_, 0, 0);
    }
    detail::IntegerAccess::adopt_deferred(r, std::move(p));
    ptr_ = nullptr;
  }
  void commit(Integer& r, cuda::Deferred deferred, int sign) { commit(r, std::move(deferred), sign, sign); }
  void commit(Integer& r, std::size_t size, int sign) {
    if (borrowed_) {  // == &r: the limbs are already in place
      detail::IntegerAccess::adopt_device_size(r, size);
      detail::IntegerAccess::set_sign_internal(r, size ? sign : 0);
      borrowed_ = nullptr;
    } else {
      detail::IntegerAccess::adopt_device(r, ctx_, ptr_, capacity_, size, size ? sign : 0);
    }
    ptr_ = nullptr;
  }

 private:
  Context ctx_;  // the result's context, which the destination takes on commit
  ContextState& st_;
  Stream stream_;
  std::size_t capacity_;
  limb_t* ptr_ = nullptr;
  Integer* borrowed_ = nullptr;
};

/// Whether an operation on these operands runs with GMP on the host: always
/// on the CPU context; on a CUDA context when every operand's value is in
/// host memory (Integer::host_valid) with at most max_limbs limbs. The
/// result then stays in host memory too (on_cpu).
/// Unrolled (operand lists are short and constant), so that the check of
/// an operation on small host values keeps no array on the stack. A value
/// in host memory has no deferred size: its size is read without the test
/// that size() makes.
inline bool on_host(std::size_t max_limbs, std::initializer_list<const Integer*> operands) {
#pragma GCC unroll 4
  for (const Integer* x : operands)
    if (!detail::IntegerAccess::host_valid(*x) ||
        (x->context().is_cuda() && detail::IntegerAccess::host_size(*x) > max_limbs))
      return false;
  return true;
}

/// r = Integer(ctx): on_cpu's rare case, out of line.
void reset_to_context(Integer& r, const Context& ctx);

/// Runs a GMP call with r's mpz as destination (GMP allows it to alias the
/// operands, which must be host_valid); r moves to `ctx` first if it lives
/// elsewhere. On a CUDA context r's value then lives in host memory. The
/// common case (r already in ctx, holding no device state) is the GMP call
/// and a few stores: no allocation of our own, no atomic read-modify-write.
template <class F>
void on_cpu(Integer& r, const Context& ctx, F&& f) {
  if (r.context() != ctx) [[unlikely]]
    reset_to_context(r, ctx);
  f(detail::IntegerAccess::cpu_mpz(r));
  detail::IntegerAccess::refresh_cpu_meta(r);
}

/// Copies a CUDA integer's value into an mpz (host), for conversions.
void device_to_mpz(const Integer& x, mpz_ptr z);
/// Makes `r` (CUDA context) hold the value of z.
void mpz_to_device(Integer& r, mpz_srcptr z, Stream s);

}  // namespace mpgpu::detail
