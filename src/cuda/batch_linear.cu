// Batch operations without products: add, sub, scalars, bitwise, shifts,
// rotates, and the per-instance answers; one pass over the operands, with
// the group sizes of the streaming table (tuned on a single addition).
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

void run_linear(const Args& args, cudaStream_t stream) {
  switch (args.op) {
#define MPGPU_LINEAR(op) \
  case Op::op: return launch_op<LinearBody, Op::op, Scratch::linear, Tuning::linear>(args, stream);
    MPGPU_LINEAR(add)
    MPGPU_LINEAR(sub)
    MPGPU_LINEAR(add_ui)
    MPGPU_LINEAR(sub_ui)
    MPGPU_LINEAR(and_)
    MPGPU_LINEAR(ior)
    MPGPU_LINEAR(xor_)
    MPGPU_LINEAR(com)
    MPGPU_LINEAR(shl)
    MPGPU_LINEAR(shr)
    MPGPU_LINEAR(rotl)
    MPGPU_LINEAR(rotr)
    MPGPU_LINEAR(compare)
    MPGPU_LINEAR(popcount)
    MPGPU_LINEAR(clz)
    MPGPU_LINEAR(ctz)
#undef MPGPU_LINEAR
    default:
      throw InvalidArgument("batch: operation is not a linear one");
  }
}

}  // namespace mpgpu::detail::batch::cuda
