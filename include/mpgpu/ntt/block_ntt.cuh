// The device NTT over a word-size prime: one kernel per pass of the schedule
// in block_plan.hpp, each pass one trip through device memory.
//
// Arithmetic: plain residues (no Montgomery form), twiddle products by
// Shoup's method with precomputed quotients (w, floor(w 2^64 / p)): 3 64-bit
// products (~10 IMAD on sm_90) against Montgomery's 3 full ones (~14) and no
// conversion passes. For p < 2^62 with 2^32 dividing p - 1 (every prime of
// ntt_primes62) reduction is lazy (Harvey's butterflies, one conditional
// subtraction per butterfly): forward values lie in [0, 2p), inverse values
// in [0, 4p) (4p < 2^64; Shoup's lazy product < 2p for any 64-bit input);
// the output is made canonical in the last pass; and q p in Shoup's product
// costs one 32-bit product (PassArith::mul). For other primes (Goldilocks,
// the 31- and 32-bit ones, any other prime the public API accepts) the same
// kernels run with canonical arithmetic (kLazy = false).
//
// Inside a block: a tile of 2^k rows x 2^log_c columns; each thread owns 16
// elements, and does up to 3 stages at a time in registers (radix-8 units:
// 8 elements at row spacing 2^low, two units per thread), so a 12-stage
// pass costs 4 shared-memory round trips and 3 __syncthreads instead of 12.
// A round first loads all 16 of a thread's elements (16 loads in flight),
// then computes, then stores. The first round reads straight from global
// memory and the last writes straight back (except on a permuting pass).
// The smallest stages (low == 0) know at compile time which butterflies
// have twiddle 1 and skip their products (7 of 12 in a radix-8 unit).
// Registers: 114-128 of the 128 that __launch_bounds__(512, 1) allows
// (ptxas, CUDA 13.0); a 64-register cap (two 512-thread blocks per SM, or 8
// words a thread) spilled 300-600 bytes, so a 2^13 tile runs one block per
// SM. Tiles of 2^12 (256 threads; several-pass transforms and batches of
// short ones) run the lazy kernels at 80 registers, three blocks per SM
// (launch_block_pass_direction); the common shapes of such passes (6, 7,
// 10 and 12 stages) run kernels with the shape compiled in
// (block_pass_fixed_kernel), the others one generic kernel.
//
// Twiddles: `inner` holds w_(2^(j+1))^i for the in-block stages, one row per
// stage (2^13 entries, 128 KiB at most, a round touches 3 rows), read
// through the L1 cache; the cross
// twiddle w^e (e < 2^L) is lo[e mod 2^B] * hi[e >> B] (B = ceil(L/2)), two
// Shoup products from two small tables instead of a gather from a table as
// large as the data. Where the schedule allows (2^24 points: 6 + 6 + 12
// stages), the top pass's cross twiddles move into the next pass, which
// needs one product for them (block_fold_cross): the top pass then moves
// its data without twiddle products.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "mpgpu/field/prime_field64.cuh"
#include "mpgpu/ntt/block_plan.hpp"
#include "mpgpu/limb/smem_limit.cuh"

namespace mpgpu::ntt {

inline constexpr int kBlockMaxThreads = 1 << (kBlockTileLog - kBlockPerThreadLog);  // 512
/// Longest digit (limbs) an operand load reduces into one element.
inline constexpr int kBlockMaxDigitLimbs = 4;

// ---- twiddle tables -------------------------------------------------------------------------------

/// Layout of the tables of one (p, L), as (w, shoup(w)) pairs, in this order:
/// inner forward, inner inverse (2^K each, K = min(L, 13)), cross forward
/// lo (2^B), hi (2^(L-B)), cross inverse lo, hi (B = ceil(L/2)).
/// The inner table is one row per stage: row j (half-size 2^j) holds
/// w_(2^(j+1))^i for i < 2^j at offset 2^j - 1 (the last entry is padding),
/// so that the lanes of a warp, which take consecutive positions i, read
/// consecutive entries (2 cache lines a warp instead of up to 16 with one
/// table of w_(2^K)^m read at stride 2^(K-1-j)).
struct BlockTableLayout {
  int log_n, inner_log, cross_bits;
  std::size_t inner_count, lo_count, hi_count;
  __host__ __device__ static BlockTableLayout make(int log_n) {
    BlockTableLayout t{};
    t.log_n = log_n;
    t.inner_log = log_n < kBlockTileLog ? log_n : kBlockTileLog;
    t.cross_bits = (log_n + 1) / 2;
    t.inner_count = std::size_t{1} << t.inner_log;
    t.lo_count = std::size_t{1} << t.cross_bits;
    t.hi_count = std::size_t{1} << (log_n - t.cross_bits);
    return t;
  }
  __host__ __device__ std::size_t entries() const { return 2 * (inner_count + lo_count + hi_count); }
  __host__ __device__ std::size_t bytes() const { return entries() * sizeof(ulonglong2); }
};

struct BlockTables {
  const ulonglong2* inner_fwd;
  const ulonglong2* inner_inv;
  const ulonglong2* lo_fwd;
  const ulonglong2* hi_fwd;
  const ulonglong2* lo_inv;
  const ulonglong2* hi_inv;
  int log_n, inner_log, cross_bits;

  static BlockTables view(const void* base, int log_n) {
    const BlockTableLayout l = BlockTableLayout::make(log_n);
    const ulonglong2* t = static_cast<const ulonglong2*>(base);
    BlockTables v{};
    v.inner_fwd = t;
    v.inner_inv = v.inner_fwd + l.inner_count;
    v.lo_fwd = v.inner_inv + l.inner_count;
    v.hi_fwd = v.lo_fwd + l.lo_count;
    v.lo_inv = v.hi_fwd + l.hi_count;
    v.hi_inv = v.lo_inv + l.lo_count;
    v.log_n = log_n;
    v.inner_log = l.inner_log;
    v.cross_bits = l.cross_bits;
    return v;
  }
};

/// Fills the tables of BlockTableLayout::make(log_n) at `out`; w: a primitive
/// 2^log_n-th root (plain residue), w_inv its inverse. One entry per thread
/// (a pow and a 64-step Shoup division: set-up only, cached by the caller).
static __global__ void block_table_kernel(ulonglong2* out, field::PrimeField64 f, std::uint64_t w,
                                          std::uint64_t w_inv, int log_n) {
  const BlockTableLayout l = BlockTableLayout::make(log_n);
  std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= l.entries()) return;
  std::uint64_t root = w, e = 0;
  if (i < 2 * l.inner_count) {
    if (i >= l.inner_count) {
      root = w_inv;
      i -= l.inner_count;
    }
    int j = 0;  // row: 2^j - 1 <= i < 2^(j+1) - 1
    while ((std::size_t{2} << j) - 1 <= i) ++j;
    e = j < log_n ? std::uint64_t(i + 1 - (std::size_t{1} << j)) << (log_n - 1 - j) : 0;
  } else {
    i -= 2 * l.inner_count;
    const std::size_t half = l.lo_count + l.hi_count;
    if (i >= half) {
      root = w_inv;
      i -= half;
    }
    e = i < l.lo_count ? std::uint64_t(i) : std::uint64_t(i - l.lo_count) << l.cross_bits;
  }
  const std::uint64_t v = f.pow(root, e);
  out[blockIdx.x * std::size_t{blockDim.x} + threadIdx.x] = make_ulonglong2(v, f.shoup(v));
}

