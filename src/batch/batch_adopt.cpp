// Batch::adopt_device_limbs: device memory already in a batch's layout
// becomes a batch's storage without a copy (mpgpu.Batch of a CuPy or
// PyTorch array whose rows are the width class's). The storage's deleter
// holds the caller's keeper, not the memory: the batch never frees it.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "batch_backend.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/batch.hpp"
#include "mpgpu/error.hpp"

namespace mpgpu {
namespace {

[[noreturn]] void invalid(const char* fn, const std::string& why) {
  throw InvalidArgument(std::string("mpgpu::") + fn + ": " + why);
}

/// Releases the keeper of adopted memory once the work queued on the
/// context's stream (which may read the limbs) is done: the memory's owner
/// may hand it to another user the moment it is released.
struct AdoptedDeleter {
  Context ctx;
  std::shared_ptr<void> keeper;
  void operator()(limb_t*) noexcept {
    try {
      detail::cuda::synchronize(ctx.stream());
    } catch (...) {
      // A failed stream (a sticky CUDA error) has nothing left to run.
    }
    keeper.reset();
  }
};

}  // namespace

std::optional<Batch> Batch::adopt_device_limbs(limb_t* device_limbs, std::size_t count, std::size_t bits,
                                               const Context& ctx, std::shared_ptr<void> keeper, Stream s) {
  const char* fn = "Batch::adopt_device_limbs";
  if (bits == 0 || bits > max_bits)
    invalid(fn, "width " + std::to_string(bits) + " bits is out of range (1 to " + std::to_string(max_bits) + ")");
  const std::size_t stride = batch_stride_limbs(bits);
  if (!ctx.is_cuda())
    invalid(fn,
            "the context is the CPU's, and device memory is adopted on a CUDA context (from_limbs copies host "
            "memory)");
  if (ctx.part_count() > 1)
    invalid(fn, "the context spans several devices (" + ctx.describe() +
                    "), and the limbs are in one device's memory: adopt them in that device's context");
  if (count == 0) return Batch(0, bits, stride, ctx, {});
  if (!device_limbs) invalid(fn, "null pointer with count > 0");
  if (reinterpret_cast<std::uintptr_t>(device_limbs) % 16)
    invalid(fn,
            "the limbs are not 16-byte aligned (the batch kernels load 16 bytes at a time; from_device_limbs "
            "copies them)");
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(limb_t) / stride)
    throw Overflow(std::string("mpgpu::") + fn + ": " + std::to_string(count) + " instances of " +
                   std::to_string(stride) + " limbs cannot be addressed");
  // Both ends, so that host memory or another GPU's is refused with a reason.
  const limb_t* first_limb = device_limbs;
  for (const limb_t* p : {first_limb, first_limb + (count * stride - 1)}) {
    const int device = detail::cuda::pointer_device(p);
    if (device != ctx.device())
      invalid(fn, device < 0 ? "the limbs are not in device memory (host memory? from_limbs copies that)"
                             : "the limbs are in the memory of CUDA device " + std::to_string(device) +
                                   ", not of the context's device " + std::to_string(ctx.device()));
  }
  detail::ContextState& st = detail::ContextAccess::state(ctx);
  const Stream stream = ctx.resolve(s);
  detail::cuda::order_after_context(st, stream);
  if (bits < 64 * stride) {
    // The check alone (no destination); it synchronizes `stream`.
    const std::size_t first = detail::batch::cuda::repack_device_limbs(st, stream, nullptr, stride, bits, device_limbs,
                                                                       count, stride, stride);
    if (first < count) return std::nullopt;
  } else {
    detail::cuda::synchronize(stream);
  }
  return Batch(count, bits, stride, ctx, std::shared_ptr<limb_t>(device_limbs, AdoptedDeleter{ctx, std::move(keeper)}));
}

}  // namespace mpgpu
