// Batch powm (mpgpu/batch/montgomery.cuh: powm by fixed windows,
// powm_sliding by sliding windows): the choice of the file that holds the
// kernels of the form and width (run_powm_part in batch_launch.cuh).
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

namespace {

template <Op O>
void run_powm_form(const Args& args, cudaStream_t stream) {
  const std::size_t words = 2 * args.stride;
  if (words >= static_cast<std::size_t>(kPowmWideMinWords))
    return run_powm_part<O, kPowmWideMinWords, 1 << 30>(args, stream);
  if (words >= static_cast<std::size_t>(kPowmMidMinWords))
    return run_powm_part<O, kPowmMidMinWords, kPowmWideMinWords - 1>(args, stream);
  run_powm_part<O, 0, kPowmMidMinWords - 1>(args, stream);
}

}  // namespace

void run_powm(const Args& args, cudaStream_t stream) {
  if (args.op == Op::powm_sliding) return run_powm_form<Op::powm_sliding>(args, stream);
  run_powm_form<Op::powm>(args, stream);
}

}  // namespace mpgpu::detail::batch::cuda
