// Division of a CUDA Integer by one limb through the device scan
// (src/cuda/div_limb.cu), with GMP's signs and roundings: the scan gives
// Q = floor(|n| / d) and R = |n| mod d; tdiv is (sign * Q, sign_n * R);
// floor and ceil, when they round away from zero and R != 0, take Q + 1
// (the device add of one limb) and d - R.
#include <optional>

#include "integer_div_paths.hpp"

namespace mpgpu::detail {

namespace dc = cuda;

limb_t divide_by_limb(Integer* q, Integer* r, const Integer& n, limb_t d, int d_sign, Rounding rd, bool wait,
                      Stream s) {
  const Context& ctx = n.context();
  ContextState& state = detail::ContextAccess::state(ctx);
  const Stream st = ctx.resolve(s);
  const int n_sign = n.sign();
  if (n_sign == 0) {
    if (q) *q = Integer(ctx);
    if (r) *r = Integer(ctx);
    return 0;
  }
  const dc::Operand a = device_operand(n);
  const int q_sign = n_sign * d_sign;
  const bool away = rounds_away(rd, n_sign, d_sign);

  if (!wait && !away && !(q && r)) {  // one result, no correction: nothing waits
    if (q) {
      DeviceResult out(ctx, st, a.size, q, {&n});
      out.commit(*q, dc::divrem_limb(state, st, out.get(), nullptr, a, d, false), q_sign);
    } else {
      DeviceResult out(ctx, st, 1, r, {&n});
      out.commit(*r, dc::divrem_limb(state, st, nullptr, out.get(), a, d, true), n_sign);
    }
    return 0;
  }

  // The quotient buffer is the destination's own only when no Q + 1 can
  // follow (that goes to a new buffer, which then becomes q).
  std::optional<DeviceResult> qbuf, rbuf;
  if (q) qbuf.emplace(ctx, st, a.size, away ? nullptr : q, std::initializer_list<const Integer*>{&n});
  if (r) rbuf.emplace(ctx, st, 1, r, std::initializer_list<const Integer*>{&n});
  dc::Deferred deferred = dc::divrem_limb(state, st, q ? qbuf->get() : nullptr, r ? rbuf->get() : nullptr, a, d,
                                        /*publish_remainder_size=*/q == nullptr);
  const std::uint64_t* words = deferred->wait();
  const std::size_t q_size = q ? words[device::kSlotSize] : 0;
  const limb_t rem = words[device::kSlotFound];

  if (!away || rem == 0) {
    if (q) qbuf->commit(*q, q_size, q_sign);
    if (r) rbuf->commit(*r, rem ? 1 : 0, n_sign);
    return rem;
  }
  // Rounding away from zero: |q| = Q + 1, |r| = d - R (nonzero), with the
  // divisor's sign for floor and the opposite for ceil.
  if (r) {
    const limb_t complement = d - rem;
    dc::copy_to_device(state, st, rbuf->get(), &complement, sizeof complement);
  }
  if (q) {
    if (q_size == 0) {  // |n| < d: Q + 1 = 1
      const limb_t one = 1;
      dc::copy_to_device(state, st, qbuf->get(), &one, sizeof one);
      qbuf->commit(*q, 1, q_sign);
    } else {
      DeviceResult plus_one(ctx, st, q_size + 1, q, {&n});
      plus_one.commit(*q, dc::add_abs_scalar(state, st, plus_one.get(), {qbuf->get(), q_size}, 1), q_sign);
      // qbuf frees its buffer in stream order, after the addition read it.
    }
  }
  if (r) rbuf->commit(*r, 1, rd == Rounding::floor ? d_sign : -d_sign);
  return rem;
}

limb_t remainder_by_limb(const Integer& n, limb_t d, Stream s) {
  if (n.size() == 0) return 0;
  const Context& ctx = n.context();
  const Stream st = ctx.resolve(s);
  dc::Deferred deferred =
      dc::divrem_limb(detail::ContextAccess::state(ctx), st, nullptr, nullptr, device_operand(n), d, true);
  return deferred->wait()[device::kSlotFound];
}

}  // namespace mpgpu::detail
