// Arrays of residues for mpgpu.ntt and mpgpu.dot (modp_arrays.hpp).
#include "modp_arrays.hpp"

#include <cstring>

#include <mpgpu/field/roots.hpp>
#include <mpgpu/ntt.hpp>

namespace mpgpu::py {

using namespace nb::literals;

const char* word_name(Word w) {
  switch (w) {
    case Word::u32: return "uint32";
    case Word::u64: return "uint64";
    case Word::f64: return "float64";
  }
  return "?";
}

void raise_value(const std::string& message) {
  PyErr_SetString(PyExc_ValueError, message.c_str());
  throw nb::python_error();
}

void raise_type(const std::string& message) {
  PyErr_SetString(PyExc_TypeError, message.c_str());
  throw nb::python_error();
}

std::size_t ArrayIn::size() const {
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  return n;
}

bool ArrayIn::c_contiguous() const {
  if (size() <= 1) return true;
  std::int64_t expect = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expect) return false;
    expect *= static_cast<std::int64_t>(shape[i]);
  }
  return true;
}

namespace {
/// A PyTorch tensor (for the fixes messages suggest).
bool is_torch_tensor(nb::handle obj) { return std::string_view(Py_TYPE(obj.ptr())->tp_name) == "Tensor"; }
}  // namespace

std::string ArrayIn::contiguous_hint(const char* name) const {
  if (!on_device) return std::string("numpy.ascontiguousarray(") + name + ")";
  if (is_torch_tensor(object)) return std::string(name) + ".contiguous()";
  return std::string("cupy.ascontiguousarray(") + name + ")";
}

