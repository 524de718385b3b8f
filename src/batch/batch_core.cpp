// Batch: width classes, storage, and conversions from and to host data.
//
// Every conversion into a batch builds the padded image (count x stride limbs, every bit
// at and above bits() cleared) on the host and moves it with one copy, so the
// invariant "padding is zero" holds on every input path and no backend ever
// masks its inputs. Conversions out read the whole image with one copy. On a
// context over several devices that is one copy a part, each part's range of
// the image (batch_parts.hpp), in instance order.
#include <gmp.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "batch_backend.hpp"
#include "batch_layout.hpp"
#include "batch_parts.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/batch.hpp"
#include "mpgpu/error.hpp"

namespace mpgpu {

static_assert(std::is_same_v<limb_t, mp_limb_t>, "batches hand their limbs to GMP unchanged");
static_assert(std::endian::native == std::endian::little,
              "byte k of an instance is byte k of its limb array only on little-endian hosts");

namespace {

using detail::BatchAccess;
using detail::part_begin;
using detail::part_size;
using detail::batch::data_limbs;
using detail::batch::mask_instance;
using detail::batch::normalized_limbs;

[[noreturn]] void invalid(const char* fn, const std::string& why) {
  throw InvalidArgument(std::string("mpgpu::") + fn + ": " + why);
}

std::size_t stride_for(const char* fn, std::size_t bits) {
  if (bits == 0 || bits > Batch::max_bits)
    invalid(fn, "width " + std::to_string(bits) + " bits is out of range (1 to " +
                    std::to_string(Batch::max_bits) + ")");
  // 3072 bits (RSA-3072) gets a class of its own: rounding it up to 4096
  // would waste a quarter of every instance's memory traffic.
  if (bits > 2048 && bits <= 3072) return 48;
  return std::bit_ceil(std::max<std::size_t>(2, data_limbs(bits)));
}

std::size_t total_limbs(const char* fn, std::size_t count, std::size_t stride) {
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(limb_t) / stride)
    throw Overflow(std::string("mpgpu::") + fn + ": " + std::to_string(count) + " instances of " +
                   std::to_string(stride) + " limbs cannot be addressed");
  return count * stride;
}

/// Returns device storage to the pool on the context's own stream; holding
/// the Context keeps its state (stream, pool) alive as long as the storage.
struct DeviceDeleter {
  Context ctx;
  void operator()(limb_t* p) const noexcept {
    detail::cuda::deallocate(detail::ContextAccess::state(ctx), ctx.stream(), p);
  }
};

struct HostDeleter {
  void operator()(limb_t* p) const noexcept { ::operator delete(p, std::align_val_t{64}); }
};

/// `limbs` uninitialized limbs in ctx: from the device's stream-ordered pool
/// (queued on the context's stream), or cache-line aligned host memory.
std::shared_ptr<limb_t> allocate_storage(const Context& ctx, std::size_t limbs) {
  if (limbs == 0) return {};
  const std::size_t bytes = limbs * sizeof(limb_t);
  if (ctx.is_cuda())
    return std::shared_ptr<limb_t>(
        static_cast<limb_t*>(detail::cuda::allocate(detail::ContextAccess::state(ctx), ctx.stream(), bytes)),
        DeviceDeleter{ctx});
  void* p = ::operator new(bytes, std::align_val_t{64}, std::nothrow);
  if (!p)
    throw OutOfMemory("mpgpu::Batch: " + std::to_string(bytes) + " bytes of host memory could not be had",
                      bytes, 0);
  return std::shared_ptr<limb_t>(static_cast<limb_t*>(p), HostDeleter{});
}

/// An ordinary batch in ctx (not split) holding a copy of the padded image
/// `image` (count x stride limbs on the host).
Batch adopt_image(const Context& ctx, std::size_t count, std::size_t bits, std::size_t stride, const limb_t* image) {
  const std::size_t limbs = count * stride;
  std::shared_ptr<limb_t> storage = allocate_storage(ctx, limbs);
  if (limbs) {
    // Synchronous: batch operations on another stream read their operands
    // without ordering themselves after the context's stream.
    if (ctx.is_cuda())
      detail::cuda::copy_to_device_synchronous(detail::ContextAccess::state(ctx), ctx.stream(), storage.get(), image,
                                               limbs * sizeof(limb_t));
    else std::memcpy(storage.get(), image, limbs * sizeof(limb_t));
  }
  return BatchAccess::adopt(count, bits, stride, ctx, std::move(storage));
}

/// A batch in ctx holding a copy of the padded image: on a context over
/// several devices each part gets its range of it.
Batch batch_from_image(const Context& ctx, std::size_t count, std::size_t bits, std::size_t stride,
                       const limb_t* image) {
  const std::size_t parts = ctx.part_count();
  if (parts == 1) return adopt_image(ctx, count, bits, stride, image);
  std::vector<Batch> pieces;
  pieces.reserve(parts);
  for (std::size_t i = 0; i < parts; ++i)
    pieces.push_back(adopt_image(detail::ContextAccess::part(ctx, i), part_size(count, parts, i), bits, stride,
                                 image + part_begin(count, parts, i) * stride));
  return BatchAccess::adopt_parts(count, bits, stride, ctx, std::move(pieces));
}

/// The padded image of a batch being built, zeroed: written straight into
/// the storage on the CPU context, into a host buffer copied once to the
/// device (once to each device's part) otherwise.
class Image {
 public:
  Image(const Context& ctx, std::size_t count, std::size_t stride, std::size_t limbs)
      : ctx_(ctx), count_(count), stride_(stride), direct_(!ctx.is_cuda() && ctx.part_count() == 1) {
    if (direct_) {
      storage_ = allocate_storage(ctx, limbs);
      if (limbs) std::memset(storage_.get(), 0, limbs * sizeof(limb_t));
    } else {
      host_.assign(limbs, 0);
    }
  }
  limb_t* data() { return direct_ ? storage_.get() : host_.data(); }
  Batch finish(std::size_t bits) {
    if (direct_) return BatchAccess::adopt(count_, bits, stride_, ctx_, std::move(storage_));
    return batch_from_image(ctx_, count_, bits, stride_, host_.data());
  }

