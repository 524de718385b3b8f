// mpgpu.Context, the default context and the current one.
//
// Python sees one Context per device: Context("cpu") twice gives two
// handles on the same mpgpu::Context (one stream, one memory pool), so their
// values mix. The current context of a thread or asyncio task is a
// contextvars.ContextVar (mpgpu._mpgpu._current_context) that
// `with mpgpu.context(...)` sets and resets; unset, it is the default
// (MPGPU_DEVICE, else "auto": CUDA device 0 when usable, else the CPU).
#include "common.hpp"

#include <map>
#include <string>

namespace mpgpu::py {
namespace {

// Leaked on purpose: contexts hold CUDA streams and pools, which must not be
// destroyed after the CUDA runtime has shut down at process exit.
std::map<std::string, Context>& registry() {
  static auto* contexts = new std::map<std::string, Context>();
  return *contexts;
}
std::optional<Context>& default_slot() {
  static auto* slot = new std::optional<Context>();
  return *slot;
}
PyObject* current_var = nullptr;

std::string key_of(const Context& ctx) { return ctx.is_cuda() ? "cuda:" + std::to_string(ctx.device()) : "cpu"; }

std::string resolve(std::string_view spec) {
  if (spec == "auto" || spec.empty()) return Context::cuda_device_count() > 0 ? "cuda:0" : "cpu";
  if (spec == "cuda") return "cuda:0";
  return std::string(spec);
}

const Context& default_context() {
  auto& slot = default_slot();
  if (!slot) {
    const Context& lib_default = Context::default_context();
    slot = registry().emplace(key_of(lib_default), lib_default).first->second;
  }
  return *slot;
}

nb::dict info_dict(const Context& ctx) {
  const DeviceInfo info = ctx.info();
  nb::dict d;
  d["backend"] = info.backend == Backend::cuda ? "cuda" : "cpu";
  d["device"] = info.device;
  d["name"] = info.name;
  d["multiprocessors"] = info.multiprocessors;
  d["compute_capability"] = nb::make_tuple(info.compute_major, info.compute_minor);
  d["total_memory"] = info.total_memory;
  d["free_memory"] = info.free_memory;
  d["l2_cache"] = info.l2_cache;
  d["runtime_version"] = info.runtime_version;
  d["driver_version"] = info.driver_version;
  d["gmp_version"] = info.gmp_release;
  return d;
}

}  // namespace

const Context& interned_context(std::string_view spec) {
  const std::string key = resolve(spec);
  auto& contexts = registry();
  if (auto it = contexts.find(key); it != contexts.end()) return it->second;
  if (key == "cpu") return contexts.emplace(key, Context::cpu()).first->second;
  Context made = Context::from_string(key);  // throws for a bad spec or a missing device
  return contexts.emplace(key_of(made), made).first->second;
}

Context current_context() {
  PyObject* value = nullptr;
  if (PyContextVar_Get(current_var, nullptr, &value) < 0) throw nb::python_error();
  if (value) {
    nb::object owned = nb::steal(value);
    return nb::cast<const Context&>(owned);
  }
  return default_context();
}

Context context_arg(nb::handle context) {
  if (context.is_none()) return current_context();
  if (nb::isinstance<Context>(context)) return nb::cast<const Context&>(context);
  if (PyUnicode_Check(context.ptr())) return interned_context(nb::cast<std::string>(context));
  throw nb::type_error("context must be an mpgpu.Context, a string such as 'cpu' or 'cuda:0', or None");
}

void bind_context(nb::module_& m) {
  nb::class_<Context>(m, "Context",
                      "Where integers live and run: a CUDA device ('cuda:N') or the CPU through GMP ('cpu').\n"
                      "Context('auto') is CUDA device 0 when usable, else the CPU. One context per device:\n"
                      "equal specs give equal contexts, whose values mix.")
      .def("__init__",
           [](Context* self, nb::handle spec) {
             new (self) Context(nb::isinstance<Context>(spec) ? nb::cast<const Context&>(spec)
                                                               : interned_context(nb::cast<std::string>(spec)));
           },
           nb::arg("spec") = "auto")
      .def_prop_ro("backend", [](const Context& c) { return c.is_cuda() ? "cuda" : "cpu"; },
                   "'cuda' or 'cpu'.")
      .def_prop_ro("device", &Context::device, "The CUDA device index, -1 for the CPU.")
      .def_prop_ro("is_cuda", &Context::is_cuda, "Whether the context is a CUDA device.")
      .def("synchronize", &Context::synchronize, nb::call_guard<nb::gil_scoped_release>(),
           "Waits until the work queued on the context's stream has finished.")
      .def("info", &info_dict, "The device's properties (what `mpgpu info` prints), as a dict.")
      .def("describe", &Context::describe, "The context in words: 'cpu' or 'cuda:N (the device's name)'.")
      .def("__repr__", [](const Context& c) { return "mpgpu.Context('" + key_of(c) + "')"; })
      .def("__str__", [](const Context& c) { return key_of(c); })
      .def("__eq__", [](const Context& a, nb::handle b) {
             return nb::isinstance<Context>(b) && a == nb::cast<const Context&>(b);
           })
      .def("__hash__", [](const Context& c) { return std::hash<std::string>()(key_of(c)); });

  current_var = PyContextVar_New("mpgpu.current_context", nullptr);
  if (!current_var) throw nb::python_error();
  m.attr("_current_context") = nb::steal(current_var);

  m.def("get_default_context", []() { return default_context(); },
        "The context used outside `with mpgpu.context(...)` blocks.");
  m.def("set_default_context", [](nb::handle ctx) {
          if (ctx.is_none()) default_slot().reset();  // back to MPGPU_DEVICE / "auto"
          else default_slot() = context_arg(ctx);
        },
        nb::arg("context").none(), "Sets the process-wide default context (a Context, a spec, or None).");
  m.def("get_context", &current_context, "The context new values go to in this thread or task.");
  m.def("cuda_device_count", &Context::cuda_device_count, "Usable CUDA devices (0 without CUDA support).");
  m.def("built_with_cuda", &Context::built_with_cuda, "Whether this mpgpu has its CUDA backend.");
}

}  // namespace mpgpu::py
