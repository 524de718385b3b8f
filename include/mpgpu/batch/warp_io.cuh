// Loads and stores of thread-per-instance numbers (G == 1) through a shared
// tile per warp. A thread that reads its own W-word instance with 16-byte
// loads makes each warp instruction touch 32 cache lines (one per lane);
// here the warp instead reads whole instances together (each instruction
// covers 512 contiguous bytes when the lanes' instances are adjacent) into
// the tile, and each thread then takes its own row. The tile is swizzled
// (a row's 16-byte chunk c sits at c ^ f(row)) so that both the row-wise
// reads and the chunk-wise writes are free of bank conflicts.
//
// A warp cooperates only when all its 32 lanes call together: each row is
// read by lanes that are not its own, so a lane missing from the call would
// leave rows unread. A partial warp (`if (live) load(...)` in the last
// block of a batch) loads directly. Each lane may pass any 16-byte-aligned
// address. The tile serves the first kTileWarps warps of a one-dimensional
// block (the launch skeleton's 128-thread blocks); other threads load
// directly.
#pragma once

#include "mpgpu/batch/word.cuh"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

namespace mpgpu::batch::warp_io {

#if defined(__CUDACC__)
inline constexpr int kTileWarps = 4;

/// Swizzle of a row's chunks: with C chunks a row, the 8 lanes of one
/// 16-byte shared-memory phase land in 8 different bank groups, whether
/// they read 8 rows' chunk c (C >= 8: c ^ (row mod 8)) or write chunks of
/// two rows (C = 4: c ^ (row / 2)).
template <int C>
__device__ __forceinline__ int swizzled(int row, int c) {
  static_assert(C == 4 || C == 8 || C == 16, "rows of 4, 8 or 16 chunks");
  return row * C + (C >= 8 ? (c ^ (row & 7)) : (c ^ ((row >> 1) & 3)));
}

template <int W>
__device__ __forceinline__ uint4* warp_tile() {
  __shared__ uint4 tile[kTileWarps][32 * (W / 4)];
  return tile[threadIdx.x / 32];
}

/// Whether this call can go through the tile: a whole warp calling, of a
/// one-dimensional block, among its first kTileWarps warps.
__device__ __forceinline__ bool tile_usable() {
  return __activemask() == 0xffffffffu && blockDim.y == 1 && blockDim.z == 1 && threadIdx.x < 32 * kTileWarps;
}

template <int W>
__device__ __forceinline__ void direct_load(word_t (&w)[W], const word_t* p) {
#pragma unroll
  for (int c = 0; c < W / 4; ++c) {
    const uint4 v = reinterpret_cast<const uint4*>(p)[c];
    w[4 * c] = v.x, w[4 * c + 1] = v.y, w[4 * c + 2] = v.z, w[4 * c + 3] = v.w;
  }
}

/// w = the W words at p (this lane's instance).
template <int W>
__device__ __forceinline__ void tiled_load(word_t (&w)[W], const word_t* p) {
  constexpr int C = W / 4, rows_per_step = 32 / C;
  // Loads in flight a lane: 4 (16 registers). All 8 at 1024 bits took more
  // registers and made a batch of products slower (docs/tuning-history.md,
  // "Register products").
  constexpr int kBatch = 4;
  if (!tile_usable()) return direct_load<W>(w, p);
  uint4* tile = warp_tile<W>();
  constexpr unsigned active = 0xffffffffu;
  const int lane = static_cast<int>(threadIdx.x & 31u), c = lane % C;
  const auto mine = reinterpret_cast<unsigned long long>(p);
  // Step s: lanes [C k, C k + C) read row s * rows_per_step + k, one chunk
  // each, kBatch steps' loads at a time.
#pragma unroll
  for (int s0 = 0; s0 < C; s0 += kBatch) {
    uint4 v[kBatch];
#pragma unroll
    for (int s = s0; s < s0 + kBatch; ++s) {
      const int row = s * rows_per_step + lane / C;
      const auto src = __shfl_sync(active, mine, row);
      v[s - s0] = reinterpret_cast<const uint4*>(src)[c];
    }
#pragma unroll
    for (int s = s0; s < s0 + kBatch; ++s) {
      tile[swizzled<C>(s * rows_per_step + lane / C, c)] = v[s - s0];
    }
  }
  __syncwarp(active);
#pragma unroll
  for (int k = 0; k < C; ++k) {
    const uint4 x = tile[swizzled<C>(lane, k)];
    w[4 * k] = x.x, w[4 * k + 1] = x.y, w[4 * k + 2] = x.z, w[4 * k + 3] = x.w;
  }
  __syncwarp(active);  // the tile is free for the next load or store
}

/// The W words at p (this lane's instance) = w.
template <int W>
__device__ __forceinline__ void tiled_store(word_t* p, const word_t (&w)[W]) {
  constexpr int C = W / 4, rows_per_step = 32 / C;
  if (!tile_usable()) {
#pragma unroll
    for (int k = 0; k < C; ++k)
      reinterpret_cast<uint4*>(p)[k] = make_uint4(w[4 * k], w[4 * k + 1], w[4 * k + 2], w[4 * k + 3]);
    return;
  }
  uint4* tile = warp_tile<W>();
  constexpr unsigned active = 0xffffffffu;
  const int lane = static_cast<int>(threadIdx.x & 31u), c = lane % C;
  const auto mine = reinterpret_cast<unsigned long long>(p);
#pragma unroll
  for (int k = 0; k < C; ++k) tile[swizzled<C>(lane, k)] = make_uint4(w[4 * k], w[4 * k + 1], w[4 * k + 2], w[4 * k + 3]);
  __syncwarp(active);
  uint4 v[C];
#pragma unroll
  for (int s = 0; s < C; ++s) v[s] = tile[swizzled<C>(s * rows_per_step + lane / C, c)];
#pragma unroll
  for (int s = 0; s < C; ++s) {
    const int row = s * rows_per_step + lane / C;
    const auto dst = __shfl_sync(active, mine, row);
    reinterpret_cast<uint4*>(dst)[c] = v[s];
  }
  __syncwarp(active);
}
#endif

}  // namespace mpgpu::batch::warp_io
