// The batch operations as the backends see them: one argument record per
// call, run by the CPU backend (batch_cpu.cpp, GMP mpn per instance, threaded)
// or the CUDA backend (cuda/batch_*.cu). The host API (batch_core.cpp,
// batch_ops.cpp) has already checked counts, widths and moduli, allocated r
// and `answers`, and guarantees that r does not alias an operand unless the
// operation is element-wise in place-safe (every op here reads an instance
// completely before writing it, so r == a or r == b is allowed).
#pragma once

#include <cstddef>
#include <cstdint>

#include "context/context_state.hpp"
#include "mpgpu/limb/config.cuh"
#include "series_leaf.hpp"

namespace mpgpu::detail::batch {

enum class Op {
  add,        // r = a + b; flag = carry out of bit `bits`
  sub,        // r = a - b; flag = borrow
  add_ui,     // r = a + scalar
  sub_ui,     // r = a - scalar
  mul_ui,     // r = a * scalar
  mul_low,    // r = a * b mod 2^bits
  mul_high,   // r = floor(a * b / 2^bits)
  mul_wide,   // r = a * b, r has 2 * bits bits (r_bits, r_stride)
  sqr,        // r = a * a mod 2^bits
  and_,
  ior,
  xor_,
  com,        // r = ~a mod 2^bits
  shl,        // r = a << scalar mod 2^bits (scalar < bits)
  shr,        // r = a >> scalar (scalar < bits)
  rotl,       // rotate left within bits by scalar (0 < scalar < bits)
  rotr,
  compare,    // answers[i] = sign(a - b) as int32
  popcount,   // answers[i]
  clz,        // answers[i] = leading zeros within bits
  ctz,        // answers[i] = trailing zeros (bits for zero)
  to_mont,    // r = a * R mod m, R = 2^(64 * stride)
  from_mont,  // r = a / R mod m
  mont_mul,   // r = a * b / R mod m
  mont_sqr,   // r = a * a / R mod m
  mont_reduce,  // r = b / R mod m for a double-width b (b_stride limbs; any b < R^2); a unused
  powm,       // r = a ^ e mod m (e: exp, exp_stride limbs), fixed 4-bit windows
  powm_sliding,  // the same by sliding windows
  div_ui,     // r = floor(a / scalar), scalar != 0
  rem_ui,     // r = a mod scalar, scalar != 0
  div_qr,     // r = floor(a / b) unless null, r2 = a mod b unless null; b != 0; b and r2 may
              // be narrower than a (div_qr_wide: b_stride, r2_stride)
  gcd,        // r = gcd(a, b)
  invert,     // r = a^-1 mod m; answers[i] = 0, or nonzero where there is none (r = 0 there)
  cmp_signed, // answers[i] = sign(a - b) as int32, a and b two's complement of `bits` bits
  sar,        // r = a >> scalar with copies of bit bits - 1 (0 < scalar < bits)
  mul_high_signed,  // r = floor(a * b / 2^bits), signed, as `bits`-bit two's complement
};

struct Args {
  Op op = Op::add;
  std::size_t count = 0;
  std::size_t bits = 0;      // width of a, b, m (and of r except for mul_wide)
  std::size_t stride = 0;    // limbs between instances of a, b, m
  std::size_t r_bits = 0;    // width of r (2 * bits for mul_wide, else bits)
  std::size_t r_stride = 0;  // limbs between instances of r
  limb_t* r = nullptr;
  limb_t* r2 = nullptr;      // div_qr's remainder (r2_step() limbs between instances)
  const limb_t* a = nullptr;
  const limb_t* b = nullptr;
  const limb_t* m = nullptr;
  const limb_t* e = nullptr;     // powm exponent
  std::size_t e_stride = 0;      // <= stride (exponent zero-extended to the class)
  limb_t* flag = nullptr;        // optional carry/borrow batch: limb 0 = 0 or 1, other limbs 0
  std::size_t flag_stride = 0;
  std::uint32_t* answers = nullptr;  // backend memory, count entries
  std::uint64_t scalar = 0;
  std::size_t b_stride = 0;   // limbs between instances of b when it differs from a's (0: stride)
  std::size_t r2_stride = 0;  // limbs between instances of r2 (0: r_stride)

