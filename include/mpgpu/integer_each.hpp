// The Integer API's operations on many independent values at once, so that a
// caller with k small products or moves pays one synchronization and a few
// launches instead of k of each. Part of mpgpu/integer.hpp, which includes
// it; included alone it brings integer.hpp in first.
#pragma once

#include <initializer_list>
#include <span>
#include <vector>

#include "mpgpu/integer.hpp"

namespace mpgpu {

/// Independent products r = a * b at once, on the context's stream (device
/// products side by side on streams of the context; docs/integer.md). An r
/// may be its own a or b, never another product's r, a or b (InvalidArgument).
struct Product { Integer& r; const Integer& a; const Integer& b; };
void mul_each(std::span<const Product> products);
inline void mul_each(std::initializer_list<Product> products) {
  mul_each(std::span<const Product>(products.begin(), products.size()));
}
/// Every value's to_context(ctx) at once: from one CUDA context into another
/// of its device, one synchronization of the source and a device copy each
/// (to_context takes a synchronization and a size read-back a value).
std::vector<Integer> to_context_each(std::span<const Integer> values, const Context& ctx);

}  // namespace mpgpu
