// Where a CUDA context hands the whole-number algorithms of integer.hpp
// (powers, roots, factorials, Fibonacci and Lucas numbers, binomials, gcds) from
// GMP on the host to the device. Below these sizes the host computes and
// the result is copied once; above, the large steps run on the device and
// only the small first steps (the top of an exponent, the leaves of a
// product tree) are computed on the host. Sizes are limbs of the result
// (of the radicand for roots). Host-only header: g++ compiles it.
//
// Each value is the first size from which the device path wins in
// bench/whole_bench (GMP, the device path forced, and the public call, per
// size); the runs behind them are listed in docs/tuning-history.md,
// "Whole-number crossovers". The values themselves are the build's tuning
// table (mpgpu/tuning/table.hpp, with their provenance); these names are the
// API that inline code and users read them by.
#pragma once

#include <cstddef>

#include "mpgpu/tuning/table.hpp"

namespace mpgpu {

// ---- where values live on a CUDA context (docs/integer.md, "Where values live") ----
/// A value made on the host (from_mpz, from_string, from_limbs, machine
/// integers, the result of an operation GMP ran) with at most this many
/// limbs stays in host memory until a device operation needs it (then it
/// is copied once, and kept on both sides until it changes). An operation
/// whose operands are all in host memory runs with GMP while they (and a
/// shifted result) stay within this size: near it GMP's add and a device add
/// with its launch cost about the same, and copying an operand up costs
/// more than either (an estimate from the add rows; not yet swept).
inline constexpr std::size_t kHostValueMaxLimbs = tuning::table::kHostValueMaxLimbs;
/// Products (and squares) of operands in host memory run with GMP while
/// na + nb is at most this: there a device product with its launches and
/// copies takes about as long as GMP's (an estimate; not yet swept).
inline constexpr std::size_t kHostProductMaxLimbs = tuning::table::kHostProductMaxLimbs;

/// pow_ui / ui_pow_ui: results of at least this many limbs are squared up on the device.
inline constexpr std::size_t kDevicePowerMinLimbs = tuning::table::kDevicePowerMinLimbs;
/// root with k >= 3: radicands of at least this many limbs.
inline constexpr std::size_t kDeviceRootMinLimbs = tuning::table::kDeviceRootMinLimbs;
/// sqrt / sqrtrem / perfect_square_p: radicands of at least this many
/// limbs. GMP's square root is quicker than its k-th roots, so the device
/// wins later.
inline constexpr std::size_t kDeviceSqrtMinLimbs = tuning::table::kDeviceSqrtMinLimbs;
/// fac_ui, fib_ui, lucnum_ui, bin_uiui: results of at least this many limbs.
inline constexpr std::size_t kDeviceSequenceMinLimbs = tuning::table::kDeviceSequenceMinLimbs;
/// fac_ui, bin_uiui: their product trees' leaves (products by GMP on host
/// threads) are each about 1 / (kSequenceLeavesPerThread x the host
/// threads) of the product, within [kDeviceSequenceMinLimbs,
/// kSequenceLeafMaxLimbs] limbs. Why the rule: each device product above
/// the leaves has a fixed cost, so fewer, larger leaves trade device
/// products for host work done in parallel. Why the cap equals the minimum
/// (leaves of 2048 limbs, as before the rule): larger leaves measured slower
/// from 4 to 32 million bits (bench/whole_bench with
/// MPGPU_SEQUENCE_LEAF_LIMBS; docs/tuning-history.md, "Whole-number
/// crossovers").
inline constexpr std::size_t kSequenceLeavesPerThread = tuning::table::kSequenceLeavesPerThread;
inline constexpr std::size_t kSequenceLeafMaxLimbs = tuning::table::kSequenceLeafMaxLimbs;
/// bin_uiui by primes: the numbers a host thread sieves at a time (even;
/// one byte per odd number, so 64 KiB of scratch, resident in L2). One of
/// the two fastest spans of a sweep (docs/tuning-history.md, "Whole-number
/// crossovers"); larger spans lose L2 locality and balance threads less.
inline constexpr std::size_t kPrimeSieveSegmentNumbers = tuning::table::kPrimeSieveSegmentNumbers;

/// gcd, gcdext, lcm, invert: the larger operand of at least this many limbs
/// goes through the half-gcd with its large products on the device; its
/// parts of at most kHostHalfGcdMaxLimbs limbs are GMP's half-gcd on the
/// host. From bench/whole_bench --ops gcd: below 2^18 bits (4096 limbs)
/// the half-gcd only ties GMP, and 2048 limbs was the fastest host base of
/// those swept (docs/tuning-history.md, "Whole-number crossovers").
inline constexpr std::size_t kDeviceGcdMinLimbs = tuning::table::kDeviceGcdMinLimbs;
inline constexpr std::size_t kHostHalfGcdMaxLimbs = tuning::table::kHostHalfGcdMaxLimbs;

}  // namespace mpgpu