// ---- one pass ---------------------------------------------------------------------------------------

enum BlockPassFlags : int {
  kPassReduceInput = 1,  ///< inputs are any 64-bit words: reduce them first (operand loads)
  kPassCross = 2,        ///< strided pass: cross twiddles (after the DIF, before the DIT)
  kPassPermute = 4,      ///< natural-order side (see block_plan.hpp)
  kPassFoldIn = 8,       ///< also applies the top pass's cross twiddles (block_fold_cross)
};

enum class PassEpilogue : int {
  lazy,       ///< leave values in [0, 2p) (intermediate passes)
  canonical,  ///< reduce to [0, p)
  scale,      ///< x * scale mod p, canonical (Shoup, scale_q = shoup(scale))
  pointwise,  ///< mont_mul(x, other[i]): x * other[i] / 2^64 mod p, canonical
  square,     ///< mont_mul(x, x)
};

struct BlockPassArgs {
  const std::uint64_t* src;    ///< read by this pass
  std::uint64_t* dst;          ///< written by this pass (may equal src)
  const std::uint64_t* other;  ///< PassEpilogue::pointwise (may equal dst)
  std::uint64_t other_mask;    ///< pointwise reads other[idx & other_mask] (~0, or 2^log_n - 1: one spectrum for all)
  std::uint64_t src_len;       ///< words per transform present in src; the rest read as 0
  std::uint64_t src_stride;    ///< words between the transforms' starts in src (2^log_n but in a first pass)
  std::uint64_t src_total;     ///< words of src; reads at or past it give 0 (~0: no bound)
  std::uint64_t total_groups;  ///< batch * 2^(log_n - k)
  BlockTables tables;
  field::PrimeField64 f;
  std::uint64_t scale, scale_q;  ///< PassEpilogue::scale
  std::uint64_t one_q;           ///< shoup(1): reduces any word by kPassReduceInput
  /// kPassReduceInput: an element of the source is a digit of this many
  /// limbs (1, 2 or 4; src/cuda/ntt_mul_digits.cu), element pos of a
  /// transform being limbs pos * digit_limbs .. + digit_limbs - 1. Then
  /// src_len, src_stride and src_total count limbs, and limbs past them read
  /// as 0. digit_w[t] = 2^(64 t) mod p with its Shoup quotient.
  int digit_limbs;
  ulonglong2 digit_w[kBlockMaxDigitLimbs];
  int log_n, hi, k, log_c, flags;
  PassEpilogue epilogue;
};

/// Modular arithmetic of the butterflies. Lazy (p < 2^62): Harvey's
/// butterflies, one conditional subtraction per butterfly with a twiddle
/// (instead of one after the sum and one after the difference); forward
/// (DIF) values stay in [0, 2p), inverse (DIT) values in [0, 4p) (4p < 2^64).
/// Otherwise (p >= 2^62) canonical arithmetic throughout.
template <bool kLazy>
struct PassArith {
  field::PrimeField64 f;
  std::uint64_t p2;    ///< 2p (lazy only)
  std::uint32_t p_hi;  ///< (p - 1) / 2^32 (lazy only: 2^32 divides p - 1)

  /// s mod 2p for s < 4p. As 2p < 2^63, s - 2p is negative as a signed word
  /// exactly when s < 2p: one compare of the high half, not a 64-bit compare.
  __device__ __forceinline__ std::uint64_t reduce_2p(std::uint64_t s) const {
    const std::uint64_t t = s - p2;
    return static_cast<std::int64_t>(t) < 0 ? s : t;
  }
  /// a * w mod p: [0, 2p) lazy (any a < 2^64), [0, p) otherwise. Lazy:
  /// Shoup's r = a w - q p mod 2^64 with q = floor(a w' / 2^64), where q p
  /// mod 2^64 = q + q (p - 1) = q + 2^32 (q mod 2^32) p_hi mod 2^64 because
  /// 2^32 divides p - 1: one 32-bit product instead of three for q p.
  __device__ __forceinline__ std::uint64_t mul(std::uint64_t a, const ulonglong2& w) const {
    if constexpr (kLazy) {
      const std::uint64_t q = __umul64hi(a, w.y);
      const std::uint32_t q_lo = static_cast<std::uint32_t>(q), q_hi = static_cast<std::uint32_t>(q >> 32);
      const std::uint64_t qp = (static_cast<std::uint64_t>(q_hi + q_lo * p_hi) << 32) | q_lo;
      return a * w.x - qp;
    } else {
      return f.mul_shoup(a, w.x, w.y);
    }
  }
  /// a + b for a, b as `mul` leaves them ([0, 2p) lazy, [0, p) otherwise).
  __device__ __forceinline__ std::uint64_t add(std::uint64_t a, std::uint64_t b) const {
    if constexpr (kLazy) return reduce_2p(a + b);
    else return f.add(a, b);
  }
  /// Forward (DIF) butterfly: (a, b) <- (a + b, (a - b) w), w = 1 when
  /// `unit` (then `w` is not read). Lazy: in and out in [0, 2p).
  __device__ __forceinline__ void dif(std::uint64_t& a, std::uint64_t& b, bool unit, const ulonglong2* w) const {
    if constexpr (kLazy) {
      const std::uint64_t d = a + p2 - b;  // (0, 4p)
      a = reduce_2p(a + b);
      b = unit ? reduce_2p(d) : mul(d, __ldg(w));
    } else {
      const std::uint64_t d = f.sub(a, b);
      a = f.add(a, b);
      b = unit ? d : mul(d, __ldg(w));
    }
  }
  /// Inverse (DIT) butterfly: (a, b) <- (a + b w, a - b w). Lazy: in and out
  /// in [0, 4p).
  __device__ __forceinline__ void dit(std::uint64_t& a, std::uint64_t& b, bool unit, const ulonglong2* w) const {
    if constexpr (kLazy) {
      const std::uint64_t a1 = reduce_2p(a);
      const std::uint64_t t = unit ? reduce_2p(b) : mul(b, __ldg(w));  // [0, 2p)
      a = a1 + t;
      b = a1 + p2 - t;
    } else {
      const std::uint64_t t = unit ? b : mul(b, __ldg(w));
      const std::uint64_t a0 = a;
      a = f.add(a0, t);
      b = f.sub(a0, t);
    }
  }
  /// Canonical residue of a value a pass leaves: forward [0, 2p), inverse
  /// [0, 4p) when lazy.
  template <bool kForward>
  __device__ __forceinline__ std::uint64_t canonical(std::uint64_t a) const {
    if constexpr (kLazy) {
      if constexpr (!kForward) a = reduce_2p(a);
      return a >= f.p ? a - f.p : a;
    } else {
      return a;
    }
  }
};

