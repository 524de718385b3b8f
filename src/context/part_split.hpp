// How items are split over a context's k parts: part i holds count / k of them, one more for
// i < count % k, and starts at part_begin. Batches over several devices (src/batch/) and the
// distributed product's ranges (src/distributed/) share it, so that a distributed value's limbs
// are split as a batch's instances are.
#pragma once

#include <algorithm>
#include <cstddef>

namespace mpgpu::detail {

/// Items of part i of `count` split over `parts` parts.
inline std::size_t part_size(std::size_t count, std::size_t parts, std::size_t i) {
  return count / parts + (i < count % parts ? 1 : 0);
}

/// Index of the first item of part i.
inline std::size_t part_begin(std::size_t count, std::size_t parts, std::size_t i) {
  return i * (count / parts) + std::min(i, count % parts);
}

}  // namespace mpgpu::detail
