// Launchers of the row maps (include/mpgpu/device/slot_rows.cuh).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/scoped_memory.cuh"
#include "cuda/result_words.cuh"
#include "mpgpu/device/slot_rows.cuh"

namespace mpgpu::detail::cuda {

namespace {
/// Blocks for slots * ceil(pitch / kSlotRowThreads) tiles; the kernels stride.
unsigned blocks_for(std::size_t slots, std::size_t pitch) {
  const std::size_t tiles = slots * ((pitch + device::kSlotRowThreads - 1) / device::kSlotRowThreads);
  return static_cast<unsigned>(std::clamp<std::size_t>(tiles, 1, std::size_t{1} << 20));
}
}  // namespace

void gather_slots(ContextState& st, Stream s, limb_t* dst, std::size_t slots, std::size_t pitch,
                  const device::SlotSource* sources, int groups) {
  use_device(st.device);
  order_after_context(st, s);  // operands may be in flight on the context's stream
  if (slots == 0 || pitch == 0) return;
  if (groups < 1 || groups > 2) throw std::logic_error("mpgpu: internal: gather_slots of " + std::to_string(groups) + " sources");
  device::SlotSources by_value{};
  for (int g = 0; g < groups; ++g) by_value.s[g] = sources[g];
  device::gather_slots_kernel<><<<blocks_for(slots, pitch), device::kSlotRowThreads, 0, s>>>(dst, slots, pitch,
                                                                                          by_value, groups);
  MPGPU_CHECK_LAUNCH("gather_slots_kernel");
}

bool correct_slots(ContextState& st, Stream s, limb_t* r_out, limb_t* c_out, Operand r, Operand t, Operand c,
                   std::size_t slots, std::size_t pitch) {
  use_device(st.device);
  order_after_context(st, s);  // operands may be in flight on the context's stream
  if (slots == 0 || pitch < 2) throw std::logic_error("mpgpu: internal: correct_slots needs slots and pitch >= 2");
  ScopedDeviceMemory any(st, s, sizeof(unsigned));
  MPGPU_CUDA_CHECK(cudaMemsetAsync(any.p, 0, sizeof(unsigned), s));
  device::correct_slots_kernel<><<<blocks_for(slots, pitch), device::kSlotRowThreads, 0, s>>>(
      r_out, c_out, r.limbs, r.size, t.limbs, t.size, c.limbs, c.size, slots, pitch, any.as<unsigned>());
  MPGPU_CHECK_LAUNCH("correct_slots_kernel");
  unsigned stepped = 0;
  copy_to_host(st, s, &stepped, any.p, sizeof stepped);
  return stepped != 0;
}

}  // namespace mpgpu::detail::cuda
