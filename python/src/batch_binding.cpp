// mpgpu.Batch: N unsigned integers of one width (1 to 2^18 bits) in a
// context, made from a list of ints or an array of uint64 limbs (shape
// (n, limbs), GMP's order: least significant limb first), and back as a
// list, a NumPy array, bytes, or a DLPack / __cuda_array_interface__ view.
// A Python Batch is immutable: every operation gives a new one.
#include "batch_common.hpp"
#include "cuda_arrays.hpp"

#include <cstring>
#include <memory>
#include <optional>
#include <string>

namespace mpgpu::py {
namespace {

using namespace nb::literals;

std::size_t limbs_of(std::size_t bits) { return (bits + 63) / 64; }

/// A width or count argument: OverflowError when negative, TypeError when not an int.
std::size_t size_arg(nb::handle h, const char* name) { return static_cast<std::size_t>(to_u64(h, name)); }

std::string describe_value(PyObject* v) {
  nb::object bl = nb::steal(PyObject_CallMethod(v, "bit_length", nullptr));
  if (bl.is_valid() && nb::cast<std::size_t>(bl) <= 128) return nb::cast<std::string>(nb::repr(nb::handle(v)));
  PyErr_Clear();
  return "a " + (bl.is_valid() ? py_str(bl) : std::string("large")) + "-bit value";
}

[[noreturn]] void raise_value(const std::string& message) {
  PyErr_SetString(PyExc_ValueError, message.c_str());
  throw nb::python_error();
}

[[noreturn]] void raise_type(const std::string& message) {
  PyErr_SetString(PyExc_TypeError, message.c_str());
  throw nb::python_error();
}

// Whether the n limbs at x (as pylong_to_limbs wrote them) hold a value of
// `bits` bits: unsigned, nothing at or above bit `bits`; signed, bits
// `bits - 1` and up all copies of the sign.
bool fits_width(const limb_t* x, std::size_t n, std::size_t bits, bool is_signed) {
  const unsigned top = static_cast<unsigned>(bits - 64 * (n - 1));  // 1..64 bits used in x[n-1]
  if (top == 64) return true;  // pylong_to_limbs checked the whole n * 64 bits
  if (!is_signed) return (x[n - 1] >> top) == 0;
  const auto high = static_cast<std::int64_t>(x[n - 1]) >> (top - 1);
  return high == 0 || high == -1;
}

// A Python int from a list element: an int, an Integer, or anything with
// __index__ (NumPy integers, gmpy2.mpz); floats and the rest are refused.
nb::object element_as_int(PyObject* item, std::size_t index) {
  if (PyLong_Check(item)) return nb::borrow(item);
  if (const Integer* x = as_integer(item)) return pylong_from_integer(*x);
  if (!PyFloat_Check(item) && PyIndex_Check(item)) {
    nb::object r = nb::steal(PyNumber_Index(item));
    if (!r.is_valid()) throw nb::python_error();
    return r;
  }
  raise_type("mpgpu.Batch: values[" + std::to_string(index) + "] is '" + Py_TYPE(item)->tp_name +
             "', not an integer");
}

void write_value(PyObject* v, limb_t* x, std::size_t n, std::size_t bits, bool is_signed, std::size_t index) {
  if (pylong_to_limbs(v, x, n, is_signed) && fits_width(x, n, bits, is_signed)) {
    if (is_signed && bits % 64) x[n - 1] &= (limb_t{1} << (bits % 64)) - 1;  // two's complement mod 2^bits
    return;
  }
  const std::string where = "mpgpu.Batch: values[" + std::to_string(index) + "] = " + describe_value(v);
  if (!is_signed && PyObject_RichCompareBool(v, nb::int_(0).ptr(), Py_LT) == 1)
    raise_value(where + " is negative: an unsigned batch holds 0 <= v < 2**" + std::to_string(bits) +
                " (signed=True stores two's complement)");
  if (is_signed)
    raise_value(where + " does not fit in " + std::to_string(bits) + " signed bits (-2**" + std::to_string(bits - 1) +
                " <= v < 2**" + std::to_string(bits - 1) + ")");
  raise_value(where + " does not fit in " + std::to_string(bits) + " bits (0 <= v < 2**" + std::to_string(bits) + ")");
}

Batch from_values(nb::handle values, std::size_t bits, bool is_signed, const Context& ctx) {
  nb::object seq = nb::steal(PySequence_Fast(values.ptr(), "mpgpu.Batch: values must be an iterable of integers "
                                                           "or an array of uint64 limbs of shape (n, limbs)"));
  if (!seq.is_valid()) throw nb::python_error();
  if (bits == 0 || bits > Batch::max_bits)
    raise_value("mpgpu.Batch: bits must be 1 to 2**18, not " + std::to_string(bits));
  const auto count = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(seq.ptr()));
  PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
  const std::size_t n = limbs_of(bits);
  std::vector<limb_t> limbs(count * n);
  for (std::size_t i = 0; i < count; ++i) {
    nb::object v = element_as_int(items[i], i);
    write_value(v.ptr(), limbs.data() + i * n, n, bits, is_signed, i);
  }
  Batch r;
  run_batch([&] { r = Batch::from_limbs(limbs.data(), count, n, bits, ctx); });
  return r;
}

std::string dtype_name(nb::handle obj, const nb::dlpack::dtype* dt) {
  if (nb::hasattr(obj, "dtype")) return py_str(obj.attr("dtype"));
  return dt ? dtype_text(*dt) : "unknown";
}

[[noreturn]] void raise_dtype(nb::handle obj, const nb::dlpack::dtype* dt) {
  raise_type("mpgpu.Batch: an array must hold uint64 limbs (dtype uint64, native byte order), not " +
             dtype_name(obj, dt) + "; for values of another dtype pass a list (e.g. array.tolist()), or "
             "array.astype(numpy.uint64) for non-negative values below 2**64");
}

bool is_array_like(nb::handle obj) {
  return PyObject_CheckBuffer(obj.ptr()) || nb::hasattr(obj, "__dlpack__") ||
         nb::hasattr(obj, "__array_interface__") || nb::hasattr(obj, "__cuda_array_interface__");
}

/// An array of limbs as rows: shape (n, limbs), or (n,) for one limb each,
/// and the limbs between rows.
struct LimbRows {
  std::size_t count = 0, limbs = 0, row_stride = 0;
};

/// The rows of an array of `ndim` dimensions with these shape and strides
/// (in limbs). Host arrays must be C-contiguous (from_limbs reads them so);
/// device arrays (`spaced_rows`) may have rows further apart than their
/// limbs, e.g. a batch's own view or a slice of columns, but a row's limbs
/// must be adjacent.
LimbRows limb_rows(std::size_t ndim, const std::int64_t* shape, const std::int64_t* strides, bool spaced_rows) {
  if (ndim != 1 && ndim != 2) {
    std::string text = "(";
    for (std::size_t i = 0; i < ndim; ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    raise_value("mpgpu.Batch: an array of limbs has shape (n, limbs) (or (n,) for one limb each), not " + text +
                (ndim == 1 ? ",)" : ")"));
  }
  LimbRows r;
  r.count = static_cast<std::size_t>(shape[0]);
  r.limbs = ndim == 2 ? static_cast<std::size_t>(shape[1]) : 1;
  const std::int64_t row = strides[0], limb = ndim == 2 ? strides[1] : 1;
  const auto limbs = static_cast<std::int64_t>(r.limbs);
  const bool rows_ok = r.count <= 1 || (spaced_rows ? row >= limbs : row == limbs);
  const bool limbs_ok = r.limbs <= 1 || limb == 1;
  r.row_stride = r.count <= 1 ? r.limbs : static_cast<std::size_t>(row);
  if (r.count * r.limbs == 0 || (rows_ok && limbs_ok)) return r;  // nothing to read, or readable
  const std::string text = std::to_string(row) + (ndim == 2 ? ", " + std::to_string(limb) : std::string());
  if (spaced_rows)
    raise_value("mpgpu.Batch: the array of limbs has strides " + text + " in limbs: a row's limbs must be adjacent "
                "and rows at least a row apart; pass cupy.ascontiguousarray(array) (PyTorch: tensor.contiguous())");
  raise_value("mpgpu.Batch: the array of limbs is not C-contiguous (strides " + text +
              " in limbs); pass numpy.ascontiguousarray(array)");
}

/// The batch's width: `bits=`, or 64 per limb of the array.
std::size_t width_arg(nb::handle bits_arg, std::size_t limbs) {
  const std::size_t bits = bits_arg.is_none() ? 64 * limbs : size_arg(bits_arg, "mpgpu.Batch");
  if (bits == 0 || bits > Batch::max_bits)
    raise_value("mpgpu.Batch: bits must be 1 to 2**18, not " + std::to_string(bits) +
                (bits_arg.is_none() ? " (64 per limb of the array: pass bits=)" : ""));
  return bits;
}

[[noreturn]] void raise_over_width(std::size_t row, std::size_t bits) {
  raise_value("mpgpu.Batch: row " + std::to_string(row) + " of the array has bits at or above bit " +
              std::to_string(bits) + " (the batch's width)");
}

Batch from_array(nb::handle obj, nb::handle bits_arg, const Context& ctx);

// An array on a CUDA device given to a CPU context: read through the host
// (numpy.from_dlpack asking the producer for a CPU copy, else CuPy's .get()).
Batch from_device_array(nb::handle obj, nb::handle bits_arg, const Context& ctx) {
  nb::module_ np = nb::module_::import_("numpy");
  nb::object host;
  try {
    host = np.attr("from_dlpack")(obj, "device"_a = "cpu", "copy"_a = true);
  } catch (nb::python_error&) {
    if (!nb::hasattr(obj, "get")) throw;
    host = obj.attr("get")();
  }
  return from_array(host, bits_arg, ctx);
}

// What keeps adopted device memory alive: the DLPack export (its deleter
// gives the memory back to the producer) and the producer object itself
// (for a CUDA Array Interface, its only owner). Released with the GIL, after
// the context's stream is done with the limbs (Batch::adopt_device_limbs).
struct AdoptedArray {
  nb::ndarray<nb::ro> dlpack;
  nb::object owner;
};

std::shared_ptr<void> keep_alive(const CudaArray& a, nb::handle obj) {
  return std::shared_ptr<void>(new AdoptedArray{a.dlpack, nb::borrow(obj)}, [](void* p) noexcept {
    // After the interpreter is gone the references cannot be dropped: leaked.
    if (!Py_IsInitialized()) return;
    nb::gil_scoped_acquire gil;
    delete static_cast<AdoptedArray*>(p);
  });
}

// Whether the rows are already the batch's storage: one device, every row
// exactly a width class long and adjacent to the next, 16-byte aligned.
bool in_batch_layout(const CudaArray& a, const LimbRows& rows, std::size_t bits, const Context& ctx) {
  const std::size_t stride = batch_stride_limbs(bits);
  return ctx.part_count() == 1 && rows.count > 0 && rows.limbs == stride &&
         (rows.count == 1 || rows.row_stride == stride) && reinterpret_cast<std::uintptr_t>(a.data) % 16 == 0;
}

// An array on the CUDA context's device. In the batch's layout (rows of
// batch_stride_limbs(bits) limbs, C-contiguous, aligned) with nothing at or
// above `bits`, its memory becomes the batch's storage without a copy
// (Batch::adopt_device_limbs); otherwise its limbs are repacked on the device
// (Batch::from_device_limbs). Both after the producer's pending writes.
Batch from_cuda_array(nb::handle obj, nb::handle bits_arg, const Context& ctx) {
  const CudaArray a = import_cuda_array(obj, ctx, "mpgpu.Batch");
  if (a.dtype != nb::dtype<std::uint64_t>() || !a.native_order)
    raise_type("mpgpu.Batch: an array must hold uint64 limbs (dtype uint64, native byte order), not " +
               (nb::hasattr(obj, "dtype") ? py_str(obj.attr("dtype")) : dtype_text(a.dtype)) +
               (a.native_order ? "" : " of the other byte order") + "; convert with array.astype(cupy.uint64) "
               "(PyTorch: tensor.to(torch.uint64)) for non-negative values below 2**64");
  const LimbRows rows = limb_rows(a.shape.size(), a.shape.data(), a.strides.data(), /*spaced_rows=*/true);
  const std::size_t bits = width_arg(bits_arg, rows.limbs);
  if (in_batch_layout(a, rows, bits, ctx)) {
    const std::shared_ptr<void> keeper = keep_alive(a, obj);  // last released here, with the GIL, if not adopted
    std::optional<Batch> adopted;
    try {
      run_batch([&] {
        adopted = Batch::adopt_device_limbs(static_cast<limb_t*>(const_cast<void*>(a.data)), rows.count, bits, ctx,
                                            keeper, a.ready_on);
      });
    } catch (const InvalidArgument&) {
      // Memory the library cannot adopt (host memory behind an interface,
      // another GPU's): the copy below says why in its own words.
    }
    if (adopted) return *std::move(adopted);  // else a row over the width: the copy below names it
  }
  std::size_t first = rows.count;
  Batch r;
  run_batch([&] {
    r = Batch::from_device_limbs(static_cast<const limb_t*>(a.data), rows.count, rows.limbs, rows.row_stride, bits,
                                 ctx, a.ready_on, &first);
  });
  if (first < rows.count) raise_over_width(first, bits);  // nothing is dropped silently
  return r;
}

// An object with only __cuda_array_interface__ given to a CPU context: CuPy
// can wrap it (no copy) and take it to the host; without CuPy say what works.
Batch from_interface_on_cpu(nb::handle obj, nb::handle bits_arg, const Context& ctx) {
  nb::object cupy;
  try {
    cupy = nb::module_::import_("cupy");
  } catch (nb::python_error&) {
    raise_type(std::string("mpgpu.Batch: '") + Py_TYPE(obj.ptr())->tp_name +
               "' has only __cuda_array_interface__, which a CPU context reads through CuPy (not installed); "
               "pass context=mpgpu.Context('cuda') to read it on the device, or copy it to the host first");
  }
  return from_device_array(cupy.attr("asarray")(obj), bits_arg, ctx);
}

Batch from_array(nb::handle obj, nb::handle bits_arg, const Context& ctx) {
  const CudaArrayKind kind = cuda_array_kind(obj);
  if (kind != CudaArrayKind::none && ctx.is_cuda()) return from_cuda_array(obj, bits_arg, ctx);
  if (kind == CudaArrayKind::interface_only) return from_interface_on_cpu(obj, bits_arg, ctx);
  nb::ndarray<nb::ro> a;
  if (!nb::try_cast(obj, a, /*convert=*/false)) raise_dtype(obj, nullptr);
  const nb::dlpack::dtype dt = a.dtype();
  if (dt != nb::dtype<std::uint64_t>()) raise_dtype(obj, &dt);
  if (a.device_type() == nb::device::cuda::value || a.device_type() == nb::device::cuda_managed::value) {
    // A producer that did not say where its memory is (no __dlpack_device__).
    if (ctx.is_cuda()) raise_type("mpgpu.Batch: an array in CUDA memory must have __dlpack_device__ (DLPack) or "
                                  "__cuda_array_interface__ to be read on a CUDA context");
    return from_device_array(obj, bits_arg, ctx);
  }
  if (a.device_type() != nb::device::cpu::value && a.device_type() != nb::device::cuda_host::value)
    raise_type("mpgpu.Batch: arrays must be in host memory or on a CUDA device (DLPack device type " +
               std::to_string(a.device_type()) + ")");
  std::vector<std::int64_t> shape, strides;
  for (std::size_t i = 0; i < a.ndim(); ++i) {
    shape.push_back(static_cast<std::int64_t>(a.shape(i)));
    strides.push_back(signed_stride(a.stride(i), sizeof(limb_t)));  // as the producer meant it (cuda_arrays.hpp)
  }
  const LimbRows rows = limb_rows(a.ndim(), shape.data(), strides.data(), /*spaced_rows=*/false);
  const std::size_t count = rows.count, limbs = rows.limbs;
  const std::size_t bits = width_arg(bits_arg, limbs);
  const auto* p = static_cast<const limb_t*>(a.data());
  // Limbs or bits at and above `bits` must be zero: nothing is dropped silently.
  if (bits < 64 * limbs) {
    const std::size_t keep = limbs_of(bits);
    const limb_t top_mask = bits % 64 ? ~((limb_t{1} << (bits % 64)) - 1) : 0;
    for (std::size_t i = 0; i < count; ++i) {
      const limb_t* x = p + i * limbs;
      bool clear = (x[keep - 1] & top_mask) == 0;
      for (std::size_t j = keep; clear && j < limbs; ++j) clear = x[j] == 0;
      if (!clear) raise_over_width(i, bits);
    }
  }
  Batch r;
  run_batch([&] { r = Batch::from_limbs(p, count, limbs, bits, ctx); });
  return r;
}

Batch construct(nb::handle values, nb::handle bits, bool is_signed, const Context& ctx) {
  if (nb::isinstance<Batch>(values)) {
    const Batch& b = nb::cast<const Batch&>(values);
    if (!bits.is_none() && size_arg(bits, "mpgpu.Batch") != b.bits())
      raise_value("mpgpu.Batch: a batch of " + std::to_string(b.bits()) + " bits given with bits=" +
                  py_str(bits));
    Batch r;
    run_batch([&] { r = b.context() == ctx ? b : b.to_context(ctx); });
    return r;
  }
  // NumPy arrays of Python ints (dtype object) are lists of values.
  if (nb::hasattr(values, "dtype") && nb::hasattr(values.attr("dtype"), "kind") &&
      nb::cast<std::string>(values.attr("dtype").attr("kind")) == "O")
    return construct(values.attr("tolist")(), bits, is_signed, ctx);
  if (is_array_like(values) && !PyUnicode_Check(values.ptr())) {
    if (is_signed) raise_value("mpgpu.Batch: signed=True is for lists of ints; an array of limbs is read as it is");
    return from_array(values, bits, ctx);
  }
  if (PyUnicode_Check(values.ptr()) || PyLong_Check(values.ptr()))
    raise_type(std::string("mpgpu.Batch: values must be an iterable of integers or an array of limbs, not '") +
               Py_TYPE(values.ptr())->tp_name + "'");
  if (bits.is_none()) raise_type("mpgpu.Batch: a batch made from a list of ints needs its width: Batch(values, bits)");
  return from_values(values, size_arg(bits, "mpgpu.Batch"), is_signed, ctx);
}

// ---- conversions out -------------------------------------------------------------------

nb::object to_numpy(const Batch& b) {
  auto* limbs = new std::vector<limb_t>();
  nb::capsule owner(limbs, [](void* p) noexcept { delete static_cast<std::vector<limb_t>*>(p); });
  run_batch([&] { *limbs = b.to_limbs(); });
  return nb::cast(
      nb::ndarray<nb::numpy, std::uint64_t, nb::ndim<2>>(limbs->data(), {b.count(), b.limbs_per_instance()}, owner));
}

nb::list to_list(const Batch& b, bool is_signed) {
  std::vector<limb_t> limbs;
  run_batch([&] { limbs = b.to_limbs(); });
  const std::size_t n = b.limbs_per_instance(), bits = b.bits();
  nb::list out;
  for (std::size_t i = 0; i < b.count(); ++i) {
    limb_t* x = limbs.data() + i * n;
    // Sign-extend bit bits-1 through the top limb, then read as two's complement.
    if (is_signed && bits % 64 && (x[n - 1] >> (bits % 64 - 1)) & 1) x[n - 1] |= ~((limb_t{1} << (bits % 64)) - 1);
    out.append(pylong_from_limbs(x, n, is_signed));
  }
  return out;
}

nb::object item(const Batch& b, Py_ssize_t index) {
  const auto count = static_cast<Py_ssize_t>(b.count());
  if (index < 0) index += count;
  if (index < 0 || index >= count) {
    PyErr_SetString(PyExc_IndexError, "mpgpu.Batch index out of range");
    throw nb::python_error();
  }
  const std::size_t n = b.limbs_per_instance();
  std::vector<limb_t> x(n);
  if (b.context().is_cuda()) {
    mpz_t z;
    mpz_init(z);
    try {
      run_batch([&] { b.to_mpz(static_cast<std::size_t>(index), z); });
    } catch (...) {
      mpz_clear(z);
      throw;
    }
    if (mpz_size(z)) std::memcpy(x.data(), mpz_limbs_read(z), mpz_size(z) * sizeof(limb_t));
    mpz_clear(z);
  } else {
    std::memcpy(x.data(), b.data() + static_cast<std::size_t>(index) * b.stride_limbs(), n * sizeof(limb_t));
  }
  return pylong_from_limbs(x.data(), n, false);
}

Endian endian_arg(std::string_view byteorder) {
  if (byteorder == "little") return Endian::little;
  if (byteorder == "big") return Endian::big;
  raise_value("byteorder must be either 'little' or 'big'");
}

nb::bytes to_bytes(const Batch& b, nb::handle length, std::string_view byteorder) {
  const Endian order = endian_arg(byteorder);
  const std::size_t each = length.is_none() ? (b.bits() + 7) / 8 : size_arg(length, "to_bytes");
  std::string out(b.count() * each, '\0');
  run_batch([&] { b.to_bytes(out.data(), each, order); });
  return nb::bytes(out.data(), out.size());
}

Batch from_bytes(nb::handle data, std::size_t each, nb::handle bits_arg, std::string_view byteorder,
                 const Context& ctx) {
  const Endian order = endian_arg(byteorder);
  Py_buffer view;
  if (PyObject_GetBuffer(data.ptr(), &view, PyBUF_C_CONTIGUOUS) < 0) throw nb::python_error();
  struct Release {
    Py_buffer* v;
    ~Release() { PyBuffer_Release(v); }
  } release{&view};
  const auto size = static_cast<std::size_t>(view.len);
  if (each == 0) raise_value("mpgpu.Batch.from_bytes: bytes_per_instance must be at least 1");
  if (size % each)
    raise_value("mpgpu.Batch.from_bytes: " + std::to_string(size) + " bytes are not a whole number of " +
                std::to_string(each) + "-byte instances");
  const std::size_t bits = bits_arg.is_none() ? 8 * each : size_arg(bits_arg, "mpgpu.Batch");
  if (bits == 0 || bits > Batch::max_bits)
    raise_value("mpgpu.Batch.from_bytes: bits must be 1 to 2**18, not " + std::to_string(bits));
  if (bits < 8 * each) {  // nothing dropped silently: the bytes above the width must be zero
    const auto* p = static_cast<const unsigned char*>(view.buf);
    for (std::size_t i = 0; i < size / each; ++i)
      for (std::size_t k = bits / 8; k < each; ++k) {  // byte k of significance
        const unsigned char byte = p[i * each + (order == Endian::little ? k : each - 1 - k)];
        const unsigned char allowed = k == bits / 8 ? static_cast<unsigned char>((1u << (bits % 8)) - 1) : 0;
        if (byte & ~allowed)
          raise_value("mpgpu.Batch.from_bytes: instance " + std::to_string(i) + " has bits at or above bit " +
                      std::to_string(bits));
      }
  }
  Batch r;
  run_batch([&] { r = Batch::from_bytes(view.buf, size / each, each, order, bits, ctx); });
  return r;
}

// ---- DLPack and __cuda_array_interface__: views of the storage -----------------------------

// A nanobind array (DLPack and buffer protocol) over the batch's limbs, shape (count, limbs), row
// stride the width class; it keeps a handle on the storage alive. Host
// storage is exported read-only (a Batch is immutable); device storage
// writable, as CuPy and PyTorch want it (writing into it changes the Batch).
nb::object storage_view(const Batch& b) {
  auto* keep = new Batch(b);
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<Batch*>(p); });
  const std::size_t shape[2] = {b.count(), b.limbs_per_instance()};
  const std::int64_t strides[2] = {static_cast<std::int64_t>(b.stride_limbs()), 1};
  if (b.context().is_cuda()) {
    run_batch([&] { b.context().synchronize(); });  // results are ready when the consumer reads them
    return nb::cast(nb::ndarray<nb::array_api, std::uint64_t>(keep->data(), 2, shape, owner, strides,
                                               nb::dtype<std::uint64_t>(), nb::device::cuda::value,
                                               b.context().device()));
  }
  return nb::cast(nb::ndarray<nb::array_api, const std::uint64_t>(keep->data(), 2, shape, owner, strides,
                                                   nb::dtype<std::uint64_t>(), nb::device::cpu::value, 0));
}

