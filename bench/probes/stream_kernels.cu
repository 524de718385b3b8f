// Probe: the library's streaming kernels (bitwise map, scan add/sub; the
// subtraction with equal sizes, its order from the top limbs) at 2^28 and
// 2^30 bits in a stream of calls, against the shape of their tiles (rows a
// warp, blocks an SM). The first version of this probe chose the shapes
// (then 4 rows at 6 and 8 blocks an SM); the subtraction then still ended
// with a fixup kernel (+1.4 us a call at 2^28 bits). A bare r = a & b of
// two rows a warp and no spills ran 35.2 us at 2^28 bits on an H100
// (stream_overlap.cu); the library's and was 38.2 us in `mpgpu bench`.
// Build (from the repository root): nvcc -O3 -arch=sm_90 -std=c++20 -I include bench/probes/stream_kernels.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../cuda_timing.cuh"
#include "mpgpu/device/bitwise.cuh"
#include "mpgpu/device/scan_add.cuh"
#include "mpgpu/device/shift.cuh"

using namespace mpgpu;


template <int kRowsT, int kMinBlocksT>
struct Shape {
  static constexpr int kThreads = 256;
  static constexpr int kRows = kRowsT;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kWarpLimbs = kRows * 64;
  static constexpr int kTile = kWarps * kWarpLimbs;
  static constexpr int kMinBlocksPerSM = kMinBlocksT;
};

struct Buffers {
  limb_t *a, *b, *r;
  std::size_t n;
  device::ResultWords words;
  unsigned long long* tiles;
  unsigned epoch = 0;
};

/// Microseconds a call: the median of 15 bursts of 20 back-to-back calls
/// (CUDA events), after a warm-up burst.
template <class F>
double burst_us(cudaStream_t s, F&& launch) {
  constexpr int kBurst = 20;
  return 1000 / double(kBurst) * mpgpu_bench::median_ms(s, 15, [&] {
    for (int i = 0; i < kBurst; ++i) launch();
  });
}

void report(const char* what, const Buffers& B, double us, const std::vector<limb_t>& expect, std::size_t rn) {
  std::vector<limb_t> got(rn);
  CHECK(cudaMemcpy(got.data(), B.r, rn * 8, cudaMemcpyDeviceToHost));
  std::printf("%-28s 2^%d bits  %8.2f us  %6.0f GB/s  %s\n", what, 63 - __builtin_clzll(B.n * 64), us,
              3.0 * B.n * 8 / us / 1e3, got == expect ? "verified" : "WRONG");
}

template <class P>
void run_bitwise(const char* what, cudaStream_t s, Buffers& B, const std::vector<limb_t>& expect) {
  const device::TwosComplementOperand ta{B.a, B.n, false, B.words.slot + device::kSlotLowA};
  const device::TwosComplementOperand tb{B.b, B.n, false, B.words.slot + device::kSlotLowB};
  const unsigned blocks = unsigned((B.n + 1 + P::kTile - 1) / P::kTile);
  CHECK(cudaMemset(B.r, 0, (B.n + 1) * 8));
  const double us = burst_us(s, [&] {
    CHECK(device::launch_dependent(device::bitwise_kernel<P>, blocks, P::kThreads, s, B.r, limb::BitwiseOp::and_,
                                   ta, tb, false, B.words, true));
  });
  report(what, B, us, expect, B.n);
}

template <bool kSub, class P>
void run_scan(const char* what, cudaStream_t s, Buffers& B, const std::vector<limb_t>& expect) {
  const unsigned tiles = unsigned((B.n + P::kTile - 1) / P::kTile);
  CHECK(cudaMemset(B.r, 0, (B.n + 1) * 8));
  const double us = burst_us(s, [&] {
    const device::CarryTiles carry{B.tiles, ++B.epoch};
    CHECK(device::launch_dependent(device::scan_add_kernel<kSub, false, P>, tiles, P::kThreads, s, B.r, B.a, B.n,
                                   device::AddendB{B.b, B.n, 0}, carry, B.words, kSub, true));
  });
  report(what, B, us, expect, B.n + (kSub ? 0 : 1));
}

template <int kItemsT, int kMinBlocksT>
struct ShiftShape {
  static constexpr int kThreads = 256;
  static constexpr int kItems = kItemsT;
  static constexpr int kMinBlocksPerSM = kMinBlocksT;
  static constexpr std::size_t kPairsPerBlock = std::size_t(kThreads) * kItems;
};

