// Reading the description of an array in CUDA device memory: DLPack (with
// the context's stream handed to the producer) or the CUDA Array Interface
// (versions 2 and 3: https://numba.readthedocs.io/en/stable/cuda/cuda_array_interface.html).
// Nothing here touches the data: the readers (Batch::from_device_limbs) do,
// on the device.
#include "cuda_arrays.hpp"

#include <limits>

namespace mpgpu::py {
namespace {

using namespace nb::literals;

[[noreturn]] void raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw nb::python_error();
}

/// DLPack's device types of memory a CUDA kernel reads (dlpack.h: kDLCUDA, kDLCUDAManaged).
bool is_cuda_device_type(int type) { return type == nb::device::cuda::value || type == nb::device::cuda_managed::value; }

/// The stream number a DLPack producer is given: the context's stream, or 1
/// (CUDA's legacy default stream) if it were the null stream, which DLPack
/// does not let a consumer name as 0.
std::uintptr_t dlpack_stream(const Context& ctx) {
  const auto s = reinterpret_cast<std::uintptr_t>(ctx.stream());
  return s ? s : 1;
}

CudaArray import_dlpack(nb::handle obj, const Context& ctx, const std::string& fn) {
  nb::object device = obj.attr("__dlpack_device__")();
  const int id = nb::cast<int>(device[1]);
  if (id != ctx.device())
    raise(PyExc_ValueError, fn + ": the array is on CUDA device " + std::to_string(id) + " and the context on device " +
                                std::to_string(ctx.device()) + "; pass context=mpgpu.Context('cuda:" +
                                std::to_string(id) + "') or move the array to device " +
                                std::to_string(ctx.device()));
  // The producer makes our stream wait for its pending writes. DLPack 1.0
  // producers take max_version; older ones raise TypeError for it.
  const std::uintptr_t stream = dlpack_stream(ctx);
  nb::object capsule;
  try {
    capsule = obj.attr("__dlpack__")("stream"_a = stream, "max_version"_a = nb::make_tuple(1, 0));
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    capsule = obj.attr("__dlpack__")("stream"_a = stream);
  }
  CudaArray a;
  if (!nb::try_cast(capsule, a.dlpack, /*convert=*/false))
    raise(PyExc_ValueError, fn + ": __dlpack__ of '" + Py_TYPE(obj.ptr())->tp_name +
                                "' did not give a DLPack capsule that could be read");
  if (!is_cuda_device_type(a.dlpack.device_type()) || a.dlpack.device_id() != ctx.device())
    raise(PyExc_ValueError, fn + ": __dlpack__ gave memory of DLPack device (" +
                                std::to_string(a.dlpack.device_type()) + ", " +
                                std::to_string(a.dlpack.device_id()) + "), not the (2, " +
                                std::to_string(ctx.device()) + ") that __dlpack_device__ said");
  a.data = a.dlpack.data();
  a.dtype = a.dlpack.dtype();
  for (std::size_t i = 0; i < a.dlpack.ndim(); ++i) {
    a.shape.push_back(static_cast<std::int64_t>(a.dlpack.shape(i)));
    a.strides.push_back(signed_stride(a.dlpack.stride(i), a.dtype.bits / 8));
  }
  return a;
}

/// typestr of the interface ("<u8", "|b1", ">f4"): the dtype, and whether it
/// is in the host's (little-endian) byte order.
nb::dlpack::dtype parse_typestr(const std::string& t, bool& native, const std::string& fn) {
  using code = nb::dlpack::dtype_code;
  std::size_t bytes = 0, i = 2;
  for (; i < t.size() && i < 5 && t[i] >= '0' && t[i] <= '9'; ++i) bytes = 10 * bytes + (t[i] - '0');
  const bool order_ok = t.size() >= 3 && (t[0] == '<' || t[0] == '>' || t[0] == '|' || t[0] == '=');
  code c{};
  const char kind = t.size() >= 2 ? t[1] : '?';
  switch (kind) {
    case 'u': c = code::UInt; break;
    case 'i': c = code::Int; break;
    case 'f': c = code::Float; break;
    case 'c': c = code::Complex; break;
    case 'b': c = code::Bool; break;
    default: bytes = 0;  // refused below
  }
  if (!order_ok || i != t.size() || bytes == 0 || bytes > 16)
    raise(PyExc_ValueError, fn + ": __cuda_array_interface__ has typestr '" + t + "', not one of NumPy's simple types");
  native = t[0] != '>' || bytes == 1;  // x86-64 and aarch64 hosts are little-endian
  return nb::dlpack::dtype{static_cast<std::uint8_t>(c), static_cast<std::uint8_t>(8 * bytes), 1};
}

CudaArray import_interface(nb::handle obj, const std::string& fn) {
  nb::object d_obj = obj.attr("__cuda_array_interface__");
  if (!nb::isinstance<nb::dict>(d_obj))
    raise(PyExc_TypeError, fn + ": __cuda_array_interface__ is not a dict");
  nb::dict d = nb::borrow<nb::dict>(d_obj);
  for (const char* key : {"shape", "typestr", "data"})
    if (!d.contains(key)) raise(PyExc_ValueError, fn + ": __cuda_array_interface__ has no '" + key + "'");
  if (d.contains("mask") && !d["mask"].is_none())
    raise(PyExc_ValueError, fn + ": __cuda_array_interface__ has a mask; masked arrays are not read");
  CudaArray a;
  a.owner = nb::borrow(obj);
  a.dtype = parse_typestr(nb::cast<std::string>(d["typestr"]), a.native_order, fn);
  const std::int64_t item = a.dtype.bits / 8;
  nb::object data = d["data"];
  a.data = reinterpret_cast<const void*>(nb::cast<std::uintptr_t>(data[0]));
  for (nb::handle n : nb::cast<nb::tuple>(d["shape"])) {
    a.shape.push_back(nb::cast<std::int64_t>(n));
    if (a.shape.back() < 0)
      raise(PyExc_ValueError, fn + ": __cuda_array_interface__ has a negative extent in its shape");
  }
  if (d.contains("strides") && !d["strides"].is_none()) {
    for (nb::handle s : nb::cast<nb::tuple>(d["strides"])) {
      const auto bytes = nb::cast<std::int64_t>(s);
      if (bytes % item)
        raise(PyExc_ValueError, fn + ": __cuda_array_interface__ has a stride of " + std::to_string(bytes) +
                                    " bytes, not a whole number of " + std::to_string(item) + "-byte elements");
      a.strides.push_back(bytes / item);
    }
    if (a.strides.size() != a.shape.size())
      raise(PyExc_ValueError, fn + ": __cuda_array_interface__ has " + std::to_string(a.strides.size()) +
                                  " strides for " + std::to_string(a.shape.size()) + " dimensions");
  } else {  // no strides: C order
    a.strides.assign(a.shape.size(), 1);
    for (std::size_t i = a.shape.size(); i-- > 1;) a.strides[i - 1] = a.strides[i] * a.shape[i];
  }
  // Version 3's stream: the one the producer's writes are queued on (None or
  // absent: nothing to wait for; 0 is ambiguous and forbidden).
  if (d.contains("stream") && !d["stream"].is_none()) {
    const auto s = nb::cast<std::uintptr_t>(d["stream"]);
    if (s == 0)
      raise(PyExc_ValueError, fn + ": __cuda_array_interface__ has stream 0, which the interface forbids "
                                   "(1: the legacy default stream, 2: the per-thread default stream)");
    a.ready_on = reinterpret_cast<Stream>(s);
  }
  return a;
}

}  // namespace