/// Padded shared-memory index: one word of padding per 16 keeps power-of-two
/// strides up to 16 words free of bank conflicts beyond the two wavefronts a
/// warp of 8-byte accesses needs anyway.
__device__ __forceinline__ unsigned block_smem_index(unsigned e) { return e + (e >> 4); }

/// block_smem_index(e0 + m * step) for a power-of-two step: when step is a
/// multiple of 16 the padding of e0 + m * step is e0's plus m * step / 16, so
/// that with a compile-time step (the specialized kernels) the slots of a
/// unit are one base and immediate offsets.
__device__ __forceinline__ unsigned block_smem_slot(unsigned e0, int m, unsigned step) {
  return step >= 16 ? block_smem_index(e0) + unsigned(m) * (step + step / 16) : block_smem_index(e0 + unsigned(m) * step);
}

inline std::size_t block_smem_bytes(int tile_log) {
  const std::size_t tile = std::size_t{1} << tile_log;
  return (tile + tile / 16) * sizeof(std::uint64_t);
}

__device__ __forceinline__ unsigned bit_reverse_bits(unsigned x, int bits) {
  return bits == 0 ? 0u : __brev(x) >> (32 - bits);
}

/// R radix-2 stages on the 2^R registers x of one unit, whose element m sits
/// at row base + (m << low), r_lo = base mod 2^low. Forward: DIF, half-sizes
/// 2^(low+R-1) down to 2^low; inverse: DIT, up from 2^low. Twiddle of the
/// butterfly at position i of a half-size 2^j stage: inner[2^j - 1 + i]
/// (= w_(2^(j+1))^i, or its inverse). kLow0: low == 0 (then r_lo == 0 and
/// position 0 has twiddle 1, known at compile time).
template <bool kForward, bool kLazy, int R, bool kLow0>
__device__ __forceinline__ void block_unit(std::uint64_t* x, int low, unsigned r_lo,
                                           const ulonglong2* __restrict__ inner, const PassArith<kLazy>& ar) {
#pragma unroll
  for (int step = 0; step < R; ++step) {
    const int s = kForward ? R - 1 - step : step;  // this stage pairs m with m + 2^s
    const int span = 1 << s;
    const ulonglong2* row = inner + ((1u << (low + s)) - 1 + r_lo);  // stage's row, offset r_lo
#pragma unroll
    for (int m = 0; m < (1 << R); ++m) {
      if (m & span) continue;
      const unsigned mi = unsigned(m & (span - 1));
      const bool unit = kLow0 && mi == 0;
      const ulonglong2* w = kLow0 ? row + mi : row + (mi << low);
      if constexpr (kForward) ar.dif(x[m], x[m + span], unit, w);
      else ar.dit(x[m], x[m + span], unit, w);
    }
  }
}

/// Per-block view of a pass: group indices, global positions, prologue and
/// epilogue of each element. kK > 0: a kernel specialized for passes of kK
/// stages over tiles of 2^kBlockMultiPassTileLog elements (256 threads), so
/// that the stages, columns and threads are compile-time constants and the
/// index arithmetic of each element folds into immediate offsets; kK = 0:
/// any pass, its shape read from the arguments.
template <bool kForward, bool kLazy, int kK = 0>
struct BlockPassView {
  const BlockPassArgs& a;
  PassArith<kLazy> ar;
  int log_s, groups_log;  // groups_log = log_n - k: groups per transform
  int fold_bits;          // kPassFoldIn: L-1-hi, the top pass's stages; else 0
  /// Whether this kernel serves passes with kPassFoldIn: the generic one and
  /// the 6-stage one (the second pass of 2^24 points, the one schedule of
  /// block_passes that folds). The others compile without that code: with
  /// it, 7- and 10-stage passes that never fold measured slower
  /// (docs/tuning-history.md, "NTT kernels").
  static constexpr bool kFoldable = kK == 0 || kK == 6;
  std::uint64_t s_mask, g0;
  unsigned c0;            // permuting pass: first bit-reversed group of the tile
  std::uint64_t transform;  // permuting pass: transform index of the tile
  bool whole_source;        // dense source covering whole transforms: no zero padding, no bound

  __device__ BlockPassView(const BlockPassArgs& args) : a(args) {
    ar.f = a.f;
    ar.p2 = a.f.p << 1;
    ar.p_hi = static_cast<std::uint32_t>((a.f.p - 1) >> 32);
    log_s = a.hi - k() + 1;
    groups_log = a.log_n - k();
    fold_bits = kFoldable && (a.flags & kPassFoldIn) ? a.log_n - 1 - a.hi : 0;
    s_mask = (std::uint64_t{1} << log_s) - 1;
    g0 = std::uint64_t(blockIdx.x) << log_c();
    // Permuting pass with several groups per transform: the tile's columns
    // are the groups whose bit-reversed indices are c0 .. c0 + 2^log_c - 1.
    const int tiles_log = groups_log - log_c();
    transform = groups_log > 0 ? std::uint64_t(blockIdx.x) >> tiles_log : 0;
    c0 = groups_log > 0 ? unsigned(blockIdx.x & ((1u << tiles_log) - 1)) << log_c() : 0;
    whole_source = a.digit_limbs == 1 && (a.src_len >> a.log_n) != 0 &&
                   a.src_stride == (std::uint64_t{1} << a.log_n) && a.src_total == ~std::uint64_t{0};
  }
  /// Whether every column of the tile is a valid group (no bound per element).
  __device__ __forceinline__ bool tile_full() const {
    if ((a.flags & kPassPermute) && groups_log > 0)
      return log_c() <= groups_log && ((transform + 1) << groups_log) <= a.total_groups;
    return g0 + (std::uint64_t{1} << log_c()) <= a.total_groups;
  }

