// gfp::DeviceFft (include/mpgpu/gfp.hpp): the plan (omega, its
// powers, N^-1) from the host FftPlan, then either the device stages
// (src/cuda/gfp_fft.cu) or, on the CPU context, the same stage functions
// (fft_stages.cuh) run by the host in the same order.
#include "mpgpu/gfp.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "context/context_state.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/gfp/fft_host.hpp"
#include "mpgpu/gfp/fft_stages.cuh"

namespace mpgpu::gfp {

struct DeviceFft::Impl {
  Context ctx;
  GfpPrime prime{};
  int e = 0;
  std::size_t n = 0;
  std::vector<limb_t> table;     ///< omega^0 .. omega^(N-1), element-major (host)
  std::vector<limb_t> n_inverse; ///< N^-1, k digits
  void* device_table = nullptr;  ///< copy of `table` (CUDA context)

  explicit Impl(const Context& c) : ctx(c) {}
  ~Impl() {
    if (device_table)
      mpgpu::detail::cuda::deallocate(mpgpu::detail::ContextAccess::state(ctx), ctx.stream(), device_table);
  }
};

namespace {

template <int D>
void make_tables(DeviceFft::Impl& impl) {
  const FftPlan<D> plan = FftPlan<D>::make(impl.prime, impl.e);
  impl.n = plan.n;
  impl.table.resize(plan.n * D);
  for (std::size_t i = 0; i < plan.n; ++i)
    std::copy(plan.omega_power[i].digit, plan.omega_power[i].digit + D, impl.table.begin() + i * D);
  impl.n_inverse.assign(plan.n_inverse.digit, plan.n_inverse.digit + D);
}

/// The host twin of mpgpu::detail::cuda::gfp_fft: the same stages, in order.
template <int D>
void run_host(const DeviceFft::Impl& impl, limb_t* x, int dir) {
  constexpr int K = 2 * D;
  const Field<D> f{impl.prime.radix()};
  const std::size_t n = impl.n;
  std::vector<limb_t> scratch(n * D);
  Element<D> scale;
  std::copy(impl.n_inverse.begin(), impl.n_inverse.end(), scale.digit);
  limb_t* in = x;
  limb_t* out = scratch.data();
  std::size_t s = 1;
  for (int t = 0; t < impl.e; ++t, s *= K) {
    for (std::size_t g = 0; g < n / K; ++g) stages::group_dft(f, in, out, n, s, g, dir);
    const bool scaled = dir < 0 && t + 1 == impl.e;
    if (stages::stage_has_twiddles(n, s, K) || scaled)
      for (std::size_t o = 0; o < n; ++o)
        stages::twiddle_element(f, out, n, s, o, impl.table.data(), dir, scaled ? &scale : nullptr);
    std::swap(in, out);
  }
  if (in != x) std::copy(in, in + n * D, x);
}

void run(const DeviceFft::Impl& impl, std::uint64_t* data, Stream s, int dir, const char* who) {
  if (data == nullptr) throw InvalidArgument(std::string("gfp::DeviceFft::") + who + ": data is null");
  if (impl.ctx.is_cuda()) {
    mpgpu::detail::cuda::gfp_fft(mpgpu::detail::ContextAccess::state(impl.ctx), impl.ctx.resolve(s), impl.prime.k,
                                 impl.prime.radix(), data, impl.n, impl.e,
                                 static_cast<const std::uint64_t*>(impl.device_table), dir,
                                 dir < 0 ? impl.n_inverse.data() : nullptr);
    return;
  }
  switch (impl.prime.k) {
    case 8: run_host<8>(impl, data, dir); break;
    case 16: run_host<16>(impl, data, dir); break;
    default: run_host<32>(impl, data, dir); break;
  }
}

}  // namespace

DeviceFft::DeviceFft(const Context& ctx, const GfpPrime& prime, int e) : impl_(std::make_unique<Impl>(ctx)) {
  impl_->prime = prime;
  impl_->e = e;
  switch (prime.k) {
    case 8: make_tables<8>(*impl_); break;
    case 16: make_tables<16>(*impl_); break;
    case 32: make_tables<32>(*impl_); break;
    default:
      throw InvalidArgument("gfp::DeviceFft: k = " + std::to_string(prime.k) +
                            " digits; the FFT is built for k = 8, 16 and 32");
  }
  if (ctx.is_cuda()) {
    const std::size_t bytes = impl_->table.size() * sizeof(limb_t);
    impl_->device_table = mpgpu::detail::cuda::allocate(mpgpu::detail::ContextAccess::state(ctx), ctx.stream(), bytes);
    // Synchronous: forward and inverse may run on any stream, and gfp_fft
    // does not order its stream after the context's.
    mpgpu::detail::cuda::copy_to_device_synchronous(mpgpu::detail::ContextAccess::state(ctx), ctx.stream(),
                                                    impl_->device_table, impl_->table.data(), bytes);
    impl_->table.clear();
    impl_->table.shrink_to_fit();
  }
}

DeviceFft::~DeviceFft() = default;

std::size_t DeviceFft::size() const { return impl_->n; }
int DeviceFft::digits() const { return impl_->prime.k; }
const Context& DeviceFft::context() const { return impl_->ctx; }

void DeviceFft::forward(std::uint64_t* data, Stream s) const { run(*impl_, data, s, +1, "forward"); }
void DeviceFft::inverse(std::uint64_t* data, Stream s) const { run(*impl_, data, s, -1, "inverse"); }

}  // namespace mpgpu::gfp
