// The operations over whole batches: check the operands, shape the
// destination, fill one Args record and hand it to the CPU backend
// (batch_cpu.cpp) or the CUDA backend (cuda/batch_*.cu).
//
// On a context over several devices the record is filled once a part
// (run(): each operand's part i, batch_parts.hpp) and handed to part i's
// backend on that device's own stream; every part is queued before any is
// waited for. Kernels never see the split.
//
// Cases that need no arithmetic are settled here: shifts by 0 and rotates by
// a multiple of the width are copies, shifts by the width or more give zero.
// The backends therefore only ever see shift and rotate counts in (0, bits).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "batch_backend.hpp"
#include "batch_checks.hpp"
#include "batch_parts.hpp"
#include "cuda/backend.hpp"
#include "mpgpu/batch.hpp"
#include "mpgpu/batch/tuning_table.hpp"

namespace mpgpu {

namespace {

using detail::BatchAccess;
using detail::part_begin;
using detail::part_size;
using detail::batch::Args;
using detail::batch::Destination;
using detail::batch::invalid;
using detail::batch::Op;
using detail::batch::require_good_moduli;
using detail::batch::require_like;
using detail::batch::require_nonzero;
using detail::batch::require_own_stream;
using detail::batch::require_width;

/// One operation: its Args record without pointers (the shape: op, count,
/// widths, strides, scalar) and the batches the pointers come from, by role.
struct Call {
  Args args;
  Batch* r = nullptr;
  Batch* r2 = nullptr;
  Batch* flag = nullptr;
  const Batch* a = nullptr;
  const Batch* b = nullptr;
  const Batch* m = nullptr;
  const Batch* e = nullptr;
};

/// The call r = op(a, ...): a's shape for the operands, r's for the result.
Call make_call(Op op, const Batch& a, Batch& r) {
  Call c;
  c.args.op = op;
  c.args.count = a.count();
  c.args.bits = a.bits();
  c.args.stride = a.stride_limbs();
  c.args.r_bits = r.bits();
  c.args.r_stride = r.stride_limbs();
  c.r = &r;
  c.a = &a;
  return c;
}

/// c's record for part i (`count` instances) with each operand's part i:
/// the whole batches on an ordinary context (i == 0).
Args bind(const Call& c, std::size_t i, std::size_t count) {
  Args x = c.args;
  x.count = count;
  auto in = [i](const Batch* b) -> const limb_t* { return b ? BatchAccess::part(*b, i).data() : nullptr; };
  auto out = [i](Batch* b) -> limb_t* { return b ? BatchAccess::part(*b, i).data() : nullptr; };
  x.r = out(c.r);
  x.r2 = out(c.r2);
  x.flag = out(c.flag);
  x.a = in(c.a);
  x.b = in(c.b);
  x.m = in(c.m);
  x.e = in(c.e);
  return x;
}

/// The stream part i runs on: s (or the context's own) on an ordinary
/// context, the part's own on one over several devices (require_own_stream
/// has refused any other).
Stream part_stream(const Context& ctx, const Context& part, Stream s) {
  return ctx.part_count() == 1 ? part.resolve(s) : part.stream();
}

/// Queues c on every part (on the CPU runs it); does not wait.
void run(const Context& ctx, Stream s, const Call& c) {
  if (c.args.count == 0) return;
  const std::size_t parts = ctx.part_count();
  for (std::size_t i = 0; i < parts; ++i) {
    const std::size_t n = part_size(c.args.count, parts, i);
    if (n == 0) continue;
    const Context& part = detail::ContextAccess::part(ctx, i);
    if (part.is_cuda())
      detail::batch::cuda::run(detail::ContextAccess::state(part), part_stream(ctx, part, s), bind(c, i, n));
    else detail::batch::run_cpu(bind(c, i, n));
  }
}

/// r = op(a, b), r as wide as a and b.
void binary(const char* fn, Op op, Batch& r, const Batch& a, const Batch& b, Stream s) {
  require_width(fn, {"a", a});
  require_like(fn, {"a", a}, {"b", b});
  require_own_stream(fn, a.context(), s);
  Destination d(r, a.count(), a.bits(), a.context(), s);
  Call c = make_call(op, a, d.get());
  c.b = &b;
  run(a.context(), s, c);
  d.commit();
}

/// r = op(a, scalar), r as wide as a.
void unary(const char* fn, Op op, Batch& r, const Batch& a, std::uint64_t scalar, Stream s) {
  require_width(fn, {"a", a});
  require_own_stream(fn, a.context(), s);
  Destination d(r, a.count(), a.bits(), a.context(), s);
  Call c = make_call(op, a, d.get());
  c.args.scalar = scalar;  // a scalar is in the record, so every part gets it
  run(a.context(), s, c);
  d.commit();
}

/// add and sub, with their optional carry or borrow batch: filled in where
/// it is empty, else it must match a's count and context, and it may not be
/// (or share storage with) r, a or b, since it is written besides r.
void add_sub(const char* fn, Op op, const char* flag_name, Batch& r, const Batch& a, const Batch& b,
             Batch* flag, Stream s) {
  require_width(fn, {"a", a});
  require_like(fn, {"a", a}, {"b", b});
  require_own_stream(fn, a.context(), s);
  if (flag) {
    if (flag == &r || flag == &a || flag == &b)
      invalid(fn, std::string(flag_name) + " must be a batch of its own, not r, a or b");
    if (!flag->empty()) {
      require_like(fn, {"a", a}, {flag_name, *flag}, false);
      for (const Batch* x : {static_cast<const Batch*>(&r), &a, &b})
        if (BatchAccess::same_storage(*x, *flag))
          invalid(fn, std::string(flag_name) + " shares its storage with " +
                          (x == &r ? "r" : x == &a ? "a" : "b"));
    }
  }
  Destination d(r, a.count(), a.bits(), a.context(), s);
  Call c = make_call(op, a, d.get());
  c.b = &b;
  if (!flag) {
    run(a.context(), s, c);
    d.commit();
    return;
  }
  Destination f(*flag, a.count(), flag->empty() ? 1 : flag->bits(), a.context(), s);
  c.flag = &f.get();
  c.args.flag_stride = f.get().stride_limbs();
  run(a.context(), s, c);
  d.commit();
  f.commit();
}

/// r = a, queued on s (nothing to do when r is a's storage).
void copy(Batch& r, const Batch& a, Stream s) {
  if (BatchAccess::split(a)) {
    for (std::size_t i = 0; i < a.part_count(); ++i) copy(BatchAccess::part(r, i), a.part(i), nullptr);
    return;
  }
  if (r.data() == a.data() || a.count() == 0) return;
  const std::size_t bytes = a.count() * a.stride_limbs() * sizeof(limb_t);
  const Context& ctx = a.context();
  if (ctx.is_cuda())
    detail::cuda::copy_on_device(detail::ContextAccess::state(ctx), ctx.resolve(s), r.data(), a.data(), bytes);
  else std::memcpy(r.data(), a.data(), bytes);
}

void zero(Batch& r, Stream s) {
  if (BatchAccess::split(r)) {
    for (std::size_t i = 0; i < r.part_count(); ++i) zero(BatchAccess::part(r, i), nullptr);
    return;
  }
  const std::size_t n = r.count() * r.stride_limbs();
  if (n == 0) return;
  const Context& ctx = r.context();
  if (ctx.is_cuda()) detail::cuda::fill(detail::ContextAccess::state(ctx), ctx.resolve(s), r.data(), n, 0);
  else std::memset(r.data(), 0, n * sizeof(limb_t));
}

void shift(const char* fn, Op op, Batch& r, const Batch& a, std::size_t count, Stream s) {
  require_width(fn, {"a", a});
  const std::size_t bits = a.bits();
  const bool rotate = op == Op::rotl || op == Op::rotr;
  const std::size_t k = rotate ? count % bits : count;
  require_own_stream(fn, a.context(), s);
  Destination d(r, a.count(), bits, a.context(), s);
  if (k == 0) {
    copy(d.get(), a, s);
  } else if (k >= bits) {
    if (!d.fresh()) zero(d.get(), s);  // fresh storage is zero already
  } else {
    Call c = make_call(op, a, d.get());
    c.args.scalar = k;
    run(a.context(), s, c);
  }
  d.commit();
}

/// Device memory for the per-instance answers, returned to the pool on the
/// stream that used it.
class DeviceAnswers {
 public:
  DeviceAnswers(const Context& ctx, Stream s, std::size_t count)
      : ctx_(ctx),
        stream_(s),
        p_(static_cast<std::uint32_t*>(
            detail::cuda::allocate(detail::ContextAccess::state(ctx), s, count * sizeof(std::uint32_t)))) {}
  DeviceAnswers(const DeviceAnswers&) = delete;
  DeviceAnswers& operator=(const DeviceAnswers&) = delete;
  ~DeviceAnswers() { detail::cuda::deallocate(detail::ContextAccess::state(ctx_), stream_, p_); }
  std::uint32_t* get() const { return p_; }