  /// The pass's stages, log2 of its columns, the block's threads.
  __device__ __forceinline__ int k() const {
    if constexpr (kK > 0) return kK;
    else return a.k;
  }
  __device__ __forceinline__ int log_c() const {
    if constexpr (kK > 0) return kBlockMultiPassTileLog - kK;
    else return a.log_c;
  }
  __device__ __forceinline__ unsigned threads() const {
    if constexpr (kK > 0) return 1u << (kBlockMultiPassTileLog - kBlockPerThreadLog);
    else return blockDim.x;
  }
  /// Storage-side group of column c of the tile.
  __device__ __forceinline__ std::uint64_t group(unsigned c) const {
    if ((a.flags & kPassPermute) && groups_log > 0)
      return (transform << groups_log) | bit_reverse_bits(c0 + c, groups_log);
    return g0 + c;
  }
  __device__ __forceinline__ bool valid(std::uint64_t g) const { return g < a.total_groups; }
  /// Storage-side global index of row t of group g. Rows of one group are
  /// 2^log_s apart: index(g, t + d) = index(g, t) + (d << log_s).
  __device__ __forceinline__ std::uint64_t index(std::uint64_t g, unsigned t) const {
    return ((g >> log_s) << (a.hi + 1)) | (std::uint64_t(t) << log_s) | (g & s_mask);
  }
  /// kPassFoldIn: b = bitrev(j) for the sub-transform j (of the top pass's
  /// 2^(L-1-hi) rows) that group g belongs to; 0 otherwise.
  __device__ __forceinline__ unsigned fold_b(std::uint64_t g) const {
    if constexpr (!kFoldable) return 0;
    else return bit_reverse_bits(unsigned(g >> log_s) & ((1u << fold_bits) - 1), fold_bits);
  }
  /// Cross twiddle of row t of group g: w^e, e = n2 * (bitrev_k(t) 2^(L-1-hi)
  /// + fold_b(g)), n2 = g mod 2^log_s: the pass's own twiddle, times (folded
  /// pass) the part of the top pass's twiddle that is constant down a column.
  __device__ __forceinline__ std::uint64_t mul_cross(std::uint64_t v, std::uint64_t g, unsigned t) const {
    const std::uint64_t e =
        (g & s_mask) * ((std::uint64_t(bit_reverse_bits(t, k())) << (a.log_n - 1 - a.hi)) | fold_b(g));
    const ulonglong2* lo = kForward ? a.tables.lo_fwd : a.tables.lo_inv;
    const ulonglong2* hi = kForward ? a.tables.hi_fwd : a.tables.hi_inv;
    const std::uint64_t lo_mask = (std::uint64_t{1} << a.tables.cross_bits) - 1;
    v = ar.mul(v, __ldg(&lo[e & lo_mask]));
    return ar.mul(v, __ldg(&hi[e >> a.tables.cross_bits]));
  }
  /// kPassFoldIn: the rest of the top pass's twiddle, w^((t fold_b(g)) <<
  /// log_s) on row t (before the DIF, after the DIT). As log_s >= cross_bits
  /// (block_fold_cross) it is one entry of the hi table: one product.
  __device__ __forceinline__ std::uint64_t mul_row(std::uint64_t v, std::uint64_t g, unsigned t) const {
    const ulonglong2* hi = kForward ? a.tables.hi_fwd : a.tables.hi_inv;
    return ar.mul(v, __ldg(&hi[(std::uint64_t(t) * fold_b(g)) << (log_s - a.tables.cross_bits)]));
  }
  /// Reads word `idx` (transform idx >> log_n, position idx mod 2^log_n) of
  /// the source: 0 past src_len of its transform or past src_total.
  __device__ __forceinline__ std::uint64_t read(std::uint64_t idx) const {
    if (whole_source) return a.src[idx];
    const std::uint64_t pos = idx & ((std::uint64_t{1} << a.log_n) - 1);
    const std::uint64_t j = (idx >> a.log_n) * a.src_stride + pos;
    return pos < a.src_len && j < a.src_total ? a.src[j] : 0;
  }
  /// Operand loads (kPassReduceInput): any word to [0, 2p) (or [0, p)).
  __device__ __forceinline__ std::uint64_t reduce_input(std::uint64_t v) const {
    return ar.mul(v, make_ulonglong2(1, a.one_q));
  }
  /// Element `idx` of a source of digit_limbs-limb digits, reduced: the sum
  /// of limb_t 2^(64 t) mod p, one Shoup product per limb (any 64-bit limb)
  /// and a reducing add, in [0, 2p) (or [0, p)).
  __device__ __forceinline__ std::uint64_t read_digit(std::uint64_t idx) const {
    const std::uint64_t pos = idx & ((std::uint64_t{1} << a.log_n) - 1);
    const std::uint64_t first = pos * unsigned(a.digit_limbs);
    const std::uint64_t j = (idx >> a.log_n) * a.src_stride + first;
    // Zero padding (half the points of a product's transform): no loads and
    // no products. Lanes of a warp hold adjacent points, so this branch
    // rarely splits a warp.
    if (first >= a.src_len || j >= a.src_total) return 0;
    std::uint64_t acc = 0;
#pragma unroll
    for (int t = 0; t < kBlockMaxDigitLimbs; ++t) {
      if (t >= a.digit_limbs) break;
      const std::uint64_t limb = first + t < a.src_len && j + t < a.src_total ? a.src[j + t] : 0;
      const std::uint64_t term = ar.mul(limb, a.digit_w[t]);
      acc = t == 0 ? term : ar.add(acc, term);
    }
    return acc;
  }
  /// The last pass's epilogue (an if-chain on a uniform value: a switch
  /// became an indirect branch per element).
  __device__ __forceinline__ std::uint64_t finish(std::uint64_t v, std::uint64_t idx) const {
    const PassEpilogue e = a.epilogue;
    if (e == PassEpilogue::lazy) return v;
    if (e == PassEpilogue::canonical) return ar.template canonical<kForward>(v);
    if (e == PassEpilogue::scale) return a.f.mul_shoup(v, a.scale, a.scale_q);
    if (e == PassEpilogue::pointwise) return a.f.mont_mul(v, a.other[idx & a.other_mask]);
    return a.f.mont_mul(v, v);  // square
  }
};

/// Geometry of unit u of a round (R stages, lowest half-size 2^low): its
/// column c and the row of its element 0; element m is at row base + (m << low).
struct BlockUnit {
  unsigned c, r_lo, base;
  __device__ __forceinline__ BlockUnit(unsigned u, int log_c, int low, int R) {
    c = u & ((1u << log_c) - 1);
    const unsigned rest = u >> log_c;
    r_lo = rest & ((1u << low) - 1);
    base = ((rest >> low) << (low + R)) | r_lo;
  }
};

/// First round of a non-permuting pass: each unit's 2^R words straight from
/// global memory, all of a thread's loads issued before any product (the
/// reduction of operand words, the twiddles before the sub-NTT: the
/// inverse's cross twiddles, the forward's row factors of a folded pass)
/// waits on them. kReduce and kTwist are template arguments so that a pass
/// without them does not issue their products predicated off.
template <bool kReduce, bool kTwist, bool kForward, bool kLazy, int R, int kK>
__device__ __forceinline__ void block_load_global(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* x, int low,
                                                  unsigned units) {
  constexpr int kUnits = (1 << kBlockPerThreadLog) >> R;
  const std::uint64_t step = std::uint64_t{1} << (low + v.log_s);
  if (!kReduce && v.whole_source && v.tile_full()) {
    // The common case, one uniform branch for the round: whole transforms
    // in a dense source and a tile of valid groups, so that a unit's 2^R
    // loads are one base and immediate offsets, with no bound per element
    // (the general loop below costs ~10 instructions and a convergence
    // region per element).
#pragma unroll
    for (int q = 0; q < kUnits; ++q) {
      const unsigned u = threadIdx.x + q * v.threads();
      if (u >= units) continue;
      const BlockUnit un(u, v.log_c(), low, R);
      const std::uint64_t* src = v.a.src + v.index(v.group(un.c), un.base);
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) x[q * (1 << R) + m] = src[m * step];
    }
  } else {
#pragma unroll
    for (int q = 0; q < kUnits; ++q) {
      const unsigned u = threadIdx.x + q * v.threads();
      if (u >= units) continue;
      const BlockUnit un(u, v.log_c(), low, R);
      const std::uint64_t g = v.group(un.c);
      const bool ok = v.valid(g);
      const std::uint64_t idx0 = v.index(g, un.base);
      if (kReduce && v.a.digit_limbs > 1) {  // a uniform branch: the products' digit loads
#pragma unroll
        for (int m = 0; m < (1 << R); ++m) x[q * (1 << R) + m] = ok ? v.read_digit(idx0 + m * step) : 0;
      } else {
#pragma unroll
        for (int m = 0; m < (1 << R); ++m) x[q * (1 << R) + m] = ok ? v.read(idx0 + m * step) : 0;
      }
    }
  }
  const bool reduce_words = kReduce && v.a.digit_limbs == 1;
  if (reduce_words || kTwist) {
#pragma unroll
    for (int q = 0; q < kUnits; ++q) {
      const unsigned u = threadIdx.x + q * v.threads();
      if (u >= units) continue;
      const BlockUnit un(u, v.log_c(), low, R);
      const std::uint64_t g = v.group(un.c);
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) {
        std::uint64_t& val = x[q * (1 << R) + m];
        if (reduce_words) val = v.reduce_input(val);
        if constexpr (kTwist) {
          const unsigned t = un.base + (unsigned(m) << low);
          val = kForward ? v.mul_row(val, g, t) : v.mul_cross(val, g, t);
        }
      }
    }
  }
}

