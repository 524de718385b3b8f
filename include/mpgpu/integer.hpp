// mpgpu::Integer: an arbitrary-precision signed integer that lives where its
// Context says: in device memory for a CUDA context, in a GMP mpz for the CPU
// context. Semantics are GMP's mpz semantics throughout.
//
// Limb layout (documented, stable): the magnitude is an array of `size()`
// 64-bit limbs, least significant first, normalized (the top limb is nonzero,
// zero has size 0), exactly GMP's mpz limb array on x86-64. The sign is kept
// apart (sign-magnitude). For CUDA contexts `device_limbs()` points at that
// array in device memory.
//
// Streams: every operation takes an optional stream (nullptr = the context's
// stream). Device work is queued on it. On the context's own stream, add,
// sub, the shifts and the bitwise operations return as soon as their kernels
// are queued: the result's size (and, for a subtraction, its sign) is read
// back from the device the first time it is needed (size(), sign(), a
// conversion, or an operation that uses the result), so a chain of such
// operations costs one launch each and no host-device round trip. A size
// may be published before the kernel that writes the limbs has ended: read
// device_limbs() in stream order on the context's stream (or synchronize
// it). On any other stream, an operation first waits (on the device) for
// the work queued on the context's stream, and operations that change a
// result's size wait for it before returning. Operands and results of one
// call must share a Context.
//
// Where values live: on a CUDA context small values made on the host stay
// there and operations on them run with GMP; a device operation copies such
// an operand up once (kHostValueMaxLimbs; docs/integer.md).
//
// Threads: distinct Integers may be used from distinct threads; one Integer
// whose size is still on the device must not be queried from two threads at
// once (as with GMP's mpz_t, concurrent reads need a settled value; call
// size() once first). A value in host memory may be read from several
// threads: the first device operation to need it copies it up, the others
// wait for that copy.
//
// Aliasing: any result may alias any operand (results are built in fresh
// pool storage and swapped in), and a failed operation leaves every operand
// untouched.
#pragma once

#include <gmp.h>

#include <atomic>
#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mpgpu/context.hpp"
#include "mpgpu/integer_crossovers.hpp"
#include "mpgpu/limb/config.cuh"

namespace mpgpu {

namespace detail {
struct DeferredSize;
struct IntegerAccess;
}

enum class Endian { little, big };

class Integer {
 public:
  /// Zero, in the default context.
  Integer();
  /// Zero, in `ctx`.
  explicit Integer(const Context& ctx);
  /// A machine integer, e.g. `Integer x = 42;`.
  template <std::integral T>
  Integer(T v, const Context& ctx = Context::default_context()) : Integer(ctx) {
    if constexpr (std::is_signed_v<T>)
      assign_int64(static_cast<std::int64_t>(v));
    else
      assign_uint64(static_cast<std::uint64_t>(v));
  }
  Integer(const Integer& other);
  Integer(Integer&& other) noexcept;
  Integer& operator=(const Integer& other);
  Integer& operator=(Integer&& other) noexcept;
  ~Integer();

  // ---- construction from outside data -------------------------------------
  /// Parses [+-]digits in `base` (2..62, GMP's digit set: 0-9, then A-Z, then
  /// a-z for bases > 36; for bases <= 36 letters are case-insensitive), or base 0
  /// for C-style prefixes (0x, 0b, 0 for octal). No whitespace. Throws
  /// ParseError (with the position) for a bad digit, an empty string or a lone
  /// sign, InvalidArgument for a base out of range.
  static Integer from_string(std::string_view text, int base = 10,
                             const Context& ctx = Context::default_context());
  /// Copies an mpz without going through strings.
  static Integer from_mpz(mpz_srcptr z, const Context& ctx = Context::default_context());
  /// A non-negative integer from its bytes (`count` bytes at `data`).
  static Integer from_bytes(const void* data, std::size_t count, Endian order,
                            const Context& ctx = Context::default_context());
  /// From `count` limbs (host memory, least significant first, need not be
  /// normalized) and a sign (-1, 0 or +1; 0 only for all-zero limbs... any
  /// sign is ignored when the limbs are all zero).
  static Integer from_limbs(const limb_t* host_limbs, std::size_t count, int sign = 1,
                            const Context& ctx = Context::default_context());
  /// As from_limbs, from device memory (CUDA contexts only).
  static Integer from_device_limbs(const limb_t* device_limbs, std::size_t count, int sign,
                                   const Context& ctx, Stream stream = nullptr);
  /// 2^bits - 1, and 2^bit: cheap test and benchmark operands built on the device.
  static Integer all_ones(std::size_t bits, const Context& ctx = Context::default_context());
  static Integer power_of_two(std::size_t bit, const Context& ctx = Context::default_context());