 private:
  Context ctx_;
  Stream stream_;
  std::uint32_t* p_;
};

/// Runs c, which writes one 32-bit answer per instance (c.args.answers),
/// and returns the answers on the host, in instance order. On a context
/// over several devices every part is queued before any answer is read.
std::vector<std::uint32_t> run_answers(const Context& ctx, Stream s, const Call& c) {
  std::vector<std::uint32_t> out(c.args.count);
  if (out.empty()) return out;
  const std::size_t parts = ctx.part_count();
  std::vector<std::unique_ptr<DeviceAnswers>> answers(parts);
  for (std::size_t i = 0; i < parts; ++i) {
    const std::size_t n = part_size(out.size(), parts, i);
    if (n == 0) continue;
    const Context& part = detail::ContextAccess::part(ctx, i);
    Args x = bind(c, i, n);
    if (!part.is_cuda()) {
      x.answers = out.data() + part_begin(out.size(), parts, i);
      detail::batch::run_cpu(x);
      continue;
    }
    const Stream stream = part_stream(ctx, part, s);
    answers[i] = std::make_unique<DeviceAnswers>(part, stream, n);
    x.answers = answers[i]->get();
    detail::batch::cuda::run(detail::ContextAccess::state(part), stream, x);
  }
  for (std::size_t i = 0; i < parts; ++i) {
    if (!answers[i]) continue;
    const Context& part = detail::ContextAccess::part(ctx, i);
    detail::cuda::copy_to_host(detail::ContextAccess::state(part), part_stream(ctx, part, s),
                               out.data() + part_begin(out.size(), parts, i), answers[i]->get(),
                               part_size(out.size(), parts, i) * sizeof(std::uint32_t));
  }
  return out;
}

/// One 32-bit answer per instance of a (and b), read back to the host.
std::vector<std::uint32_t> per_instance(const char* fn, Op op, const Batch& a, const Batch* b, Stream s) {
  require_width(fn, {"a", a});
  if (b) require_like(fn, {"a", a}, {"b", *b});
  require_own_stream(fn, a.context(), s);
  Call c;
  c.args.op = op;
  c.args.count = a.count();
  c.args.bits = c.args.r_bits = a.bits();
  c.args.stride = c.args.r_stride = a.stride_limbs();
  c.a = &a;
  c.b = b;
  return run_answers(a.context(), s, c);
}

/// r = op(a[, b]) mod m, every operand as wide as m.
void modular(const char* fn, Op op, Batch& r, const Batch& a, const Batch* b, const Batch& m, Stream s) {
  require_width(fn, {"m", m});
  require_like(fn, {"m", m}, {"a", a});
  if (b) require_like(fn, {"m", m}, {"b", *b});
  require_own_stream(fn, m.context(), s);
  require_good_moduli(fn, m, s);
  Destination d(r, m.count(), m.bits(), m.context(), s);
  Call c = make_call(op, a, d.get());
  c.b = b;
  c.m = &m;
  run(m.context(), s, c);
  d.commit();
}

/// q = floor(a / b) into *q and r = a mod b into *r (either may be null). b is
/// as wide as a, or with `wide` half as wide (a double-width value such as
/// mul_wide's product over b): q has a's width (the whole quotient, no
/// overflow condition) and r b's; the backends divide in a's class with b
/// read zero-extended and the remainder stored in b's width.
void divide(const char* fn, Batch* q, Batch* r, const Batch& a, const Batch& b, bool wide, Stream s) {
  require_width(fn, {"a", a});
  require_like(fn, {"a", a}, {"b", b}, !wide);
  if (wide && a.bits() != 2 * b.bits())
    invalid(fn, "a is " + std::to_string(a.bits()) + " bits wide and b " + std::to_string(b.bits()) +
                    "; a must be twice as wide as b");
  if (q && r && (q == r || BatchAccess::same_storage(*q, *r)))
    invalid(fn, "q and r must be distinct batches, not sharing their storage");
  require_own_stream(fn, a.context(), s);
  require_nonzero(fn, {"b", b}, s);
  std::optional<Destination> dq, dr;
  if (q) dq.emplace(*q, a.count(), a.bits(), a.context(), s);
  if (r) dr.emplace(*r, a.count(), b.bits(), a.context(), s);
  Call c = make_call(Op::div_qr, a, q ? dq->get() : dr->get());
  c.b = &b;
  c.args.b_stride = b.stride_limbs();
  c.r = q ? &dq->get() : nullptr;
  c.r2 = r ? &dr->get() : nullptr;
  c.args.r2_stride = r ? dr->get().stride_limbs() : 0;
  run(a.context(), s, c);
  if (dq) dq->commit();
  if (dr) dr->commit();
}

/// r = op(a, scalar) for a 64-bit divisor.
void divide_ui(const char* fn, Op op, Batch& r, const Batch& a, std::uint64_t d, Stream s) {
  require_width(fn, {"a", a});
  if (d == 0) invalid(fn, "division by zero");
  unary(fn, op, r, a, d, s);
}

}  // namespace

// ---- element-wise ---------------------------------------------------------------------

void add(Batch& r, const Batch& a, const Batch& b, Batch* carry, Stream s) {
  add_sub("add", Op::add, "carry", r, a, b, carry, s);
}
void sub(Batch& r, const Batch& a, const Batch& b, Batch* borrow, Stream s) {
  add_sub("sub", Op::sub, "borrow", r, a, b, borrow, s);
}
void add_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s) { unary("add_ui", Op::add_ui, r, a, v, s); }
void sub_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s) { unary("sub_ui", Op::sub_ui, r, a, v, s); }
void mul_ui(Batch& r, const Batch& a, std::uint64_t v, Stream s) { unary("mul_ui", Op::mul_ui, r, a, v, s); }

