// What ntt_binding.cpp (mpgpu.ntt) and dot_binding.cpp (mpgpu.dot) share:
// reading an array of residues with its dtype, shape and strides checked
// (a NumPy array, anything with the buffer protocol or DLPack in host
// memory, or an array on the context's CUDA device: CuPy, PyTorch, any
// DLPack or __cuda_array_interface__ producer), the modulus argument, words
// in a context's memory, and the result arrays: NumPy arrays for host
// inputs, arrays of the inputs' framework on the device for CUDA inputs
// (modp_results.cpp), never a copy through the host.
#pragma once

#include "common.hpp"
#include "cuda_arrays.hpp"

#include <nanobind/ndarray.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace mpgpu::py {

/// The element types the functions take.
enum class Word { u32, u64, f64 };

const char* word_name(Word w);  ///< "uint32", "uint64", "float64"
inline std::size_t word_size(Word w) { return w == Word::u32 ? 4 : 8; }

/// An input array: a read-only view of the caller's array (kept alive),
/// its element type, shape and strides in elements (not bytes).
struct ArrayIn {
  nb::ndarray<nb::ro> array;  ///< a host array
  CudaArray device;           ///< or one on the context's CUDA device (on_device)
  bool on_device = false;
  /// A device array as read: the CuPy array or PyTorch tensor (another
  /// producer's array wrapped by CuPy); results are made like it.
  nb::object object;
  Word word = Word::u64;
  std::vector<std::size_t> shape;
  std::vector<std::int64_t> strides;

  const void* data() const { return on_device ? device.data : array.data(); }
  std::size_t ndim() const { return shape.size(); }
  std::size_t size() const;  ///< product of the shape
  /// Row-major with no gaps (a size of 0 or 1 counts as contiguous).
  bool c_contiguous() const;
  /// "(3, 4)" (Python's tuple text).
  std::string shape_text() const;
  /// How to make `name` contiguous: "numpy.ascontiguousarray(a)", or for a
  /// device array "cupy.ascontiguousarray(a)" / "a.contiguous()" (PyTorch).
  std::string contiguous_hint(const char* name) const;
};

/// Reads `obj` as an array whose dtype is one of `allowed`: TypeError for
/// anything else (a list, another dtype, non-native byte order), with the
/// fix in the message. An array in CUDA memory is read in place on a CUDA
/// context (cuda_arrays.hpp: ValueError for an array on another device) and
/// refused on the CPU context (ValueError: no silent copy through the host).
/// `fn` and `name` name the argument in messages ("mpgpu.ntt.forward", "a").
ArrayIn array_arg(nb::handle obj, const char* fn, const char* name, std::initializer_list<Word> allowed,
                  const Context& ctx);

/// ValueError unless both arrays are in host memory or both on the device.
void require_same_memory(const ArrayIn& a, const ArrayIn& b, const char* fn, const char* an, const char* bn);

/// ValueError unless the array is C-contiguous.
void require_contiguous(const ArrayIn& a, const char* fn, const char* name);

/// ValueError naming the first element >= p (as "a[2][5] = 19"); u32/u64
/// only, C-contiguous. Scans without the GIL, on the device for a device
/// array (mpgpu::ntt_first_unreduced).
void require_residues(const ArrayIn& a, std::uint64_t p, const char* fn, const char* name, const Context& ctx);

/// A modulus argument: an int (or anything with __index__) with 2 <= p <
/// 2**64 (`max_bits` = 32 for uint32 data: p < 2**32) and prime; ValueError
/// otherwise, TypeError for a non-integer. The library checks the rest (odd,
/// 2-adicity, its methods' bounds).
std::uint64_t modulus_arg(nb::handle p, const char* fn, int max_bits = 64);

[[noreturn]] void raise_value(const std::string& message);
[[noreturn]] void raise_type(const std::string& message);

/// A new C-contiguous NumPy array of `shape` and element type T (uninitialized).
template <class T>
struct NewArray {
  T* data = nullptr;
  nb::object array;
};
template <class T>
NewArray<T> new_numpy(const std::vector<std::size_t>& shape) {
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  T* data = new T[n ? n : 1];
  nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
  return {data, nb::cast(nb::ndarray<nb::numpy, T>(data, shape.size(), shape.data(), owner))};
}

/// Words of an input in a context's memory for the length of a call. A
/// device array, or a host array on the CPU context: its own words, nothing
/// copied. A host array on a CUDA context: a device copy, held by a Batch
/// (the public API offers no other device allocation). Use without the GIL.
class ContextWords {
 public:
  ContextWords(const Context& ctx, const ArrayIn& a, std::size_t bytes);
  /// `bytes` bytes from host memory (uninitialized when host is nullptr).
  ContextWords(const Context& ctx, const void* host, std::size_t bytes);
  void* data() { return device_ ? static_cast<void*>(storage_.data()) : const_cast<void*>(host_); }
  /// Copies the first `bytes` bytes back to `host` (a device copy; nothing otherwise).
  void download(void* host, std::size_t bytes) const;

 private:
  void upload(const Context& ctx, std::size_t bytes);  ///< the device copy, on a CUDA context
  const void* host_ = nullptr;
  bool device_ = false;
  Batch storage_;
};

/// The result of a call, of `shape` and T's dtype, made like its input
/// `like` (modp_results.cpp): for a host input a new NumPy array (on a CUDA
/// context computed in device words and copied back by finish()); for a
/// device input a new array of its framework on its device, which the
/// library writes in place, ready on every stream after finish().
/// `copy_of_like`: start as a copy of `like` (the in-place transforms).
/// Made with the GIL; data() and finish() run without it.
template <class T>
class Result {
 public:
  Result(const Context& ctx, const ArrayIn& like, const std::vector<std::size_t>& shape, const char* fn,
         bool copy_of_like = false);
  T* data() { return on_device_ ? device_ : static_cast<T*>(words_->data()); }
  void finish();
  nb::object array;

 private:
  Context ctx_;
  std::size_t count_ = 0;
  bool on_device_ = false;
  T* host_ = nullptr;      // a host result's NumPy storage
  T* device_ = nullptr;    // a device result's storage
  CudaArray held_;         // the device result as imported (keeps the capsule)
  std::optional<ContextWords> words_;
};
extern template class Result<std::uint32_t>;
extern template class Result<std::uint64_t>;
extern template class Result<double>;

/// Runs `f` without the GIL (the library's exceptions are translated after).
template <class F>
void without_gil(F&& f) {
  nb::gil_scoped_release release;
  f();
}

}  // namespace mpgpu::py
