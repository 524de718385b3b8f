// The pass schedule of the radix-2 NTT used for huge products: stages are
// grouped into passes, each pass one trip through device memory with its
// stages done in shared memory. Host-only (plain C++).
//
// Forward (decimation in frequency, natural order in, bit-reversed out):
// stages with butterfly half-sizes 2^(L-1), ..., 2, 1. A pass covers the k
// stages with half-sizes 2^hi, ..., 2^(hi-k+1); their butterflies only mix
// elements whose indices agree outside bits [hi-k+1, hi], so the transform
// splits into N / 2^k independent groups of 2^k elements at stride
// 2^(hi-k+1). The inverse (decimation in time, bit-reversed in, natural
// out) runs the same passes in reverse order, stages ascending.
#pragma once

#include <vector>

namespace mpgpu::ntt {

struct Radix2Pass {
  int hi;  ///< log2 of the largest butterfly half-size in the pass
  int k;   ///< stages in the pass
};

/// Elements a block keeps in shared memory (2048 x 8 bytes = 16 KiB).
inline constexpr int kPassLogElements = 11;
/// Strided passes keep at least 2^3 consecutive elements per row so that
/// global accesses stay coalesced (64 bytes): at most 8 stages each.
inline constexpr int kStridedMaxStages = kPassLogElements - 3;

/// Passes of a forward transform of length 2^log_n, largest stages first:
/// the last pass (stride 1, contiguous groups) takes up to 11 stages, the
/// rest is split evenly into passes of at most 8.
inline std::vector<Radix2Pass> forward_passes(int log_n) {
  std::vector<Radix2Pass> passes;
  const int last = log_n < kPassLogElements ? log_n : kPassLogElements;
  const int rest = log_n - last;
  const int strided = (rest + kStridedMaxStages - 1) / kStridedMaxStages;
  int hi = log_n - 1;
  for (int i = 0; i < strided; ++i) {
    const int remaining = hi - (last - 1);          // stages still above the last pass
    const int take = (remaining + (strided - i) - 1) / (strided - i);
    passes.push_back({hi, take});
    hi -= take;
  }
  if (last > 0) passes.push_back({last - 1, last});
  return passes;
}

}  // namespace mpgpu::ntt