std::string ArrayIn::shape_text() const {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

namespace {

std::string allowed_text(std::initializer_list<Word> allowed) {
  std::string s;
  std::size_t i = 0;
  for (Word w : allowed) {
    s += std::string(i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + word_name(w);
    ++i;
  }
  return s;
}

bool is_array_like(nb::handle obj) {
  return PyObject_CheckBuffer(obj.ptr()) || nb::hasattr(obj, "__dlpack__") ||
         nb::hasattr(obj, "__array_interface__") || nb::hasattr(obj, "__cuda_array_interface__");
}

[[noreturn]] void raise_dtype(nb::handle obj, const char* fn, const char* name, std::initializer_list<Word> allowed,
                              const char* module = "numpy") {
  const std::string want = allowed_text(allowed);
  if (!is_array_like(obj) || PyUnicode_Check(obj.ptr()) || PyBytes_Check(obj.ptr()))
    raise_type(std::string(fn) + ": " + name + " must be a NumPy array of " + want + ", not '" +
               Py_TYPE(obj.ptr())->tp_name + "' (e.g. numpy.array(values, dtype=numpy." +
               word_name(*allowed.begin()) + "))");
  const std::string dtype = nb::hasattr(obj, "dtype") ? py_str(obj.attr("dtype")) : std::string("unknown");
  const std::string to = std::string(module) + "." + word_name(*allowed.begin());
  raise_type(std::string(fn) + ": " + name + " must hold " + want + " (native byte order), not " + dtype +
             "; convert with " + name + (std::string_view(module) == "torch" ? ".to(" : ".astype(") + to +
             ") when every value is a residue");
}

/// The dtype of `dt` among `allowed`, else TypeError.
Word word_of(const nb::dlpack::dtype& dt, bool native, nb::handle obj, const char* fn, const char* name,
             std::initializer_list<Word> allowed, const char* module) {
  for (Word w : allowed) {
    const nb::dlpack::dtype want = w == Word::u32   ? nb::dtype<std::uint32_t>()
                                   : w == Word::u64 ? nb::dtype<std::uint64_t>()
                                                    : nb::dtype<double>();
    if (native && dt == want) return w;
  }
  raise_dtype(obj, fn, name, allowed, module);
}

/// An array in CUDA memory: read in place on a CUDA context, never through the host.
ArrayIn device_array_arg(nb::handle obj, const char* fn, const char* name, std::initializer_list<Word> allowed,
                         const Context& ctx) {
  if (!ctx.is_cuda())
    raise_value(std::string(fn) + ": " + name + " is in CUDA memory and the context is the CPU; pass "
                "context='cuda' (or 'cuda:N') to compute on the device, or a host copy (cupy.asnumpy(" + name +
                "), " + name + ".cpu() for PyTorch)");
  ArrayIn in;
  // CuPy arrays and PyTorch tensors as they are, other producers wrapped by CuPy (mpgpu/_device_arrays.py).
  in.object = nb::module_::import_("mpgpu._device_arrays").attr("adopt")(obj, fn);
  in.device = import_cuda_array(in.object, ctx, fn);
  in.on_device = true;
  in.word = word_of(in.device.dtype, in.device.native_order, in.object, fn, name, allowed,
                    is_torch_tensor(in.object) ? "torch" : "cupy");
  for (std::size_t i = 0; i < in.device.shape.size(); ++i) {
    in.shape.push_back(static_cast<std::size_t>(in.device.shape[i]));
    in.strides.push_back(in.device.strides[i]);
  }
  return in;
}

}  // namespace

ArrayIn array_arg(nb::handle obj, const char* fn, const char* name, std::initializer_list<Word> allowed,
                  const Context& ctx) {
  if (cuda_array_kind(obj) != CudaArrayKind::none) return device_array_arg(obj, fn, name, allowed, ctx);
  ArrayIn in;
  if (PyUnicode_Check(obj.ptr()) || PyBytes_Check(obj.ptr()) || !nb::try_cast(obj, in.array, /*convert=*/false))
    raise_dtype(obj, fn, name, allowed);
  if (in.array.device_type() == nb::device::cuda::value || in.array.device_type() == nb::device::cuda_managed::value)
    raise_type(std::string(fn) + ": " + name + " is in CUDA memory but has no __dlpack_device__ (DLPack) or "
               "__cuda_array_interface__ to say so; pass a CuPy array or a PyTorch tensor");
  if (in.array.device_type() != nb::device::cpu::value && in.array.device_type() != nb::device::cuda_host::value)
    raise_type(std::string(fn) + ": " + name + " must be in host memory or on a CUDA device (DLPack device type " +
               std::to_string(in.array.device_type()) + ")");
  in.word = word_of(in.array.dtype(), true, obj, fn, name, allowed, "numpy");
  for (std::size_t i = 0; i < in.array.ndim(); ++i) {
    in.shape.push_back(in.array.shape(i));
    // A host DLPack producer may wrap negative strides as CuPy's device export does.
    in.strides.push_back(signed_stride(in.array.stride(i), word_size(in.word)));
  }
  return in;
}

void require_same_memory(const ArrayIn& a, const ArrayIn& b, const char* fn, const char* an, const char* bn) {
  if (a.on_device == b.on_device) return;
  raise_value(std::string(fn) + ": " + (a.on_device ? an : bn) + " is in CUDA memory and " + (a.on_device ? bn : an) +
              " in host memory; pass both on the device or both on the host");
}

void require_contiguous(const ArrayIn& a, const char* fn, const char* name) {
  if (a.c_contiguous()) return;
  std::string strides = "(";
  for (std::size_t i = 0; i < a.strides.size(); ++i) strides += (i ? ", " : "") + std::to_string(a.strides[i]);
  raise_value(std::string(fn) + ": " + name + " is not C-contiguous (strides " + strides + (a.ndim() == 1 ? ",)" : ")") +
              " in elements); pass " + a.contiguous_hint(name));
}

namespace {

template <class T>
std::size_t first_unreduced(const T* x, std::size_t n, std::uint64_t p) {
  for (std::size_t i = 0; i < n; ++i)
    if (x[i] >= p) return i;
  return n;
}

}  // namespace

void require_residues(const ArrayIn& a, std::uint64_t p, const char* fn, const char* name, const Context& ctx) {
  const std::size_t n = a.size();
  std::size_t bad = n;
  std::uint64_t value = 0;
  {
    nb::gil_scoped_release release;
    if (a.word == Word::u32) {
      const auto* x = static_cast<const std::uint32_t*>(a.data());
      std::uint32_t v = 0;
      // p < 2**32 for 32-bit words (modulus_arg's max_bits).
      bad = a.on_device ? ntt_first_unreduced(ctx, x, n, static_cast<std::uint32_t>(p), &v) : first_unreduced(x, n, p);
      if (bad != n) value = a.on_device ? v : x[bad];
    } else if (a.word == Word::u64) {
      const auto* x = static_cast<const std::uint64_t*>(a.data());
      bad = a.on_device ? ntt_first_unreduced(ctx, x, n, p, &value) : first_unreduced(x, n, p);
      if (bad != n && !a.on_device) value = x[bad];
    }
  }
  if (bad == n) return;
  std::string index;  // row-major position of the flat index
  for (std::size_t i = a.ndim(), rest = bad; i-- > 0;) {
    index = "[" + std::to_string(rest % a.shape[i]) + "]" + index;
    rest /= a.shape[i];
  }
  raise_value(std::string(fn) + ": " + name + index + " = " + std::to_string(value) + " is not a residue mod p = " +
              std::to_string(p) + " (values must be in [0, p))");
}

std::uint64_t modulus_arg(nb::handle p, const char* fn, int max_bits) {
  if (PyFloat_Check(p.ptr()) || !PyIndex_Check(p.ptr()))
    raise_type(std::string(fn) + ": p must be an int, not '" + Py_TYPE(p.ptr())->tp_name + "'");
  nb::object v = nb::steal(PyNumber_Index(p.ptr()));
  if (!v.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long long small = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (small == -1 && PyErr_Occurred()) throw nb::python_error();
  std::uint64_t u = static_cast<std::uint64_t>(small);
  bool ok = overflow == 0 ? small >= 2 : overflow > 0;
  if (overflow > 0) {
    u = PyLong_AsUnsignedLongLong(v.ptr());
    if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();
      ok = false;
    }
  }
  if (ok && max_bits < 64 && (u >> max_bits) != 0) ok = false;
  if (!ok)
    raise_value(std::string(fn) + ": p = " + py_str(v) + " is not a prime modulus below 2**" +
                std::to_string(max_bits) + (max_bits < 64 ? " (the limit for uint32 data)" : ""));
  // Before the values are scanned, so that a composite p is named as such.
  if (!field::is_prime(u)) raise_value(std::string(fn) + ": p = " + std::to_string(u) + " is not prime");
  return u;
}

// ---- words in a context's memory ---------------------------------------------------------

namespace {
// A device buffer is a Batch of 4096-bit instances: width class 64 limbs, so
// the instances are contiguous and the storage is count * 64 words.
constexpr std::size_t kChunkLimbs = 64;
constexpr std::size_t kChunkBits = 64 * kChunkLimbs;
}  // namespace

ContextWords::ContextWords(const Context& ctx, const ArrayIn& a, std::size_t bytes) : host_(a.data()) {
  if (!a.on_device) upload(ctx, bytes);  // a device array is used as it is
}

ContextWords::ContextWords(const Context& ctx, const void* host, std::size_t bytes) : host_(host) { upload(ctx, bytes); }

void ContextWords::upload(const Context& ctx, std::size_t bytes) {
  const void* host = host_;
  if (!ctx.is_cuda()) return;
  device_ = true;
  const std::size_t chunks = (bytes + 8 * kChunkLimbs - 1) / (8 * kChunkLimbs);
  if (host) {
    std::vector<limb_t> padded(chunks * kChunkLimbs, 0);
    if (bytes) std::memcpy(padded.data(), host, bytes);
    storage_ = Batch::from_limbs(padded.data(), chunks, kChunkLimbs, kChunkBits, ctx);
  } else {
    storage_ = Batch(chunks, kChunkBits, ctx);
  }
  if (chunks && storage_.stride_limbs() != kChunkLimbs)
    throw Error("mpgpu (Python): a 4096-bit batch is not stored contiguously; cannot hold device words in it");
}

void ContextWords::download(void* host, std::size_t bytes) const {
  if (!device_ || bytes == 0) return;
  const std::vector<limb_t> limbs = storage_.to_limbs();
  std::memcpy(host, limbs.data(), bytes);
}

}  // namespace mpgpu::py
