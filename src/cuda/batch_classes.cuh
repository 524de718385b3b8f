// The width classes the host API dispatches to; each runs with the group
// size of a tuning table (mpgpu/batch/tuning_table.hpp).
#pragma once

#include <cstddef>
#include <string>

#include "mpgpu/batch/tuning.cuh"
#include "mpgpu/error.hpp"

namespace mpgpu::detail::batch::cuda {

/// Which tuning table picks the group size: products, streaming operations
/// of one pass, the modular family (by width and instance count), gcd and
/// invert, or everything else.
enum class Tuning { general, products, linear, modular, gcd };

template <int W, Tuning T>
constexpr int group_size() {
  if constexpr (T == Tuning::products) return mpgpu::batch::tuned_product_group_size(W);
  else if constexpr (T == Tuning::linear) return mpgpu::batch::tuned_linear_group_size(W);
  else if constexpr (T == Tuning::gcd) return mpgpu::batch::tuned_gcd_group_size(W);
  else return mpgpu::batch::tuned_group_size(W);
}

/// Calls f.template operator()<W, G>() with the G of the modular table for
/// `count` instances: one call site per G that the table gives at W
/// (modular_groups(W), at most kMaxModularGroups), so each is a kernel.
template <int W, int I = 0, class F>
void with_modular_group(std::size_t count, F& f) {
  constexpr mpgpu::batch::ModularGroups groups = mpgpu::batch::modular_groups(W);
  if constexpr (I < groups.count) {
    constexpr int G = groups.sizes[I];
    if (mpgpu::batch::tuned_modular_group_size(W, count) == G) return f.template operator()<W, G>();
    return with_modular_group<W, I + 1>(count, f);
  } else {
    // modular_groups lists every G the table gives, so this is not reached.
    throw mpgpu::Error("batch: the modular tuning table gave a group size with no kernel at " + std::to_string(W) +
                " words");
  }
}

template <int W, Tuning T, class F>
void with_group(std::size_t count, F& f) {
  if constexpr (T == Tuning::modular) with_modular_group<W>(count, f);
  else f.template operator()<W, group_size<W, T>()>();
}

/// with_group for the classes from kMinWords to kMaxWords words; the others
/// have no kernel here (a file that compiles a part of the classes: the
/// caller picks the file by the width).
template <int W, Tuning T, int kMinWords, int kMaxWords, class F>
void with_group_in(std::size_t count, F& f) {
  if constexpr (W >= kMinWords && W <= kMaxWords) with_group<W, T>(count, f);
  else throw mpgpu::Error("batch: the class of " + std::to_string(W) + " words has no kernel in this part");
}

/// Calls f.template operator()<W, G>() for the class of `words` 32-bit
/// words and a batch of `count` instances (only the modular family's G
/// depends on the count); kernels only for the classes from kMinWords to
/// kMaxWords words (all by default).
template <Tuning T, int kMinWords = 0, int kMaxWords = 1 << 30, class F>
void with_class(std::size_t words, std::size_t count, F&& f) {
  switch (words) {
    case 4: return with_group_in<4, T, kMinWords, kMaxWords>(count, f);
    case 8: return with_group_in<8, T, kMinWords, kMaxWords>(count, f);
    case 16: return with_group_in<16, T, kMinWords, kMaxWords>(count, f);
    case 32: return with_group_in<32, T, kMinWords, kMaxWords>(count, f);
    case 64: return with_group_in<64, T, kMinWords, kMaxWords>(count, f);
    case 96: return with_group_in<96, T, kMinWords, kMaxWords>(count, f);
    case 128: return with_group_in<128, T, kMinWords, kMaxWords>(count, f);
    case 256: return with_group_in<256, T, kMinWords, kMaxWords>(count, f);
    case 512: return with_group_in<512, T, kMinWords, kMaxWords>(count, f);
    case 1024: return with_group_in<1024, T, kMinWords, kMaxWords>(count, f);
    case 2048: return with_group_in<2048, T, kMinWords, kMaxWords>(count, f);
    case 4096: return with_group_in<4096, T, kMinWords, kMaxWords>(count, f);
    case 8192: return with_group_in<8192, T, kMinWords, kMaxWords>(count, f);
    default:
      throw InvalidArgument("batch: no width class of " + std::to_string(words) + " 32-bit words");
  }
}

}  // namespace mpgpu::detail::batch::cuda
