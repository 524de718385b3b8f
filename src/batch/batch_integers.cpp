// Batch::to_integers: every instance as an Integer. Between a CUDA batch and
// a CUDA context of one device the values never leave the device: two
// kernels (batch_integers.cu) and one allocation a value; otherwise (another
// device, the CPU, a batch split over several devices: gathered in instance
// order) the limbs go through host memory once, all together.
#include <string>
#include <vector>

#include "batch_backend.hpp"
#include "context/context_state.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/batch.hpp"
#include "mpgpu/error.hpp"

namespace mpgpu {

std::vector<Integer> Batch::to_integers(const Context& ctx, InstanceSign sign) const {
  const char* fn = "mpgpu::Batch::to_integers: ";
  if (ctx.part_count() > 1)
    throw InvalidArgument(std::string(fn) + "the target context spans several devices (" + ctx.describe() +
                          "); an Integer lives on one device");
  const bool twos = sign == InstanceSign::twos_complement;
  std::vector<Integer> out;
  out.reserve(count_);
  if (count_ == 0) return out;
  const std::size_t limbs = limbs_per_instance();
  if (!parts_ && ctx_.is_cuda() && ctx.is_cuda() && ctx_.device() == ctx.device()) {
    detail::ContextState& from = detail::ContextAccess::state(ctx_);
    detail::ContextState& into = detail::ContextAccess::state(ctx);
    const Stream s = ctx_.stream();
    std::vector<std::uint64_t> records(count_);
    detail::batch::cuda::instance_records(from, s, data_.get(), count_, stride_limbs_, bits_, twos, records.data());
    // Each value's buffer, then (with every buffer allocated) one kernel
    // fills them all; a failure frees what was allocated.
    std::vector<limb_t*> buffers(count_, nullptr);
    try {
      for (std::size_t i = 0; i < count_; ++i) {
        const std::size_t n = detail::batch::instance_record_size(records[i]);
        buffers[i] = static_cast<limb_t*>(detail::cuda::allocate(into, s, (n ? n : 1) * sizeof(limb_t)));
      }
      detail::batch::cuda::write_magnitudes(from, s, data_.get(), count_, stride_limbs_, bits_, records.data(),
                                            buffers.data());
    } catch (...) {
      for (limb_t* p : buffers)
        if (p) detail::cuda::deallocate(into, s, p);
      throw;
    }
    for (std::size_t i = 0; i < count_; ++i) {
      const std::size_t n = detail::batch::instance_record_size(records[i]);
      Integer x(ctx);
      detail::IntegerAccess::adopt_device(x, ctx, buffers[i], n ? n : 1, n,
                                          n == 0 ? 0 : detail::batch::instance_record_negative(records[i]) ? -1 : 1);
      out.push_back(std::move(x));
    }
    return out;
  }
  const std::vector<limb_t> all = to_limbs();
  std::vector<limb_t> negated(limbs);
  for (std::size_t i = 0; i < count_; ++i) {
    const limb_t* x = all.data() + i * limbs;
    const bool negative = twos && ((x[limbs - 1] >> ((bits_ - 1) % 64)) & 1);
    if (!negative) {
      out.push_back(Integer::from_limbs(x, limbs, 1, ctx));
      continue;
    }
    // -x within the width: ~x + 1, the top limb masked to the width.
    limb_t carry = 1;
    for (std::size_t j = 0; j < limbs; ++j) {
      negated[j] = ~x[j] + carry;
      carry = carry && negated[j] == 0;
    }
    if (bits_ % 64) negated[limbs - 1] &= (limb_t{1} << (bits_ % 64)) - 1;
    out.push_back(Integer::from_limbs(negated.data(), limbs, -1, ctx));
  }
  return out;
}

}  // namespace mpgpu
