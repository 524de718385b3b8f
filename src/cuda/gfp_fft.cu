// The big prime FFT on the device (include/mpgpu/gfp.hpp): per
// stage of the radix-K Stockham schedule (fft_stages.cuh), one launch of
// shift-only group DFTs from one buffer into the other, then, where the
// stage has twiddles (all but the last) or the inverse's N^-1 is due, one
// launch of per-element products in place. The host twin in
// src/gfp_fft_device.cpp runs the same stage functions in the same order.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/scoped_memory.cuh"
#include "cuda/result_words.cuh"
#include "mpgpu/error.hpp"
#include "mpgpu/gfp/fft_kernels.cuh"

namespace mpgpu::detail::cuda {

namespace {

// Each thread holds K elements (K k words: 1 KiB for k = 8, 4 KiB for 16,
// 16 KiB for 32) in local memory: small blocks keep more of it in L1.
constexpr unsigned kFftThreads = 128;

unsigned fft_grid(std::size_t items) {
  return static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>((items + kFftThreads - 1) / kFftThreads, 1u << 20)));
}

template <int D>
void run(ContextState& st, Stream s, limb_t radix, limb_t* x, std::size_t n, int e, const limb_t* table, int dir,
         const limb_t* scale_digits) {
  constexpr int K = 2 * D;
  const gfp::Field<D> f{radix};
  gfp::Element<D> scale{};
  if (scale_digits) std::copy(scale_digits, scale_digits + D, scale.digit);
  ScopedDeviceMemory scratch(st, s, n * D * sizeof(limb_t));
  limb_t* in = x;
  limb_t* out = scratch.as<limb_t>();
  std::size_t stride = 1;
  for (int t = 0; t < e; ++t, stride *= K) {
    gfp::fft_group_dft_kernel<D><<<fft_grid(n / K), kFftThreads, 0, s>>>(f, in, out, n, stride, dir);
    MPGPU_CHECK_LAUNCH("fft_group_dft_kernel");
    const bool scaled = scale_digits != nullptr && t + 1 == e;
    if (gfp::stages::stage_has_twiddles(n, stride, K) || scaled) {
      gfp::fft_twiddle_kernel<D><<<fft_grid(n), kFftThreads, 0, s>>>(f, out, n, stride, table, dir, scale, scaled);
      MPGPU_CHECK_LAUNCH("fft_twiddle_kernel");
    }
    std::swap(in, out);
  }
  if (in != x) copy_on_device(st, s, x, in, n * D * sizeof(limb_t));
}

}  // namespace

void gfp_fft(ContextState& st, Stream s, int k, std::uint64_t radix, std::uint64_t* x, std::size_t n, int e,
             const std::uint64_t* table, int dir, const std::uint64_t* scale) {
  use_device(st.device);
  switch (k) {
    case 8: run<8>(st, s, radix, x, n, e, table, dir, scale); break;
    case 16: run<16>(st, s, radix, x, n, e, table, dir, scale); break;
    case 32: run<32>(st, s, radix, x, n, e, table, dir, scale); break;
    default: throw InvalidArgument("gfp_fft: k must be 8, 16 or 32");
  }
}

}  // namespace mpgpu::detail::cuda