void mul(Batch& r, const Batch& a, const Batch& b, Stream s) { binary("mul", Op::mul_low, r, a, b, s); }
void mul_high(Batch& r, const Batch& a, const Batch& b, Stream s) { binary("mul_high", Op::mul_high, r, a, b, s); }

void mul_wide(Batch& r, const Batch& a, const Batch& b, Stream s) {
  const char* fn = "mul_wide";
  require_width(fn, {"a", a});
  require_like(fn, {"a", a}, {"b", b});
  if (a.bits() > Batch::max_bits / 2)
    invalid(fn, "a is " + std::to_string(a.bits()) + " bits wide, and the product's " +
                    std::to_string(2 * a.bits()) + " bits exceed Batch::max_bits (" +
                    std::to_string(Batch::max_bits) + ")");
  require_own_stream(fn, a.context(), s);
  Destination d(r, a.count(), 2 * a.bits(), a.context(), s);
  Call c = make_call(Op::mul_wide, a, d.get());
  c.b = &b;
  run(a.context(), s, c);
  d.commit();
}

void sqr(Batch& r, const Batch& a, Stream s) { unary("sqr", Op::sqr, r, a, 0, s); }

void and_(Batch& r, const Batch& a, const Batch& b, Stream s) { binary("and_", Op::and_, r, a, b, s); }
void ior(Batch& r, const Batch& a, const Batch& b, Stream s) { binary("ior", Op::ior, r, a, b, s); }
void xor_(Batch& r, const Batch& a, const Batch& b, Stream s) { binary("xor_", Op::xor_, r, a, b, s); }
void com(Batch& r, const Batch& a, Stream s) { unary("com", Op::com, r, a, 0, s); }

