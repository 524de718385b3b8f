// Launching one batch operation on its width class (shared by the family files).
#pragma once

#include "batch_bodies.cuh"
#include "batch_classes.cuh"
#include "check.cuh"

namespace mpgpu::detail::batch::cuda {

/// How much shared memory a family needs per instance; products also take
/// their group size from the product tuning table, the others from T (the
/// modular family by the batch's instance count too: batch_classes.cuh).
enum class Scratch { linear, products, full };

/// Launches O on the batch's width class; kernels only for the classes from
/// kMinWords to kMaxWords words (all by default: with_class).
template <template <Op> class Body, Op O, Scratch S, Tuning T = Tuning::general, int kMinWords = 0,
          int kMaxWords = 1 << 30>
void launch_op(const Args& args, cudaStream_t stream) {
  const Words w = to_words(args);
  constexpr Tuning tuning = S == Scratch::products ? Tuning::products : T;
  with_class<tuning, kMinWords, kMaxWords>(2 * args.stride, args.count, [&]<int W, int G>() {
    using E = mpgpu::batch::Env<W, G>;
    constexpr int words = S == Scratch::full       ? E::scratch_words
                          : S == Scratch::products ? E::product_scratch_words
                                                   : E::comm_words + E::words;
    mpgpu::detail::cuda::check(mpgpu::batch::launch<E, words>(Body<O>{w}, args.count, stream), "batch kernel launch", __FILE__,
          __LINE__);
  });
}

/// One operation of the Montgomery family (to_mont, from_mont, mont_mul,
/// mont_sqr, mont_reduce): a kernel per width class and group size. Each is
/// instantiated in a file of its own (batch_modular_<op>.cu), so that their
/// compilations, among the longest of the library, run in parallel;
/// run_modular picks one.
template <Op O>
void run_modular_op(const Args& args, cudaStream_t stream) {
  launch_op<ModularBody, O, Scratch::full, Tuning::modular>(args, stream);
}
extern template void run_modular_op<Op::to_mont>(const Args&, cudaStream_t);
extern template void run_modular_op<Op::from_mont>(const Args&, cudaStream_t);
extern template void run_modular_op<Op::mont_mul>(const Args&, cudaStream_t);
extern template void run_modular_op<Op::mont_sqr>(const Args&, cudaStream_t);
extern template void run_modular_op<Op::mont_reduce>(const Args&, cudaStream_t);

/// powm (fixed or sliding windows) on the width classes from kMinWords to
/// kMaxWords words: each form's kernels are the longest compilations of the
/// library (the widest classes most), so each is split by width into files
/// of its own (batch_powm_<form>_<part>.cu); run_powm picks one.
template <Op O, int kMinWords, int kMaxWords>
void run_powm_part(const Args& args, cudaStream_t stream) {
  launch_op<ModularBody, O, Scratch::full, Tuning::modular, kMinWords, kMaxWords>(args, stream);
}
/// The first classes of the middle part (8192 bits) and of the wide part
/// (65536 bits).
inline constexpr int kPowmMidMinWords = 256;
inline constexpr int kPowmWideMinWords = 2048;
extern template void run_powm_part<Op::powm, 0, kPowmMidMinWords - 1>(const Args&, cudaStream_t);
extern template void run_powm_part<Op::powm, kPowmMidMinWords, kPowmWideMinWords - 1>(const Args&, cudaStream_t);
extern template void run_powm_part<Op::powm, kPowmWideMinWords, 1 << 30>(const Args&, cudaStream_t);
extern template void run_powm_part<Op::powm_sliding, 0, kPowmMidMinWords - 1>(const Args&, cudaStream_t);
extern template void run_powm_part<Op::powm_sliding, kPowmMidMinWords, kPowmWideMinWords - 1>(const Args&, cudaStream_t);
extern template void run_powm_part<Op::powm_sliding, kPowmWideMinWords, 1 << 30>(const Args&, cudaStream_t);

void run_linear(const Args& args, cudaStream_t stream);
void run_mul(const Args& args, cudaStream_t stream);
void run_modular(const Args& args, cudaStream_t stream);
void run_powm(const Args& args, cudaStream_t stream);  // fixed or sliding windows
void run_divide(const Args& args, cudaStream_t stream);
void run_gcd(const Args& args, cudaStream_t stream);
void run_signed(const Args& args, cudaStream_t stream);

}  // namespace mpgpu::detail::batch::cuda
