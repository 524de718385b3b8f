// Batch gcd and modular inverse, on the device API's gcd.cuh. invert writes
// a status per instance (0, or nonzero where there is no inverse) that the
// host API checks before the result reaches the caller's batch.
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

namespace {

template <Op O>
struct GcdBody {
  Words w;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    namespace mb = mpgpu::batch;
    typename E::Num a, b, r;
    load_live(env, a, w.a, w.stride, i, live);
    if constexpr (O == Op::gcd) {
      load_live(env, b, w.b, w.stride, i, live);
      mb::gcd(env, r, a, b);
    } else {
      load_live(env, b, w.m, w.stride, i, live);  // padding instances: m = 0, a defined failure
      const word_t status = mb::invert(env, r, a, b);
      if (live && env.rank() == 0) w.answers[i] = status;
    }
    store_masked(env, w, r, i, live);
  }
};

}  // namespace

void run_gcd(const Args& args, cudaStream_t stream) {
  switch (args.op) {
    case Op::gcd: return launch_op<GcdBody, Op::gcd, Scratch::linear, Tuning::gcd>(args, stream);
    case Op::invert: return launch_op<GcdBody, Op::invert, Scratch::full, Tuning::gcd>(args, stream);
    default: throw InvalidArgument("batch: operation is not gcd or invert");
  }
}

}  // namespace mpgpu::detail::batch::cuda
