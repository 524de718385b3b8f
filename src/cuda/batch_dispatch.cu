// The CUDA batch backend's entry points (batch_backend.hpp).
#include "batch_launch.cuh"
#include "result_words.cuh"
#include "scoped_memory.cuh"

#include <algorithm>

namespace mpgpu::detail::batch::cuda {

void run(ContextState& st, Stream stream, const Args& args) {
  // The stream is the context's device's: on a context over several devices
  // the parts launch one after another from one thread, so make it current.
  ::mpgpu::detail::cuda::use_device(st.device);
  switch (args.op) {
    case Op::mul_low:
    case Op::mul_high:
    case Op::mul_wide:
    case Op::sqr:
    case Op::mul_ui:
      return run_mul(args, stream);
    case Op::to_mont:
    case Op::from_mont:
    case Op::mont_mul:
    case Op::mont_sqr:
    case Op::mont_reduce:
      return run_modular(args, stream);
    case Op::powm:
    case Op::powm_sliding:
      return run_powm(args, stream);
    case Op::div_ui:
    case Op::rem_ui:
    case Op::div_qr:
      return run_divide(args, stream);
    case Op::gcd:
    case Op::invert:
      return run_gcd(args, stream);
    case Op::cmp_signed:
    case Op::sar:
    case Op::mul_high_signed:
      return run_signed(args, stream);
    default:
      return run_linear(args, stream);
  }
}

namespace {
/// Sets *bad when an instance is even or equal to 1.
__global__ void check_moduli(const limb_t* m, std::size_t count, std::size_t stride, unsigned* bad) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const limb_t* p = m + i * stride;
    bool higher = false;
    for (std::size_t k = 1; k < stride; ++k) higher |= p[k] != 0;
    if ((p[0] & 1u) == 0 || (p[0] == 1 && !higher)) atomicOr(bad, 1u);
  }
}
}  // namespace

bool any_bad_modulus(ContextState& st, Stream stream, const limb_t* m, std::size_t count, std::size_t stride) {
  if (count == 0) return false;
  mpgpu::detail::cuda::ScopedDeviceMemory flag(st, stream, sizeof(unsigned));
  auto* bad = flag.as<unsigned>();
  MPGPU_CUDA_CHECK(cudaMemsetAsync(bad, 0, sizeof(unsigned), stream));
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 4096));
  check_moduli<<<blocks, 256, 0, stream>>>(m, count, stride, bad);
  MPGPU_CHECK_LAUNCH("check_moduli");
  unsigned host = 0;
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(&host, bad, sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host != 0;
}

}  // namespace mpgpu::detail::batch::cuda