 private:
  const Context& ctx_;
  std::size_t count_, stride_;
  bool direct_;
  std::shared_ptr<limb_t> storage_;
  std::vector<limb_t> host_;
};

/// Copies the whole padded image of b (count x stride limbs) into host
/// memory at out: one download a device (each synchronizes its stream).
void read_image(const Batch& b, limb_t* out) {
  if (BatchAccess::split(b)) {
    for (std::size_t i = 0; i < b.part_count(); ++i)
      read_image(b.part(i), out + part_begin(b.count(), b.part_count(), i) * b.stride_limbs());
    return;
  }
  const std::size_t n = b.count() * b.stride_limbs();
  if (!n) return;
  if (b.context().is_cuda())
    detail::cuda::copy_to_host(detail::ContextAccess::state(b.context()), b.context().stream(), out, b.data(),
                               n * sizeof(limb_t));
  else std::memcpy(out, b.data(), n * sizeof(limb_t));
}

/// A batch's limbs readable on the host: its own storage on the CPU context,
/// downloaded (which synchronizes the streams) otherwise.
class HostView {
 public:
  explicit HostView(const Batch& b) : stride_(b.stride_limbs()) {
    const std::size_t n = b.count() * b.stride_limbs();
    if ((b.context().is_cuda() || BatchAccess::split(b)) && n) {
      buf_.resize(n);
      read_image(b, buf_.data());
      p_ = buf_.data();
    } else {
      p_ = b.data();
    }
  }
  const limb_t* instance(std::size_t i) const { return p_ + i * stride_; }
  const limb_t* data() const { return p_; }

