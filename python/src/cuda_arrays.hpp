// Arrays in CUDA device memory (CuPy, PyTorch, Numba, anything with DLPack or
// the CUDA Array Interface), described for reading in place on a CUDA
// context: no copy through the host. DLPack producers are asked for their
// capsule with the context's stream, so that they order their pending work
// before it (the DLPack protocol's `stream` argument); a CUDA Array
// Interface names the stream its data is ready on (version 3's `stream`),
// which the reader then waits for. mpgpu.Batch reads its limbs this way.
#pragma once

#include "common.hpp"

#include <nanobind/ndarray.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mpgpu::py {

/// What an array on a CUDA device is to a reader.
enum class CudaArrayKind {
  none,            // not on a CUDA device (or not an array): the host paths take it
  dlpack,          // __dlpack_device__ says CUDA (or CUDA managed) memory
  interface_only,  // __cuda_array_interface__ and no DLPack
};
CudaArrayKind cuda_array_kind(nb::handle obj);

/// An array on a CUDA device, held alive while it is read.
struct CudaArray {
  const void* data = nullptr;             // device address of element 0 (any byte offset applied)
  nb::dlpack::dtype dtype{};
  bool native_order = true;               // false: a CUDA Array Interface typestr of the other byte order
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;      // in elements
  /// The stream on which the data is ready: nullptr for the context's own
  /// (DLPack: the producer ordered its work before it), else the CUDA Array
  /// Interface's (1 and 2 are CUDA's legacy and per-thread default streams,
  /// as cudaStreamLegacy and cudaStreamPerThread).
  Stream ready_on = nullptr;
  nb::ndarray<nb::ro> dlpack;             // the DLPack export, freed with this
  nb::object owner;                       // or the CUDA Array Interface's producer
};

/// obj's data for reading on ctx (a CUDA context) without a host copy. Raises
/// ValueError (named `fn`) for an array on another device than the
/// context's, a malformed CUDA Array Interface (a mask, strides that are not
/// whole elements, stream 0) or a capsule nanobind cannot read. The device of
/// an interface-only array is not stated by the interface: the library
/// checks its pointer (Batch::from_device_limbs).
CudaArray import_cuda_array(nb::handle obj, const Context& ctx, const std::string& fn);

/// A DLPack stride (in elements) of items of `item_bytes` as its producer
/// meant it. CuPy up to 14.2 (cupy/cupy#10172, fixed by PR #10228) exports
/// its strides as the signed byte stride divided by the unsigned item size,
/// so a negative stride (a reversed view) arrives as
/// (2^64 + bytes) / item_bytes: a stride whose length in bytes does not fit
/// an int64, which no array can have. Such a stride is read back modulo 2^64
/// (-1 for a reversed uint64 view); any other stride is returned as it is.
std::int64_t signed_stride(std::int64_t elements, std::size_t item_bytes);

/// "uint64", "int32", "float64", ... for messages.
std::string dtype_text(const nb::dlpack::dtype& dt);

}  // namespace mpgpu::py
