// Batch signed (two's complement) operations at the logical width, on the
// device API's signed.cuh, which works at the class width: operands are
// sign-extended from `bits` first and results masked after.
#include "batch_launch.cuh"

namespace mpgpu::detail::batch::cuda {

namespace {

template <Op O>
struct SignedBody {
  Words w;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    namespace mb = mpgpu::batch;
    constexpr int class_bits = E::words * mb::word_bits;
    typename E::Num a, b, r;
    load_live(env, a, w.a, w.stride, i, live);
    mb::sign_extend(env, a, a, w.bits);
    if constexpr (O == Op::sar) {
      mb::shift_right_arithmetic(env, r, a, static_cast<int>(w.scalar));
    } else {
      load_live(env, b, w.b, w.stride, i, live);
      mb::sign_extend(env, b, b, w.bits);
      if constexpr (O == Op::cmp_signed) {
        const int answer = mb::compare_signed(env, a, b);
        if (live && env.rank() == 0) w.answers[i] = static_cast<std::uint32_t>(answer);
        return;
      } else {
        // The exact product at 64W bits; bits [bits, 2 bits) of it are
        // floor(a b / 2^bits) mod 2^bits (2 bits <= 64W).
        typename E::Num lo;
        mb::mul_wide_signed(env, lo, r, a, b);
        if (w.bits < class_bits) {
          mb::shift_left(env, r, r, class_bits - w.bits);
          mb::shift_right(env, lo, lo, w.bits);
          mb::bit_or(env, r, r, lo);
        }
      }
    }
    store_masked(env, w, r, i, live);
  }
};

}  // namespace

void run_signed(const Args& args, cudaStream_t stream) {
  switch (args.op) {
    case Op::cmp_signed: return launch_op<SignedBody, Op::cmp_signed, Scratch::linear>(args, stream);
    case Op::sar: return launch_op<SignedBody, Op::sar, Scratch::linear>(args, stream);
    case Op::mul_high_signed: return launch_op<SignedBody, Op::mul_high_signed, Scratch::full>(args, stream);
    default: throw InvalidArgument("batch: operation is not a signed one");
  }
}

}  // namespace mpgpu::detail::batch::cuda
