// Where a CUDA context hands the whole-number algorithms of integer.hpp
// (powers, roots, factorials, Fibonacci and Lucas numbers, binomials) from
// GMP on the host to the device. Below these sizes the host computes and
// the result is copied once; above, the large steps run on the device and
// only the small first steps (the top of an exponent, the leaves of a
// product tree) are computed on the host. Sizes are limbs of the result
// (of the radicand for roots). Host-only header: g++ compiles it.
//
// Provenance: first estimates from the measured costs of their parts on an
// H100 (a device product or square of 2^10-2^12 limbs takes 5-20 us with its
// launches; GMP's pow_ui/fib_ui/fac_ui of such results take 50-400 us; the
// device division starts at kDeviceDivisionMinLimbs divisor limbs, which a
// square root of twice that size first reaches). The measured crossover
// rows are in bench/results/ (`mpgpu bench --ops pow_ui,sqrt,fib_ui,fac_ui`).
#pragma once

#include <cstddef>

namespace mpgpu {

// ---- where values live on a CUDA context (docs/integer.md, "Where values live") ----
/// A value made on the host (from_mpz, from_string, from_limbs, machine
/// integers, the result of an operation GMP ran) with at most this many
/// limbs stays in host memory until a device operation needs it (then it
/// is copied once, and kept on both sides until it changes). An operation
/// whose operands are all in host memory runs with GMP while they (and a
/// shifted result) stay within this size. At 2^20 bits GMP's add (a few us)
/// and a device add with its launch cost about the same, and copying an
/// operand up costs more than either.
inline constexpr std::size_t kHostValueMaxLimbs = std::size_t{1} << 14;
/// Products (and squares) of operands in host memory run with GMP while
/// na + nb is at most this: a device product of ~512-limb operands takes
/// about as long as GMP's once its launches and copies are counted.
inline constexpr std::size_t kHostProductMaxLimbs = 1024;

/// pow_ui / ui_pow_ui: results of at least this many limbs are squared up on the device.
inline constexpr std::size_t kDevicePowerMinLimbs = 1024;
/// sqrt / sqrtrem / root / perfect_square_p: radicands of at least this many limbs.
inline constexpr std::size_t kDeviceRootMinLimbs = 8192;
/// fac_ui, fib_ui, lucnum_ui, bin_uiui: results of at least this many limbs.
inline constexpr std::size_t kDeviceSequenceMinLimbs = 2048;

}  // namespace mpgpu
