// Helpers shared by the Integer implementation files. Private to the library.
#pragma once

#include <initializer_list>
#include <string>

#include "context_state.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/integer.hpp"

namespace mpgpu::detail {

/// Throws InvalidArgument unless a and b share a context.
inline void require_same_context(const char* op, const Integer& a, const Integer& b) {
  if (a.context() != b.context())
    throw InvalidArgument(std::string("mpgpu::") + op +
                          ": operands belong to different contexts (" + a.context().describe() +
                          " and " + b.context().describe() + "); move one with to_context()");
}

inline cuda::Operand device_operand(const Integer& x) { return {x.device_data(), x.size()}; }

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
      : ctx_(ctx), st_(ctx.state()), stream_(ctx.resolve(s)), capacity_(limbs ? limbs : 1) {
    if (reuse && reuse->context() == ctx && reuse->device_data() && capacity_ <= reuse->device_capacity() &&
        reuse->device_capacity() <= 4 * capacity_ + 64) {
      bool aliased = false;
      for (const Integer* op : operands) aliased |= op == reuse || op->device_data() == reuse->device_data();
      if (!aliased) {
        borrowed_ = reuse;
        ptr_ = reuse->device_data();
        capacity_ = reuse->device_capacity();
        return;
      }
    }
    ptr_ = static_cast<limb_t*>(cuda::allocate(st_, stream_, capacity_ * sizeof(limb_t)));
  }
  DeviceResult(const DeviceResult&) = delete;
  DeviceResult& operator=(const DeviceResult&) = delete;
  ~DeviceResult() {
    if (borrowed_) borrowed_->adopt_device_size(0);  // failed half-way: the destination reads zero
    else if (ptr_) cuda::deallocate(st_, stream_, ptr_);
  }
  limb_t* get() const { return ptr_; }
  std::size_t capacity() const { return capacity_; }
  /// Makes the buffer `r`'s value (size limbs, sign); r must be the
  /// destination given to the constructor, if one was.
  void commit(Integer& r, std::size_t size, int sign) {
    if (borrowed_) {  // == &r: the limbs are already in place
      r.adopt_device_size(size);
      r.set_sign_internal(size ? sign : 0);
      borrowed_ = nullptr;
    } else {
      r.adopt_device(ctx_, ptr_, capacity_, size, size ? sign : 0);
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

/// Runs a GMP call with r's mpz as destination (GMP allows it to alias the
/// operands); r moves to `ctx` first if it lives elsewhere.
template <class F>
void on_cpu(Integer& r, const Context& ctx, F&& f) {
  if (r.context() != ctx) r = Integer(ctx);
  f(r.cpu_mpz());
  r.refresh_cpu_meta();
}

/// Copies a CUDA integer's value into an mpz (host), for conversions.
void device_to_mpz(const Integer& x, mpz_ptr z);
/// Makes `r` (CUDA context) hold the value of z.
void mpz_to_device(Integer& r, mpz_srcptr z, Stream s);

}  // namespace mpgpu::detail