nb::dict cuda_array_interface(const Batch& b) {
  if (!b.context().is_cuda()) {
    PyErr_SetString(PyExc_AttributeError, "__cuda_array_interface__: the batch is in host memory (CPU context)");
    throw nb::python_error();
  }
  run_batch([&] { b.context().synchronize(); });
  nb::dict d;
  d["shape"] = nb::make_tuple(b.count(), b.limbs_per_instance());
  d["typestr"] = "<u8";
  d["data"] = nb::make_tuple(reinterpret_cast<std::uintptr_t>(b.data()), false);
  d["strides"] = nb::make_tuple(b.stride_limbs() * sizeof(limb_t), sizeof(limb_t));
  d["version"] = 3;  // no "stream" entry: the work is finished, no synchronization needed
  return d;
}

std::string repr(const Batch& b) {
  constexpr std::size_t shown = 6;
  std::string s = "mpgpu.Batch([";
  if (b.count() <= shown || b.bits() <= 256) {
    const std::size_t k = std::min(b.count(), shown);
    for (std::size_t i = 0; i < k; ++i)
      s += (i ? ", " : "") + nb::cast<std::string>(nb::repr(item(b, static_cast<Py_ssize_t>(i))));
    if (b.count() > shown) s += ", ...";
  } else {
    s += "...";
  }
  s += "], bits=" + std::to_string(b.bits());
  if (b.count() > shown) s += ", count=" + std::to_string(b.count());
  return s + ")";
}

}  // namespace

