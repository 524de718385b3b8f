// The pointwise product of the big prime fields on the device
// (include/mpgpu/gfp.hpp, gfp::pointwise_mul; checks and the host twin in
// src/gfp/gfp_pointwise.cpp): one thread per element, its k digits read
// and written digit-major (coalesced: neighbouring threads, neighbouring
// words of each digit row), gfp::Field::mul between.
#include <algorithm>
#include <cstdint>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/grid_stride.hpp"
#include "cuda/result_words.cuh"
#include "mpgpu/error.hpp"
#include "mpgpu/gfp/field.cuh"

namespace mpgpu::detail::cuda {

namespace {

/// out[i] = a[i] * b[i]; element i is read and written by one thread, so
/// out may be a or b.
template <int D>
__global__ void gfp_pointwise_kernel(gfp::Field<D> f, limb_t* out, const limb_t* a, const limb_t* b, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    gfp::Element<D> x, y;
    for (int d = 0; d < D; ++d) {
      x.digit[d] = a[d * n + i];
      y.digit[d] = b[d * n + i];
    }
    const gfp::Element<D> z = f.mul(x, y);
    for (int d = 0; d < D; ++d) out[d * n + i] = z.digit[d];
  }
}

template <int D>
void launch(Stream s, limb_t radix, limb_t* out, const limb_t* a, const limb_t* b, std::size_t n) {
  const gfp::Field<D> f{radix};
  gfp_pointwise_kernel<D><<<grid_for(n), kGridStrideThreads, 0, s>>>(f, out, a, b, n);
  MPGPU_CHECK_LAUNCH("gfp_pointwise_kernel");
}

}  // namespace

void gfp_pointwise_mul(ContextState& st, Stream s, int k, std::uint64_t radix, std::uint64_t* out,
                       const std::uint64_t* a, const std::uint64_t* b, std::size_t n) {
  use_device(st.device);
  if (n == 0) return;
  switch (k) {
    case 8: launch<8>(s, radix, out, a, b, n); break;
    case 16: launch<16>(s, radix, out, a, b, n); break;
    case 32: launch<32>(s, radix, out, a, b, n); break;
    default: throw InvalidArgument("gfp_pointwise_mul: k must be 8, 16 or 32");
  }
}

}  // namespace mpgpu::detail::cuda
