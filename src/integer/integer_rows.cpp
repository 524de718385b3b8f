// Rows of slots over Integers (see integer_rows.hpp).
#include "integer_rows.hpp"

#include <stdexcept>
#include <vector>

#include "integer_internal.hpp"
#include "mpgpu/device/slot_rows.cuh"

namespace mpgpu::detail {

namespace {

namespace dc = cuda;

/// The limbs and size of x's magnitude, wherever it lives.
struct LimbView {
  const limb_t* limbs;
  std::size_t size;
};
LimbView view_of(const Integer& x) {
  if (x.context().is_cuda()) return {detail::IntegerAccess::device_data(x), x.size()};
  return {mpz_limbs_read(detail::IntegerAccess::cpu_mpz(x)), mpz_size(detail::IntegerAccess::cpu_mpz(x))};
}

/// Runs fill(out) over a fresh vector of n limbs of x's context and makes
/// it x's value (nonnegative, normalized).
template <class FillDevice, class FillHost>
void make_row(Integer& x, const Context& ctx, std::size_t n, Stream s, FillDevice fill_device, FillHost fill_host) {
  if (ctx.is_cuda()) {
    const Stream st = ctx.resolve(s);
    DeviceResult out(ctx, st, n);
    fill_device(out.get(), st);
    const std::size_t size = dc::normalized_size(detail::ContextAccess::state(ctx), st, {out.get(), n});
    out.commit(x, size, size ? 1 : 0);
    return;
  }
  mpz_t z;
  mpz_init(z);
  try {
    limb_t* w = mpz_limbs_write(z, static_cast<mp_size_t>(n ? n : 1));
    fill_host(w);
    mpz_limbs_finish(z, static_cast<mp_size_t>(n));
  } catch (...) {
    mpz_clear(z);
    throw;
  }
  if (x.context() != ctx) x = Integer(ctx);
  mpz_swap(detail::IntegerAccess::cpu_mpz(x), z);
  mpz_clear(z);
  detail::IntegerAccess::refresh_cpu_meta(x);
}

}  // namespace

void gather_slots(Integer& dst, std::size_t slots, std::size_t pitch, std::initializer_list<RowField> fields,
                  Stream s) {
  const int groups = static_cast<int>(fields.size());
  if (groups < 1 || groups > 2) throw std::logic_error("mpgpu: internal: gather_slots takes one or two fields");
  const Context& ctx = fields.begin()->src->context();
  device::SlotSource sources[2] = {};
  int g = 0;
  for (const RowField& f : fields) {
    if (f.width > pitch) throw std::logic_error("mpgpu: internal: a slot field wider than the slot");
    const LimbView v = view_of(*f.src);
    sources[g++] = {v.limbs, v.size, f.stride, f.extent, f.bit_offset, f.width};
  }
  const std::size_t n = slots * pitch;
  make_row(
      dst, ctx, n, s,
      [&](limb_t* out, Stream st) {
        dc::gather_slots(detail::ContextAccess::state(ctx), st, out, slots, pitch, sources, groups);
      },
      [&](limb_t* out) {
        for (std::size_t sl = 0; sl < slots; ++sl)
          for (std::size_t l = 0; l < pitch; ++l) out[sl * pitch + l] = device::gathered_limb(sources, groups, sl, l);
      });
}

bool correct_slots(Integer& r, Integer& c, const Integer& t, std::size_t slots, std::size_t pitch, Stream s) {
  const Context& ctx = t.context();
  const LimbView rv = view_of(r), tv = view_of(t), cv = view_of(c);
  const std::size_t n = slots * pitch;
  bool any = false;
  Integer r_out(ctx), c_out(ctx);
  if (ctx.is_cuda()) {
    // Both outputs from one kernel: r_out by make_row, c_out's buffer alongside.
    const Stream st = ctx.resolve(s);
    DeviceResult counts(ctx, st, n);
    make_row(
        r_out, ctx, n, s,
        [&](limb_t* out, Stream st2) {
          any = dc::correct_slots(detail::ContextAccess::state(ctx), st2, out, counts.get(), {rv.limbs, rv.size},
                                  {tv.limbs, tv.size}, {cv.limbs, cv.size}, slots, pitch);
        },
        [](limb_t*) {});
    const std::size_t size = dc::normalized_size(detail::ContextAccess::state(ctx), st, {counts.get(), n});
    counts.commit(c_out, size, size ? 1 : 0);
  } else {
    std::vector<limb_t> counts(n);
    make_row(
        r_out, ctx, n, s, [](limb_t*, Stream) {},
        [&](limb_t* out) {
          for (std::size_t sl = 0; sl < slots; ++sl)
            for (std::size_t l = 0; l < pitch; ++l) {
              bool stepped = false;
              out[sl * pitch + l] = device::corrected_limb(rv.limbs, rv.size, tv.limbs, tv.size, cv.limbs, cv.size,
                                                           pitch, sl, l, &counts[sl * pitch + l], &stepped);
              any |= stepped;
            }
        });
    make_row(
        c_out, ctx, n, s, [](limb_t*, Stream) {}, [&](limb_t* out) { std::copy(counts.begin(), counts.end(), out); });
  }
  r = std::move(r_out);
  c = std::move(c_out);
  return any;
}

}  // namespace mpgpu::detail
