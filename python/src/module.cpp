// mpgpu._mpgpu: the compiled half of the Python package `mpgpu` (the other
// half, python/mpgpu/__init__.py, adds the `with mpgpu.context(...)` block).
#include "common.hpp"

NB_MODULE(_mpgpu, m) {
  m.doc() = "mpgpu: exact multi-precision integers on NVIDIA GPUs, with a CPU fallback through GMP.";
  m.attr("__version__") = MPGPU_VERSION_STRING;
  mpgpu::py::register_errors(m);
  mpgpu::py::bind_context(m);
  mpgpu::py::bind_integer(m);
  mpgpu::py::bind_functions(m);
  mpgpu::py::bind_batch(m);
  mpgpu::py::bind_batch_functions(m);
  mpgpu::py::bind_ntt(m);
  mpgpu::py::bind_dot(m);
  mpgpu::py::bind_gfp(m);
}
