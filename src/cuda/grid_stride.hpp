// Grid size of the element-wise grid-stride kernels: enough 256-thread
// blocks for n items, at least 1 (a launch of 0 blocks is an error) and at
// most 65536 (each thread strides over the rest).
#pragma once

#include <algorithm>
#include <cstddef>

namespace mpgpu::detail::cuda {

inline constexpr unsigned kGridStrideThreads = 256;

inline unsigned grid_for(std::size_t n) {
  return static_cast<unsigned>(
      std::clamp<std::size_t>((n + kGridStrideThreads - 1) / kGridStrideThreads, 1, 65536));
}

}  // namespace mpgpu::detail::cuda