/// r = a << (64 q + 5) with q = 3 (odd: the unaligned pair path); bytes
/// moved 2 x n x 8, reported in the GB/s column as 3/2 of that.
template <class P>
void run_shift(const char* what, cudaStream_t s, Buffers& B, const std::vector<limb_t>& expect) {
  const std::size_t q = 3, out = B.n + q + 1;
  const unsigned blocks = unsigned(((out + 1) / 2 + P::kPairsPerBlock - 1) / P::kPairsPerBlock);
  CHECK(cudaMemset(B.r, 0, (B.n + 1) * 8));
  const double us = burst_us(s, [&] {
    CHECK(device::launch_dependent(device::shift_left_kernel<P>, blocks, P::kThreads, s, B.r, B.a, B.n - q - 1, q,
                                   5u, B.words, true));
  });
  std::vector<limb_t> got(B.n);
  CHECK(cudaMemcpy(got.data(), B.r, B.n * 8, cudaMemcpyDeviceToHost));
  std::printf("%-28s 2^%d bits  %8.2f us  %6.0f GB/s (2 x n x 8)  %s\n", what, 63 - __builtin_clzll(B.n * 64), us,
              2.0 * B.n * 8 / us / 1e3, got == expect ? "verified" : "WRONG");
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int bits_log : {28, 30}) {
    Buffers B;
    B.n = std::size_t(1) << (bits_log - 6);
    const std::size_t n = B.n;
    std::vector<limb_t> ha(n), hb(n), e_and(n), e_add(n + 1), e_sub(n);
    unsigned long long state = 0x9E3779B97F4A7C15ull;
    for (std::size_t i = 0; i < n; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      ha[i] = state;
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      hb[i] = state ^ (state >> 29);
    }
    ha[n - 1] |= 1ull << 63;  // a > b by the top limbs (>= 2 apart): the subtraction's common case
    hb[n - 1] &= ~(1ull << 63);
    unsigned char c = 0, borrow = 0;
    for (std::size_t i = 0; i < n; ++i) {
      e_and[i] = ha[i] & hb[i];
      const unsigned __int128 sum = (unsigned __int128)ha[i] + hb[i] + c;
      e_add[i] = limb_t(sum);
      c = sum >> 64;
      e_sub[i] = ha[i] - hb[i] - borrow;
      borrow = ha[i] < hb[i] || (ha[i] == hb[i] && borrow);
    }
    e_add[n] = c;
    // a's low n - 4 limbs (top limb nonzero) shifted left by 64 x 3 + 5 bits: n limbs
    std::vector<limb_t> e_shl(n, 0);
    for (std::size_t k = 3; k < n; ++k) {
      const limb_t lo = k - 3 < n - 4 ? ha[k - 3] : 0, below = k >= 4 && k - 4 < n - 4 ? ha[k - 4] : 0;
      e_shl[k] = (lo << 5) | (below >> 59);
    }
    CHECK(cudaMalloc(&B.a, n * 8));
    CHECK(cudaMalloc(&B.b, n * 8));
    CHECK(cudaMalloc(&B.r, (n + 1) * 8));
    CHECK(cudaMalloc(&B.tiles, (n / 256 + 1) * 8));
    CHECK(cudaMemset(B.tiles, 0, (n / 256 + 1) * 8));
    CHECK(cudaMemcpy(B.a, ha.data(), n * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B.b, hb.data(), n * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&B.words.slot, device::kSlotCount * 8));
    CHECK(cudaMemset(B.words.slot, 0, device::kSlotCount * 8));
    CHECK(cudaMalloc(&B.words.arrivals, 8));
    CHECK(cudaMemset(B.words.arrivals, 0, 8));
    CHECK(cudaHostAlloc(&B.words.published, (device::kSlotCount + 2) * 8, cudaHostAllocMapped));
    B.words.sequence = 1;

    run_bitwise<device::BitwisePolicy>("and (library)", s, B, e_and);
    run_bitwise<Shape<4, 8>>("and rows4/8", s, B, e_and);
    run_bitwise<Shape<2, 8>>("and rows2/8", s, B, e_and);
    run_scan<false, device::ScanAddPolicy>("add (library)", s, B, e_add);
    run_scan<false, Shape<4, 6>>("add rows4/6", s, B, e_add);
    run_scan<false, Shape<1, 8>>("add rows1/8", s, B, e_add);
    run_scan<true, device::ScanAddPolicy>("sub equal sizes (library)", s, B, e_sub);
    run_scan<true, Shape<4, 6>>("sub equal sizes rows4/6", s, B, e_sub);
    run_bitwise<device::BitwisePolicy>("and (library)", s, B, e_and);
    run_scan<false, device::ScanAddPolicy>("add (library)", s, B, e_add);
    run_scan<true, device::ScanAddPolicy>("sub equal sizes (library)", s, B, e_sub);
    run_shift<device::ShiftPolicy>("shift left (library)", s, B, e_shl);
    run_shift<ShiftShape<4, 5>>("shift left items4/5", s, B, e_shl);
    run_shift<ShiftShape<2, 8>>("shift left items2/8", s, B, e_shl);
    run_shift<ShiftShape<1, 8>>("shift left items1/8", s, B, e_shl);
    run_shift<ShiftShape<2, 6>>("shift left items2/6", s, B, e_shl);
    run_shift<device::ShiftPolicy>("shift left (library)", s, B, e_shl);
    CHECK(cudaFree(B.a));
    CHECK(cudaFree(B.b));
    CHECK(cudaFree(B.r));
    CHECK(cudaFree(B.tiles));
  }
  return 0;
}
