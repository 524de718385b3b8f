// How a Batch on a context over several devices is split into parts, and
// the library's access to them. Private to src/batch/.
//
// The split depends only on (count, parts) (context/part_split.hpp): part i
// holds count / k instances, one more for i < count % k, and starts at
// part_begin. So every batch of one count in one context is split alike, and
// an operation pairs part i of each operand with part i of the result.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "context/part_split.hpp"
#include "mpgpu/batch.hpp"

namespace mpgpu::detail {

struct BatchAccess {
  /// True for a batch on a context over several devices.
  static bool split(const Batch& b) { return b.parts_ != nullptr; }
  /// Part i (the batch itself for an ordinary batch and i == 0; the caller
  /// keeps i < b.part_count()).
  static Batch& part(Batch& b, std::size_t i) { return b.parts_ ? (*b.parts_)[i] : b; }
  static const Batch& part(const Batch& b, std::size_t i) { return b.parts_ ? (*b.parts_)[i] : b; }
  /// Whether the batch has storage for its instances (a split one always has).
  static bool has_storage(const Batch& b) { return b.data_ || b.parts_; }
  /// Whether the two handles share their storage (or their parts).
  static bool same_storage(const Batch& x, const Batch& y) {
    return (x.data_ && x.data_ == y.data_) || (x.parts_ && x.parts_ == y.parts_);
  }
  /// An ordinary batch over storage laid out for (count, bits, stride) in ctx.
  static Batch adopt(std::size_t count, std::size_t bits, std::size_t stride, const Context& ctx,
                     std::shared_ptr<limb_t> data) {
    return Batch(count, bits, stride, ctx, std::move(data));
  }
  /// A split batch of `parts` (part i in ctx.part(i), sized as part_size says).
  static Batch adopt_parts(std::size_t count, std::size_t bits, std::size_t stride, const Context& ctx,
                           std::vector<Batch> parts) {
    Batch b(count, bits, stride, ctx, {});
    b.parts_ = std::make_shared<std::vector<Batch>>(std::move(parts));
    return b;
  }
};

}  // namespace mpgpu::detail