  // ---- conversion out ------------------------------------------------------
  std::string to_string(int base = 10) const;
  void to_mpz(mpz_ptr z) const;
  /// Magnitude bytes, no leading zero bytes (empty for zero).
  std::vector<std::uint8_t> to_bytes(Endian order) const;
  /// Normalized magnitude limbs in host memory.
  std::vector<limb_t> to_limbs() const;
  /// The same limbs written to `out` (host memory of the caller's: pageable,
  /// pinned or managed; limbs past size() untouched); returns size(). Into
  /// pinned memory the copy is one direct DMA (no staging), and no vector
  /// is zero-filled first. InvalidArgument if capacity < size() (or out is
  /// null with size() > 0), with nothing written.
  std::size_t to_limbs(limb_t* out, std::size_t capacity) const;
  /// Device pointer to the normalized magnitude (CUDA contexts; nullptr if zero).
  const limb_t* device_limbs() const;
  std::int64_t to_int64() const;    ///< throws Overflow if it does not fit
  std::uint64_t to_uint64() const;  ///< throws Overflow if negative or too large
  bool fits_int64() const;
  bool fits_uint64() const;

  // ---- queries ---------------------------------------------------------------
  int sign() const {  ///< -1, 0 or +1
    if (deferred_) settle();
    return sign_;
  }
  std::size_t size() const {  ///< limbs of the magnitude
    if (deferred_) settle();
    return size_;
  }
  bool is_zero() const { return sign() == 0; }
  const Context& context() const { return ctx_; }
  /// Moves the value to another context (device <-> host copies as needed).
  Integer to_context(const Context& ctx) const;
  /// On a CUDA context: moves a value kept in host memory into device memory
  /// only, so that the operations that use it run on the device. The value
  /// does not change; a no-op on the CPU context.
  void place_on_device();
  /// Whether the value is (also) in host memory (always on the CPU context).
  bool in_host_memory() const { return host_valid(); }

  // ---- in-place forms ---------------------------------------------------------
  Integer& operator+=(const Integer& b);
  Integer& operator-=(const Integer& b);
  Integer& operator*=(const Integer& b);
  Integer& operator&=(const Integer& b);
  Integer& operator|=(const Integer& b);
  Integer& operator^=(const Integer& b);
  Integer& operator<<=(std::uint64_t bits);
  Integer& operator>>=(std::uint64_t bits);  ///< floor, as fdiv_q_2exp
  Integer& operator/=(const Integer& b);  ///< truncating, as tdiv_q
  Integer& operator%=(const Integer& b);  ///< sign of the dividend, as tdiv_r
  void negate();  ///< this = -this

 private:
  // ---- internal (backends) ---------------------------------------------------
  // Not part of the API: the library's backends, bindings and tests reach
  // these through detail::IntegerAccess (mpgpu/detail/integer_access.hpp),
  // so that users see only the API above while the inline fast paths of
  // integer_inline.hpp still compile to the same direct member accesses.
  friend struct detail::IntegerAccess;

