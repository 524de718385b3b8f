// Batch divisions: by a 64-bit scalar (div_ui, rem_ui) and by another batch
// (div_qr and its one-result forms; the wide forms divide a dividend twice
// as wide as the divisor), and the zero-divisor check the host API
// runs first. Bodies on the device API's divide.cuh.
#include <algorithm>

#include "batch_launch.cuh"
#include "scoped_memory.cuh"

namespace mpgpu::detail::batch::cuda {

namespace {

template <Op O>
struct DivideBody {
  Words w;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    namespace mb = mpgpu::batch;
    typename E::Num a, q, r;
    load_live(env, a, w.a, w.stride, i, live);
    // The scalar is the same for every instance, so the choice between the
    // cheap 32-bit divisor and a whole divide is uniform.
    const std::uint64_t d = w.scalar;
    const bool wide = (d >> mb::word_bits) != 0;
    if constexpr (O == Op::div_ui) {
      if (wide) mb::div_ui64(env, q, a, d);
      else mb::div_ui32(env, q, a, static_cast<word_t>(d));
      store_masked(env, w, q, i, live);
    } else if constexpr (O == Op::rem_ui) {
      mb::set_ui64(env, r, wide ? mb::rem_ui64(env, a, d) : mb::rem_ui32(env, a, static_cast<word_t>(d)));
      store_masked(env, w, r, i, live);
    } else {
      // Padding instances divide zero by zero: a defined result, no hang.
      // div_qr_wide's b and r are half as wide as a and q: b is read
      // zero-extended to a's class, and r (< b) stored in b's width.
      typename E::Num b;
      if (w.b_stride == w.stride) load_live(env, b, w.b, w.stride, i, live);
      else load_short(env, b, w.b, w.b_stride, i, live);
      mb::divide(env, q, r, a, b);
      if (w.r) store_masked(env, w, q, i, live);
      if (w.r2 && live) store_prefix(env, w.r2 + i * w.r2_stride, r, w.r2_stride);
    }
  }
};

/// Lowers *first to the index of every zero instance.
__global__ void find_zero(const limb_t* x, std::size_t count, std::size_t stride, unsigned long long* first) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const limb_t* p = x + i * stride;
    bool any = false;
    for (std::size_t k = 0; k < stride; ++k) any |= p[k] != 0;
    if (!any) atomicMin(first, static_cast<unsigned long long>(i));
  }
}

}  // namespace

void run_divide(const Args& args, cudaStream_t stream) {
  switch (args.op) {
    case Op::div_ui: return launch_op<DivideBody, Op::div_ui, Scratch::linear>(args, stream);
    case Op::rem_ui: return launch_op<DivideBody, Op::rem_ui, Scratch::linear>(args, stream);
    case Op::div_qr: return launch_op<DivideBody, Op::div_qr, Scratch::linear>(args, stream);
    default: throw InvalidArgument("batch: operation is not a division");
  }
}

std::size_t first_zero_instance(ContextState& st, Stream stream, const limb_t* x, std::size_t count,
                                std::size_t stride) {
  if (count == 0) return 0;
  mpgpu::detail::cuda::ScopedDeviceMemory flag(st, stream, sizeof(unsigned long long));
  auto* first = flag.as<unsigned long long>();
  unsigned long long host = count;
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(first, &host, sizeof(host), cudaMemcpyHostToDevice, stream));
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 4096));
  find_zero<<<blocks, 256, 0, stream>>>(x, count, stride, first);
  MPGPU_CHECK_LAUNCH("find_zero");
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(&host, first, sizeof(host), cudaMemcpyDeviceToHost, stream));
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
  return static_cast<std::size_t>(host);
}

}  // namespace mpgpu::detail::batch::cuda