 private:
  std::size_t stride_;
  std::vector<limb_t> buf_;
  const limb_t* p_ = nullptr;
};

/// x = -x mod 2^(64 n): two's complement in place.
void negate(limb_t* x, std::size_t n) {
  std::size_t i = 0;
  while (i < n && x[i] == 0) ++i;
  if (i == n) return;
  x[i] = limb_t{0} - x[i];
  for (++i; i < n; ++i) x[i] = ~x[i];
}

void set_mpz(mpz_ptr z, const limb_t* x, std::size_t n) {
  n = normalized_limbs(x, n);
  if (!n) {
    mpz_set_ui(z, 0);
    return;
  }
  std::memcpy(mpz_limbs_write(z, static_cast<mp_size_t>(n)), x, n * sizeof(limb_t));
  mpz_limbs_finish(z, static_cast<mp_size_t>(n));
}

/// Output k of SplitMix64 seeded with `seed`: counter-based, so a value
/// depends only on (seed, instance, limb), never on the context or stride.
limb_t splitmix64(std::uint64_t seed, std::uint64_t k) {
  std::uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

std::size_t batch_stride_limbs(std::size_t bits) { return stride_for("batch_stride_limbs", bits); }

// ---- storage ------------------------------------------------------------------------

Batch::Batch(Batch&& other) noexcept
    : count_(std::exchange(other.count_, 0)),
      bits_(std::exchange(other.bits_, 0)),
      stride_limbs_(std::exchange(other.stride_limbs_, 0)),
      ctx_(other.ctx_),
      data_(std::move(other.data_)),
      parts_(std::move(other.parts_)) {}

Batch& Batch::operator=(Batch&& other) noexcept {
  if (this == &other) return *this;
  count_ = std::exchange(other.count_, 0);
  bits_ = std::exchange(other.bits_, 0);
  stride_limbs_ = std::exchange(other.stride_limbs_, 0);
  ctx_ = other.ctx_;
  data_ = std::move(other.data_);
  parts_ = std::move(other.parts_);
  return *this;
}

Batch::Batch(std::size_t count, std::size_t bits, std::size_t stride, const Context& ctx,
             std::shared_ptr<limb_t> data)
    : count_(count), bits_(bits), stride_limbs_(stride), ctx_(ctx), data_(std::move(data)) {}

std::size_t Batch::part_count() const { return parts_ ? parts_->size() : 1; }

const Batch& Batch::part(std::size_t i) const {
  if (i >= part_count())
    invalid("Batch::part", "part " + std::to_string(i) + " of a batch of " + std::to_string(part_count()) +
                               " part(s)");
  return BatchAccess::part(*this, i);
}

Batch::Batch(std::size_t count, std::size_t bits, const Context& ctx)
    : count_(count), bits_(bits), stride_limbs_(stride_for("Batch::Batch", bits)), ctx_(ctx) {
  const std::size_t n = total_limbs("Batch::Batch", count, stride_limbs_);
  if (const std::size_t parts = ctx.part_count(); parts > 1) {
    parts_ = std::make_shared<std::vector<Batch>>();
    parts_->reserve(parts);
    for (std::size_t i = 0; i < parts; ++i)
      parts_->emplace_back(part_size(count, parts, i), bits, detail::ContextAccess::part(ctx, i));
    return;
  }
  data_ = allocate_storage(ctx, n);
  if (!n) return;
  if (ctx.is_cuda()) detail::cuda::fill(detail::ContextAccess::state(ctx), ctx.stream(), data_.get(), n, 0);
  else std::memset(data_.get(), 0, n * sizeof(limb_t));
}

// ---- conversions in -------------------------------------------------------------------

Batch Batch::from_limbs(const limb_t* host_limbs, std::size_t count, std::size_t limbs_per_instance,
                        std::size_t bits, const Context& ctx) {
  const char* fn = "Batch::from_limbs";
  const std::size_t stride = stride_for(fn, bits);
  if (count && limbs_per_instance && !host_limbs) invalid(fn, "null pointer with count > 0");
  Image image(ctx, count, stride, total_limbs(fn, count, stride));
  // Limbs at and above the width's data limbs are dropped; the mask does the rest.
  const std::size_t take = std::min(limbs_per_instance, data_limbs(bits));
  for (std::size_t i = 0; i < count; ++i) {
    limb_t* x = image.data() + i * stride;
    if (take) std::memcpy(x, host_limbs + i * limbs_per_instance, take * sizeof(limb_t));
    mask_instance(x, stride, bits);
  }
  return image.finish(bits);
}

Batch Batch::from_device_limbs(const limb_t* device_limbs, std::size_t count, std::size_t limbs_per_instance,
                               std::size_t row_stride_limbs, std::size_t bits, const Context& ctx, Stream s,
                               std::size_t* first_over_width) {
  const char* fn = "Batch::from_device_limbs";
  const std::size_t stride = stride_for(fn, bits);
  if (!ctx.is_cuda())
    invalid(fn, "the context is the CPU's, and device memory is read on a CUDA context (from_limbs takes host memory)");
  if (ctx.part_count() > 1)
    invalid(fn, "the context spans several devices (" + ctx.describe() +
                    "), and the limbs are in one device's memory: make the batch in that device's context, then "
                    "move it with to_context");
  const std::size_t row = row_stride_limbs ? row_stride_limbs : limbs_per_instance;
  if (row < limbs_per_instance)
    invalid(fn, "rows of " + std::to_string(limbs_per_instance) + " limbs cannot be " + std::to_string(row) +
                    " limbs apart (row_stride_limbs >= limbs_per_instance)");
  const std::size_t n = total_limbs(fn, count, stride);
  if (first_over_width) *first_over_width = count;
  if (!n) return Batch(count, bits, stride, ctx, {});
  if (limbs_per_instance) {
    if (!device_limbs) invalid(fn, "null pointer with count > 0");
    // Both ends of the source, so that a host buffer, or one on another GPU, is
    // refused here with a reason instead of faulting in the kernel.
    const std::size_t last = total_limbs(fn, count - 1, row) + (limbs_per_instance - 1);
    for (const limb_t* p : {device_limbs, device_limbs + last}) {
      const int device = detail::cuda::pointer_device(p);
      if (device != ctx.device())
        invalid(fn, device < 0 ? "the limbs are not in device memory (host memory? from_limbs takes that)"
                               : "the limbs are in the memory of CUDA device " + std::to_string(device) +
                                     ", not of the context's device " + std::to_string(ctx.device()));
    }
  }
  detail::ContextState& st = detail::ContextAccess::state(ctx);
  const Stream stream = ctx.resolve(s);
  std::shared_ptr<limb_t> storage = allocate_storage(ctx, n);
  // The storage comes from the pool on the context's stream: the copy on
  // `stream` must come after that.
  detail::cuda::order_after_context(st, stream);
  const std::size_t first = detail::batch::cuda::repack_device_limbs(st, stream, storage.get(), stride, bits,
                                                                     device_limbs, count, limbs_per_instance, row);
  if (first_over_width) *first_over_width = first;
  return Batch(count, bits, stride, ctx, std::move(storage));
}

Batch Batch::from_bytes(const void* data, std::size_t count, std::size_t bytes_per_instance, Endian order,
                        std::size_t bits, const Context& ctx) {
  const char* fn = "Batch::from_bytes";
  const std::size_t stride = stride_for(fn, bits);
  if (count && bytes_per_instance && !data) invalid(fn, "null pointer with count > 0");
  Image image(ctx, count, stride, total_limbs(fn, count, stride));
  const auto* src = static_cast<const unsigned char*>(data);
  const std::size_t take = std::min(bytes_per_instance, data_limbs(bits) * sizeof(limb_t));
  for (std::size_t i = 0; i < count; ++i) {
    limb_t* x = image.data() + i * stride;
    const unsigned char* p = src + i * bytes_per_instance;
    if (order == Endian::little) {
      if (take) std::memcpy(x, p, take);
    } else {
      // Byte k of significance is the k-th from the end.
      for (std::size_t k = 0; k < take; ++k)
        x[k / 8] |= limb_t{p[bytes_per_instance - 1 - k]} << (8 * (k % 8));
    }
    mask_instance(x, stride, bits);
  }
  return image.finish(bits);
}

Batch Batch::from_mpz(std::span<const mpz_srcptr> values, std::size_t bits, const Context& ctx) {
  const char* fn = "Batch::from_mpz";
  const std::size_t stride = stride_for(fn, bits);
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!values[i]) invalid(fn, "values[" + std::to_string(i) + "] is a null pointer");
  Image image(ctx, values.size(), stride, total_limbs(fn, values.size(), stride));
  const std::size_t n = data_limbs(bits);
  for (std::size_t i = 0; i < values.size(); ++i) {
    limb_t* x = image.data() + i * stride;
    const std::size_t take = std::min(mpz_size(values[i]), n);
    if (take) std::memcpy(x, mpz_limbs_read(values[i]), take * sizeof(limb_t));
    // -|z| mod 2^(64 n), then the mask takes it mod 2^bits (2^bits divides 2^(64 n)).
    if (mpz_sgn(values[i]) < 0) negate(x, n);
    mask_instance(x, stride, bits);
  }
  return image.finish(bits);
}

Batch Batch::random(std::size_t count, std::size_t bits, std::uint64_t seed, const Context& ctx) {
  const char* fn = "Batch::random";
  const std::size_t stride = stride_for(fn, bits);
  Image image(ctx, count, stride, total_limbs(fn, count, stride));
  const std::size_t n = data_limbs(bits);
  for (std::size_t i = 0; i < count; ++i) {
    limb_t* x = image.data() + i * stride;
    for (std::size_t j = 0; j < n; ++j) x[j] = splitmix64(seed, i * n + j);
    mask_instance(x, stride, bits);
  }
  return image.finish(bits);
}

// ---- conversions out ------------------------------------------------------------------

std::vector<limb_t> Batch::to_limbs() const {
  const std::size_t n = limbs_per_instance();
  std::vector<limb_t> out(count_ * n);
  if (out.empty()) return out;
  HostView view(*this);
  for (std::size_t i = 0; i < count_; ++i)
    std::memcpy(out.data() + i * n, view.instance(i), n * sizeof(limb_t));
  return out;
}

void Batch::to_bytes(void* out, std::size_t bytes_per_instance, Endian order) const {
  const char* fn = "Batch::to_bytes";
  if (count_ && bytes_per_instance && !out) invalid(fn, "null pointer with count > 0");
  if (!count_) return;
  HostView view(*this);
  const std::size_t n = limbs_per_instance();
  // Check every instance before writing any byte.
  if (bytes_per_instance * 8 < bits_) {
    for (std::size_t i = 0; i < count_; ++i) {
      const limb_t* x = view.instance(i);
      const std::size_t top = normalized_limbs(x, n);
      const std::size_t width = top ? 64 * (top - 1) + std::bit_width(x[top - 1]) : 0;
      if (width > bytes_per_instance * 8)
        throw Overflow("mpgpu::Batch::to_bytes: instance " + std::to_string(i) + " has " +
                       std::to_string(width) + " bits, more than " + std::to_string(bytes_per_instance) +
                       " bytes hold");
    }
  }
  auto* dst = static_cast<unsigned char*>(out);
  const std::size_t take = std::min(bytes_per_instance, n * sizeof(limb_t));
  for (std::size_t i = 0; i < count_; ++i) {
    const auto* x = reinterpret_cast<const unsigned char*>(view.instance(i));
    unsigned char* p = dst + i * bytes_per_instance;
    if (order == Endian::little) {
      std::memcpy(p, x, take);
      std::memset(p + take, 0, bytes_per_instance - take);
    } else {
      std::memset(p, 0, bytes_per_instance - take);
      for (std::size_t k = 0; k < take; ++k) p[bytes_per_instance - 1 - k] = x[k];
    }
  }
}

void Batch::to_mpz(std::size_t index, mpz_ptr z) const {
  const char* fn = "Batch::to_mpz";
  if (index >= count_)
    invalid(fn, "index " + std::to_string(index) + " is out of range (count " + std::to_string(count_) + ")");
  if (!z) invalid(fn, "null mpz_ptr");
  if (parts_) {
    // The last part whose first instance is at or below index holds it.
    std::size_t i = 0;
    while (i + 1 < parts_->size() && index >= part_begin(count_, parts_->size(), i + 1)) ++i;
    return (*parts_)[i].to_mpz(index - part_begin(count_, parts_->size(), i), z);
  }
  const std::size_t n = limbs_per_instance();
  const limb_t* x = data_.get() + index * stride_limbs_;
  if (ctx_.is_cuda()) {
    std::vector<limb_t> buf(n);
    detail::cuda::copy_to_host(detail::ContextAccess::state(ctx_), ctx_.stream(), buf.data(), x, n * sizeof(limb_t));
    set_mpz(z, buf.data(), n);
  } else {
    set_mpz(z, x, n);
  }
}

void Batch::to_mpz(std::span<const mpz_ptr> out) const {
  const char* fn = "Batch::to_mpz";
  if (out.size() != count_)
    invalid(fn, "out has " + std::to_string(out.size()) + " entries for a batch of " + std::to_string(count_));
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!out[i]) invalid(fn, "out[" + std::to_string(i) + "] is a null pointer");
  if (!count_) return;
  HostView view(*this);
  for (std::size_t i = 0; i < count_; ++i) set_mpz(out[i], view.instance(i), limbs_per_instance());
}