Batch batch_full(std::size_t count, nb::handle value, std::size_t bits, const Context& ctx) {
  if (bits == 0 || bits > Batch::max_bits)
    raise_value("mpgpu.Batch: bits must be 1 to 2**18, not " + std::to_string(bits));
  if (PyFloat_Check(value.ptr()) || !(PyLong_Check(value.ptr()) || as_integer(value) || PyIndex_Check(value.ptr())))
    raise_type(std::string("mpgpu.Batch: the value must be an integer, not '") + Py_TYPE(value.ptr())->tp_name + "'");
  nb::object v = element_as_int(value.ptr(), 0);
  nb::object mask = nb::steal(PyNumber_Lshift(nb::int_(1).ptr(), nb::int_(bits).ptr()));
  mask = nb::steal(PyNumber_Subtract(mask.ptr(), nb::int_(1).ptr()));
  v = nb::steal(PyNumber_And(v.ptr(), mask.ptr()));  // v mod 2^bits, also for v < 0
  if (!v.is_valid()) throw nb::python_error();
  const std::size_t n = limbs_of(bits);
  std::vector<limb_t> one(n);
  pylong_to_limbs(v.ptr(), one.data(), n, false);
  std::vector<limb_t> limbs(count * n);
  for (std::size_t i = 0; i < count; ++i) std::memcpy(limbs.data() + i * n, one.data(), n * sizeof(limb_t));
  Batch r;
  run_batch([&] { r = Batch::from_limbs(limbs.data(), count, n, bits, ctx); });
  return r;
}

