// mpgpu::Batch: N unsigned integers of one width (1 to 2^18 bits), and the
// operations over whole batches. Host API, compiled by g++.
//
// Storage: instance i occupies stride_limbs() 64-bit limbs (GMP's layout,
// least significant first) at data() + i * stride_limbs(). The stride is the
// width class the width was rounded up to (a power of two of at least 128
// bits, or 3072): every width runs on kernels compiled for its class, so a
// new width never needs a recompile. Bits at and above bits() are always
// zero; every operation reduces its result mod 2^bits().
//
// On a CUDA context the limbs live in device memory and operations are queued
// on the stream given (the context's own by default) without synchronizing,
// except where a function returns host data. On the CPU context the limbs
// live in host memory and operations run through GMP's mpn layer, split over
// threads.
//
// Bad input (mismatched counts or widths, an even Montgomery modulus, a zero
// divisor) throws InvalidArgument naming the function and the reason, before
// any result is written.
//
// On a context over several devices (Context::cuda_devices) a batch is split
// into parts, one a device: contiguous instance ranges whose sizes differ by
// at most one, the larger first (part i holds count/k instances, one more for
// i < count % k). Each part is an ordinary batch in its device's context
// (part(i)); operations queue their work on every device's own stream, then
// return, and conversions gather or scatter the parts in instance order.
// Such a batch has no single buffer: data() is nullptr. Its operations take
// no stream (nullptr, or context().stream()): each part runs on its own
// device's stream, and any other stream throws InvalidArgument.
#pragma once

#include <gmp.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "mpgpu/context.hpp"
#include "mpgpu/integer.hpp"
#include "mpgpu/limb/config.cuh"

namespace mpgpu {

namespace detail {
struct BatchAccess;
}

/// How Batch::to_integers reads an instance: as an unsigned number, or as a
/// two's complement one of the batch's width (its bit bits() - 1 the sign).
enum class InstanceSign { unsigned_values, twos_complement };

class Batch {
 public:
  /// The largest width: 2^18 bits.
  static constexpr std::size_t max_bits = std::size_t{1} << 18;

  Batch() = default;
  /// Copies share the storage (a handle, as Context); clone() copies the limbs.
  Batch(const Batch&) = default;
  Batch& operator=(const Batch&) = default;
  /// Moves leave the source empty (count 0, width 0), never a count without storage.
  Batch(Batch&& other) noexcept;
  Batch& operator=(Batch&& other) noexcept;
  /// `count` zeros of `bits` bits.
  Batch(std::size_t count, std::size_t bits, const Context& ctx = Context::default_context());

