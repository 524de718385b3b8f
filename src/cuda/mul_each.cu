// mul_abs_each (backend.hpp): independent products on the branches of one
// StreamFork. Why: each product of 2^17 to 2^24 bits is a chain of small
// kernels (ntt_mul.cu: dependent passes, each too small to fill the GPU,
// even with its primes side by side; docs/integer.md, "Where products
// run"), so the merges of a binary splitting, four such products each, keep
// the GPU mostly idle when the products run one after another.
#include "cuda/backend.hpp"
#include "cuda/contracts.hpp"
#include "cuda/stream_fork.hpp"

namespace mpgpu::detail::cuda {

void mul_abs_each(ContextState& st, Stream s, const ProductJob* jobs, Deferred* out, std::size_t count) {
  contract::mul_abs_each(jobs, count);
  if (count == 0) return;
  // A job on branch 0 runs on s itself; the fork's destructor orders s after
  // the other branches on the way out of an exception too.
  StreamFork fork(st, s, static_cast<int>(count < StreamFork::kMaxBranches ? count : StreamFork::kMaxBranches));
  for (std::size_t i = 0; i < count; ++i) {
    const ProductJob& j = jobs[i];
    const Stream branch = fork.branch(static_cast<int>(i % static_cast<std::size_t>(fork.branches())));
    out[i] = j.by_columns ? mul_columns(st, branch, j.r, j.a, j.b) : mul_abs(st, branch, j.r, j.a, j.b);
  }
  fork.join();
}

}  // namespace mpgpu::detail::cuda