void bind_batch(nb::module_& m) {
  nb::class_<Batch> c(m, "Batch",
                      "N unsigned integers of one width (1 to 2**18 bits), every operation mod 2**bits.\n\n"
                      "Batch(values, bits=None, *, signed=False, context=None) takes a list (or any iterable)\n"
                      "of ints with `bits` given (0 <= v < 2**bits; signed=True stores -2**(bits-1) <= v <\n"
                      "2**(bits-1) as two's complement), or an array of uint64 limbs of shape (n, limbs) or\n"
                      "(n,), GMP's order (least significant limb first), C-contiguous: a NumPy array or any\n"
                      "buffer or DLPack producer; bits defaults to 64 * limbs. On a CUDA context a CUDA array\n"
                      "(CuPy, PyTorch: DLPack, or only __cuda_array_interface__) is read on the device, after\n"
                      "its producer's pending work, and its rows may be further apart than their limbs;\n"
                      "rows already in the batch's layout (stride_limbs limbs each, adjacent) are adopted\n"
                      "without a copy: the batch then shares the array's memory.\n"
                      "Values are never truncated: one that does not fit raises ValueError. Immutable:\n"
                      "operations give new batches.");

  c.def("__init__",
        [](Batch* self, nb::handle values, nb::handle bits, bool is_signed, nb::handle context) {
          new (self) Batch(construct(values, bits, is_signed, context_arg(context)));
        },
        nb::arg("values"), nb::arg("bits").none() = nb::none(), nb::kw_only(), nb::arg("signed") = false,
        nb::arg("context").none() = nb::none());
  c.def_static("zeros",
               [](std::size_t count, std::size_t bits, nb::handle context) {
                 return Batch(count, bits, context_arg(context));
               },
               nb::arg("count"), nb::arg("bits"), nb::kw_only(), nb::arg("context").none() = nb::none(),
               "`count` zeros of `bits` bits.");
  c.def_static("full",
               [](std::size_t count, nb::handle value, std::size_t bits, nb::handle context) {
                 return batch_full(count, value, bits, context_arg(context));
               },
               nb::arg("count"), nb::arg("value"), nb::arg("bits"), nb::kw_only(),
               nb::arg("context").none() = nb::none(), "`count` copies of value mod 2**bits.");
  c.def_static("random",
               [](std::size_t count, std::size_t bits, std::uint64_t seed, nb::handle context) {
                 return Batch::random(count, bits, seed, context_arg(context));
               },
               nb::arg("count"), nb::arg("bits"), nb::arg("seed") = 0, nb::kw_only(),
               nb::arg("context").none() = nb::none(),
               "Values drawn uniformly from [0, 2**bits), the same for a seed on every context.");
  c.def_static("from_numpy",
               [](nb::handle array, nb::handle bits, nb::handle context) {
                 if (!is_array_like(array)) raise_type("mpgpu.Batch.from_numpy: not an array");
                 return from_array(array, bits, context_arg(context));
               },
               nb::arg("array"), nb::arg("bits").none() = nb::none(), nb::kw_only(),
               nb::arg("context").none() = nb::none(),
               "From uint64 limbs of shape (n, limbs) or (n,) (NumPy, a buffer, a DLPack producer, or\n"
               "__cuda_array_interface__), as Batch(array, bits) reads them.");
  c.def_static("from_bytes",
               [](nb::handle data, std::size_t each, nb::handle bits, std::string_view byteorder, nb::handle context) {
                 return from_bytes(data, each, bits, byteorder, context_arg(context));
               },
               nb::arg("data"), nb::arg("bytes_per_instance"), nb::arg("bits").none() = nb::none(),
               nb::arg("byteorder") = "little", nb::kw_only(), nb::arg("context").none() = nb::none(),
               "From consecutive instances of bytes_per_instance bytes each (bits defaults to 8 per byte).");

  c.def_prop_ro("count", &Batch::count, "The number of instances (also len(batch)).");
  c.def_prop_ro("bits", &Batch::bits, "The width: every value is below 2**bits.");
  c.def_prop_ro("limbs", &Batch::limbs_per_instance, "64-bit limbs per instance that carry data: ceil(bits / 64).");
  c.def_prop_ro("stride_limbs", &Batch::stride_limbs, "Limbs between consecutive instances in storage (the width class).");
  c.def_prop_ro("context", [](const Batch& b) { return b.context(); }, "The context the batch lives in.");
  c.def("__len__", &Batch::count);
  c.def("__getitem__",
        [](const Batch& b, nb::handle index) {
          if (PySlice_Check(index.ptr())) raise_type("mpgpu.Batch indices must be integers, not slices");
          const Py_ssize_t i = PyNumber_AsSsize_t(index.ptr(), PyExc_IndexError);
          if (i == -1 && PyErr_Occurred()) throw nb::python_error();
          return item(b, i);
        },
        nb::arg("index"), "Instance `index` as an int.");
  c.def("__iter__", [](const Batch& b) { return nb::iter(to_list(b, false)); });
  c.def("__repr__", &repr);

  c.def("to_list", &to_list, nb::kw_only(), nb::arg("signed") = false,
        "The values as ints (signed=True: read as two's complement of `bits` bits).");
  c.def(
      "to_integers",
      [](const Batch& b, nb::handle context, bool is_signed) {
        const Context ctx = context_arg(context);
        std::vector<Integer> values;
        run_batch([&] {
          values = b.to_integers(ctx, is_signed ? InstanceSign::twos_complement : InstanceSign::unsigned_values);
        });
        nb::list out;
        for (Integer& x : values) out.append(nb::cast(std::move(x)));
        return out;
      },
      nb::arg("context").none() = nb::none(), nb::kw_only(), nb::arg("signed") = false,
      "The values as mpgpu.Integer in `context` (default: the current one; signed=True: read as two's "
      "complement of `bits` bits). From a CUDA batch into a context of its GPU they never leave the device.");
  c.def("to_numpy", &to_numpy, "The limbs as a new NumPy uint64 array of shape (count, limbs).");
  c.def("to_bytes", &to_bytes, nb::arg("length").none() = nb::none(), nb::arg("byteorder") = "little",
        "Each instance as `length` bytes (default ceil(bits / 8)), concatenated; OverflowError if one does not fit.");
  c.def("to_context",
        [](const Batch& b, nb::handle context) {
          Batch r;
          const Context ctx = context_arg(context);
          run_batch([&] { r = b.to_context(ctx); });
          return r;
        },
        nb::arg("context"), "A copy in another context (a Context or a spec such as 'cpu').");
  c.def("copy",
        [](const Batch& b) {
          Batch r;
          run_batch([&] { r = b.clone(); });
          return r;
        },
        "A copy with storage of its own.");
  c.def("__copy__", [](nb::handle self) { return nb::borrow(self); });
  c.def("__deepcopy__", [](nb::handle self, nb::handle) { return nb::borrow(self); }, nb::arg("memo"));
  c.def("__getstate__", [](const Batch& b) {
    return nb::make_tuple(b.bits(), b.count(), to_bytes(b, nb::int_(8 * b.limbs_per_instance()), "little"));
  });
  c.def("__setstate__", [](Batch* self, nb::tuple state) {
    const auto bits = nb::cast<std::size_t>(state[0]);
    new (self) Batch(from_bytes(state[2], 8 * limbs_of(bits), nb::int_(bits), "little", current_context()));
  });

  c.def("__dlpack__",
        [](const Batch& b, nb::kwargs kwargs) { return storage_view(b).attr("__dlpack__")(**kwargs); },
        nb::arg("kwargs"),
        "A DLPack capsule over the storage (shape (count, limbs), row stride stride_limbs), for\n"
        "numpy.from_dlpack, cupy.from_dlpack, torch.from_dlpack. On a CUDA context the work queued\n"
        "on the context's stream is finished first; the view keeps the storage alive.");
  c.def("__dlpack_device__", [](const Batch& b) {
    return b.context().is_cuda() ? nb::make_tuple(static_cast<int>(nb::device::cuda::value), b.context().device())
                                 : nb::make_tuple(static_cast<int>(nb::device::cpu::value), 0);
  });
  c.def_prop_ro("__cuda_array_interface__", &cuda_array_interface,
                "On a CUDA context: the storage as CUDA Array Interface v3 (AttributeError on the CPU).");

  add_batch_operators(c);
}

}  // namespace mpgpu::py