  /// From host limbs: `count` instances of `limbs_per_instance` limbs each,
  /// contiguous; each is reduced mod 2^bits.
  static Batch from_limbs(const limb_t* host_limbs, std::size_t count, std::size_t limbs_per_instance,
                          std::size_t bits, const Context& ctx = Context::default_context());
  /// From limbs already in device memory (a CuPy or PyTorch array, another
  /// kernel's output), on a CUDA context: instance i is the
  /// `limbs_per_instance` limbs at device_limbs + i * row_stride_limbs
  /// (row_stride_limbs >= limbs_per_instance; 0 means limbs_per_instance),
  /// reduced mod 2^bits as from_limbs does. One kernel repacks them into the
  /// batch's layout: nothing passes through the host.
  ///
  /// `s` is the stream on which the limbs are ready (the producer's; nullptr:
  /// the context's). The copy is queued on it after the context's queued
  /// work, and the call returns with `s` synchronized, as the other
  /// conversions in do: the batch is ready on every stream, and the source
  /// may be freed or rewritten. `first_over_width`, if given, receives the
  /// first instance that had a bit at or above `bits` (count if none), for
  /// callers that refuse to drop bits.
  ///
  /// InvalidArgument on the CPU context (host memory goes to from_limbs), on a
  /// context over several devices (make the batch on the device that holds
  /// the limbs, then move it with to_context), and for memory that is not
  /// device (or managed) memory of the context's GPU.
  static Batch from_device_limbs(const limb_t* device_limbs, std::size_t count, std::size_t limbs_per_instance,
                                 std::size_t row_stride_limbs, std::size_t bits, const Context& ctx,
                                 Stream s = nullptr, std::size_t* first_over_width = nullptr);
  /// Adopts limbs that are already in the batch's layout in device memory,
  /// without a copy: the batch's storage is `device_limbs` itself (a CuPy or
  /// PyTorch array whose rows are the width class's, another kernel's
  /// output). The conditions, checked (InvalidArgument otherwise): a CUDA
  /// context over one device; `device_limbs` 16-byte aligned (the kernels
  /// load 16 bytes at a time) and in device (or managed) memory of the
  /// context's GPU; it holds count * batch_stride_limbs(bits) limbs, instance
  /// i at device_limbs + i * batch_stride_limbs(bits), padding limbs included.
  /// Every bit at and above `bits` of every instance must be zero (the batch
  /// invariant): unless bits == 64 * batch_stride_limbs(bits), where there
  /// is no such bit, one kernel checks that on the device, and if an
  /// instance has one, nothing is adopted and the result is std::nullopt
  /// (from_device_limbs copies and reduces, and names the instance).
  ///
  /// `s` is as for from_device_limbs: the stream on which the limbs are
  /// ready (nullptr: the context's); the call orders it after the context's
  /// queued work and returns with it synchronized, so the batch is ready on
  /// every stream. `keeper` keeps the memory alive (a DLPack capsule's
  /// owner, a Python array; empty if the caller guarantees that itself): it
  /// is released when the last batch sharing the storage is destroyed, after
  /// the context's stream is synchronized, since work queued there may still
  /// read the limbs (work on other streams must be finished by then, as for
  /// any batch's storage). The batch never frees `device_limbs` itself.
  /// The memory stays shared: writes through its producer change the batch
  /// (order them against the batch's work yourself), and to_context or
  /// clone give an independent copy.
  static std::optional<Batch> adopt_device_limbs(limb_t* device_limbs, std::size_t count, std::size_t bits,
                                                 const Context& ctx, std::shared_ptr<void> keeper, Stream s = nullptr);
  /// From bytes: `count` instances of `bytes_per_instance` bytes in `order`.
  static Batch from_bytes(const void* data, std::size_t count, std::size_t bytes_per_instance,
                          Endian order, std::size_t bits, const Context& ctx = Context::default_context());
  /// From GMP integers (taken mod 2^bits; negative values as two's complement).
  static Batch from_mpz(std::span<const mpz_srcptr> values, std::size_t bits,
                        const Context& ctx = Context::default_context());
  /// Instances drawn uniformly from [0, 2^bits) (host random generator with `seed`).
  static Batch random(std::size_t count, std::size_t bits, std::uint64_t seed,
                      const Context& ctx = Context::default_context());

  /// All instances as limbs_per_instance() limbs each (the stride padding dropped).
  std::vector<limb_t> to_limbs() const;
  /// Each instance as `bytes_per_instance` bytes in `order`, zero-extended;
  /// Overflow, before anything is written, if an instance does not fit.
  void to_bytes(void* out, std::size_t bytes_per_instance, Endian order) const;
  /// Instance `index` into z (one copy and a synchronize per call on a
  /// device: use to_mpz(std::span<const mpz_ptr>) for many).
  void to_mpz(std::size_t index, mpz_ptr z) const;
  void to_mpz(std::span<const mpz_ptr> out) const;
  /// Every instance as an Integer in ctx, read as `sign` says. From a CUDA
  /// batch into a CUDA context of the same device: one kernel finds every
  /// value's size and sign, one copies (negating) every value into its own
  /// device buffer, with one synchronization of the batch's stream in all, so
  /// the values are ready on every stream (Integer::from_device_limbs takes
  /// a synchronization a value). Otherwise through host memory. The batch's
  /// context runs the kernels: a thread with a context of its own may make
  /// Integers for another context's work without waiting for that work.
  /// A batch split over several devices is gathered in instance order.
  /// InvalidArgument if ctx spans several devices (an Integer lives on one).
  std::vector<Integer> to_integers(const Context& ctx, InstanceSign sign = InstanceSign::unsigned_values) const;

  std::size_t count() const { return count_; }
  std::size_t bits() const { return bits_; }
  /// ceil(bits / 64): the limbs that carry data.
  std::size_t limbs_per_instance() const { return (bits_ + 63) / 64; }
  /// Limbs between consecutive instances (the width class).
  std::size_t stride_limbs() const { return stride_limbs_; }
  const Context& context() const { return ctx_; }
  bool empty() const { return count_ == 0; }

  /// Device (CUDA context) or host (CPU context) storage, count() * stride_limbs() limbs;
  /// nullptr on a context over several devices (the limbs are in the parts).
  limb_t* data() { return data_.get(); }
  const limb_t* data() const { return data_.get(); }