void shift_left(Batch& r, const Batch& a, std::size_t count, Stream s) { shift("shift_left", Op::shl, r, a, count, s); }
void shift_right(Batch& r, const Batch& a, std::size_t count, Stream s) { shift("shift_right", Op::shr, r, a, count, s); }
void rotate_left(Batch& r, const Batch& a, std::size_t count, Stream s) { shift("rotate_left", Op::rotl, r, a, count, s); }
void rotate_right(Batch& r, const Batch& a, std::size_t count, Stream s) {
  shift("rotate_right", Op::rotr, r, a, count, s);
}

// ---- per-instance answers ------------------------------------------------------------------

std::vector<int> compare(const Batch& a, const Batch& b, Stream s) {
  const std::vector<std::uint32_t> raw = per_instance("compare", Op::compare, a, &b, s);
  std::vector<int> out(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) out[i] = static_cast<std::int32_t>(raw[i]);  // int32 on the wire
  return out;
}
std::vector<bool> equals(const Batch& a, const Batch& b, Stream s) {
  const std::vector<std::uint32_t> raw = per_instance("equals", Op::compare, a, &b, s);
  std::vector<bool> out(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) out[i] = raw[i] == 0;
  return out;
}
std::vector<std::uint32_t> popcount(const Batch& a, Stream s) {
  return per_instance("popcount", Op::popcount, a, nullptr, s);
}
std::vector<std::uint32_t> count_leading_zeros(const Batch& a, Stream s) {
  return per_instance("count_leading_zeros", Op::clz, a, nullptr, s);
}
std::vector<std::uint32_t> count_trailing_zeros(const Batch& a, Stream s) {
  return per_instance("count_trailing_zeros", Op::ctz, a, nullptr, s);
}

