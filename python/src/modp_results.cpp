// The result arrays of mpgpu.ntt and mpgpu.dot (modp_arrays.hpp, Result):
// a NumPy array for host inputs; for CUDA inputs an array of the inputs'
// framework (CuPy or PyTorch, made by mpgpu/_device_arrays.py) on their
// device, written in place by the library, so that nothing passes through
// the host and the memory belongs to the framework that hands it out.
#include "modp_arrays.hpp"

#include <cstring>
#include <type_traits>

namespace mpgpu::py {

namespace {

template <class T>
constexpr Word word_of() {
  return sizeof(T) == 4 ? Word::u32 : std::is_floating_point_v<T> ? Word::f64 : Word::u64;
}

/// The framework's new array is what was asked for: C-contiguous words of T.
template <class T>
void check_made(const CudaArray& a, const std::vector<std::size_t>& shape, const char* fn) {
  bool ok = a.dtype == nb::dtype<T>() && a.native_order && a.shape.size() == shape.size();
  std::int64_t expect = 1;
  for (std::size_t i = shape.size(); ok && i-- > 0;) {
    ok = static_cast<std::size_t>(a.shape[i]) == shape[i] && (shape[i] <= 1 || a.strides[i] == expect);
    expect *= static_cast<std::int64_t>(shape[i]);
  }
  if (!ok) throw Error(std::string(fn) + ": the result array made on the device is not a C-contiguous " +
                       word_name(word_of<T>()) + " array of the shape asked for");
}

}  // namespace

template <class T>
Result<T>::Result(const Context& ctx, const ArrayIn& like, const std::vector<std::size_t>& shape, const char* fn,
                  bool copy_of_like)
    : ctx_(ctx) {
  count_ = 1;
  for (std::size_t d : shape) count_ *= d;
  if (like.on_device) {
    nb::module_ helper = nb::module_::import_("mpgpu._device_arrays");
    nb::list dims;
    for (std::size_t d : shape) dims.append(d);
    array = copy_of_like ? helper.attr("copy")(like.object)
                         : helper.attr("empty")(like.object, nb::tuple(dims), word_name(word_of<T>()));
    // Asked for with the context's stream: the framework's allocation (and
    // copy) on its own stream come before what the library queues.
    held_ = import_cuda_array(array, ctx, fn);
    check_made<T>(held_, shape, fn);
    device_ = static_cast<T*>(const_cast<void*>(held_.data));
    on_device_ = true;
    return;
  }
  NewArray<T> out = new_numpy<T>(shape);
  array = out.array;
  host_ = out.data;
  nb::gil_scoped_release release;
  const std::size_t bytes = count_ * sizeof(T);
  if (copy_of_like && bytes) std::memcpy(host_, like.data(), bytes);
  // On a CUDA context the words are computed on the device: uploaded when
  // they start as the input, else uninitialized there.
  words_.emplace(ctx, copy_of_like || !ctx.is_cuda() ? host_ : nullptr, bytes);
}

template <class T>
void Result<T>::finish() {
  if (on_device_) {
    ctx_.synchronize();  // the result is then ready on any stream its framework reads it from
    return;
  }
  words_->download(host_, count_ * sizeof(T));
}

template class Result<std::uint32_t>;
template class Result<std::uint64_t>;
template class Result<double>;

}  // namespace mpgpu::py