  /// The parts on a context over several devices (context().part_count()
  /// of them, in instance order; see the top of this file); 1 otherwise.
  std::size_t part_count() const;
  /// Part i: an ordinary batch in context().part(i) sharing this batch's
  /// storage; the batch itself for part 0 of an ordinary batch.
  /// InvalidArgument for i out of range.
  const Batch& part(std::size_t i) const;

  /// Copy to another context. Between an ordinary context and one over
  /// several devices (or two such contexts) the limbs go through host memory.
  Batch to_context(const Context& ctx) const;
  Batch clone() const { return to_context(ctx_); }
  /// Exchanges the two handles (shape, context and storage): O(1), no device work.
  void swap(Batch& other) noexcept { std::swap(*this, other); }

 private:
  friend struct detail::BatchAccess;
  /// Adopts storage already laid out for (count, bits): the conversions' way in.
  Batch(std::size_t count, std::size_t bits, std::size_t stride, const Context& ctx,
        std::shared_ptr<limb_t> data);

  std::size_t count_ = 0, bits_ = 0, stride_limbs_ = 0;
  // An empty batch's placeholder context: the table's params, so that
  // default construction reads no environment (TuningParams::from_environment).
  Context ctx_ = Context::cpu(TuningParams::defaults());
  std::shared_ptr<limb_t> data_;
  // On a context over several devices, the parts (data_ is then empty);
  // shared by copies as data_ is.
  std::shared_ptr<std::vector<Batch>> parts_;
};

inline void swap(Batch& a, Batch& b) noexcept { a.swap(b); }

/// Width class (in 64-bit limbs) that a width in bits runs on.
std::size_t batch_stride_limbs(std::size_t bits);

// ---- element-wise operations: results mod 2^r.bits() -----------------------------------
// r may alias any operand. Unless stated, all operands have the same count, bits and
// context; r is given new storage in that shape and context unless it has it already
// (then it is written in place: copies of r share its storage).

/// r = a + b; carry (optional, count() x 1 bit) receives the carry out of bit bits().
/// An empty carry batch becomes count() x 1 bit; a non-empty one must have a's
/// count and context (it keeps its width) and be apart from r, a and b.
void add(Batch& r, const Batch& a, const Batch& b, Batch* carry = nullptr, Stream s = nullptr);
/// r = a - b; borrow (optional, 1 bit) receives 1 where a < b.
void sub(Batch& r, const Batch& a, const Batch& b, Batch* borrow = nullptr, Stream s = nullptr);
/// r = a + v / a - v / a * v for a 64-bit scalar (mod 2^bits).
void add_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s = nullptr);
void sub_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s = nullptr);
void mul_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s = nullptr);

/// Low half: r = a * b mod 2^bits.
void mul(Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);
/// High half: r = floor(a * b / 2^bits).
void mul_high(Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);
/// Whole product: r.bits() == 2 * a.bits().
void mul_wide(Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);
void sqr(Batch& r, const Batch& a, Stream s = nullptr);

void and_(Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);
void ior(Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);
void xor_(Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);
/// r = ~a within bits().
void com(Batch& r, const Batch& a, Stream s = nullptr);
/// Shifts and rotates within bits() (counts >= bits() give 0, rotates take count mod bits()).
void shift_left(Batch& r, const Batch& a, std::size_t count, Stream s = nullptr);
void shift_right(Batch& r, const Batch& a, std::size_t count, Stream s = nullptr);
void rotate_left(Batch& r, const Batch& a, std::size_t count, Stream s = nullptr);
void rotate_right(Batch& r, const Batch& a, std::size_t count, Stream s = nullptr);

// ---- division (a zero divisor throws InvalidArgument "division by zero" before anything
// is written; on a CUDA context that check reads one value back, so these synchronize) ----
/// q = floor(a / d), r = a mod d for a 64-bit d != 0 (r as wide as a).
void div_ui(Batch& q, const Batch& a, std::uint64_t d, Stream s = nullptr);
void rem_ui(Batch& r, const Batch& a, std::uint64_t d, Stream s = nullptr);
/// q = floor(a / b) and r = a mod b, per instance; q and r are distinct batches (not
/// sharing storage), either may be a or b.
void div_qr(Batch& q, Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);
void div(Batch& q, const Batch& a, const Batch& b, Stream s = nullptr);
void rem(Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);
/// The wide forms: a is twice as wide as b (a.bits() == 2 * b.bits(), a double-width value
/// such as mul_wide's product). q = floor(a / b) has a's width (the whole quotient: no
/// condition on a's high half), r = a mod b has b's. Otherwise as div_qr, div and rem.
void div_qr_wide(Batch& q, Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);
void div_wide(Batch& q, const Batch& a, const Batch& b, Stream s = nullptr);
void rem_wide(Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);