// ---- modular ---------------------------------------------------------------------------

void to_montgomery(Batch& r, const Batch& a, const Batch& m, Stream s) {
  modular("to_montgomery", Op::to_mont, r, a, nullptr, m, s);
}
void from_montgomery(Batch& r, const Batch& a, const Batch& m, Stream s) {
  modular("from_montgomery", Op::from_mont, r, a, nullptr, m, s);
}
void montgomery_mul(Batch& r, const Batch& a, const Batch& b, const Batch& m, Stream s) {
  modular("montgomery_mul", Op::mont_mul, r, a, &b, m, s);
}
void montgomery_sqr(Batch& r, const Batch& a, const Batch& m, Stream s) {
  modular("montgomery_sqr", Op::mont_sqr, r, a, nullptr, m, s);
}
void montgomery_reduce(Batch& r, const Batch& a, const Batch& m, Stream s) {
  const char* fn = "montgomery_reduce";
  require_width(fn, {"m", m});
  require_like(fn, {"m", m}, {"a", a}, false);
  if (a.bits() != 2 * m.bits())
    invalid(fn, "a is " + std::to_string(a.bits()) + " bits wide and m " + std::to_string(m.bits()) +
                    "; a must be twice as wide as m");
  require_own_stream(fn, m.context(), s);
  require_good_moduli(fn, m, s);
  Destination d(r, m.count(), m.bits(), m.context(), s);
  // The backends run in m's class and read the wide value as b (its own stride).
  Call c = make_call(Op::mont_reduce, m, d.get());
  c.a = nullptr;
  c.b = &a;
  c.args.b_stride = a.stride_limbs();
  c.m = &m;
  run(m.context(), s, c);
  d.commit();
}

void powm(Batch& r, const Batch& base, const Batch& exp, const Batch& m, Stream s) {
  // Sliding windows measured faster from 512 bits up with several threads
  // an instance, but clearly slower with a thread an instance, where fixed
  // windows square with montgomery_sqr and sliding ones keep one product
  // call site (docs/batch.md; docs/tuning-history.md, "Batch powm
  // windows"). The G is the one the CUDA backend takes for this batch (by
  // width and instance count).
  // Where squares have rows of their own (tuned_montgomery_sqr_by_rows;
  // off in the sm90 table), fixed windows, 4 squares to a product, would
  // square with them.
  // On a context over several devices each part is launched with its own
  // count: take the largest, part 0's.
  const int words = static_cast<int>(2 * m.stride_limbs());
  const int group = mpgpu::batch::tuned_modular_group_size(words, part_size(m.count(), m.context().part_count(), 0));
  const bool slide = m.stride_limbs() * 64 >= static_cast<std::size_t>(tuning::table::kBatchPowmSlidingMinBits) &&
                     group > 1 && !mpgpu::batch::tuned_montgomery_sqr_by_rows(words, group);
  powm(r, base, exp, m, slide ? PowmWindow::sliding : PowmWindow::fixed, s);
}

void powm(Batch& r, const Batch& base, const Batch& exp, const Batch& m, PowmWindow window, Stream s) {
  const char* fn = "powm";
  require_width(fn, {"m", m});
  require_like(fn, {"m", m}, {"base", base});
  require_like(fn, {"m", m}, {"exp", exp}, false);
  if (exp.stride_limbs() > m.stride_limbs())
    invalid(fn, "exp's width class (" + std::to_string(exp.stride_limbs()) + " limbs, for " +
                    std::to_string(exp.bits()) + " bits) is wider than m's (" + std::to_string(m.stride_limbs()) +
                    " limbs, for " + std::to_string(m.bits()) +
                    " bits): exp.stride_limbs() must be at most m.stride_limbs()");
  require_own_stream(fn, m.context(), s);
  require_good_moduli(fn, m, s);
  Destination d(r, m.count(), m.bits(), m.context(), s);
  Call c = make_call(window == PowmWindow::sliding ? Op::powm_sliding : Op::powm, base, d.get());
  c.m = &m;
  c.e = &exp;
  c.args.e_stride = exp.stride_limbs();
  run(m.context(), s, c);
  d.commit();
}

