// Batch products: low, high, wide, squares and 64-bit scalars.
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

void run_mul(const Args& args, cudaStream_t stream) {
  switch (args.op) {
    case Op::mul_low: return launch_op<MulBody, Op::mul_low, Scratch::products>(args, stream);
    case Op::mul_high: return launch_op<MulBody, Op::mul_high, Scratch::products>(args, stream);
    case Op::mul_wide: return launch_op<MulBody, Op::mul_wide, Scratch::products>(args, stream);
    case Op::sqr: return launch_op<MulBody, Op::sqr, Scratch::products>(args, stream);
    case Op::mul_ui: return launch_op<MulBody, Op::mul_ui, Scratch::linear>(args, stream);
    default: throw InvalidArgument("batch: operation is not a product");
  }
}

}  // namespace mpgpu::detail::batch::cuda
