#include "mpgpu/context.hpp"

#include <gmp.h>

#include <cstdlib>
#include <string>

#include "context_state.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/error.hpp"

namespace mpgpu {

namespace detail {
ContextState::~ContextState() {
  if (backend == Backend::cuda) cuda::destroy_context(*this);
}
}  // namespace detail

Context Context::cpu() { return cpu(TuningParams::from_environment()); }

Context Context::cpu(const TuningParams& params) {
  auto st = std::make_shared<detail::ContextState>();
  st->backend = Backend::cpu;
  st->tuning = params;
  return Context(std::move(st));
}

Context Context::cuda(int device) { return cuda(device, TuningParams::from_environment()); }

Context Context::cuda(int device, const TuningParams& params) {
  int count = cuda_device_count();
  if (!built_with_cuda())
    throw BackendUnavailable("mpgpu::Context::cuda: this mpgpu was built without its CUDA backend");
  if (device < 0 || device >= count)
    throw BackendUnavailable("mpgpu::Context::cuda: device " + std::to_string(device) +
                             " requested, but " + std::to_string(count) +
                             " CUDA device(s) are usable");
  auto st = std::make_shared<detail::ContextState>();
  st->tuning = params;                      // before init_context: the upload ring takes its size
  detail::cuda::init_context(*st, device);  // sets backend on success
  return Context(std::move(st));
}

Context Context::from_string(const std::string& spec) { return from_string(spec, TuningParams::from_environment()); }

Context Context::from_string(const std::string& spec, const TuningParams& params) {
  if (spec == "cpu") return cpu(params);
  if (spec == "cuda") return cuda(0, params);
  if (spec.rfind("cuda:", 0) == 0) {
    const std::string n = spec.substr(5);
    if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos)
      throw InvalidArgument("mpgpu::Context::from_string: bad device index in \"" + spec +
                            "\" (expected cuda:N)");
    if (n.size() > 6)
      throw InvalidArgument("mpgpu::Context::from_string: device index in \"" + spec + "\" is out of range");
    return cuda(std::stoi(n), params);
  }
  if (spec.empty() || spec == "auto") return cuda_device_count() > 0 ? cuda(0, params) : cpu(params);
  throw InvalidArgument("mpgpu::Context::from_string: unknown backend \"" + spec +
                        "\" (expected cpu, cuda, cuda:N or auto)");
}

Context& Context::default_context() {
  // Made once, on first use; MPGPU_DEVICE picks the backend.
  static Context ctx = [] {
    const char* env = std::getenv("MPGPU_DEVICE");
    return from_string(env ? env : "auto");
  }();
  return ctx;
}

int Context::cuda_device_count() { return built_with_cuda() ? detail::cuda::device_count() : 0; }

bool Context::built_with_cuda() {
#if defined(MPGPU_WITH_CUDA)
  return true;
#else
  return false;
#endif
}

Context::Context(std::shared_ptr<detail::ContextState> s) : state_(std::move(s)), backend_(state_->backend) {}
int Context::device() const { return state_->device; }
const TuningParams& Context::tuning() const { return state_->tuning; }

Context Context::with_tuning(const TuningParams& params) const {
  return is_cuda() ? cuda(state_->device, params) : cpu(params);
}
Stream Context::stream() const { return state_->stream; }

DeviceInfo Context::info() const {
  DeviceInfo info;
  if (is_cuda()) info = detail::cuda::device_info(state_->device);
  else info.name = "CPU";
  info.gmp_release = gmp_version;
  return info;
}

void Context::synchronize() const {
  if (is_cuda()) detail::cuda::synchronize(state_->stream);
}

std::string Context::describe() const {
  if (!is_cuda()) return "cpu";
  return "cuda:" + std::to_string(state_->device) + " (" + info().name + ")";
}

}  // namespace mpgpu
