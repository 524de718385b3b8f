// gfp::pointwise_mul (include/mpgpu/gfp.hpp): the checks, then the device
// kernel (src/cuda/gfp_pointwise.cu) on a CUDA context or the same
// gfp::Field::mul run by the host on the CPU context.
#include <cstdint>
#include <string>

#include "context/context_state.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/gfp.hpp"
#include "mpgpu/gfp/field.cuh"

namespace mpgpu::gfp {

namespace {

template <int D>
void pointwise_host(limb_t radix, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, std::size_t n) {
  const Field<D> f{radix};
  for (std::size_t i = 0; i < n; ++i) {
    Element<D> x, y;
    for (int d = 0; d < D; ++d) {
      x.digit[d] = a[static_cast<std::size_t>(d) * n + i];
      y.digit[d] = b[static_cast<std::size_t>(d) * n + i];
    }
    const Element<D> z = f.mul(x, y);  // element i is read before it is written: out may be a or b
    for (int d = 0; d < D; ++d) out[static_cast<std::size_t>(d) * n + i] = z.digit[d];
  }
}

}  // namespace

void pointwise_mul(const Context& ctx, const GfpPrime& prime, std::uint64_t* out, const std::uint64_t* a,
                   const std::uint64_t* b, std::size_t n, Stream s) {
  if (prime.k != 8 && prime.k != 16 && prime.k != 32)
    throw InvalidArgument("gfp::pointwise_mul: k = " + std::to_string(prime.k) +
                          " digits; the product is built for k = 8, 16 and 32");
  if (n == 0) return;
  if (out == nullptr || a == nullptr || b == nullptr) throw InvalidArgument("gfp::pointwise_mul: null pointer");
  // Digit rows of other elements would be written while still to be read.
  const std::size_t bytes = n * static_cast<std::size_t>(prime.k) * sizeof(std::uint64_t);
  const auto partly_overlaps = [&](const std::uint64_t* x) {
    const auto uo = reinterpret_cast<std::uintptr_t>(out), ux = reinterpret_cast<std::uintptr_t>(x);
    return x != out && uo < ux + bytes && ux < uo + bytes;
  };
  if (partly_overlaps(a) || partly_overlaps(b))
    throw InvalidArgument("gfp::pointwise_mul: out overlaps an input without being equal to it");
  if (ctx.is_cuda()) {
    mpgpu::detail::cuda::gfp_pointwise_mul(mpgpu::detail::ContextAccess::state(ctx), ctx.resolve(s), prime.k,
                                           prime.radix(), out, a, b, n);
    return;
  }
  switch (prime.k) {
    case 8: pointwise_host<8>(prime.radix(), out, a, b, n); break;
    case 16: pointwise_host<16>(prime.radix(), out, a, b, n); break;
    default: pointwise_host<32>(prime.radix(), out, a, b, n); break;
  }
}

}  // namespace mpgpu::gfp
