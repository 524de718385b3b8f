// In-place bit-reversal permutation of batched 2^L-word vectors (L >= 10),
// in 32 x 32 tiles through shared memory, so that reads and writes are both
// 128-byte rows: the natural-order forms of the 32-bit transforms of
// several passes (column_ntt32.cuh), whose passes leave (or take) the
// bit-reversed order.
//
// Index i = a 2^(L-5) + m 2^5 + c (a, c < 32, m < 2^(L-10)) goes to
// rev(i) = rev5(c) 2^(L-5) + rev(m) 2^5 + rev5(a): the tile of middle bits m
// (32 rows a, 32 columns c) lands, transposed and reversed, on the tile of
// rev(m). A block swaps the tiles of m and rev(m), so the permutation is in
// place with one read and one write of every word.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mpgpu::ntt {

inline constexpr int kBitReverseTileRows = 8;  ///< thread rows of a block (32 x 8 threads)

#if defined(__CUDACC__)
__global__ void __launch_bounds__(32 * kBitReverseTileRows)
    bit_reverse_tiles_kernel(std::uint32_t* __restrict__ data, std::size_t batch, int log_n) {
  __shared__ std::uint32_t tile[2][32][33];  // padded: transposed reads hit 32 banks
  const int mid_bits = log_n - 10;
  const std::size_t tiles = batch << mid_bits;
  const unsigned mid_mask = (1u << mid_bits) - 1;
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  const auto rev5 = [](int v) { return static_cast<int>(__brev(static_cast<unsigned>(v)) >> 27); };
  for (std::size_t block = blockIdx.x; block < tiles; block += gridDim.x) {
    const unsigned m = static_cast<unsigned>(block) & mid_mask;
    const unsigned m2 = mid_bits ? __brev(m) >> (32 - mid_bits) : 0;
    if (m > m2) continue;  // the pair's other block swaps it (uniform in the block)
    std::uint32_t* x = data + ((block >> mid_bits) << log_n);
    const std::size_t row = std::size_t{1} << (log_n - 5);
#pragma unroll
    for (int k = 0; k < 32; k += kBitReverseTileRows) {
      const std::size_t a = ty + k;
      tile[0][a][tx] = x[a * row + (m << 5) + tx];
      tile[1][a][tx] = x[a * row + (m2 << 5) + tx];
    }
    __syncthreads();
    // Output row c' = ty + k of tile m2 takes element (a = rev5(tx), c = rev5(c')) of tile m.
#pragma unroll
    for (int k = 0; k < 32; k += kBitReverseTileRows) {
      const int c_out = ty + k;
      x[c_out * row + (m2 << 5) + tx] = tile[0][rev5(tx)][rev5(c_out)];
      x[c_out * row + (m << 5) + tx] = tile[1][rev5(tx)][rev5(c_out)];
    }
    __syncthreads();
  }
}
#endif

}  // namespace mpgpu::ntt
