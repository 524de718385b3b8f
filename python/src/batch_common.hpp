// What batch_binding.cpp (the class mpgpu.Batch, its conversions) and
// batch_functions.cpp (the batch functions and Batch's operators) share.
#pragma once

#include "common.hpp"

#include <nanobind/ndarray.h>

#include <string_view>
#include <vector>

namespace mpgpu::py {

/// Runs a batch operation without the GIL (a Python Batch is never written
/// after it is made, so other threads may read it meanwhile). The library
/// reports a zero divisor or modulus as InvalidArgument "... division by
/// zero ..." (include/mpgpu/batch.hpp): that one becomes Python's
/// ZeroDivisionError, as for ints.
template <class F>
void run_batch(F&& f) {
  try {
    nb::gil_scoped_release release;
    f();
  } catch (const InvalidArgument& e) {
    if (std::string_view(e.what()).find("division by zero") == std::string_view::npos) throw;
    PyErr_SetString(PyExc_ZeroDivisionError, e.what());
    throw nb::python_error();
  }
}

/// `count` instances of `value` mod 2^bits (any int: negatives as two's
/// complement), in `ctx`.
Batch batch_full(std::size_t count, nb::handle value, std::size_t bits, const Context& ctx);
/// A 1-D NumPy array holding a copy of `values`.
template <class T, class Src>
nb::object numpy_vector(const std::vector<Src>& values) {
  T* data = new T[values.size() ? values.size() : 1];
  for (std::size_t i = 0; i < values.size(); ++i) data[i] = static_cast<T>(values[i]);
  nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
  return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {values.size()}, owner));
}

/// Batch's arithmetic operators (batch_functions.cpp), added by bind_batch.
void add_batch_operators(nb::class_<Batch>& c);

}  // namespace mpgpu::py