  std::size_t b_step() const { return b_stride ? b_stride : stride; }
  std::size_t r2_step() const { return r2_stride ? r2_stride : r_stride; }
};

/// The CPU backend (GMP mpn), threaded over instances.
void run_cpu(const Args& args);

namespace cuda {
/// The CUDA backend: queues the kernels on `stream`; does not synchronize.
void run(ContextState& st, Stream stream, const Args& args);
/// True if any modulus (low limb of each instance of m) is even or m == 1;
/// synchronizes. Used by the host API before Montgomery operations.
bool any_bad_modulus(ContextState& st, Stream stream, const limb_t* m, std::size_t count,
                     std::size_t stride);
/// The first instance of x that is zero, or `count` if none; synchronizes.
/// Used by the host API before divisions.
std::size_t first_zero_instance(ContextState& st, Stream stream, const limb_t* x, std::size_t count,
                                std::size_t stride);
/// dst (count instances of `stride` limbs: a batch's layout) from device
/// limbs: instance i is src[i * row_stride .. + limbs). Limbs beyond the
/// class are dropped, bits at and above `bits` cleared, the padding zeroed
/// (batch_repack.cu). Returns the first instance that had a bit at or above
/// `bits` (count if none); synchronizes `stream`. dst and src must not overlap.
/// With dst == nullptr nothing is written: only the check runs
/// (Batch::adopt_device_limbs, with limbs == row_stride == stride).
std::size_t repack_device_limbs(ContextState& st, Stream stream, limb_t* dst, std::size_t stride, std::size_t bits,
                                const limb_t* src, std::size_t count, std::size_t limbs, std::size_t row_stride);
/// series_leaves' kernel (batch_series.cu): the leaves of `ranges` (a, b
/// pairs on the host, 2 * range_count words) at `depth` into P, Q, T
/// (range_count << depth instances of `stride` limbs, width `bits`), as
/// series_leaf does each. Queued on `stream`; returns once the ranges are
/// copied.
void series_leaves(ContextState& st, Stream stream, const SeriesTermsPod& terms, const std::uint64_t* ranges,
                   std::size_t range_count, unsigned depth, limb_t* P, limb_t* Q, limb_t* T, std::size_t stride,
                   std::size_t bits);
/// Batch::to_integers' first kernel (batch_integers.cu): each instance's
/// record as a value (instance_record_* below) into `records` (host, count
/// entries); synchronizes `stream`.
void instance_records(ContextState& st, Stream stream, const limb_t* a, std::size_t count, std::size_t stride,
                      std::size_t bits, bool twos_complement, std::uint64_t* records);
/// Its second: instance i's magnitude (records[i], host) to dst[i] (host
/// table of device pointers, each with room for the record's size);
/// synchronizes `stream`.
void write_magnitudes(ContextState& st, Stream stream, const limb_t* a, std::size_t count, std::size_t stride,
                      std::size_t bits, const std::uint64_t* records, limb_t* const* dst);
}  // namespace cuda

/// An instance's record (instance_records): the magnitude's limb count in
/// bits 0-31, the lowest nonzero limb in 32-62 (where a negation starts to
/// flip), bit 63 set for a negative value.
MPGPU_HD std::uint64_t instance_record(std::size_t size, std::size_t low, bool negative) {
  return static_cast<std::uint64_t>(size) | static_cast<std::uint64_t>(low) << 32 |
         static_cast<std::uint64_t>(negative) << 63;
}
MPGPU_HD std::size_t instance_record_size(std::uint64_t r) { return static_cast<std::uint32_t>(r); }
MPGPU_HD std::size_t instance_record_low(std::uint64_t r) { return static_cast<std::size_t>((r >> 32) & 0x7fffffffu); }
MPGPU_HD bool instance_record_negative(std::uint64_t r) { return (r >> 63) != 0; }

}  // namespace mpgpu::detail::batch