  /// The CPU backend's storage.
  mpz_ptr cpu_mpz() { return cpu_; }
  mpz_srcptr cpu_mpz() const { return cpu_; }
  /// Replaces the storage with device limbs of `ctx` (pool memory, owned
  /// from now on); the integer moves to `ctx`.
  void adopt_device(const Context& ctx, limb_t* limbs, std::size_t capacity, std::size_t size, int sign);
  /// The device limbs; on a CUDA context a value kept in host memory is
  /// copied up first (once: both copies stay until the value changes).
  limb_t* device_data() const {
    if (placement_.load(std::memory_order_acquire) == Placement::host && ctx_.is_cuda()) upload_to_device();
    return dev_;
  }
  /// The device buffer as it is (storage to reuse; stale when the value is only on the host).
  limb_t* device_buffer() const { return dev_; }
  /// Whether cpu_mpz() holds the value: always on the CPU context; on a CUDA
  /// context for values kept in host memory (see kHostValueMaxLimbs).
  bool host_valid() const {
    return placement_.load(std::memory_order_acquire) != Placement::device || !ctx_.is_cuda();
  }
  /// Sets the recorded size after an in-place change of the device limbs.
  void adopt_device_size(std::size_t size);
  /// Size and sign will come from the device: they are read on first use.
  void adopt_deferred(std::unique_ptr<detail::DeferredSize> deferred);
  /// Whether size and sign are still on the device.
  bool has_deferred() const { return deferred_ != nullptr; }
  std::size_t device_capacity() const { return dev_capacity_; }
  void set_sign_internal(int s) {
    if (deferred_) settle();
    sign_ = s;
    if (host_valid() && (mpz_sgn(cpu_) < 0) != (s < 0)) mpz_neg(cpu_, cpu_);
  }
  /// Re-reads sign and size from the CPU storage after a GMP call; on a
  /// CUDA context the value now lives in host memory only (inline, in
  /// integer_inline.hpp: a small host operation is a GMP call and this).
  void refresh_cpu_meta();
  /// refresh_cpu_meta without the test for device state: for a destination
  /// that host_in_place admitted, which has none (integer_inline.hpp).
  void read_cpu_meta();
  /// Whether r = op(a, b) may be a GMP call into r's mpz followed by
  /// read_cpu_meta and nothing else: r's value in host memory only (no
  /// device copy or deferred size to drop afterwards), a's and b's in host
  /// memory (on the CPU context always). Contexts and sizes are the
  /// caller's to check. One branch for the three (see Placement).
  static bool host_in_place(const Integer& r, const Integer& a, const Integer& b) {
    // Relaxed: the only change another thread may make to an operand's
    // placement is upload_to_device's host -> both, which leaves the host
    // copy as it was; r belongs to the calling thread.
    const auto bits = [](const Integer& x) {
      return static_cast<unsigned>(x.placement_.load(std::memory_order_relaxed));
    };
    return (bits(r) | ((bits(a) | bits(b)) & static_cast<unsigned>(Placement::device))) == 0;
  }
  /// size() of a value whose host copy is valid (host_valid()): such a
  /// value has no deferred size, so this reads no device word and makes no
  /// call.
  std::size_t host_size() const { return size_; }

  // ---- the class's own --------------------------------------------------------
  void assign_int64(std::int64_t v);
  void assign_uint64(std::uint64_t v);
  void release_device();
  /// The value was just written on the host: drops the device buffer and a
  /// deferred size, and marks the value as in host memory only.
  void drop_device_copy();
  /// Reads size and sign from the device (waits for the operation).
  void settle() const;
  /// Copies a value kept in host memory to the device (placement both).
  void upload_to_device() const;

