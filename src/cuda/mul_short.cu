// Launcher of the column products (include/mpgpu/device/mul_short.cuh):
// column words into three vectors, then the column sum and scan add of
// reduce.cu resolve every carry.
#include <algorithm>
#include <stdexcept>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/contracts.hpp"
#include "cuda/result_words.cuh"
#include "cuda/scoped_memory.cuh"
#include "mpgpu/device/mul_short.cuh"
#include "mpgpu/limb/smem_limit.cuh"

namespace mpgpu::detail::cuda {

static_assert(kMulShortMaxLimbs == device::kMulShortMaxLimbs);
static_assert(kMulSchoolbookMaxLimbs == device::kMulSchoolbookMaxLimbs);

Deferred mul_columns(ContextState& st, Stream s, limb_t* r, Operand a, Operand b) {
  contract::mul_columns(r, a, b);
  use_device(st.device);
  order_after_context(st, s);  // operands may be in flight on the context's stream
  if (b.size > a.size) std::swap(a, b);
  const std::size_t n = a.size + b.size;  // n - 1 columns
  ScopedDeviceMemory words(st, s, 3 * n * sizeof(limb_t));  // lo (n - 1), mid (n), top (n + 1)
  limb_t* const lo = words.as<limb_t>();
  limb_t* const mid = lo + (n - 1);
  limb_t* const top = mid + n;
  if (b.size <= kMulShortMaxLimbs) {
    const std::size_t blocks = std::min<std::size_t>((n - 1 + 255) / 256, 4096);
    device::mul_short_columns_kernel<<<static_cast<unsigned>(blocks), 256, 0, s>>>(
        lo, mid, top, a.limbs, a.size, b.limbs, static_cast<int>(b.size));
    MPGPU_CHECK_LAUNCH("mul_short_columns_kernel");
  } else {
    if (b.size > kMulSchoolbookMaxLimbs) throw std::logic_error("mpgpu: internal: mul_columns of a long b");
    // A warp per column; at most ~8 resident blocks a SM on 132 SMs, striding.
    constexpr std::size_t kWarps = device::kMulColumnsThreads / 32;
    const std::size_t blocks = std::min<std::size_t>((n - 1 + kWarps - 1) / kWarps, 2048);
    const std::size_t smem = b.size * sizeof(limb_t);
    MPGPU_CUDA_CHECK(limb::allow_dynamic_smem(device::mul_columns_warp_kernel, smem));
    device::mul_columns_warp_kernel<<<static_cast<unsigned>(blocks), device::kMulColumnsThreads,
                                      smem, s>>>(lo, mid, top, a.limbs, a.size, b.limbs, b.size);
    MPGPU_CHECK_LAUNCH("mul_columns_warp_kernel");
  }
  const Operand terms[3] = {{lo, n - 1}, {mid, n}, {top, n + 1}};
  return sum_abs(st, s, r, terms, 3);  // the buffers are freed in stream order, after it
}

}  // namespace mpgpu::detail::cuda
