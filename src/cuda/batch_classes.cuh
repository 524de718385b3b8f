// The width classes the host API dispatches to; each runs with the group
// size of a tuning table (mpgpu/batch/tuning_table.hpp).
#pragma once

#include <cstddef>
#include <string>

#include "mpgpu/batch/tuning.cuh"
#include "mpgpu/error.hpp"

namespace mpgpu::detail::batch::cuda {

/// Which tuning table picks the group size: products, streaming operations
/// of one pass, Montgomery operations and powm, gcd and invert, or
/// everything else.
enum class Tuning { general, products, linear, modular, gcd };

template <int W, Tuning T>
constexpr int group_size() {
  if constexpr (T == Tuning::products) return mpgpu::batch::tuned_product_group_size(W);
  else if constexpr (T == Tuning::linear) return mpgpu::batch::tuned_linear_group_size(W);
  else if constexpr (T == Tuning::modular) return mpgpu::batch::tuned_modular_group_size(W);
  else if constexpr (T == Tuning::gcd) return mpgpu::batch::tuned_gcd_group_size(W);
  else return mpgpu::batch::tuned_group_size(W);
}

/// Calls f.template operator()<W, G>() for the class of `words` 32-bit words.
template <Tuning T, class F>
void with_class(std::size_t words, F&& f) {
  switch (words) {
    case 4: return f.template operator()<4, group_size<4, T>()>();
    case 8: return f.template operator()<8, group_size<8, T>()>();
    case 16: return f.template operator()<16, group_size<16, T>()>();
    case 32: return f.template operator()<32, group_size<32, T>()>();
    case 64: return f.template operator()<64, group_size<64, T>()>();
    case 96: return f.template operator()<96, group_size<96, T>()>();
    case 128: return f.template operator()<128, group_size<128, T>()>();
    case 256: return f.template operator()<256, group_size<256, T>()>();
    case 512: return f.template operator()<512, group_size<512, T>()>();
    case 1024: return f.template operator()<1024, group_size<1024, T>()>();
    case 2048: return f.template operator()<2048, group_size<2048, T>()>();
    case 4096: return f.template operator()<4096, group_size<4096, T>()>();
    case 8192: return f.template operator()<8192, group_size<8192, T>()>();
    default:
      throw InvalidArgument("batch: no width class of " + std::to_string(words) + " 32-bit words");
  }
}

}  // namespace mpgpu::detail::batch::cuda
