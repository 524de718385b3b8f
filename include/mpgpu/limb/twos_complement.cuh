// Per-limb view of a sign-magnitude integer in two's complement, as GMP's
// mpz_and/ior/xor/com/tstbit define it for negative numbers.
//
// For x < 0 the two's complement is ~(|x| - 1). The borrow of |x| - 1 runs
// only through the low zero limbs, so with z = index of the lowest nonzero
// limb of |x| each limb is known locally:
//     i <  z : ~(0 - 1)      = 0
//     i == z : ~(m_z - 1)    = -m_z   (mod 2^64)
//     i >  z : ~m_i
// and every limb above the magnitude is all ones (sign extension). The same
// map turns a two's-complement value with infinite leading ones back into
// its magnitude (negation is an involution), which lets bitwise operations
// run as one parallel map once z is known.
#pragma once

#include "mpgpu/limb/config.cuh"

namespace mpgpu::limb {

/// Limb i of the two's complement of a number with magnitude limbs m (size n,
/// lowest nonzero limb index z) and the given sign. `m_i` is m[i] for i < n.
MPGPU_HD limb_t twos_complement_limb(limb_t m_i, std::size_t i, std::size_t n, std::size_t z,
                                     bool negative) {
  if (!negative) return i < n ? m_i : 0;
  if (i >= n) return ~limb_t{0};
  if (i < z) return 0;
  if (i == z) return limb_t{0} - m_i;
  return ~m_i;
}

enum class BitwiseOp { and_, ior, xor_ };

MPGPU_HD limb_t apply_bitwise(BitwiseOp op, limb_t x, limb_t y) {
  switch (op) {
    case BitwiseOp::and_: return x & y;
    case BitwiseOp::ior: return x | y;
    default: return x ^ y;
  }
}

/// Sign of op(a, b) in two's complement: negative iff its infinite sign
/// extension is all ones.
MPGPU_HD bool bitwise_result_negative(BitwiseOp op, bool a_negative, bool b_negative) {
  switch (op) {
    case BitwiseOp::and_: return a_negative && b_negative;
    case BitwiseOp::ior: return a_negative || b_negative;
    default: return a_negative != b_negative;
  }
}

}  // namespace mpgpu::limb
