// Per-thread work of the device NTT's passes (block_ntt.cuh): the butterflies'
// modular arithmetic (PassArith), the padded shared-memory indices, and the
// radix-2^R unit that one thread runs on its registers (block_unit).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "mpgpu/field/prime_field64.cuh"

namespace mpgpu::ntt {

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

}  // namespace mpgpu::ntt