/// How the store round applies the pass's epilogue: not at all (lazy), the
/// canonical reduction, or BlockPassView::finish's branch on the kind. The
/// two common kinds are chosen once per round (block_round), not per element:
/// an if-chain per stored element made 16 convergence regions of the last
/// round, where the 12-stage pass stalled noticeably on instruction fetch
/// (Nsight Compute; docs/tuning-history.md, "NTT kernels"). Only these two: a
/// template argument for all five kinds gave the foldable kernels a large
/// stack frame (docs/tuning-history.md, "NTT kernels").
enum class StoreFinish : int { none, canonical, any };

/// Last round of a non-permuting pass: each unit's 2^R words straight to
/// global memory, after the twiddles after the sub-NTT (kTwist: the
/// forward's cross twiddles, the inverse's row factors of a folded pass) and
/// the last pass's epilogue (kFinish).
template <bool kTwist, StoreFinish kFinish, bool kForward, bool kLazy, int R, bool kLow0, int kK>
__device__ __forceinline__ void block_store_global(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* x, int low,
                                                   unsigned units) {
  constexpr int kUnits = (1 << kBlockPerThreadLog) >> R;
  const BlockPassArgs& a = v.a;
  const std::uint64_t step = std::uint64_t{1} << (low + v.log_s);
  // Contiguous pass, smallest stages: a unit's 2^R rows are 2^R consecutive
  // words (base is a multiple of 2^R); 16-byte stores halve the store
  // requests of a lane stride of 2^R words.
  const bool pairs = kLow0 && R > 1 && v.log_s == 0 && (reinterpret_cast<std::uintptr_t>(a.dst) & 15) == 0;
#pragma unroll
  for (int q = 0; q < kUnits; ++q) {
    const unsigned u = threadIdx.x + q * v.threads();
    if (u >= units) continue;
    const BlockUnit un(u, v.log_c(), low, R);
    const std::uint64_t g = v.group(un.c);
    if (!v.valid(g)) continue;
    const std::uint64_t idx0 = v.index(g, un.base);
#pragma unroll
    for (int m = 0; m < (1 << R); ++m) {
      std::uint64_t& val = x[q * (1 << R) + m];
      if constexpr (kTwist) {
        const unsigned t = un.base + (unsigned(m) << low);
        val = kForward ? v.mul_cross(val, g, t) : v.mul_row(val, g, t);
      }
      if constexpr (kFinish == StoreFinish::canonical) val = v.ar.template canonical<kForward>(val);
      else if constexpr (kFinish == StoreFinish::any) val = v.finish(val, idx0 + m * step);
    }
    if (pairs) {
#pragma unroll
      for (int m = 0; m < (1 << R); m += 2)
        *reinterpret_cast<ulonglong2*>(a.dst + idx0 + m) = make_ulonglong2(x[q * (1 << R) + m], x[q * (1 << R) + m + 1]);
    } else {
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) a.dst[idx0 + m * step] = x[q * (1 << R) + m];
    }
  }
}

/// block_store_global with the StoreFinish of the pass's epilogue.
template <bool kTwist, bool kForward, bool kLazy, int R, bool kLow0, int kK>
__device__ __forceinline__ void block_store_finish(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* x,
                                                   int low, unsigned units) {
  const PassEpilogue e = v.a.epilogue;
  if (e == PassEpilogue::lazy)
    block_store_global<kTwist, StoreFinish::none, kForward, kLazy, R, kLow0>(v, x, low, units);
  else if (e == PassEpilogue::canonical)
    block_store_global<kTwist, StoreFinish::canonical, kForward, kLazy, R, kLow0>(v, x, low, units);
  else
    block_store_global<kTwist, StoreFinish::any, kForward, kLazy, R, kLow0>(v, x, low, units);
}

/// One round: each thread's kPer >> R units of 2^R elements. All of a
/// thread's elements are loaded first (kPer loads in flight), from global
/// memory (first round of a non-permuting pass) or shared memory; then R
/// stages per unit; then all are stored, to global memory (last round of a
/// non-permuting forward / any inverse pass) or shared memory. In shared
/// memory element m of a unit is tile element e0 + m * 2^(low + log_c),
/// e0 = base * 2^log_c + c.
template <bool kForward, bool kLazy, int R, bool kLow0, int kK>
__device__ __forceinline__ void block_round(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* sm, int low,
                                            bool from_global, bool to_global) {
  constexpr int kPer = 1 << kBlockPerThreadLog;
  constexpr int kUnits = kPer >> R;
  const BlockPassArgs& a = v.a;
  const unsigned units = 1u << (v.k() + v.log_c() - R);
  const unsigned smem_step = 1u << (low + v.log_c());
  const ulonglong2* inner = kForward ? a.tables.inner_fwd : a.tables.inner_inv;
  std::uint64_t x[kPer];
  if (from_global) {
    const bool reduce = (a.flags & kPassReduceInput) != 0;
    const bool fold = v.kFoldable && (a.flags & kPassFoldIn);
    if (kForward ? fold : (a.flags & kPassCross) != 0) {
      if (reduce) block_load_global<true, true, kForward, kLazy, R>(v, x, low, units);
      else block_load_global<false, true, kForward, kLazy, R>(v, x, low, units);
    } else {
      if (reduce) block_load_global<true, false, kForward, kLazy, R>(v, x, low, units);
      else block_load_global<false, false, kForward, kLazy, R>(v, x, low, units);
    }
  } else {
#pragma unroll
    for (int q = 0; q < kUnits; ++q) {
      const unsigned u = threadIdx.x + q * v.threads();
      if (u >= units) continue;
      const BlockUnit un(u, v.log_c(), low, R);
      const unsigned e0 = (un.base << v.log_c()) | un.c;
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) x[q * (1 << R) + m] = sm[block_smem_slot(e0, m, smem_step)];
    }
  }
