// mul, sqr and mul_each. The CPU backend calls GMP. The CUDA backend multiplies on the
// device: by columns (src/cuda/mul_short.cu; a thread per column for an
// operand of at most 32 limbs, linear in the other; a warp per column up to
// 8192 limbs while na * nb stays within the context's schoolbook_max_work), else through
// three-prime NTTs (src/cuda/ntt_mul.cu). Nothing goes through the host.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "context/context_state.hpp"
#include "integer_internal.hpp"

namespace mpgpu {

using detail::device_operand;
using detail::DeviceResult;
namespace dc = detail::cuda;

namespace {

/// Whether the device multiplies these magnitudes by columns (else by
/// NTTs): a short operand always; up to dc::kMulSchoolbookMaxLimbs limbs
/// while na * nb is at most the context's schoolbook_max_work (TuningParams).
/// Columns take time in proportion to na * nb; the NTT product of such
/// operands, its primes side by side, is a chain of passes that changes
/// little over these sizes, so the lines cross (docs/integer.md, "Where
/// products run").
bool by_columns(const Context& ctx, std::size_t na, std::size_t nb) {
  const std::size_t shorter = std::min(na, nb);
  return shorter <= dc::kMulShortMaxLimbs ||
         (shorter <= dc::kMulSchoolbookMaxLimbs &&
          static_cast<std::uint64_t>(na) * nb <= detail::ContextAccess::state(ctx).tuning.schoolbook_max_work);
}

void mul_device(Integer& r, const Integer& a, const Integer& b, Stream s) {
  const Context& ctx = a.context();
  const int sign = a.sign() * b.sign();
  if (sign == 0) {
    DeviceResult out(ctx, s, 1, &r, {&a, &b});
    out.commit(r, 0, 0);
    return;
  }
  Stream st = ctx.resolve(s);
  if (by_columns(ctx, a.size(), b.size())) {
    DeviceResult out(ctx, st, a.size() + b.size() + 3, &r, {&a, &b});
    out.commit(r,
               dc::mul_columns(detail::ContextAccess::state(ctx), st, out.get(), device_operand(a), device_operand(b)),
               sign);
    return;
  }
  DeviceResult out(ctx, st, a.size() + b.size() + 2, &r, {&a, &b});
  out.commit(r, dc::mul_abs(detail::ContextAccess::state(ctx), st, out.get(), device_operand(a), device_operand(b)),
             sign);
}

/// GMP multiplies on the CPU context, and on a CUDA context when both
/// operands are in host memory and the product is small (kHostProductMaxLimbs).
bool product_on_host(const Integer& a, const Integer& b) {
  if (!a.context().is_cuda()) return true;
  return detail::IntegerAccess::host_valid(a) && detail::IntegerAccess::host_valid(b) &&
         a.size() + b.size() <= kHostProductMaxLimbs;
}

/// mpz_mul reserves the sum of the sizes.
void require_product_room(const char* op, const Integer& a, const Integer& b) {
  detail::require_gmp_room(op, std::uint64_t{a.size()} + b.size(),
                           [&] { return detail::limbs_of("a product of operands", a.size(), b.size()); });
}

}  // namespace

// Small host products are inline (mpgpu/integer_inline.hpp); this takes
// every other case.
void detail::mul_general(Integer& r, const Integer& a, const Integer& b, Stream s) {
  detail::require_same_context("mul", a, b);
  if (product_on_host(a, b)) {
    require_product_room("mul", a, b);
    return detail::on_cpu(r, a.context(), [&](mpz_ptr z) {
      mpz_mul(z, detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(b));
    });
  }
  mul_device(r, a, b, s);
}

void sqr(Integer& r, const Integer& a, Stream s) {
  if (product_on_host(a, a)) {
    require_product_room("sqr", a, a);
    return detail::on_cpu(r, a.context(), [&](mpz_ptr z) {
      mpz_mul(z, detail::IntegerAccess::cpu_mpz(a), detail::IntegerAccess::cpu_mpz(a));
    });
  }
  mul_device(r, a, a, s);  // same limbs: the device path transforms once
}

void mul_each(std::span<const Product> products) {
  // Independence in O(n log n) (binary splitting hands in hundreds at once):
  // the results sorted by address; no two equal, and no product reads
  // another's result.
  std::vector<std::pair<const Integer*, std::size_t>> results;
  results.reserve(products.size());
  for (std::size_t i = 0; i < products.size(); ++i) {
    const Product& p = products[i];
    detail::require_same_context("mul_each", p.a, p.b);
    if (i) detail::require_same_context("mul_each", products[0].a, p.a);
    results.emplace_back(&p.r, i);
  }
  std::sort(results.begin(), results.end());
  auto dependent = [](std::size_t i, std::size_t j) {
    return InvalidArgument("mpgpu::mul_each: the result of product " + std::to_string(i) +
                           " is also the result or an operand of product " + std::to_string(j) +
                           "; the products must be independent");
  };
  for (std::size_t k = 1; k < results.size(); ++k)
    if (results[k].first == results[k - 1].first) throw dependent(results[k - 1].second, results[k].second);
  for (std::size_t j = 0; j < products.size(); ++j)
    for (const Integer* operand : {&products[j].a, &products[j].b}) {
      const auto it = std::lower_bound(results.begin(), results.end(), std::make_pair(operand, std::size_t{0}));
      if (it != results.end() && it->first == operand && it->second != j) throw dependent(it->second, j);
    }
  // The device products (both operands nonzero) go together; the others,
  // GMP's and zeros, one by one first: they touch nothing the others read.
  std::vector<std::size_t> device;
  for (std::size_t i = 0; i < products.size(); ++i) {
    const Product& p = products[i];
    if (product_on_host(p.a, p.b) || p.a.sign() == 0 || p.b.sign() == 0) mul(p.r, p.a, p.b);
    else device.push_back(i);
  }
  if (device.size() < 2) {
    for (std::size_t i : device) mul(products[i].r, products[i].a, products[i].b);
    return;
  }
  const Context& ctx = products[device[0]].a.context();
  const Stream st = ctx.stream();
  // Operands kept in host memory go up together (one kernel for many:
  // copy_pieces_to_device) instead of one copy each at first use.
  {
    std::vector<const Integer*> operands;
    operands.reserve(2 * device.size());
    for (std::size_t i : device) {
      operands.push_back(&products[i].a);
      operands.push_back(&products[i].b);
    }
    detail::IntegerAccess::upload_many(operands);
  }
  // The results' buffers first (they outlive the branches: freed, on a
  // failure, after the fork has ordered st behind every branch).
  std::vector<std::optional<DeviceResult>> outs(device.size());
  std::vector<dc::ProductJob> jobs(device.size());
  for (std::size_t k = 0; k < device.size(); ++k) {
    const Product& p = products[device[k]];
    const bool columns = by_columns(ctx, p.a.size(), p.b.size());
    outs[k].emplace(ctx, st, p.a.size() + p.b.size() + (columns ? 3 : 2), &p.r,
                    std::initializer_list<const Integer*>{&p.a, &p.b});
    jobs[k] = {outs[k]->get(), device_operand(p.a), device_operand(p.b), columns};
  }
  std::vector<int> signs(device.size());  // read before any r (maybe its own a or b) changes
  for (std::size_t k = 0; k < device.size(); ++k) signs[k] = products[device[k]].a.sign() * products[device[k]].b.sign();
  std::vector<dc::Deferred> sizes(device.size());
  dc::mul_abs_each(detail::ContextAccess::state(ctx), st, jobs.data(), sizes.data(), jobs.size());
  for (std::size_t k = 0; k < device.size(); ++k) outs[k]->commit(products[device[k]].r, std::move(sizes[k]), signs[k]);
}

Integer operator*(const Integer& a, const Integer& b) {
  Integer r(a.context());
  mul(r, a, b);
  return r;
}

Integer& Integer::operator*=(const Integer& b) {
  mul(*this, *this, b);
  return *this;
}

}  // namespace mpgpu