// ---- division -----------------------------------------------------------------------

void div_ui(Batch& q, const Batch& a, std::uint64_t d, Stream s) { divide_ui("div_ui", Op::div_ui, q, a, d, s); }
void rem_ui(Batch& r, const Batch& a, std::uint64_t d, Stream s) { divide_ui("rem_ui", Op::rem_ui, r, a, d, s); }
void div_qr(Batch& q, Batch& r, const Batch& a, const Batch& b, Stream s) { divide("div_qr", &q, &r, a, b, false, s); }
void div(Batch& q, const Batch& a, const Batch& b, Stream s) { divide("div", &q, nullptr, a, b, false, s); }
void rem(Batch& r, const Batch& a, const Batch& b, Stream s) { divide("rem", nullptr, &r, a, b, false, s); }
void div_qr_wide(Batch& q, Batch& r, const Batch& a, const Batch& b, Stream s) {
  divide("div_qr_wide", &q, &r, a, b, true, s);
}
void div_wide(Batch& q, const Batch& a, const Batch& b, Stream s) { divide("div_wide", &q, nullptr, a, b, true, s); }
void rem_wide(Batch& r, const Batch& a, const Batch& b, Stream s) { divide("rem_wide", nullptr, &r, a, b, true, s); }

// ---- gcd and inverse ---------------------------------------------------------------------

void gcd(Batch& r, const Batch& a, const Batch& b, Stream s) { binary("gcd", Op::gcd, r, a, b, s); }

void invert(Batch& r, const Batch& a, const Batch& m, Stream s) {
  const char* fn = "invert";
  require_width(fn, {"m", m});
  require_like(fn, {"m", m}, {"a", a});
  require_own_stream(fn, m.context(), s);
  require_nonzero(fn, {"m", m}, s);
  const Context& ctx = m.context();
  const std::size_t count = m.count();
  Destination d(r, count, m.bits(), ctx, s);
  if (count == 0) return d.commit();
  // Whether an inverse exists is known only once it is computed: compute into
  // a temporary with a status per instance, then check, then copy into r.
  Batch scratch;
  Destination tmp(scratch, count, m.bits(), ctx, s);
  Call c = make_call(Op::invert, a, tmp.get());
  c.m = &m;
  const std::vector<std::uint32_t> status = run_answers(ctx, s, c);
  for (std::size_t i = 0; i < count; ++i)
    if (status[i] != 0) invalid(fn, "instance " + std::to_string(i) + " of a has no inverse modulo m");
  copy(d.get(), tmp.get(), s);
  // The temporary's storage goes back to the pool on the context's own stream.
  if (ctx.is_cuda() && ctx.resolve(s) != ctx.stream()) detail::cuda::synchronize(ctx.resolve(s));
  d.commit();
}

// ---- signed ----------------------------------------------------------------------------

std::vector<int> compare_signed(const Batch& a, const Batch& b, Stream s) {
  const std::vector<std::uint32_t> raw = per_instance("compare_signed", Op::cmp_signed, a, &b, s);
  std::vector<int> out(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) out[i] = static_cast<std::int32_t>(raw[i]);
  return out;
}

void shift_right_arithmetic(Batch& r, const Batch& a, std::size_t count, Stream s) {
  const char* fn = "shift_right_arithmetic";
  require_width(fn, {"a", a});
  // A shift by bits - 1 already leaves only copies of the sign: larger counts
  // give the same, so the backends see counts in (0, bits).
  const std::size_t k = std::min(count, a.bits() - 1);
  require_own_stream(fn, a.context(), s);
  Destination d(r, a.count(), a.bits(), a.context(), s);
  if (k == 0) {
    copy(d.get(), a, s);
  } else {
    Call c = make_call(Op::sar, a, d.get());
    c.args.scalar = k;
    run(a.context(), s, c);
  }
  d.commit();
}

void mul_high_signed(Batch& r, const Batch& a, const Batch& b, Stream s) {
  binary("mul_high_signed", Op::mul_high_signed, r, a, b, s);
}

}  // namespace mpgpu
