// `mpgpu selftest`: operand sizes. Most bugs live at the edges where an
// implementation changes strategy, so a good share of operands sits at the
// crossovers of include/mpgpu/integer_crossovers.hpp and integer.hpp (and the
// documented kernel limits), at their neighbours, and at the batch width
// classes (where the tuning tables of include/mpgpu/batch/tuning.cuh pick
// threads per instance and product methods).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "selftest_gen.hpp"

namespace mpgpu::cli::selftest {

/// What a size is measured against: each area has its own crossovers.
enum class Area { linear, product, division, power, sqrt, root, gcd, radix, sequence };

struct Crossover {
  std::string_view name;  ///< the constant, or the documented limit
  std::size_t limbs;
};

/// The crossovers of an area (limbs of the operand the crossover is about).
const std::vector<Crossover>& crossovers(Area area);

/// Bits of an operand: a quarter tiny (1..192 bits), a quarter log-uniform
/// up to `max_limbs` limbs, a quarter at one of the area's crossovers or
/// 1..2 limbs either side, and the rest powers of two of limbs (up to
/// `max_limbs`) and their neighbours. Whole limbs half of the time, a
/// partly filled top limb otherwise.
std::uint64_t pick_bits(CaseRng& rng, Area area, std::size_t max_limbs);

/// A batch width: the last width of a class and one more (every class edge
/// from 64 bits up, so each tuning entry and product method is met at its
/// boundary), tiny widths (1..130 bits), or log-uniform; never above max_bits.
std::uint64_t pick_batch_bits(CaseRng& rng, std::uint64_t max_bits);

/// The last width (bits) of each batch width class, from batch_stride_limbs.
const std::vector<std::uint64_t>& batch_class_edges();

}  // namespace mpgpu::cli::selftest