CudaArrayKind cuda_array_kind(nb::handle obj) {
  if (nb::hasattr(obj, "__dlpack_device__") && nb::hasattr(obj, "__dlpack__")) {
    nb::object device = nb::steal(PyObject_CallMethod(obj.ptr(), "__dlpack_device__", nullptr));
    if (device.is_valid() && PyTuple_Check(device.ptr()) && PyTuple_GET_SIZE(device.ptr()) == 2) {
      const long type = PyLong_AsLong(PyTuple_GET_ITEM(device.ptr(), 0));
      if (!PyErr_Occurred()) return is_cuda_device_type(static_cast<int>(type)) ? CudaArrayKind::dlpack : CudaArrayKind::none;
    }
    PyErr_Clear();  // a producer that cannot say: the host path's reading will tell what is wrong
    return CudaArrayKind::none;
  }
  return nb::hasattr(obj, "__cuda_array_interface__") ? CudaArrayKind::interface_only : CudaArrayKind::none;
}

CudaArray import_cuda_array(nb::handle obj, const Context& ctx, const std::string& fn) {
  switch (cuda_array_kind(obj)) {
    case CudaArrayKind::dlpack: return import_dlpack(obj, ctx, fn);
    case CudaArrayKind::interface_only: return import_interface(obj, fn);
    default: raise(PyExc_TypeError, fn + ": '" + Py_TYPE(obj.ptr())->tp_name + "' is not an array on a CUDA device");
  }
}

std::int64_t signed_stride(std::int64_t elements, std::size_t item_bytes) {
  if (item_bytes <= 1) return elements;
  const auto item = static_cast<std::int64_t>(item_bytes);
  const std::int64_t limit = std::numeric_limits<std::int64_t>::max() / item;
  if (elements >= -limit && elements <= limit) return elements;
  // The product wraps modulo 2^64 (unsigned arithmetic, well defined): for
  // CuPy's (2^64 + bytes) / item it gives back the negative byte stride.
  const auto bytes = static_cast<std::int64_t>(static_cast<std::uint64_t>(elements) * item_bytes);
  return bytes < 0 && bytes % item == 0 ? bytes / item : elements;
}

std::string dtype_text(const nb::dlpack::dtype& dt) {
  using code = nb::dlpack::dtype_code;
  const char* kind = dt.code == static_cast<std::uint8_t>(code::Int)       ? "int"
                     : dt.code == static_cast<std::uint8_t>(code::UInt)    ? "uint"
                     : dt.code == static_cast<std::uint8_t>(code::Float)   ? "float"
                     : dt.code == static_cast<std::uint8_t>(code::Complex) ? "complex"
                     : dt.code == static_cast<std::uint8_t>(code::Bool)    ? "bool"
                                                                            : "other";
  return std::string(kind) + std::to_string(dt.bits);
}

}  // namespace mpgpu::py
