// What ntt_binding.cpp (mpgpu.ntt) and dot_binding.cpp (mpgpu.dot) share:
// reading a NumPy (or DLPack, buffer protocol) array of residues with its
// dtype, shape and strides checked, the modulus argument, new NumPy arrays
// for results, and words in a context's memory (a device copy on a CUDA
// context, the host array itself on the CPU context).
#pragma once

#include "common.hpp"

#include <nanobind/ndarray.h>

#include <cstdint>
#include <initializer_list>
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
  nb::ndarray<nb::ro> array;
  nb::object host_copy;  ///< a host copy of a CUDA array, when one was made
  Word word = Word::u64;
  std::vector<std::size_t> shape;
  std::vector<std::int64_t> strides;

  const void* data() const { return array.data(); }
  std::size_t ndim() const { return shape.size(); }
  std::size_t size() const;  ///< product of the shape
  /// Row-major with no gaps (a size of 0 or 1 counts as contiguous).
  bool c_contiguous() const;
  /// "(3, 4)" (Python's tuple text).
  std::string shape_text() const;
};

/// Reads `obj` as an array whose dtype is one of `allowed`: TypeError for
/// anything else (a list, another dtype, non-native byte order), with the
/// fix in the message. An array on a CUDA device is read through the host
/// (numpy.from_dlpack with device="cpu", else its .get()).
/// `fn` and `name` name the argument in messages ("mpgpu.ntt.forward", "a").
ArrayIn array_arg(nb::handle obj, const char* fn, const char* name, std::initializer_list<Word> allowed);

/// ValueError unless the array is C-contiguous.
void require_contiguous(const ArrayIn& a, const char* fn, const char* name);

/// ValueError naming the first element >= p (as "a[2][5] = 19"); u32/u64 only.
/// Runs without the GIL.
void require_residues(const ArrayIn& a, std::uint64_t p, const char* fn, const char* name);

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

/// Words in a context's memory. On the CPU context this is the host pointer
/// given, nothing copied. On a CUDA context a device copy of `bytes` bytes
/// from `host` (or uninitialized when host is nullptr), held by a Batch:
/// the public API offers no other device allocation. Use without the GIL.
class ContextWords {
 public:
  ContextWords(const Context& ctx, const void* host, std::size_t bytes);
  void* data() { return device_ ? static_cast<void*>(storage_.data()) : const_cast<void*>(host_); }
  /// Copies the first `bytes` bytes back to `host` (CUDA context; nothing on the CPU).
  void download(void* host, std::size_t bytes) const;

 private:
  const void* host_ = nullptr;
  bool device_ = false;
  Batch storage_;
};

/// Runs `f` without the GIL (the library's exceptions are translated after).
template <class F>
void without_gil(F&& f) {
  nb::gil_scoped_release release;
  f();
}

}  // namespace mpgpu::py
