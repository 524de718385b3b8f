// Launchers of the base-2^k text maps (include/mpgpu/device/pow2_digits.cuh).
#include <algorithm>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/scoped_memory.cuh"
#include "cuda/result_words.cuh"
#include "mpgpu/device/pow2_digits.cuh"

namespace mpgpu::detail::cuda {

namespace {
unsigned blocks_for(std::size_t items) {
  return static_cast<unsigned>(std::clamp<std::size_t>((items + 255) / 256, 1, std::size_t{1} << 16));
}
}  // namespace

void pow2_to_text(ContextState& st, Stream s, char* out, Operand a, std::size_t digits, int k,
                  const device::Pow2Alphabet& alphabet) {
  use_device(st.device);
  order_after_context(st, s);  // operands may be in flight on the context's stream
  if (digits == 0) return;
  ScopedDeviceMemory text(st, s, digits);
  const std::size_t runs = (digits + device::kPow2TextRun - 1) / device::kPow2TextRun;
  device::pow2_to_text_kernel<><<<blocks_for(runs), 256, 0, s>>>(text.as<char>(), a.limbs, a.size, digits, k,
                                                               alphabet);
  MPGPU_CHECK_LAUNCH("pow2_to_text_kernel");
  copy_to_host(st, s, out, text.p, digits);
}

void pow2_from_text(ContextState& st, Stream s, limb_t* r, std::size_t limbs, const char* text, std::size_t len,
                    int k, const device::Pow2DigitValues& values) {
  use_device(st.device);
  if (limbs == 0) return;
  ScopedDeviceMemory chars(st, s, len);
  copy_to_device(st, s, chars.p, text, len);
  device::pow2_from_text_kernel<><<<blocks_for(limbs), 256, 0, s>>>(r, limbs, chars.as<char>(), len, k, values);
  MPGPU_CHECK_LAUNCH("pow2_from_text_kernel");
}

}  // namespace mpgpu::detail::cuda