#pragma unroll
  for (int q = 0; q < kUnits; ++q) {
    const unsigned u = threadIdx.x + q * v.threads();
    if (u >= units) continue;
    const BlockUnit un(u, v.log_c(), low, R);
    block_unit<kForward, kLazy, R, kLow0>(x + q * (1 << R), low, un.r_lo, inner, v.ar);
  }
  if (to_global) {
    const bool fold = v.kFoldable && (a.flags & kPassFoldIn);
    if (kForward ? (a.flags & kPassCross) != 0 : fold) block_store_finish<true, kForward, kLazy, R, kLow0>(v, x, low, units);
    else block_store_finish<false, kForward, kLazy, R, kLow0>(v, x, low, units);
  } else {
#pragma unroll
    for (int q = 0; q < kUnits; ++q) {
      const unsigned u = threadIdx.x + q * v.threads();
      if (u >= units) continue;
      const BlockUnit un(u, v.log_c(), low, R);
      const unsigned e0 = (un.base << v.log_c()) | un.c;
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) sm[block_smem_slot(e0, m, smem_step)] = x[q * (1 << R) + m];
    }
  }
}

template <bool kForward, bool kLazy, int kK>
__device__ __forceinline__ void block_round_dispatch(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* sm,
                                                     int R, int low, bool from_global, bool to_global) {
  if (low == 0) {
    if (R == 3) block_round<kForward, kLazy, 3, true>(v, sm, 0, from_global, to_global);
    else if (R == 2) block_round<kForward, kLazy, 2, true>(v, sm, 0, from_global, to_global);
    else block_round<kForward, kLazy, 1, true>(v, sm, 0, from_global, to_global);
  } else {
    if (R == 3) block_round<kForward, kLazy, 3, false>(v, sm, low, from_global, to_global);
    else if (R == 2) block_round<kForward, kLazy, 2, false>(v, sm, low, from_global, to_global);
    else block_round<kForward, kLazy, 1, false>(v, sm, low, from_global, to_global);
  }
}

/// The natural-order side of a permuting pass: element i (< 16) of this
/// thread is tile element e = threadIdx.x + i * blockDim.x, at natural-order
/// global index `idx`, held in shared memory at `slot`; consecutive e are
/// consecutive words in global memory. With several groups per transform,
/// column c is the group with bit-reversed index c0 + c and natural row t
/// holds storage row bitrev_k(t); with one group per transform (a single
/// pass), column c is transform g0 + c. f(idx, slot, ok) is called for each.
template <bool kForward, bool kLazy, int kK, class F>
__device__ __forceinline__ void block_permute_side(const BlockPassView<kForward, kLazy, kK>& v, F f) {
  const BlockPassArgs& a = v.a;
  const int k = v.k(), log_c = v.log_c();
  const unsigned tile = 1u << (k + log_c);
  if (v.groups_log > 0) {
    const unsigned c_mask = (1u << log_c) - 1;
    const std::uint64_t base = (v.transform << a.log_n) | v.c0;
#pragma unroll
    for (int i = 0; i < (1 << kBlockPerThreadLog); ++i) {
      const unsigned e = threadIdx.x + i * v.threads();
      if (e >= tile) break;
      const unsigned c = e & c_mask, t = e >> log_c;
      f(base + ((std::uint64_t(t) << v.groups_log) | c), block_smem_index((bit_reverse_bits(t, k) << log_c) | c),
        true);
    }
  } else {
    const unsigned t_mask = (1u << k) - 1;
#pragma unroll
    for (int i = 0; i < (1 << kBlockPerThreadLog); ++i) {
      const unsigned e = threadIdx.x + i * v.threads();
      if (e >= tile) break;
      const unsigned t = e & t_mask, c = e >> k;
      f(((v.g0 + c) << a.log_n) | t, block_smem_index((bit_reverse_bits(t, k) << log_c) | c), v.valid(v.g0 + c));
    }
  }
}

/// Round r of `rounds` of a pass. Forward: rounds from the top stages, the
/// short one (k mod 3) last; inverse: the mirror image. A function, not a
/// lambda in block_pass_body: a lambda cannot be forced inline, and in the
/// 6-stage kernel NVVM once kept it a call, its captures (the pass's
/// arguments) in 1232 bytes of stack.
template <bool kForward, bool kLazy, int kK>
__device__ __forceinline__ void block_pass_round(const BlockPassView<kForward, kLazy, kK>& v, std::uint64_t* smem,
                                                 int r, int rounds, bool permute) {
  const int k = v.k();
  const bool first = r == 0, last = r == rounds - 1;
  int R, low;
  if (kForward) {
    R = k - 3 * r < 3 ? k - 3 * r : 3;
    low = k - 3 * r - R;
  } else {
    R = first ? k - 3 * (rounds - 1) : 3;
    low = first ? 0 : k - 3 * (rounds - r);
  }
  const bool from_global = first && (kForward || !permute);
  const bool to_global = last && (!kForward || !permute);
  block_round_dispatch<kForward, kLazy>(v, smem, R, low, from_global, to_global);
  if (!last) __syncthreads();
}

/// The body of a pass kernel (kK: BlockPassView).
template <bool kForward, bool kLazy, int kK>
__device__ __forceinline__ void block_pass_body(const BlockPassArgs& a, std::uint64_t* smem) {
  const BlockPassView<kForward, kLazy, kK> v(a);
  const bool permute = (a.flags & kPassPermute) != 0;
  const int k = v.k();
  const int rounds = (k + 2) / 3;
  if (!kForward && permute) {
    const bool reduce = (a.flags & kPassReduceInput) != 0;
    block_permute_side(v, [&](std::uint64_t idx, unsigned slot, bool ok) {
      const bool digits = reduce && a.digit_limbs > 1;
      std::uint64_t val = ok ? (digits ? v.read_digit(idx) : v.read(idx)) : 0;
      if (reduce && !digits) val = v.reduce_input(val);
      smem[slot] = val;
    });
    __syncthreads();
  }
  // With a compile-time k the loop unrolls and each round's R, low and
  // direction of transfer are constants.
  if constexpr (kK > 0) {
#pragma unroll
    for (int r = 0; r < (kK + 2) / 3; ++r) block_pass_round(v, smem, r, rounds, permute);
  } else {
    for (int r = 0; r < rounds; ++r) block_pass_round(v, smem, r, rounds, permute);
  }
  if (kForward && permute) {
    __syncthreads();
    block_permute_side(v, [&](std::uint64_t idx, unsigned slot, bool ok) {
      if (ok) a.dst[idx] = v.finish(smem[slot], idx);
    });
  }
}

/// One pass (see block_plan.hpp). Launch with 2^(k+log_c-4) threads (at
/// least 1) per block, block_smem_bytes(k+log_c) of dynamic shared memory,
/// and ceil(total_groups / 2^log_c) blocks.
template <bool kForward, bool kLazy, int kThreads = kBlockMaxThreads, int kMinBlocks = 1>
__global__ void __launch_bounds__(kThreads, kMinBlocks) block_pass_kernel(const BlockPassArgs a) {
  extern __shared__ std::uint64_t block_smem[];
  block_pass_body<kForward, kLazy, 0>(a, block_smem);
}

