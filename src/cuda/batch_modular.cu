// Batch Montgomery operations: the choice of one (each is instantiated in
// batch_modular_<op>.cu; powm: batch_powm*.cu).
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

void run_modular(const Args& args, cudaStream_t stream) {
  switch (args.op) {
    case Op::to_mont: return run_modular_op<Op::to_mont>(args, stream);
    case Op::from_mont: return run_modular_op<Op::from_mont>(args, stream);
    case Op::mont_mul: return run_modular_op<Op::mont_mul>(args, stream);
    case Op::mont_sqr: return run_modular_op<Op::mont_sqr>(args, stream);
    case Op::mont_reduce: return run_modular_op<Op::mont_reduce>(args, stream);
    default: throw InvalidArgument("batch: operation is not a modular one");
  }
}

}  // namespace mpgpu::detail::batch::cuda
