// detail::IntegerAccess: the library's access to Integer's backend
// internals. Part of mpgpu/integer.hpp, which includes it after class
// Integer (the forwards below need the class complete): include
// mpgpu/integer.hpp, not this header.
#pragma once

namespace mpgpu::detail {

/// The library's access to Integer's backend internals (the private
/// "internal (backends)" members): src/, the Python bindings, tools and
/// tests call these; user code has no business with them and no stability
/// promise. Every function is an inline forward, so a call through it
/// compiles to the member access itself (the inline fast paths of
/// integer_inline.hpp depend on that).
struct IntegerAccess {
  static mpz_ptr cpu_mpz(Integer& x) { return x.cpu_mpz(); }
  static mpz_srcptr cpu_mpz(const Integer& x) { return x.cpu_mpz(); }
  static void adopt_device(Integer& x, const Context& ctx, limb_t* limbs, std::size_t capacity, std::size_t size,
                           int sign) {
    x.adopt_device(ctx, limbs, capacity, size, sign);
  }
  static limb_t* device_data(const Integer& x) { return x.device_data(); }
  static limb_t* device_buffer(const Integer& x) { return x.device_buffer(); }
  static bool host_valid(const Integer& x) { return x.host_valid(); }
  static void adopt_device_size(Integer& x, std::size_t size) { x.adopt_device_size(size); }
  // Out of line (integer_core.cpp): DeferredSize is incomplete here, and
  // only device results, never the inline fast paths, come this way.
  static void adopt_deferred(Integer& x, std::unique_ptr<DeferredSize> deferred);
  static bool has_deferred(const Integer& x) { return x.has_deferred(); }
  static std::size_t device_capacity(const Integer& x) { return x.device_capacity(); }
  static void set_sign_internal(Integer& x, int s) { x.set_sign_internal(s); }
  static void refresh_cpu_meta(Integer& x) { x.refresh_cpu_meta(); }
  static void read_cpu_meta(Integer& x) { x.read_cpu_meta(); }
  static bool host_in_place(const Integer& r, const Integer& a, const Integer& b) {
    return Integer::host_in_place(r, a, b);
  }
  static std::size_t host_size(const Integer& x) { return x.host_size(); }
  // Out of line (integer_core.cpp): uploads.
  /// Copies every value of `values` (one CUDA context; null entries,
  /// repeats and values not kept in host memory are skipped) to the device
  /// at once (copy_pieces_to_device), as each one's first device use would
  /// one by one: mul_each calls it for its operands.
  static void upload_many(std::span<const Integer* const> values);
  /// The device buffer an upload of x writes: x's own if it fits, else a
  /// fresh one (x's old one freed). Under the upload lock.
  static limb_t* upload_buffer(const Integer& x);
};

}  // namespace mpgpu::detail
