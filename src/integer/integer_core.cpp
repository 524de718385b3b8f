// Integer: storage, copies, moves, and conversions from and to host data.
// Conversions run through GMP on the host (mpz import/export, strings); a
// device-side radix conversion is a later module.
#include <algorithm>
#include <cstring>
#include <limits>
#include <mutex>
#include <utility>

#include "integer_internal.hpp"

namespace mpgpu {

using detail::DeviceResult;

Integer::Integer() : Integer(Context::default_context()) {}

Integer::Integer(const Context& ctx) : ctx_(ctx) { mpz_init(cpu_); }

Integer::Integer(const Integer& other) : ctx_(other.ctx_) {
  mpz_init(cpu_);
  *this = other;
}

Integer::Integer(Integer&& other) noexcept : ctx_(other.ctx_) {
  mpz_init(cpu_);
  mpz_swap(cpu_, other.cpu_);
  std::swap(sign_, other.sign_);
  std::swap(size_, other.size_);
  std::swap(dev_, other.dev_);
  std::swap(dev_capacity_, other.dev_capacity_);
  std::swap(deferred_, other.deferred_);
  swap_placement(other);
}

Integer& Integer::operator=(const Integer& other) {
  if (this == &other) return *this;
  if (!detail::IntegerAccess::host_valid(other)) {
    const std::size_t n = other.size();
    DeviceResult r(other.ctx_, nullptr, n);
    if (n)
      detail::cuda::copy_on_device(detail::ContextAccess::state(other.ctx_), other.ctx_.stream(), r.get(), other.dev_,
                                   n * sizeof(limb_t));
    r.commit(*this, n, other.sign_);  // takes other's context
  } else {
    release_device();
    ctx_ = other.ctx_;
    mpz_set(cpu_, other.cpu_);
    refresh_cpu_meta();
  }
  return *this;
}

Integer& Integer::operator=(Integer&& other) noexcept {
  if (this == &other) return *this;
  std::swap(ctx_, other.ctx_);
  mpz_swap(cpu_, other.cpu_);
  std::swap(sign_, other.sign_);
  std::swap(size_, other.size_);
  std::swap(dev_, other.dev_);
  std::swap(dev_capacity_, other.dev_capacity_);
  std::swap(deferred_, other.deferred_);
  swap_placement(other);
  return *this;
}

Integer::~Integer() {
  release_device();
  mpz_clear(cpu_);
}

void Integer::settle() const {
  // Read first: if the device reports an error, the value stays deferred and
  // the next query reports it again.
  const std::uint64_t* w = deferred_->words->wait();
  size_ = w[device::kSlotSize];
  sign_ = size_ == 0 ? 0
                     : (detail::cuda::order_of(w) < 0 ? deferred_->sign_if_reversed : deferred_->sign_if_ordered);
  deferred_.reset();
}

void Integer::adopt_deferred(std::unique_ptr<detail::DeferredSize> deferred) {
  set_placement(Placement::device);
  deferred_ = std::move(deferred);
  size_ = 0;
  sign_ = 0;
}

void detail::IntegerAccess::adopt_deferred(Integer& x, std::unique_ptr<DeferredSize> deferred) {
  x.adopt_deferred(std::move(deferred));
}

void Integer::adopt_device_size(std::size_t size) {
  set_placement(Placement::device);  // the device limbs were changed in place
  deferred_.reset();
  size_ = size;
  if (!size) sign_ = 0;
}

void Integer::release_device() {
  if (dev_) detail::cuda::deallocate(detail::ContextAccess::state(ctx_), ctx_.stream(), dev_);
  dev_ = nullptr;
  dev_capacity_ = 0;
}

void Integer::adopt_device(const Context& ctx, limb_t* limbs, std::size_t capacity, std::size_t size,
                           int sign) {
  release_device();  // with the old context's stream
  ctx_ = ctx;
  mpz_set_ui(cpu_, 0);
  deferred_.reset();
  dev_ = limbs;
  dev_capacity_ = capacity;
  size_ = size;
  sign_ = size ? sign : 0;
  set_placement(Placement::device);
}

namespace {
/// One lock for every upload: several threads may read one host value, and
/// only the first copies it up (uploads happen once a value, so the lock is
/// rarely contended). The others see placement both, with dev_ written.
std::mutex g_upload_mutex;
}  // namespace

limb_t* detail::IntegerAccess::upload_buffer(const Integer& x) {
  const std::size_t n = x.size_;
  if (n > x.dev_capacity_ || (x.dev_ && x.dev_capacity_ > 4 * n + 64)) {
    limb_t* fresh = static_cast<limb_t*>(
        detail::cuda::allocate(detail::ContextAccess::state(x.ctx_), x.ctx_.stream(), (n ? n : 1) * sizeof(limb_t)));
    if (x.dev_) detail::cuda::deallocate(detail::ContextAccess::state(x.ctx_), x.ctx_.stream(), x.dev_);
    x.dev_ = fresh;
    x.dev_capacity_ = n ? n : 1;
  }
  return x.dev_;
}

void Integer::upload_to_device() const {
  std::lock_guard<std::mutex> lock(g_upload_mutex);
  if (placement_.load(std::memory_order_acquire) != Placement::host) return;
  limb_t* const buffer = detail::IntegerAccess::upload_buffer(*this);
  if (size_)
    detail::cuda::copy_to_device(detail::ContextAccess::state(ctx_), ctx_.stream(), buffer, mpz_limbs_read(cpu_),
                                 size_ * sizeof(limb_t));
  set_placement(Placement::both);
}

void detail::IntegerAccess::upload_many(std::span<const Integer* const> values) {
  std::vector<const Integer*> host_kept;
  host_kept.reserve(values.size());
  for (const Integer* x : values)
    if (x && x->ctx_.is_cuda() && x->placement_.load(std::memory_order_acquire) == Integer::Placement::host)
      host_kept.push_back(x);
  if (host_kept.empty()) return;
  std::sort(host_kept.begin(), host_kept.end());
  host_kept.erase(std::unique(host_kept.begin(), host_kept.end()), host_kept.end());
  const Context& ctx = host_kept.front()->ctx_;
  for (const Integer* x : host_kept) detail::require_same_context("upload", *host_kept.front(), *x);
  std::lock_guard<std::mutex> lock(g_upload_mutex);
  std::vector<detail::cuda::HostLimbs> pieces;
  std::vector<const Integer*> uploaded;
  pieces.reserve(host_kept.size());
  uploaded.reserve(host_kept.size());
  for (const Integer* x : host_kept) {
    if (x->placement_.load(std::memory_order_acquire) != Integer::Placement::host) continue;  // another thread's
    limb_t* const buffer = upload_buffer(*x);
    if (x->size_) pieces.push_back({buffer, reinterpret_cast<const limb_t*>(mpz_limbs_read(x->cpu_)), x->size_});
    uploaded.push_back(x);
  }
  detail::cuda::copy_pieces_to_device(detail::ContextAccess::state(ctx), ctx.stream(), pieces.data(), pieces.size());
  for (const Integer* x : uploaded) x->set_placement(Integer::Placement::both);
}

void Integer::negate() {
  if (host_valid()) mpz_neg(cpu_, cpu_);
  sign_ = -sign_;
  if (deferred_) {
    deferred_->sign_if_ordered = -deferred_->sign_if_ordered;
    deferred_->sign_if_reversed = -deferred_->sign_if_reversed;
  }
}

void Integer::drop_device_copy() {
  deferred_.reset();
  release_device();
  set_placement(Placement::host);
}

void detail::reset_to_context(Integer& r, const Context& ctx) { r = Integer(ctx); }

void detail::throw_different_contexts(const char* op, const Integer& a, const Integer& b) {
  throw InvalidArgument(std::string("mpgpu::") + op + ": operands belong to different contexts (" +
                        a.context().describe() + " and " + b.context().describe() + "); move one with to_context()");
}

void detail::throw_beyond_gmp(const char* op, std::uint64_t room, const std::string& what) {
  throw Overflow(std::string("mpgpu::") + op + ": " + what + " needs room for " + std::to_string(room) +
                 " limbs, more than a GMP mpz holds (" + std::to_string(kGmpMaxLimbs) +
                 " limbs, about 2^37 bits; GMP would abort the process)");
}

void Integer::assign_int64(std::int64_t v) {
  mpz_t z;
  mpz_init(z);
  // mpz_set_si takes a long, 64 bits on the LP64 targets mpgpu supports.
  static_assert(sizeof(long) == 8, "mpgpu assumes LP64");
  mpz_set_si(z, v);
  *this = from_mpz(z, ctx_);
  mpz_clear(z);
}

void Integer::assign_uint64(std::uint64_t v) {
  mpz_t z;
  mpz_init_set_ui(z, v);
  *this = from_mpz(z, ctx_);
  mpz_clear(z);
}

// ---- between host and device ----------------------------------------------------

void detail::device_to_mpz(const Integer& x, mpz_ptr z) {
  if (detail::IntegerAccess::host_valid(x)) {
    mpz_set(z, detail::IntegerAccess::cpu_mpz(x));
    return;
  }
  // Every host copy of a device value comes here: to_mpz, to_bytes,
  // to_context, and the operations that run through host GMP (HostOperand).
  require_gmp_room("Integer::to_mpz", x.size(), [&] {
    return "a host copy of a device value of " + std::to_string(x.size()) + " limbs";
  });
  if (x.size() == 0) {
    mpz_set_ui(z, 0);
    return;
  }
  limb_t* dst = reinterpret_cast<limb_t*>(mpz_limbs_write(z, static_cast<mp_size_t>(x.size())));
  cuda::copy_to_host(detail::ContextAccess::state(x.context()), x.context().stream(), dst,
                     detail::IntegerAccess::device_data(x), x.size() * sizeof(limb_t));
  mpz_limbs_finish(z, x.sign() < 0 ? -static_cast<mp_size_t>(x.size())
                                   : static_cast<mp_size_t>(x.size()));
}

namespace {

/// r (CUDA context) = sign * the n normalized limbs at host address `limbs`.
void host_limbs_to_device(Integer& r, const limb_t* limbs, std::size_t n, int sign, Stream s) {
  DeviceResult out(r.context(), s, n);
  if (n)
    detail::cuda::copy_to_device(detail::ContextAccess::state(r.context()), r.context().resolve(s), out.get(), limbs,
                                 n * sizeof(limb_t));
  out.commit(r, n, n ? sign : 0);
}

}  // namespace

void detail::mpz_to_device(Integer& r, mpz_srcptr z, Stream s) {
  host_limbs_to_device(r, reinterpret_cast<const limb_t*>(mpz_limbs_read(z)), mpz_size(z), mpz_sgn(z), s);
}

Integer Integer::from_mpz(mpz_srcptr z, const Context& ctx) {
  Integer r(ctx);
  if (ctx.is_cuda() && mpz_size(z) > kHostValueMaxLimbs) {
    detail::mpz_to_device(r, z, nullptr);
  } else {
    mpz_set(r.cpu_, z);
    detail::IntegerAccess::refresh_cpu_meta(r);
  }
  return r;
}

void Integer::to_mpz(mpz_ptr z) const {
  if (!host_valid()) detail::device_to_mpz(*this, z);
  else mpz_set(z, cpu_);
}

Integer Integer::from_limbs(const limb_t* host_limbs, std::size_t count, int sign,
                            const Context& ctx) {
  if (count && !host_limbs) throw InvalidArgument("mpgpu::Integer::from_limbs: null pointer with count > 0");
  while (count && host_limbs[count - 1] == 0) --count;
  if (ctx.is_cuda() && count > kHostValueMaxLimbs) {  // straight to the device: no mpz, no size limit
    Integer r(ctx);
    host_limbs_to_device(r, host_limbs, count, sign < 0 ? -1 : 1, nullptr);
    return r;
  }
  // An mpz's size is an int: mpz_roinit_n would wrap a larger count.
  detail::require_gmp_room("Integer::from_limbs", count,
                           [&] { return std::to_string(count) + " limbs (after leading zero limbs)"; });
  mpz_t z;
  mpz_roinit_n(z, reinterpret_cast<const mp_limb_t*>(host_limbs),
               sign < 0 ? -static_cast<mp_size_t>(count) : static_cast<mp_size_t>(count));
  return from_mpz(z, ctx);
}

Integer Integer::from_device_limbs(const limb_t* device_limbs, std::size_t count, int sign,
                                   const Context& ctx, Stream stream) {
  if (!ctx.is_cuda())
    throw InvalidArgument("mpgpu::Integer::from_device_limbs: the context is not a CUDA context");
  if (count && !device_limbs)
    throw InvalidArgument("mpgpu::Integer::from_device_limbs: null pointer with count > 0");
  Integer r(ctx);
  DeviceResult out(ctx, stream, count);
  if (count)
    detail::cuda::copy_on_device(detail::ContextAccess::state(ctx), ctx.resolve(stream), out.get(), device_limbs,
                                 count * sizeof(limb_t));
  // Normalize: the caller's limbs need not be.
  const std::size_t n =
      count ? detail::cuda::normalized_size(detail::ContextAccess::state(ctx), ctx.resolve(stream), {out.get(), count})
            : 0;
  out.commit(r, n, sign < 0 ? -1 : 1);
  return r;
}

Integer Integer::from_bytes(const void* data, std::size_t count, Endian order, const Context& ctx) {
  if (count && !data) throw InvalidArgument("mpgpu::Integer::from_bytes: null pointer with count > 0");
  // mpz_import reserves a limb for every 8 bytes, leading zero bytes included.
  detail::require_gmp_room("Integer::from_bytes", count / 8 + (count % 8 != 0),
                           [&] { return std::to_string(count) + " bytes"; });
  mpz_t z;
  mpz_init(z);
  mpz_import(z, count, order == Endian::big ? 1 : -1, 1, 0, 0, data);
  Integer r = from_mpz(z, ctx);
  mpz_clear(z);
  return r;
}

std::vector<std::uint8_t> Integer::to_bytes(Endian order) const {
  mpz_t z;
  mpz_init(z);
  to_mpz(z);
  std::vector<std::uint8_t> out((mpz_sizeinbase(z, 2) + 7) / 8);
  if (mpz_sgn(z) == 0) out.clear();
  std::size_t written = 0;
  if (!out.empty()) mpz_export(out.data(), &written, order == Endian::big ? 1 : -1, 1, 0, 0, z);
  out.resize(written);
  mpz_clear(z);
  return out;
}

std::vector<limb_t> Integer::to_limbs() const {
  const std::size_t n = size();
  std::vector<limb_t> out;
  if (!n) return out;
  if (!host_valid()) {
    // The vector zero-fills its fresh pages on this thread before the copy
    // (std::vector cannot skip it): fault them in first, as huge pages, on
    // the copy threads, so that the fill only writes.
    out.reserve(n);
    detail::cuda::prepare_host_destination(detail::ContextAccess::state(ctx_), out.data(), n * sizeof(limb_t));
  }
  out.resize(n);
  to_limbs(out.data(), n);
  return out;
}

std::size_t Integer::to_limbs(limb_t* out, std::size_t capacity) const {
  const std::size_t n = size();
  if (n > capacity || (n && !out))
    throw InvalidArgument("mpgpu::Integer::to_limbs: the value has " + std::to_string(n) + " limbs, the buffer " +
                          (out ? "room for " + std::to_string(capacity) : std::string("is null")));
  if (!n) return 0;
  if (!host_valid())
    detail::cuda::copy_to_host(detail::ContextAccess::state(ctx_), ctx_.stream(), out, dev_, n * sizeof(limb_t));
  else
    std::memcpy(out, mpz_limbs_read(cpu_), n * sizeof(limb_t));
  return n;
}

const limb_t* Integer::device_limbs() const { return size() ? device_data() : nullptr; }

void Integer::place_on_device() {
  if (!ctx_.is_cuda() || !host_valid()) return;
  device_data();  // copies a host-only value up
  mpz_set_ui(cpu_, 0);
  set_placement(Placement::device);
}

Integer Integer::to_context(const Context& ctx) const {
  if (ctx == ctx_) return *this;
  if (ctx.is_cuda() && ctx_.is_cuda() && ctx.device() == ctx_.device() && !host_valid()) {
    // Two contexts of one device (each with its own stream and lock, e.g.
    // one per host thread): one device-to-device copy instead of a round
    // trip through host memory. The limbs are read once the work queued on
    // this value's context has finished (see "Streams" in integer.hpp);
    // from_device_limbs returns when its copy is done, so this value may go
    // right after.
    const std::size_t n = size();
    const int s = sign();
    ctx_.synchronize();
    return from_device_limbs(dev_, n, s, ctx);
  }
  mpz_t z;
  mpz_init(z);
  to_mpz(z);
  Integer r = from_mpz(z, ctx);
  mpz_clear(z);
  return r;
}

std::vector<Integer> to_context_each(std::span<const Integer> values, const Context& ctx) {
  std::vector<Integer> out;
  out.reserve(values.size());
  if (values.empty()) return out;
  const Context& from = values.front().context();
  bool one_device = from.is_cuda() && ctx.is_cuda() && from != ctx && from.device() == ctx.device();
  for (const Integer& x : values) one_device = one_device && x.context() == from;
  if (!one_device) {
    for (const Integer& x : values) out.push_back(x.to_context(ctx));
    return out;
  }
  // The source's queued work done (sizes and signs settled), each value on
  // the device a copy on the source's stream into a buffer of ctx's (one
  // kept in host memory goes as to_context takes it), then that stream
  // done: the values are ready on every stream.
  from.synchronize();
  detail::ContextState& src = detail::ContextAccess::state(from);
  detail::ContextState& dst = detail::ContextAccess::state(ctx);
  const Stream s = from.stream();
  for (const Integer& x : values) {
    if (detail::IntegerAccess::host_valid(x)) {
      out.push_back(x.to_context(ctx));
      continue;
    }
    const std::size_t n = x.size();
    auto* buffer = static_cast<limb_t*>(detail::cuda::allocate(dst, s, (n ? n : 1) * sizeof(limb_t)));
    try {
      if (n) detail::cuda::copy_on_device(src, s, buffer, detail::IntegerAccess::device_data(x), n * sizeof(limb_t));
    } catch (...) {
      detail::cuda::deallocate(dst, s, buffer);
      throw;
    }
    Integer r(ctx);
    detail::IntegerAccess::adopt_device(r, ctx, buffer, n ? n : 1, n, x.sign());
    out.push_back(std::move(r));
  }
  from.synchronize();
  return out;
}

bool Integer::fits_uint64() const { return sign() >= 0 && size() <= 1; }

bool Integer::fits_int64() const {
  if (size() > 1) return false;
  if (size() == 0) return true;
  limb_t v = to_limbs()[0];
  return sign() > 0 ? v <= static_cast<limb_t>(std::numeric_limits<std::int64_t>::max())
                   : v <= static_cast<limb_t>(std::numeric_limits<std::int64_t>::max()) + 1;
}

std::uint64_t Integer::to_uint64() const {
  if (!fits_uint64())
    throw Overflow("mpgpu::Integer::to_uint64: value " +
                   (size() > 4 ? std::string(sign() < 0 ? "(negative, " : "(") + std::to_string(size()) + " limbs)"
                              : to_string()) +
                   " does not fit in uint64_t");
  return size() ? to_limbs()[0] : 0;
}

std::int64_t Integer::to_int64() const {
  if (!fits_int64())
    throw Overflow("mpgpu::Integer::to_int64: value " +
                   (size() > 4 ? std::string("(") + std::to_string(size()) + " limbs)" : to_string()) +
                   " does not fit in int64_t");
  if (!size()) return 0;
  limb_t v = to_limbs()[0];
  return sign() > 0 ? static_cast<std::int64_t>(v) : static_cast<std::int64_t>(limb_t{0} - v);
}

Integer Integer::all_ones(std::size_t bits, const Context& ctx) {
  Integer r(ctx);
  const std::size_t n = bits / 64 + (bits % 64 != 0);
  if (!ctx.is_cuda()) {
    detail::require_gmp_room("Integer::all_ones", n, [&] { return "2^" + std::to_string(bits) + " - 1"; });
    if (!n) return r;
    limb_t* p = reinterpret_cast<limb_t*>(mpz_limbs_write(r.cpu_, static_cast<mp_size_t>(n)));
    std::fill(p, p + n, ~limb_t{0});
    if (bits % 64) p[n - 1] >>= 64 - bits % 64;
    mpz_limbs_finish(r.cpu_, static_cast<mp_size_t>(n));
    detail::IntegerAccess::refresh_cpu_meta(r);
    return r;
  }
  DeviceResult out(ctx, nullptr, n);
  detail::cuda::fill(detail::ContextAccess::state(ctx), ctx.stream(), out.get(), n, ~limb_t{0});
  if (bits % 64) {
    limb_t top = (limb_t{1} << (bits % 64)) - 1;
    detail::cuda::copy_to_device(detail::ContextAccess::state(ctx), ctx.stream(), out.get() + n - 1, &top, sizeof top);
  }
  out.commit(r, n, 1);
  return r;
}

Integer Integer::power_of_two(std::size_t bit, const Context& ctx) {
  Integer r(ctx);
  if (!ctx.is_cuda()) {
    // mpz_setbit reserves bit / 64 + 1 limbs.
    detail::require_gmp_room("Integer::power_of_two", bit / 64 + 1, [&] { return "2^" + std::to_string(bit); });
    mpz_setbit(r.cpu_, bit);
    detail::IntegerAccess::refresh_cpu_meta(r);
    return r;
  }
  const std::size_t n = bit / 64 + 1;
  DeviceResult out(ctx, nullptr, n);
  detail::cuda::fill(detail::ContextAccess::state(ctx), ctx.stream(), out.get(), n, 0);
  limb_t top = limb_t{1} << (bit % 64);
  detail::cuda::copy_to_device(detail::ContextAccess::state(ctx), ctx.stream(), out.get() + n - 1, &top, sizeof top);
  out.commit(r, n, 1);
  return r;
}

}  // namespace mpgpu
