// Batch Montgomery operations (powm: batch_powm*.cu).
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

void run_modular(const Args& args, cudaStream_t stream) {
  switch (args.op) {
    case Op::to_mont: return launch_op<ModularBody, Op::to_mont, Scratch::full, Tuning::modular>(args, stream);
    case Op::from_mont: return launch_op<ModularBody, Op::from_mont, Scratch::full, Tuning::modular>(args, stream);
    case Op::mont_mul: return launch_op<ModularBody, Op::mont_mul, Scratch::full, Tuning::modular>(args, stream);
    case Op::mont_sqr: return launch_op<ModularBody, Op::mont_sqr, Scratch::full, Tuning::modular>(args, stream);
    case Op::mont_reduce: return launch_op<ModularBody, Op::mont_reduce, Scratch::full, Tuning::modular>(args, stream);
    default: throw InvalidArgument("batch: operation is not a modular one");
  }
}

}  // namespace mpgpu::detail::batch::cuda
