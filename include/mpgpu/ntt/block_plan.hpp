// The pass schedule of the device NTT (include/mpgpu/ntt/block_ntt.cuh):
// host-only (plain C++), tested by g++ alone.
//
// A transform of 2^L points is a four-step decomposition applied
// recursively. A pass with top stage `hi` and `k` stages views the current
// sub-transform of size M = 2^(hi+1) as 2^k rows at stride S = 2^(hi-k+1)
// (the columns); forward it does a 2^k-point DIF NTT down each column, then
// multiplies the element in row t, column n2 by w_M^(n2 * bitrev_k(t)) (the
// "cross" twiddle); the rows (contiguous runs of S) are then sub-transforms
// of the next pass. Storage ends bit-reversed, the same order as a radix-2
// DIF, since bitrev_L(t * S + q) = bitrev(q) * 2^k + bitrev_k(t). The
// inverse undoes the passes in reverse order (cross twiddle w^-e first, then
// a DIT sub-NTT with the inverse root).
//
// A block holds 2^k rows x 2^log_c adjacent columns: 2^(k+log_c) <= 2^13
// elements (64 KiB + padding of shared memory) for a single pass, <= 2^12
// for the passes of a longer transform (two blocks per SM). Strided passes
// take <= 11 stages so that >= 2 adjacent columns (16-byte runs) are read
// per row; the last pass (stride 1, contiguous rows) takes up to 12.
//
// Natural order (forward output / inverse input) is fused into the last
// forward (first inverse) pass: its block takes 2^log_c groups whose
// bit-reversed group indices are consecutive, so that it writes (reads)
// runs of 2^log_c consecutive words; such a pass cannot run in place when
// there are several passes (other blocks still read what it would
// overwrite), so it goes through a scratch buffer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace mpgpu::ntt {

/// log2 of the largest tile (elements) one block holds in shared memory:
/// single-pass transforms of up to 2^13 points.
inline constexpr int kBlockTileLog = 13;
/// log2 of the tiles of a transform of several passes (and of batches of
/// short transforms): 2^12 elements, 256 threads, so that several blocks
/// share an SM (three, at the 80-register budget of block_ntt.cuh's
/// launch_block_pass_direction) and one's loads and stores overlap the
/// others' arithmetic. This measured faster than 2^13-point tiles (one
/// 512-thread block per SM), although large transforms then take three
/// passes instead of two; tiles of 2^11 at three blocks' budget (six blocks
/// per SM) measured slower. Figures: docs/tuning-history.md, "NTT tile
/// sizes".
inline constexpr int kBlockMultiPassTileLog = 12;
/// Elements each thread owns: 16 (radix-8 units, two or more per thread),
/// so the largest tile takes 512 threads with up to 128 registers each.
inline constexpr int kBlockPerThreadLog = 4;
/// Most stages of a strided pass (keeps >= 2 columns per 2^12 tile).
inline constexpr int kBlockStridedMaxStages = kBlockMultiPassTileLog - 1;

struct BlockPass {
  int hi;        ///< log2 of the largest butterfly half-size of the pass, in elements
  int k;         ///< stages (rows of a tile = 2^k)
  int log_c;     ///< columns (adjacent groups) per tile = 2^log_c
  bool permute;  ///< natural-order side (last forward pass / first inverse pass)
};

inline int ceil_log2(std::uint64_t x) {
  int l = 0;
  while ((std::uint64_t{1} << l) < x) ++l;
  return l;
}

/// Passes of a forward transform of 2^log_n points (log_n >= 1), top stages
/// first; `batch` transforms; `natural`: natural-order output (the inverse
/// uses the same list reversed, with natural-order input).
inline std::vector<BlockPass> block_passes(int log_n, std::uint64_t batch, bool natural) {
  std::vector<BlockPass> passes;
  if (log_n <= 0) return passes;
  if (log_n <= kBlockTileLog) {
    // One pass: whole transforms per block. Tiles of 2^12 (256 threads, 80
    // registers each) let three blocks share an SM, so that one block's loads
    // overlap another's arithmetic; at the same register budget tiles of
    // 2^11 measured no faster (docs/tuning-history.md, "NTT tile sizes").
    const int want = std::max(0, std::max(kBlockMultiPassTileLog, log_n) - log_n);
    const int log_c = std::min(want, ceil_log2(batch));
    passes.push_back({log_n - 1, log_n, log_c, natural});
    return passes;
  }
  const int last_max = natural ? kBlockStridedMaxStages : kBlockMultiPassTileLog;
  const int strided_passes = (log_n - last_max + kBlockStridedMaxStages - 1) / kBlockStridedMaxStages;
  const int last = std::min(last_max, log_n - strided_passes);
  int rest = log_n - last;
  int hi = log_n - 1;
  for (int i = 0; i < strided_passes; ++i) {
    const int k = (rest + (strided_passes - i) - 1) / (strided_passes - i);
    const int log_s = hi - k + 1;
    passes.push_back({hi, k, std::min(kBlockMultiPassTileLog - k, log_s), false});
    hi -= k;
    rest -= k;
  }
  // Contiguous groups: any number of adjacent ones per tile; a permuting
  // pass needs its columns inside one transform (2^(log_n - last) groups).
  passes.push_back({last - 1, last, std::min(kBlockMultiPassTileLog - last, log_n - last), natural});
  return passes;
}

}  // namespace mpgpu::ntt