  Context ctx_;
  mutable int sign_ = 0;
  mutable std::size_t size_ = 0;
  // Set while size and sign are still on the device (see "Streams").
  mutable std::unique_ptr<detail::DeferredSize> deferred_;
  // Where a CUDA context's value is: in dev_, in cpu_ (host), or both (a
  // host value copied up for a device operation; either copy may be read).
  // A zero made without data starts on the host; on the CPU context every
  // value stays host. Only placement device has a deferred size (deferred_
  // is set after placement device and dropped before any other).
  // Atomic because const readers on several threads may race to copy a host
  // value up (upload_to_device serializes them); mutators own the Integer.
  // The values are bits so that host_in_place tests three Integers with one
  // branch: host is 0, and only device has bit 1 (the host copy is stale).
  enum class Placement : unsigned char { host = 0, both = 1, device = 2 };
  mutable std::atomic<Placement> placement_{Placement::host};
  void set_placement(Placement p) const { placement_.store(p, std::memory_order_release); }
  void swap_placement(Integer& other) noexcept {
    const Placement p = placement_.load(std::memory_order_relaxed);
    placement_.store(other.placement_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    other.placement_.store(p, std::memory_order_relaxed);
  }
  // CUDA storage: pool memory of the context's device (mutable: the lazy
  // upload of a host value fills it from const accessors).
  mutable limb_t* dev_ = nullptr;
  mutable std::size_t dev_capacity_ = 0;
  // CPU storage (initialized for every Integer; unused by CUDA contexts).
  mpz_t cpu_;
};

// ---- arithmetic (destination first, as GMP; results may alias operands) ----
// add, sub, mul, and_, ior and xor_ are inline (mpgpu/integer_inline.hpp):
// on small values in host memory each is one GMP call in the caller's code.
inline void add(Integer& r, const Integer& a, const Integer& b, Stream s = nullptr);
inline void sub(Integer& r, const Integer& a, const Integer& b, Stream s = nullptr);
void neg(Integer& r, const Integer& a, Stream s = nullptr);
void abs(Integer& r, const Integer& a, Stream s = nullptr);
/// Sum of many integers with delayed carries.
void sum(Integer& r, std::span<const Integer> terms, Stream s = nullptr);

/// Sign of a - b: -1, 0, +1.
int cmp(const Integer& a, const Integer& b, Stream s = nullptr);
/// Sign of |a| - |b|.
int cmpabs(const Integer& a, const Integer& b, Stream s = nullptr);
inline int sgn(const Integer& a) { return a.sign(); }

// ---- products ----------------------------------------------------------------
/// r = a * b, exact. On a CUDA context every product runs on the device: by
/// columns (schoolbook) while the shorter operand has at most 8192 limbs
/// and na * nb is small, else through three-prime NTTs and CRT; see
/// docs/integer.md, "Where products run".
inline void mul(Integer& r, const Integer& a, const Integer& b, Stream s = nullptr);
/// r = a * a with one forward transform per prime.
void sqr(Integer& r, const Integer& a, Stream s = nullptr);
/// Many independent products at once: mul_each (mpgpu/integer_each.hpp).
/// Size (limbs of na + nb) from which products first ran on the device; the
/// division and radix-conversion thresholds below are still derived from it
/// (products themselves no longer leave the device at any size).
inline constexpr std::size_t kDeviceProductMinLimbs = tuning::table::kDeviceProductMinLimbs;

// ---- shifts ------------------------------------------------------------------
/// r = a * 2^bits
void mul_2exp(Integer& r, const Integer& a, std::uint64_t bits, Stream s = nullptr);
/// r = trunc(a / 2^bits) (rounds toward zero)
void tdiv_q_2exp(Integer& r, const Integer& a, std::uint64_t bits, Stream s = nullptr);
/// r = floor(a / 2^bits) (rounds toward minus infinity)
void fdiv_q_2exp(Integer& r, const Integer& a, std::uint64_t bits, Stream s = nullptr);

// ---- bitwise, two's complement semantics for negative numbers (as GMP) ------
inline void and_(Integer& r, const Integer& a, const Integer& b, Stream s = nullptr);
inline void ior(Integer& r, const Integer& a, const Integer& b, Stream s = nullptr);
inline void xor_(Integer& r, const Integer& a, const Integer& b, Stream s = nullptr);
/// r = ~a = -a - 1
void com(Integer& r, const Integer& a, Stream s = nullptr);

// ---- bit queries ---------------------------------------------------------------
/// Set bits of a >= 0; for a < 0 the count is infinite and this returns
/// std::numeric_limits<std::uint64_t>::max(), as GMP's mpz_popcount.
std::uint64_t popcount(const Integer& a, Stream s = nullptr);
/// Bits in |a| (mpz_sizeinbase(a, 2)); 1 for zero, as GMP.
std::uint64_t sizeinbase2(const Integer& a, Stream s = nullptr);
/// Bit `index` of a in two's complement.
bool tstbit(const Integer& a, std::uint64_t index, Stream s = nullptr);
void setbit(Integer& a, std::uint64_t index, Stream s = nullptr);
void clrbit(Integer& a, std::uint64_t index, Stream s = nullptr);

// ---- division -------------------------------------------------------------------
// Where these run on a CUDA context (docs/integer.md, "Division"): a divisor
// of one limb divides on the device in one pass (a parallel scan); a divisor
// of at least kDeviceDivisionMinLimbs limbs (with a dividend at least as
// long) divides on the device through a Newton reciprocal on the NTT
// product; other sizes, operands in host memory, and congruent_p, go
// through GMP on the host. The CPU backend calls GMP. Semantics are GMP's:
// n = q * d + r with |r| < |d|, and
//   tdiv: q rounded toward zero (r has n's sign, C's / and %),
//   fdiv: q rounded toward minus infinity (r has d's sign),
//   cdiv: q rounded toward plus infinity (r has the sign opposite to d's).
// d == 0 throws DivisionByZero. In the _qr forms q and r must be different
// objects (InvalidArgument); any result may alias any operand.
void tdiv_qr(Integer& q, Integer& r, const Integer& n, const Integer& d, Stream s = nullptr);
void tdiv_q(Integer& q, const Integer& n, const Integer& d, Stream s = nullptr);
void tdiv_r(Integer& r, const Integer& n, const Integer& d, Stream s = nullptr);
void fdiv_qr(Integer& q, Integer& r, const Integer& n, const Integer& d, Stream s = nullptr);
void fdiv_q(Integer& q, const Integer& n, const Integer& d, Stream s = nullptr);
void fdiv_r(Integer& r, const Integer& n, const Integer& d, Stream s = nullptr);
void cdiv_qr(Integer& q, Integer& r, const Integer& n, const Integer& d, Stream s = nullptr);
void cdiv_q(Integer& q, const Integer& n, const Integer& d, Stream s = nullptr);
void cdiv_r(Integer& r, const Integer& n, const Integer& d, Stream s = nullptr);
/// r = n mod |d|, always in [0, |d|) (mpz_mod).
void mod(Integer& r, const Integer& n, const Integer& d, Stream s = nullptr);
/// q = n / d when d divides n (mpz_divexact: faster than tdiv_q). If d does
/// not divide n the result is unspecified (not checked, as in GMP).
void divexact(Integer& q, const Integer& n, const Integer& d, Stream s = nullptr);
/// Whether d divides n; d == 0 divides only 0 (mpz_divisible_p, no exception).
bool divisible_p(const Integer& n, const Integer& d, Stream s = nullptr);
/// Whether n = c (mod |d|); for d == 0 whether n == c (mpz_congruent_p).
bool congruent_p(const Integer& n, const Integer& c, const Integer& d, Stream s = nullptr);
/// Truncating division by a machine word d != 0, returning |r| (GMP's
/// mpz_tdiv_qr_ui, mpz_tdiv_q_ui, mpz_tdiv_ui): q = trunc(n / d), r = n - q d
/// (the sign of n). d == 0 throws DivisionByZero. On a CUDA context these
/// wait for the remainder; tdiv_q(q, n, Integer(d)) does not.
std::uint64_t tdiv_qr_ui(Integer& q, Integer& r, const Integer& n, std::uint64_t d, Stream s = nullptr);
std::uint64_t tdiv_q_ui(Integer& q, const Integer& n, std::uint64_t d, Stream s = nullptr);
std::uint64_t tdiv_ui(const Integer& n, std::uint64_t d, Stream s = nullptr);
/// Crossover (divisor limbs) from host GMP to the device Newton division
/// (the reciprocal seeded by GMP on the host): the first size at which the
/// device clearly beats GMP plus the copies; at 1024 limbs the two tie. The
/// timings (the `tdiv_qr` bench row, MPGPU_DIVISION_MIN_LIMBS forcing either
/// path) are in docs/integer.md, "Division and number theory". The default
/// of TuningParams::division_min_limbs, which a context may change.
inline constexpr std::size_t kDeviceDivisionMinLimbs = tuning::table::kDeviceDivisionMinLimbs;

// Powers, roots, number theory and digit counts: mpgpu/integer_number_theory.hpp
// (included below).

// ---- operators -------------------------------------------------------------------
Integer operator+(const Integer& a, const Integer& b);
Integer operator-(const Integer& a, const Integer& b);
Integer operator-(const Integer& a);
Integer operator*(const Integer& a, const Integer& b);
/// Truncating division and its remainder (tdiv_q, tdiv_r), as C and gmpxx.
Integer operator/(const Integer& a, const Integer& b);
Integer operator%(const Integer& a, const Integer& b);
Integer operator&(const Integer& a, const Integer& b);
Integer operator|(const Integer& a, const Integer& b);
Integer operator^(const Integer& a, const Integer& b);
Integer operator~(const Integer& a);
Integer operator<<(const Integer& a, std::uint64_t bits);
/// Floor division by 2^bits, as gmpxx's mpz_class >>.
Integer operator>>(const Integer& a, std::uint64_t bits);
bool operator==(const Integer& a, const Integer& b);
std::strong_ordering operator<=>(const Integer& a, const Integer& b);

}  // namespace mpgpu

#include "mpgpu/detail/integer_access.hpp"
#include "mpgpu/integer_each.hpp"
#include "mpgpu/integer_number_theory.hpp"
#include "mpgpu/integer_inline.hpp"
