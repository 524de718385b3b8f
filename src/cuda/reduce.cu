// popcount (CUB device reduction) and the delayed-carry sum of many integers.
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/scoped_memory.cuh"
#include "cuda/words.cuh"
#include "mpgpu/device/column_sum.cuh"
#include "mpgpu/limb/arith.cuh"

namespace mpgpu::detail::cuda {

namespace {
struct LimbPopcount {
  __device__ unsigned long long operator()(limb_t x) const { return limb::popcount(x); }
};

}  // namespace

std::uint64_t popcount(ContextState& st, Stream s, Operand a) {
  OpWords ow(st, s);
  auto in = thrust::make_transform_iterator(a.limbs, LimbPopcount{});
  // CUB writes the total straight into the host-mapped word (no slot is used).
  unsigned long long* out = ow.words().published + kSlotFound;
  std::size_t temp_bytes = 0;
  MPGPU_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, static_cast<std::int64_t>(a.size), s));
  ScopedDeviceMemory temp(st, s, temp_bytes ? temp_bytes : 1);
  MPGPU_CUDA_CHECK(cub::DeviceReduce::Sum(temp.p, temp_bytes, in, out, static_cast<std::int64_t>(a.size), s));
  return ow.wait_stream()[kSlotFound];
}

Pending sum_abs(ContextState& st, Stream s, limb_t* r, const Operand* terms, std::size_t count) {
  use_device(st.device);
  std::size_t width = 0;
  for (std::size_t j = 0; j < count; ++j) width = std::max(width, terms[j].size);
  if (width == 0) return nullptr;
  device::ColumnTerms pass{};
  pass.count = count;
  // Few terms (products by columns, most sums) travel in the launch's
  // parameters; a copy to the device would make the host wait for the stream.
  std::optional<ScopedDeviceMemory> spilled;
  if (count > device::ColumnTerms::kInline) {
    std::vector<device::ColumnTerm> host_terms(count);
    for (std::size_t j = 0; j < count; ++j) host_terms[j] = {terms[j].limbs, terms[j].size};
    spilled.emplace(st, s, count * sizeof(device::ColumnTerm));
    copy_to_device(st, s, spilled->p, host_terms.data(), count * sizeof(device::ColumnTerm));
    pass.spilled = spilled->as<device::ColumnTerm>();
  } else {
    for (std::size_t j = 0; j < count; ++j) pass.inline_terms[j] = {terms[j].limbs, terms[j].size};
  }
  ScopedDeviceMemory words(st, s, (2 * width + 1) * sizeof(limb_t));  // lo, then hi
  limb_t* const lo = words.as<limb_t>();
  limb_t* const hi = lo + width;
  device::column_sum_kernel<<<static_cast<unsigned>((width + 255) / 256), 256, 0, s>>>(lo, hi, pass, width);
  MPGPU_CHECK_LAUNCH("column_sum_kernel");
  // r = hi + lo; hi has width + 1 limbs (need not be normalized: the scan
  // add reports the size of what it writes).
  return add_abs(st, s, r, {hi, width + 1}, {lo, width});
}

}  // namespace mpgpu::detail::cuda