/// A lazy pass of kK stages over tiles of 2^kBlockMultiPassTileLog elements
/// (2^(12 - kK) columns, 256 threads, three blocks an SM as the generic
/// kernel of that tile), its shape compiled in: the several-pass transforms'
/// common passes (launch_block_pass_direction says which).
///
/// Three blocks an SM: four (64 registers, a small spill) sped up one pass
/// but slowed the inverse transform, and launching the passes as dependent
/// grids gained nothing beyond the spread of the runs
/// (docs/tuning-history.md, "NTT kernels").
template <bool kForward, int kK>
__global__ void __launch_bounds__(1 << (kBlockMultiPassTileLog - kBlockPerThreadLog), 3)
    block_pass_fixed_kernel(const BlockPassArgs a) {
  extern __shared__ std::uint64_t block_smem[];
  block_pass_body<kForward, true, kK>(a, block_smem);
}

// ---- a whole transform ---------------------------------------------------------------------------

/// One batched transform, as a sequence of passes. Pass i reads `src` (i ==
/// 0) or `work`, and writes `dst` (last pass) or `work`; in place when all
/// three are the same buffer. Natural order with several passes needs
/// `work` distinct from `dst` (block_plan.hpp says why).
struct BlockTransform {
  std::uint64_t* dst;
  std::uint64_t* work;
  const std::uint64_t* src;
  std::uint64_t src_len;  ///< words per transform in src (the rest read as 0)
  std::uint64_t src_stride = 0;  ///< words between transforms in src; 0: 2^log_n
  std::uint64_t src_total = 0;   ///< words of src (reads past it give 0); 0: no bound
  bool other_broadcast = false;  ///< pointwise: one spectrum `other` for every transform of the batch
  int digit_limbs = 1;           ///< reduce_input: limbs per source element (BlockPassArgs::digit_limbs)
  std::size_t batch;
  int log_n;
  bool forward, natural, reduce_input;
  PassEpilogue epilogue;  ///< of the last pass
  std::uint64_t scale;    ///< PassEpilogue::scale (plain residue)
  const std::uint64_t* other;
};

/// True when the lazy kernels apply: 4p < 2^64, and 2^32 divides p - 1
/// (PassArith::mul's short q p; every prime of ntt_primes62 has 2^53 or
/// more). Other primes run the canonical kernels.
inline bool block_ntt_lazy(std::uint64_t p) {
  return p < (std::uint64_t{1} << 62) && ((p - 1) & 0xffffffffu) == 0;
}

/// Launches one pass with the kernel variant <kForward, kLazy, kThreads,
/// kMinBlocks> (kThreads >= the pass's threads); returns the first CUDA error.
template <bool kForward, bool kLazy, int kThreads, int kMinBlocks>
cudaError_t launch_block_pass_variant(const BlockPassArgs& args, dim3 grid, unsigned threads, std::size_t smem,
                                      cudaStream_t s) {
  const void* fn = reinterpret_cast<const void*>(&block_pass_kernel<kForward, kLazy, kThreads, kMinBlocks>);
  if (const cudaError_t e = limb::allow_dynamic_smem(fn, smem); e != cudaSuccess) return e;
  block_pass_kernel<kForward, kLazy, kThreads, kMinBlocks><<<grid, threads, smem, s>>>(args);
  return cudaGetLastError();
}

// The variants launch_block_pass uses, each compiled in one file of the
// library (src/cuda/ntt_block_pass*.cu): the kernels are large, and three
// files compile in parallel. (The host emulation of the kernels,
// tests/ntt/block_ntt_emulation_test.cpp, instantiates its own.)
#define MPGPU_BLOCK_PASS_VARIANT(F, L, T, B)                                                                        \
  template cudaError_t launch_block_pass_variant<F, L, T, B>(const BlockPassArgs&, dim3, unsigned, std::size_t, \
                                                             cudaStream_t)
/// Launches the specialized kernel of kK stages (tiles of 2^12 elements).
template <bool kForward, int kK>
cudaError_t launch_block_pass_fixed(const BlockPassArgs& args, dim3 grid, std::size_t smem, cudaStream_t s) {
  const void* fn = reinterpret_cast<const void*>(&block_pass_fixed_kernel<kForward, kK>);
  if (const cudaError_t e = limb::allow_dynamic_smem(fn, smem); e != cudaSuccess) return e;
  constexpr unsigned kThreads = 1u << (kBlockMultiPassTileLog - kBlockPerThreadLog);
  block_pass_fixed_kernel<kForward, kK><<<grid, kThreads, smem, s>>>(args);
  return cudaGetLastError();
}
#define MPGPU_BLOCK_PASS_FIXED(F, K) \
  template cudaError_t launch_block_pass_fixed<F, K>(const BlockPassArgs&, dim3, std::size_t, cudaStream_t)

#if defined(__CUDACC__)
extern MPGPU_BLOCK_PASS_FIXED(true, 6);
extern MPGPU_BLOCK_PASS_FIXED(true, 7);
extern MPGPU_BLOCK_PASS_FIXED(true, 10);
extern MPGPU_BLOCK_PASS_FIXED(true, 12);
extern MPGPU_BLOCK_PASS_FIXED(false, 6);
extern MPGPU_BLOCK_PASS_FIXED(false, 7);
extern MPGPU_BLOCK_PASS_FIXED(false, 10);
extern MPGPU_BLOCK_PASS_FIXED(false, 12);
extern MPGPU_BLOCK_PASS_VARIANT(true, true, 512, 1);
extern MPGPU_BLOCK_PASS_VARIANT(true, true, 256, 3);
extern MPGPU_BLOCK_PASS_VARIANT(false, true, 512, 1);
extern MPGPU_BLOCK_PASS_VARIANT(false, true, 256, 3);
extern MPGPU_BLOCK_PASS_VARIANT(true, false, 512, 1);
extern MPGPU_BLOCK_PASS_VARIANT(false, false, 512, 1);
#endif

