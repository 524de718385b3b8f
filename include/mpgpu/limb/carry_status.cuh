// Carry-lookahead algebra for adding or subtracting long limb vectors in
// parallel, by a prefix scan of per-limb carry states.
//
// Every limb position either kills an incoming carry, propagates it, or
// generates one regardless of what comes in. Composing statuses left to right
// (less significant first) is associative:
//     combine(lower, higher) = (higher == propagate) ? lower : higher
// so the carry into every limb is an exclusive scan of the statuses with that
// operator, starting from `kill`. A scan with decoupled look-back does the
// whole addition in one pass over memory.
#pragma once

#include "mpgpu/limb/config.cuh"

namespace mpgpu::limb {

enum CarryStatus : std::uint32_t {
  carry_kill = 0,       ///< no carry leaves this range, whatever comes in
  carry_propagate = 1,  ///< a carry leaves this range iff one comes in
  carry_generate = 2,   ///< a carry leaves this range whatever comes in
};

/// Associative: status of a range made of `lower` followed by `higher`.
struct CarryCombine {
  MPGPU_HD std::uint32_t operator()(std::uint32_t lower, std::uint32_t higher) const {
    return higher == carry_propagate ? lower : higher;
  }
};

/// Status of one limb of a + b, given the wrapped sum s = a + b mod 2^64.
MPGPU_HD std::uint32_t add_status(limb_t a, limb_t s) {
  return s < a ? carry_generate : (s == ~limb_t{0} ? carry_propagate : carry_kill);
}

/// Status of one limb of a - b (borrow instead of carry), d = a - b mod 2^64.
MPGPU_HD std::uint32_t sub_status(limb_t a, limb_t b, limb_t d) {
  return a < b ? carry_generate : (d == 0 ? carry_propagate : carry_kill);
}

}  // namespace mpgpu::limb
