#include "mpgpu/context.hpp"

#include <gmp.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "context_state.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/error.hpp"

namespace mpgpu {

namespace detail {
ContextState::~ContextState() {
  // A context over several devices owns nothing of CUDA itself: its parts do.
  if (backend == Backend::cuda && parts.empty()) cuda::destroy_context(*this);
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

namespace {

[[noreturn]] void bad_spec(const std::string& spec, const std::string& why) {
  throw InvalidArgument("mpgpu::Context::from_string: " + why + " in \"" + spec +
                        "\" (expected cpu, cuda, cuda:N, cuda:N,M,..., cuda:all or auto)");
}

/// The device indices of "cuda:N" or "cuda:N,M,...": each a nonempty run of
/// decimal digits, at most 6 of them (so that std::stoi cannot overflow).
std::vector<int> parse_device_list(const std::string& spec, const std::string& list) {
  std::vector<int> devices;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = std::min(list.find(',', begin), list.size());
    const std::string n = list.substr(begin, end - begin);
    if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos)
      bad_spec(spec, n.empty() ? "an empty device index" : "bad device index \"" + n + "\"");
    if (n.size() > 6) bad_spec(spec, "device index " + n + " is out of range");
    devices.push_back(std::stoi(n));
    if (end == list.size()) return devices;
    begin = end + 1;
  }
}

}  // namespace

Context Context::from_string(const std::string& spec, const TuningParams& params) {
  if (spec == "cpu") return cpu(params);
  if (spec == "cuda") return cuda(0, params);
  if (spec == "cuda:all") {
    const int count = cuda_device_count();
    if (!built_with_cuda())
      throw BackendUnavailable("mpgpu::Context::from_string: \"cuda:all\", but this mpgpu was built without its "
                               "CUDA backend");
    if (count == 0)
      throw BackendUnavailable("mpgpu::Context::from_string: \"cuda:all\", but no CUDA device is usable");
    std::vector<int> all(static_cast<std::size_t>(count));
    for (int d = 0; d < count; ++d) all[static_cast<std::size_t>(d)] = d;
    return cuda_devices(all, params);
  }
  if (spec.rfind("cuda:", 0) == 0) {
    const std::vector<int> devices = parse_device_list(spec, spec.substr(5));
    return devices.size() == 1 ? cuda(devices[0], params) : cuda_devices(devices, params);
  }
  if (spec.empty() || spec == "auto") return cuda_device_count() > 0 ? cuda(0, params) : cpu(params);
  throw InvalidArgument("mpgpu::Context::from_string: unknown backend \"" + spec +
                        "\" (expected cpu, cuda, cuda:N, cuda:N,M,..., cuda:all or auto)");
}

Context Context::cuda_devices(const std::vector<int>& devices) {
  return cuda_devices(devices, TuningParams::from_environment());
}

Context Context::cuda_devices(const std::vector<int>& devices, const TuningParams& params) {
  const char* fn = "mpgpu::Context::cuda_devices: ";
  if (devices.empty()) throw InvalidArgument(std::string(fn) + "no device given");
  // Checked before any device is asked for, so that the message is the
  // same on every machine.
  for (std::size_t i = 0; i < devices.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (devices[i] == devices[j])
        throw InvalidArgument(std::string(fn) + "device " + std::to_string(devices[i]) +
                              " is listed twice (each device may hold one part)");
  if (devices.size() == 1) return cuda(devices[0], params);
  std::vector<Context> parts;
  parts.reserve(devices.size());
  for (int d : devices) parts.push_back(cuda(d, params));  // each checks its index
  return detail::ContextAccess::split(std::move(parts), params);
}

Context detail::ContextAccess::split(std::vector<Context> parts, const TuningParams& params) {
  const char* fn = "mpgpu::detail::ContextAccess::split: ";
  if (parts.size() < 2) throw InvalidArgument(std::string(fn) + "a context over parts needs two or more");
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].part_count() != 1) throw InvalidArgument(std::string(fn) + "a part is itself split");
    if (parts[i].backend() != parts[0].backend()) throw InvalidArgument(std::string(fn) + "parts of two backends");
    for (std::size_t j = 0; j < i; ++j)
      if (parts[i] == parts[j] || (parts[i].is_cuda() && parts[i].device() == parts[j].device()))
        throw InvalidArgument(std::string(fn) + "two parts share a context or a device");
  }
  auto st = std::make_shared<ContextState>();
  st->tuning = params;
  st->device = parts[0].device();
  st->parts = std::move(parts);
  st->backend = st->parts[0].backend();  // last: the destructor reads it
  return Context(std::move(st));
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

Context::Context(std::shared_ptr<detail::ContextState> s)
    : state_(std::move(s)),
      work_state_(state_->parts.empty() ? state_.get() : &detail::ContextAccess::state(state_->parts.front())),
      backend_(state_->backend) {}
int Context::device() const { return state_->device; }

std::vector<int> Context::devices() const {
  if (!is_cuda()) return {};
  if (state_->parts.empty()) return {state_->device};
  std::vector<int> out;
  for (const Context& p : state_->parts) out.push_back(p.device());
  return out;
}

std::size_t Context::part_count() const { return state_->parts.empty() ? 1 : state_->parts.size(); }

const Context& Context::part_ref(std::size_t i) const {
  if (i >= part_count())
    throw InvalidArgument("mpgpu::Context::part: part " + std::to_string(i) + " of a context of " +
                          std::to_string(part_count()) + " part(s)");
  return state_->parts.empty() ? *this : state_->parts[i];
}

Context Context::part(std::size_t i) const { return part_ref(i); }
const TuningParams& Context::tuning() const { return state_->tuning; }

Context Context::with_tuning(const TuningParams& params) const {
  if (!state_->parts.empty()) {
    std::vector<Context> parts;
    for (const Context& p : state_->parts) parts.push_back(p.with_tuning(params));
    return detail::ContextAccess::split(std::move(parts), params);
  }
  return is_cuda() ? cuda(state_->device, params) : cpu(params);
}
Stream Context::stream() const { return state().stream; }

DeviceInfo Context::info() const {
  DeviceInfo info;
  if (is_cuda()) info = detail::cuda::device_info(state_->device);
  else info.name = "CPU";
  info.gmp_release = gmp_version;
  return info;
}

void Context::synchronize() const {
  for (const Context& p : state_->parts) p.synchronize();
  if (is_cuda() && state_->parts.empty()) detail::cuda::synchronize(state_->stream);
}

std::string Context::describe() const {
  if (!state_->parts.empty()) {
    // "cuda:0,1 (name, name)"; a split of CPU parts (tests only) "cpu,cpu".
    std::string spec = is_cuda() ? "cuda:" : "", names;
    for (std::size_t i = 0; i < state_->parts.size(); ++i) {
      const Context& p = state_->parts[i];
      spec += (i ? "," : "") + (is_cuda() ? std::to_string(p.device()) : p.describe());
      if (is_cuda()) names += (i ? ", " : "") + p.info().name;
    }
    return is_cuda() ? spec + " (" + names + ")" : spec;
  }
  if (!is_cuda()) return "cpu";
  return "cuda:" + std::to_string(state_->device) + " (" + info().name + ")";
}

}  // namespace mpgpu
