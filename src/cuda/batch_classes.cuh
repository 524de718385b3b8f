// The width classes the host API dispatches to; each runs with the group
// size of the tuning table (mpgpu/batch/tuning.cuh).
#pragma once

#include <cstddef>
#include <string>

#include "mpgpu/batch/tuning.cuh"
#include "mpgpu/error.hpp"

namespace mpgpu::detail::batch::cuda {

template <int W>
constexpr int group_size() {
  return mpgpu::batch::tuned_group_size<W>();
}

/// Calls f.template operator()<W, G>() for the class of `words` 32-bit words.
template <class F>
void with_class(std::size_t words, F&& f) {
  switch (words) {
    case 4: return f.template operator()<4, group_size<4>()>();
    case 8: return f.template operator()<8, group_size<8>()>();
    case 16: return f.template operator()<16, group_size<16>()>();
    case 32: return f.template operator()<32, group_size<32>()>();
    case 64: return f.template operator()<64, group_size<64>()>();
    case 96: return f.template operator()<96, group_size<96>()>();
    case 128: return f.template operator()<128, group_size<128>()>();
    case 256: return f.template operator()<256, group_size<256>()>();
    case 512: return f.template operator()<512, group_size<512>()>();
    case 1024: return f.template operator()<1024, group_size<1024>()>();
    case 2048: return f.template operator()<2048, group_size<2048>()>();
    case 4096: return f.template operator()<4096, group_size<4096>()>();
    case 8192: return f.template operator()<8192, group_size<8192>()>();
    default:
      throw InvalidArgument("batch: no width class of " + std::to_string(words) + " 32-bit words");
  }
}

}  // namespace mpgpu::detail::batch::cuda
