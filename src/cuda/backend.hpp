// The CUDA backend as the host API sees it: plain functions over device
// pointers, declared for g++ and defined in the .cu files (or, in a build
// without CUDA, by cuda_unavailable.cpp, which throws BackendUnavailable).
//
// Conventions (GMP's mpn style): destination first; operands are (pointer,
// size) with normalized sizes; the destination has the capacity the function
// states and never aliases an operand (the host API always gives a fresh
// buffer). Functions that return a size compute it on the device and
// publish it as result words (docs/architecture.md); those returning
// `Deferred` do not wait for it (the caller reads it when needed,
// cuda/result_words.hpp), the others wait for it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "context/context_state.hpp"
#include "cuda/result_words.hpp"
#include "mpgpu/device/pow2_digits.cuh"
#include "mpgpu/device/radix_leaves.cuh"
#include "mpgpu/device/slot_rows.cuh"
#include "mpgpu/limb/config.cuh"
#include "mpgpu/limb/twos_complement.cuh"

namespace mpgpu::detail::cuda {

struct Operand {
  const limb_t* limbs;  // device memory
  std::size_t size;     // limbs, normalized
};

// ---- runtime (runtime.cu) -------------------------------------------------------
int device_count() noexcept;
void init_context(ContextState& st, int device);
void destroy_context(ContextState& st) noexcept;
DeviceInfo device_info(int device);
/// Stream-ordered pool allocation; throws OutOfMemory with the bytes asked
/// and the bytes free.
void* allocate(ContextState& st, Stream s, std::size_t bytes);
void deallocate(ContextState& st, Stream s, void* p) noexcept;
/// The CUDA device whose memory `p` points into (device memory, or managed
/// memory: the device it was allocated on); -1 for host memory, pinned or
/// not, and for addresses CUDA does not know. For checking pointers that
/// callers hand in as device memory (Batch::from_device_limbs).
int pointer_device(const void* p) noexcept;
/// Host -> device copy; returns once the host buffer may be reused. A copy
/// of fewer than the staging threshold (1 MiB) and at most a quarter of the
/// context's upload ring (upload_ring.hpp, MPGPU_UPLOAD_RING_BYTES) does NOT
/// wait for the stream: the bytes go through the ring and their transfer is
/// queued on s. The destination is then ready for work queued after it on
/// s, and on the context's stream (a copy on another stream makes the
/// context's stream wait for it), so for every stream that orders itself
/// after the context's stream (ResultWordsLease and order_after_context do). It is
/// not ready for a stream ordered after neither (the Batch, gfp and public
/// NTT kernels: data they read goes up with copy_to_device_synchronous);
/// freeing dst must be ordered after the copy too (deallocate on s or on
/// the context's stream is). Larger copies, and all copies without a ring,
/// synchronize s.
void copy_to_device(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes);
/// The same, always returning with s synchronized (the destination is ready
/// for every stream): for data that work on arbitrary streams reads without
/// ordering itself after the context's stream.
void copy_to_device_synchronous(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes);
/// Host limbs and the device limbs they go to (copy_pieces_to_device).
struct HostLimbs {
  limb_t* dst;
  const limb_t* src;
  std::size_t limbs;
};
/// copy_to_device for many pieces at once, as one: the pieces that fit the
/// context's upload ring go in groups, each group's limbs and a table of
/// where they go memcpy'd into one region, then ONE kernel reads the region
/// (pinned memory is mapped into the device's address space) and writes
/// every piece, and one event guards the region; pieces the ring does not
/// take, and all of them without a ring, go one by one through
/// copy_to_device. Why: a binary-splitting merge of host nodes uploads
/// four to six values of 2^17 bits, and per value a DMA, an event and
/// their API calls cost the calling thread several times the bytes' time
/// (docs/workloads.md, "Uploads together"). Ordering as copy_to_device
/// (ready on s and on the context's stream).
void copy_pieces_to_device(ContextState& st, Stream s, const HostLimbs* pieces, std::size_t count);
/// Makes s wait (on the device, no host wait) for the work queued so far on
/// the context's stream; nothing when s is that stream. Every entry point
/// here that reads Integer operands calls it (or makes a ResultWordsLease) before
/// its first work: an operand may have been uploaded (copy_to_device) or
/// written on the context's stream and still be in flight.
void order_after_context(ContextState& st, Stream s);
/// Device -> host copy; returns with the data in dst (it synchronizes s).
/// It and copy_on_device order s after the context's stream first.
void copy_to_host(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes);
void copy_on_device(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes);
/// For fresh host memory that the caller must touch before copy_to_host
/// fills it (a vector's zero fill): asks for huge pages and faults the
/// pages in on the context's copy threads. Contents are unchanged; does
/// nothing for copies that would not be staged.
void prepare_host_destination(ContextState& st, void* dst, std::size_t bytes);
void synchronize(Stream s);
/// r[0..n) = 2^64 - 1, or 0.
void fill(ContextState& st, Stream s, limb_t* r, std::size_t n, limb_t value);

// ---- add and sub (add_sub.cu) -----------------------------------------------------
/// r = |a| + |b| + carry_in, a.size >= b.size; r has room for a.size + 1 limbs.
/// The _scalar forms take b as one limb. The size is the deferred kSlotSize.
Deferred add_abs(ContextState& st, Stream s, limb_t* r, Operand a, Operand b);
Deferred add_abs_scalar(ContextState& st, Stream s, limb_t* r, Operand a, limb_t b);
/// r = |a| - |b|, requires |a| >= |b|; r has room for a.size limbs.
Deferred sub_abs(ContextState& st, Stream s, limb_t* r, Operand a, Operand b);
Deferred sub_abs_scalar(ContextState& st, Stream s, limb_t* r, Operand a, limb_t b);
/// r = ||a| - |b|| for a and b of equal size n, comparing them on the device;
/// the deferred words hold the size and the order (order_of: the sign of
/// |a| - |b|). r has room for n limbs.
Deferred sub_abs_ordered(ContextState& st, Stream s, limb_t* r, const limb_t* a, const limb_t* b, std::size_t n);

// ---- searches (limb_search.cu) ----------------------------------------------------
/// Sign of |a| - |b| for operands of equal size n.
int cmp_same_size(ContextState& st, Stream s, const limb_t* a, const limb_t* b, std::size_t n);
/// Index of the lowest nonzero limb of a (a.size if none).
std::size_t lowest_nonzero(ContextState& st, Stream s, Operand a);
/// 1 + index of the highest nonzero limb of a (0 if a is all zeros).
std::size_t normalized_size(ContextState& st, Stream s, Operand a);
/// True if any of the low `bits` bits of a is set.
bool any_low_bits(ContextState& st, Stream s, Operand a, std::uint64_t bits);

// ---- shifts (shift.cu) -------------------------------------------------------------
/// r = |a| << bits; r has room for a.size + bits/64 + 1 limbs. Size deferred.
Deferred shift_left(ContextState& st, Stream s, limb_t* r, Operand a, std::uint64_t bits);
/// r = |a| >> bits; r has room for a.size - bits/64 limbs (bits/64 < a.size). Size deferred.
Deferred shift_right(ContextState& st, Stream s, limb_t* r, Operand a, std::uint64_t bits);

// ---- bitwise (bitwise.cu) ------------------------------------------------------------
/// Two's-complement and/ior/xor of sign-magnitude operands. r has room for
/// max(a.size, b.size) + 1 limbs and receives the result's magnitude; the
/// result's sign is limb::bitwise_result_negative(op, ...). Size deferred.
Deferred bitwise(ContextState& st, Stream s, limb::BitwiseOp op, limb_t* r, Operand a,
                    bool a_negative, Operand b, bool b_negative);

// ---- products (ntt_mul.cu) ------------------------------------------------------------
/// r = |a| * |b| through three-prime NTTs (a squaring when a and b are the
/// same vector); r has room for a.size + b.size + 2 limbs. Size deferred.
Deferred mul_abs(ContextState& st, Stream s, limb_t* r, Operand a, Operand b);
/// Products whose transforms have at most 2^kMulSidePrimesMaxLog points
/// (times the batch of a chunked product) run their three primes side by
/// side on three streams (ntt_mul.cu). Up to 2^20 points a pass has at most
/// 256 tiles of 2^12, fewer than the ~400 resident at once (three blocks
/// on each of 132 SMs); docs/integer.md, "Where products run". The tuning
/// table's value, the default of TuningParams::side_primes_max_log.
inline constexpr int kMulSidePrimesMaxLog = tuning::table::kMulSidePrimesMaxLog;
/// r = |a| * |b| by columns (mul_short.cu) for min(a.size, b.size) <=
/// kMulSchoolbookMaxLimbs: a thread per column up to kMulShortMaxLimbs
/// (linear in the long operand), a warp per column above (na * nb limb
/// products); r has room for a.size + b.size + 3 limbs. Size deferred.
inline constexpr std::size_t kMulShortMaxLimbs = 32;
inline constexpr std::size_t kMulSchoolbookMaxLimbs = 8192;
Deferred mul_columns(ContextState& st, Stream s, limb_t* r, Operand a, Operand b);
/// One product of mul_abs_each: r = |a| * |b| by columns (mul_columns,
/// r: a.size + b.size + 3 limbs) or by NTTs (mul_abs, + 2 limbs).
struct ProductJob {
  limb_t* r;
  Operand a, b;
  bool by_columns;
};
/// Independent products at once (mul_each.cu): those of one transform
/// length in the primes-side-by-side range (up to the context's
/// mul_each_batch_max_log) as one batched product, the others each on
/// branch i mod 4 of a StreamFork of s (stream_fork.hpp); out[i] is job i's
/// deferred size.
/// No job's r may be another job's operand. Returns with s ordered after
/// every job, so that frees on s of the r's and operands come after them.
void mul_abs_each(ContextState& st, Stream s, const ProductJob* jobs, Deferred* out, std::size_t count);

// ---- division by one limb (div_limb.cu) ----------------------------------------------
/// q = floor(|a| / d) (q has room for a.size limbs; nullptr: not stored) and
/// |a| mod d, published in kSlotFound and, unless r is nullptr, written to
/// r[0]. kSlotSize is the quotient's size, or with publish_remainder_size
/// the remainder's (0 or 1). Requires a.size >= 1 and d != 0. Size deferred.
Deferred divrem_limb(ContextState& st, Stream s, limb_t* q, limb_t* r, Operand a, limb_t d,
                    bool publish_remainder_size);

// ---- the public NTT (ntt_public.cu) -------------------------------------------------
/// In place on `batch` transforms of 2^log_n canonical residues mod p (see
/// include/mpgpu/ntt.hpp for the conventions); `generator` is a primitive
/// root mod p. Twiddles are cached in the context.
void ntt_transform(ContextState& st, Stream s, std::uint64_t* data, std::size_t batch, int log_n,
                   std::uint64_t p, std::uint64_t generator, bool forward, bool bit_reversed);
/// The same on 32-bit words, p < 2^32 (ntt_public32.cu).
void ntt_transform32(ContextState& st, Stream s, std::uint32_t* data, std::size_t batch, int log_n,
                     std::uint32_t p, std::uint64_t generator, bool forward, bool bit_reversed);

// ---- products mod a word-size prime (ntt_poly.cu) -----------------------------------
/// Index of the first x[i] >= p (n if none), its value in `value`; synchronizes s.
std::size_t ntt_first_unreduced(ContextState& st, Stream s, const std::uint64_t* x, std::size_t n,
                                std::uint64_t p, std::uint64_t& value);
std::size_t ntt_first_unreduced(ContextState& st, Stream s, const std::uint32_t* x, std::size_t n,
                                std::uint32_t p, std::uint32_t& value);
/// out[i] = a[i] b[i] mod p (residues < p); out may equal a or b.
void ntt_pointwise(ContextState& st, Stream s, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b,
                   std::size_t count, std::uint64_t p);
/// `batch` products c = a * b mod p of residue polynomials (lengths >= 1),
/// schoolbook or through 2^log_n-point NTTs; c may overlap a or b.
void poly_mul_schoolbook(ContextState& st, Stream s, std::uint64_t* c, const std::uint64_t* a, std::size_t len_a,
                         const std::uint64_t* b, std::size_t len_b, std::size_t batch, std::uint64_t p);
void poly_mul_ntt(ContextState& st, Stream s, std::uint64_t* c, const std::uint64_t* a, std::size_t len_a,
                  const std::uint64_t* b, std::size_t len_b, std::size_t batch, int log_n, std::uint64_t p,
                  std::uint64_t generator);

// ---- the big prime FFT (gfp_fft.cu) -------------------------------------------------
/// In place on the digit-major vector x of n = (2k)^e elements of Z/pZ,
/// p = radix^k + 1, k in {8, 16, 32}: dir = +1 forward, -1 inverse (see
/// include/mpgpu/gfp.hpp). table: device, omega^0 .. omega^(n-1)
/// element-major; scale: host, k digits (N^-1) applied at the end, or null.
void gfp_fft(ContextState& st, Stream s, int k, std::uint64_t radix, std::uint64_t* x, std::size_t n, int e,
             const std::uint64_t* table, int dir, const std::uint64_t* scale);
/// out[i] = a[i] * b[i] for n digit-major elements of that field (device
/// words; out may be a or b). Asynchronous on s. (gfp_pointwise.cu)
void gfp_pointwise_mul(ContextState& st, Stream s, int k, std::uint64_t radix, std::uint64_t* out,
                       const std::uint64_t* a, const std::uint64_t* b, std::size_t n);

// ---- rows of slots (slot_rows.cu; include/mpgpu/device/slot_rows.cuh) ---------------
/// dst[s pitch + l] = device::gathered_limb(sources, groups, s, l) for every
/// s < slots and l < pitch (groups 1 or 2 sources). dst holds slots * pitch
/// limbs and aliases no source.
void gather_slots(ContextState& st, Stream s, limb_t* dst, std::size_t slots, std::size_t pitch,
                  const device::SlotSource* sources, int groups);
/// One correction step (device::corrected_limb) into r_out and c_out (slots
/// * pitch limbs each); returns whether any slot stepped (synchronizes s).
bool correct_slots(ContextState& st, Stream s, limb_t* r_out, limb_t* c_out, Operand r, Operand t, Operand c,
                   std::size_t slots, std::size_t pitch);

// ---- radix leaves (radix_leaves.cu; include/mpgpu/device/radix_leaves.cuh) ---------------
/// The first `slots` slots of the row (pitch limbs each, row_size limbs in
/// all, destroyed) as text into out[0 .. slots * width) (host memory, most
/// significant slot first; copied back, synchronizes s). Returns false if a
/// slot did not fit in width digits.
bool radix_leaves_to_text(ContextState& st, Stream s, char* out, limb_t* row, std::size_t row_size,
                          std::size_t slots, std::size_t pitch, std::size_t width, const device::LimbDivisor& chunk,
                          int digits, int base, const device::RadixAlphabet& alphabet);

// ---- text in bases 2^k (pow2_digits.cu; include/mpgpu/device/pow2_digits.cuh) ---------
/// out[0..digits) = the digits of |a| in base 2^k (k = 1..5), most
/// significant first, as `alphabet`'s characters; out is host memory
/// (copied back; synchronizes s).
void pow2_to_text(ContextState& st, Stream s, char* out, Operand a, std::size_t digits, int k,
                  const device::Pow2Alphabet& alphabet);
/// r[0..limbs) = the value of the characters text[0..len) (host memory,
/// already validated) in base 2^k, limbs = ceil(len k / 64).
void pow2_from_text(ContextState& st, Stream s, limb_t* r, std::size_t limbs, const char* text, std::size_t len,
                    int k, const device::Pow2DigitValues& values);

// ---- reductions (reduce.cu) -----------------------------------------------------------
std::uint64_t popcount(ContextState& st, Stream s, Operand a);
/// r = sum of the magnitudes of `count` terms (host array of device operands).
/// r has room for max size + 2 limbs. Size deferred (nullptr: every term is
/// zero, so is r).
Deferred sum_abs(ContextState& st, Stream s, limb_t* r, const Operand* terms, std::size_t count);

}  // namespace mpgpu::detail::cuda