Batch Batch::to_context(const Context& ctx) const {
  const std::size_t n = count_ * stride_limbs_;
  if (parts_ && ctx == ctx_) {
    // A clone of a split batch: each part copied on its own device.
    std::vector<Batch> pieces;
    pieces.reserve(parts_->size());
    for (const Batch& p : *parts_) pieces.push_back(p.clone());
    return BatchAccess::adopt_parts(count_, bits_, stride_limbs_, ctx, std::move(pieces));
  }
  if (parts_ || ctx.part_count() > 1) {
    // Into or out of a split (the layout depends only on the width, so the
    // image moves unchanged): gathered on the host, scattered from there.
    HostView view(*this);
    return batch_from_image(ctx, count_, bits_, stride_limbs_, view.data());
  }
  std::shared_ptr<limb_t> storage = allocate_storage(ctx, n);
  if (n) {
    const std::size_t bytes = n * sizeof(limb_t);
    if (ctx == ctx_ && ctx.is_cuda()) {
      detail::cuda::copy_on_device(detail::ContextAccess::state(ctx), ctx.stream(), storage.get(), data_.get(), bytes);
    } else {
      // The layout depends only on the width, so the image moves unchanged.
      HostView view(*this);
      if (ctx.is_cuda())
        detail::cuda::copy_to_device_synchronous(detail::ContextAccess::state(ctx), ctx.stream(), storage.get(),
                                                 view.data(), bytes);  // as Image
      else std::memcpy(storage.get(), view.data(), bytes);
    }
  }
  return Batch(count_, bits_, stride_limbs_, ctx, std::move(storage));
}

}  // namespace mpgpu