/// The kernel variant of one direction. Register budget: tiles of <= 2^12
/// points (<= 256 threads) run the lazy kernels capped at 80 registers,
/// __launch_bounds__(256, 3), so that three blocks share an SM: ptxas spills
/// a few words a thread, and the transforms and the products built on them
/// measured faster than at 128 registers (two blocks). A 64-register cap
/// (four blocks) spilled an order of magnitude more. Figures:
/// docs/tuning-history.md, "NTT tile sizes". Tiles of 2^13 (512 threads) and
/// the canonical kernels keep 128 registers.
template <bool kForward>
inline cudaError_t launch_block_pass_direction(bool lazy, const BlockPassArgs& args, dim3 grid, unsigned threads,
                                               std::size_t smem, cudaStream_t s) {
  if (!lazy) return launch_block_pass_variant<kForward, false, 512, 1>(args, grid, threads, smem, s);
  if (threads > 256) return launch_block_pass_variant<kForward, true, 512, 1>(args, grid, threads, smem, s);
  if (args.k + args.log_c == kBlockMultiPassTileLog) {
    // The shapes of the common passes (2^24 points: 6 + 6 + 12 stages; 2^25
    // and 2^26: 7-stage strided passes; batches of 2^10 points), compiled
    // in; faster than the generic kernel on each of them
    // (docs/tuning-history.md, "NTT kernels").
    // A pass with kPassFoldIn of other than 6 stages (none of block_passes'
    // schedules) takes the generic kernel: BlockPassView::kFoldable.
    const bool other_fold = (args.flags & kPassFoldIn) != 0 && args.k != 6;
    switch (other_fold ? 0 : args.k) {
      case 6: return launch_block_pass_fixed<kForward, 6>(args, grid, smem, s);
      case 7: return launch_block_pass_fixed<kForward, 7>(args, grid, smem, s);
      case 10: return launch_block_pass_fixed<kForward, 10>(args, grid, smem, s);
      case 12: return launch_block_pass_fixed<kForward, 12>(args, grid, smem, s);
      default: break;
    }
  }
  return launch_block_pass_variant<kForward, true, 256, 3>(args, grid, threads, smem, s);
}

/// Launches one pass; returns the first CUDA error.
inline cudaError_t launch_block_pass(bool forward, bool lazy, const BlockPassArgs& args, cudaStream_t s) {
  const int tile_log = args.k + args.log_c;
  const unsigned threads = tile_log > kBlockPerThreadLog ? 1u << (tile_log - kBlockPerThreadLog) : 1u;
  const std::size_t smem = block_smem_bytes(tile_log);
  const std::uint64_t blocks = (args.total_groups + (std::uint64_t{1} << args.log_c) - 1) >> args.log_c;
  if (blocks > 0x7fffffffu) return cudaErrorInvalidConfiguration;
  const dim3 grid(static_cast<unsigned>(blocks));
  return forward ? launch_block_pass_direction<true>(lazy, args, grid, threads, smem, s)
                 : launch_block_pass_direction<false>(lazy, args, grid, threads, smem, s);
}

/// The passes of `t` in the order they run (the inverse reverses them).
inline std::vector<BlockPass> block_transform_passes(const BlockTransform& t) {
  auto passes = block_passes(t.log_n, t.batch, t.natural);
  if (!t.forward) {
    for (std::size_t i = 0, j = passes.size() - 1; i < j; ++i, --j) std::swap(passes[i], passes[j]);
  }
  return passes;
}

/// Whether the top pass's cross twiddles (hi = L-1, k0 stages) are folded
/// into the next pass (hi = L-1-k0), and that pass's index in `passes`.
///
/// After the top pass, row j of its tile is a sub-transform of 2^(L-k0)
/// points whose element n gets the twist w^(n b), b = bitrev_k0(j): two
/// Shoup products a point (lo and hi tables). The next pass views that
/// sub-transform as rows t x columns n3, n = t 2^log_s + n3, so w^(n b) =
/// w^(n3 b) w^((t b) << log_s). The first factor is constant down a column
/// and commutes with the next pass's sub-NTT: it joins that pass's own cross
/// twiddle (one exponent, still two products). The second is one entry of
/// the hi table when log_s >= cross_bits: one product, on load (forward) or
/// store (inverse). So the top pass moves its data without twiddles, one
/// product a point less in the transform (2^24 points: 6 + 6 + 12 stages).
/// Without log_s >= cross_bits (the row factor would take two products
/// again) nothing is folded.
inline bool block_fold_cross(const std::vector<BlockPass>& passes, int log_n, int cross_bits, std::size_t& next) {
  int k0 = 0;
  for (const BlockPass& p : passes)
    if (p.hi == log_n - 1) k0 = p.k;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const BlockPass& p = passes[i];
    if (k0 > 0 && p.hi == log_n - 1 - k0 && !p.permute && p.hi - p.k + 1 >= cross_bits) {
      next = i;
      return true;
    }
  }
  return false;
}

/// Arguments of pass i of `passes` (from block_transform_passes(t)).
inline BlockPassArgs block_pass_args(const BlockTransform& t, const std::vector<BlockPass>& passes, std::size_t i,
                                     const BlockTables& tables, const field::PrimeField64& f) {
  const bool lazy = block_ntt_lazy(f.p);
  const BlockPass& pass = passes[i];
  const bool first = i == 0, last = i + 1 == passes.size();
  BlockPassArgs a{};
  a.src = first ? t.src : t.work;
  a.dst = last ? t.dst : t.work;
  a.other = t.other;
  a.other_mask = t.other_broadcast ? (std::uint64_t{1} << t.log_n) - 1 : ~std::uint64_t{0};
  a.src_len = first ? t.src_len : std::uint64_t{1} << t.log_n;
  a.src_stride = first && t.src_stride != 0 ? t.src_stride : std::uint64_t{1} << t.log_n;
  a.src_total = first && t.src_total != 0 ? t.src_total : ~std::uint64_t{0};
  a.total_groups = std::uint64_t(t.batch) << (t.log_n - pass.k);
  a.tables = tables;
  a.f = f;
  a.log_n = t.log_n;
  a.hi = pass.hi;
  a.k = pass.k;
  a.log_c = pass.log_c;
  std::size_t fold_next = 0;
  const bool fold = block_fold_cross(passes, t.log_n, tables.cross_bits, fold_next);
  const bool cross = pass.hi - pass.k + 1 > 0 && !(fold && pass.hi == t.log_n - 1);
  a.flags = (first && t.reduce_input ? kPassReduceInput : 0) | (cross ? kPassCross : 0) |
            (fold && i == fold_next ? kPassFoldIn : 0) | (pass.permute ? kPassPermute : 0);
  a.one_q = f.shoup(1);
  a.digit_limbs = first && t.reduce_input ? t.digit_limbs : 1;
  std::uint64_t w = 1;  // 2^(64 d) mod p; r1 = 2^64 mod p
  for (int d = 0; d < a.digit_limbs; ++d, w = f.mul(w, f.r1)) a.digit_w[d] = make_ulonglong2(w, f.shoup(w));
  a.epilogue = last ? t.epilogue : (lazy ? PassEpilogue::lazy : PassEpilogue::canonical);
  if (last && t.epilogue == PassEpilogue::scale) {
    a.scale = t.scale;
    a.scale_q = f.shoup(t.scale);
  }
  return a;
}

/// Runs all passes of `t` with the tables `tables` (of the same log_n and p).
inline cudaError_t run_block_transform(const BlockTransform& t, const BlockTables& tables,
                                       const field::PrimeField64& f, cudaStream_t s) {
  if (t.batch == 0 || t.log_n == 0) return cudaSuccess;  // callers handle length 1
  const auto passes = block_transform_passes(t);
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const cudaError_t e = launch_block_pass(t.forward, block_ntt_lazy(f.p), block_pass_args(t, passes, i, tables, f), s);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

}  // namespace mpgpu::ntt
