// mpgpu's C++ exceptions as Python's: a DivisionByZero is a ZeroDivisionError,
// a ParseError a ValueError (mpgpu.ParseError, with .position), other
// InvalidArguments ValueErrors, Overflow an OverflowError, OutOfMemory a
// MemoryError (mpgpu.OutOfMemoryError, with .requested_bytes and
// .free_bytes), CUDA errors and a missing backend RuntimeErrors
// (mpgpu.CudaError, mpgpu.BackendUnavailable). The message is the C++ one.
#include "common.hpp"

namespace mpgpu::py {
namespace {

PyObject* parse_error_type = nullptr;
PyObject* out_of_memory_type = nullptr;
PyObject* cuda_error_type = nullptr;
PyObject* backend_unavailable_type = nullptr;

PyObject* new_exception(nb::module_& m, const char* name, PyObject* base, const char* doc) {
  const std::string qualified = std::string("mpgpu.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!type) throw nb::python_error();
  m.attr(name) = nb::borrow(type);  // the module keeps a reference; so does this file
  return type;
}

// Raises `type(message)` with extra attributes set on the instance.
template <class... Attrs>
void raise_with(PyObject* type, const char* message, Attrs... attrs) {
  nb::object instance = nb::steal(PyObject_CallFunction(type, "s", message));
  if (!instance.is_valid()) return;  // the call's own error stays set
  (nb::setattr(instance, attrs.first, attrs.second), ...);
  PyErr_SetObject(type, instance.ptr());
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const ParseError& e) {
    raise_with(parse_error_type, e.what(), std::pair{"position", nb::int_(e.position())});
  } catch (const DivisionByZero& e) {
    PyErr_SetString(PyExc_ZeroDivisionError, e.what());
  } catch (const InvalidArgument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const Overflow& e) {
    PyErr_SetString(PyExc_OverflowError, e.what());
  } catch (const OutOfMemory& e) {
    raise_with(out_of_memory_type, e.what(), std::pair{"requested_bytes", nb::int_(e.requested_bytes())},
               std::pair{"free_bytes", nb::int_(e.free_bytes())});
  } catch (const CudaError& e) {
    raise_with(cuda_error_type, e.what(), std::pair{"code", nb::int_(e.code())});
  } catch (const BackendUnavailable& e) {
    PyErr_SetString(backend_unavailable_type, e.what());
  } catch (const Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_SetString(PyExc_MemoryError, "mpgpu: out of host memory");
  }
}

}  // namespace

void register_errors(nb::module_& m) {
  parse_error_type = new_exception(m, "ParseError", PyExc_ValueError,
                                   "A string is not an integer; .position is the offset of the bad character.");
  out_of_memory_type = new_exception(m, "OutOfMemoryError", PyExc_MemoryError,
                                     "Device memory could not be had; .requested_bytes, .free_bytes.");
  cuda_error_type = new_exception(m, "CudaError", PyExc_RuntimeError,
                                  "A CUDA runtime call failed; .code is the cudaError_t.");
  backend_unavailable_type = new_exception(m, "BackendUnavailable", PyExc_RuntimeError,
                                           "No CUDA device, or this mpgpu was built without CUDA.");
  nb::register_exception_translator(translate);
}

PyObject* parse_error_class() { return parse_error_type; }

}  // namespace mpgpu::py