// ---- gcd and inverse ---------------------------------------------------------------------
/// r = gcd(a, b); gcd(a, 0) = a, gcd(0, 0) = 0.
void gcd(Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);
/// r = a^-1 mod m (any a, also >= m; any m > 0, also even; a^-1 mod 1 = 0).
/// InvalidArgument if some m is 0 or some a has no inverse, with r and the
/// operands as they were (the inverse is computed into a temporary first, so
/// this synchronizes).
void invert(Batch& r, const Batch& a, const Batch& m, Stream s = nullptr);

// ---- signed: two's complement at the logical width (bit bits() - 1 is the sign) --------
// add, sub, mul, sqr, shift_left and the scalar forms are the same for signed values.
/// Sign of a - b per instance, as signed numbers (synchronizes).
std::vector<int> compare_signed(const Batch& a, const Batch& b, Stream s = nullptr);
/// r = floor(a / 2^count) as signed numbers: copies of the sign shifted in
/// (count >= bits() gives 0 or -1).
void shift_right_arithmetic(Batch& r, const Batch& a, std::size_t count, Stream s = nullptr);
/// High half of the signed product: r = floor(a * b / 2^bits) as signed numbers.
void mul_high_signed(Batch& r, const Batch& a, const Batch& b, Stream s = nullptr);

// ---- per-instance answers (returned to the host; these synchronize) -------------------
/// Sign of a - b per instance (-1, 0, 1).
std::vector<int> compare(const Batch& a, const Batch& b, Stream s = nullptr);
/// Per instance: a == b (the same kernel as compare).
std::vector<bool> equals(const Batch& a, const Batch& b, Stream s = nullptr);
/// Per instance: set bits, leading zeros within bits(), trailing zeros (bits() for 0).
std::vector<std::uint32_t> popcount(const Batch& a, Stream s = nullptr);
std::vector<std::uint32_t> count_leading_zeros(const Batch& a, Stream s = nullptr);
std::vector<std::uint32_t> count_trailing_zeros(const Batch& a, Stream s = nullptr);

// ---- modular: every modulus odd and > 1 (InvalidArgument otherwise) --------------------
// Montgomery form with R = 2^(64 * stride_limbs()) of the modulus batch.
/// r = a * R mod m (any a, also a >= m).
void to_montgomery(Batch& r, const Batch& a, const Batch& m, Stream s = nullptr);
/// r = a / R mod m.
void from_montgomery(Batch& r, const Batch& a, const Batch& m, Stream s = nullptr);
/// r = a * b / R mod m for a, b < m in Montgomery form.
void montgomery_mul(Batch& r, const Batch& a, const Batch& b, const Batch& m, Stream s = nullptr);
/// r = a * a / R mod m for a < m in Montgomery form (the square: about half a product's
/// multiply-adds on the GPU).
void montgomery_sqr(Batch& r, const Batch& a, const Batch& m, Stream s = nullptr);
/// Montgomery reduction of a double-width value: r = a / R mod m, with a twice as wide as m
/// (a.bits() == 2 * m.bits(), e.g. mul_wide's product) and any value of that width (a below
/// m R is not required: a's high half is reduced mod m first). r has m's width.
void montgomery_reduce(Batch& r, const Batch& a, const Batch& m, Stream s = nullptr);
/// How powm walks the exponent (the result is the same):
/// - fixed: 4-bit windows, the same schedule for every instance (b squarings
///   and b/4 products for a b-bit exponent, 14 to fill the table);
/// - sliding: windows of up to 5 bits (fewer for narrow classes) that begin and
///   end with a 1 bit, per instance (about b + b/6 products, 16 to fill the
///   table of odd powers); instances run in step, so a warp takes as many
///   products as its longest schedule.
enum class PowmWindow { fixed, sliding };

/// r = base^exp mod m (any base, also >= m; exp of any width whose class is at most
/// m's, i.e. exp.stride_limbs() <= m.stride_limbs(); 0^0 = 1 mod m). Sliding windows
/// for classes of 512 bits and more, fixed below (sliding measured faster from 512
/// bits up and about even at 256; docs/batch.md).
void powm(Batch& r, const Batch& base, const Batch& exp, const Batch& m, Stream s = nullptr);
/// powm with the window method chosen.
void powm(Batch& r, const Batch& base, const Batch& exp, const Batch& m, PowmWindow window, Stream s = nullptr);

}  // namespace mpgpu
