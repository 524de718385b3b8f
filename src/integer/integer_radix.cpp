// Radix conversion by divide and conquer (see integer_radix.hpp).
//
// to_string, a level of the tree at a time: with P_k = base^(d 2^k) (d =
// radix_chunk_digits, P_0 < 2^64, P_{k+1} = P_k^2 by mpgpu::sqr), round k
// splits every piece x_i < P_k^2 of the level as x_i = q_i P_k + r_i, all
// pieces at once. They sit in one Integer, a "row" of slots of 2 |P_k| + 2
// limbs (integer_rows.hpp), so each product of the round is one product of
// the whole row (the NTT product, chunked against the short operand): the
// quotients from one Barrett product by a Newton reciprocal of P_k made once
// per round (NewtonDivisor), the remainders from a second product by P_k,
// then one correction step of -P_k where a slot needs it. A level of 2^j
// pieces thus costs two products of the whole number, not 2^j divisions of
// ~0.4-2 ms each one after another. The next row interleaves r_i and q_i
// (least significant piece first); the top slot holds the leading piece,
// written without padding, and is dropped when it became zero (it was
// below P_k). The first round K is the smallest with |x| < B^(2 |P_K| - 2)
// <= P_K^2; the last, the first whose pieces (< P_k) fit in a leaf. The
// leaves become text on the device (device/radix_leaves.cuh: a thread per
// leaf), which comes back in one copy straight into the output string; the
// top leaf, unpadded, goes through GMP.
//
// from_string, the reverse, also a level at a time: the digits are cut from
// the right into leaves of d 2^k0 digits, which GMP parses on host threads
// into one row (slot i = leaf i, least significant first; one copy to the
// context). Level k turns each pair of slots (lo, hi), both < P_k, into
// hi P_k + lo: one product of the row of his by P_k and one addition.
//
// Every operation goes through the context's own arithmetic, so the same
// code runs on the CPU backend (GMP throughout), which is how CI tests it.
#include "integer_radix.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "context/host_parallel.hpp"
#include "digit_values.hpp"
#include "integer_div_paths.hpp"
#include "integer_rows.hpp"
#include "mpgpu/device/radix_leaves.cuh"
#include "mpgpu/error.hpp"
#include "text_buffer.hpp"

namespace mpgpu::detail {

namespace {

/// MPGPU_RADIX_TRACE (environment): prints the time of each phase of a
/// conversion to stderr, the context synchronized at each mark (a tuning
/// aid; it serializes host and device work).
class PhaseTrace {
 public:
  explicit PhaseTrace(const Context& ctx) : ctx_(ctx), on_(std::getenv("MPGPU_RADIX_TRACE") != nullptr) {
    last_ = std::chrono::steady_clock::now();
  }
  void mark(const char* phase, std::size_t detail = 0) {
    if (!on_) return;
    ctx_.synchronize();
    const auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "radix: %-22s %8zu %9.3f ms\n", phase, detail,
                 std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }

 private:
  const Context& ctx_;
  bool on_;
  std::chrono::steady_clock::time_point last_;
};

/// Limbs [begin, begin + count) of x's magnitude (all below its size), in
/// host memory.
std::vector<limb_t> slot_limbs(const Integer& x, std::size_t begin, std::size_t count) {
  std::vector<limb_t> out(count);
  if (count == 0) return out;
  if (!detail::IntegerAccess::host_valid(x))
    cuda::copy_to_host(detail::ContextAccess::state(x.context()), x.context().stream(), out.data(),
                       detail::IntegerAccess::device_data(x) + begin, count * sizeof(limb_t));
  else std::memcpy(out.data(), mpz_limbs_read(detail::IntegerAccess::cpu_mpz(x)) + begin, count * sizeof(limb_t));
  return out;
}

/// The powers P_k = base^(d 2^k), made on demand in the context by squaring.
class RadixPowers {
 public:
  RadixPowers(int base, const Context& ctx) : digits0_(radix_chunk_digits(base)) {
    std::uint64_t p = 1;
    for (int i = 0; i < digits0_; ++i) p *= static_cast<std::uint64_t>(base);
    powers_.emplace_back(p, ctx);
  }
  /// Digits of P_k: P_k = base^digits(k).
  std::size_t digits(std::size_t k) const { return static_cast<std::size_t>(digits0_) << k; }
  const Integer& get(std::size_t k) {
    while (powers_.size() <= k) {
      Integer next(powers_.back().context());
      sqr(next, powers_.back());
      powers_.push_back(std::move(next));
    }
    return powers_[k];
  }
  /// Limbs of P_k, made if needed.
  std::size_t limbs(std::size_t k) { return get(k).size(); }

 private:
  int digits0_;
  std::vector<Integer> powers_;
};

// ---- to_string ---------------------------------------------------------------

/// One round of the level-at-once split (see the file comment): every slot
/// x_i of `row` (m slots of pitch 2 |P_k| + 2, each < P_k^2) becomes
/// x_i = q_i P_k + r_i, and the result is the row of the next level, pitch
/// `next_pitch`, slots r_0 q_0 r_1 q_1 ... with the top q dropped when it is
/// zero (the leading piece was already below P_k). Returns its slot count.
std::size_t split_round(Integer& row, std::size_t m, const Integer& P, std::size_t next_pitch, Stream s,
                        PhaseTrace& trace) {
  const Context& ctx = P.context();
  const std::size_t nd = P.size(), W = 2 * nd + 2;
  // Every slot is < P^2 < 2^(2 pbits); a single slot (the top round) needs
  // a reciprocal only as long as its quotient: the number is often just
  // above P (2^30 bits: |P_24| = 0.986 * 2^24 limbs), and a full-length
  // reciprocal of P would cost several products of the whole number.
  const std::uint64_t pbits = sizeinbase2(P), dividend_bits = m == 1 ? sizeinbase2(row) : 2 * pbits;
  const NewtonDivisor divisor(P, std::max(dividend_bits, pbits), s);
  trace.mark(" reciprocal", m);
  // X ~ 2^shift / P within 16 (relative error below 2^-(sbits-3) on a value
  // below 2^(sbits+1)); X - 16 is below 2^shift / P, so every estimate
  // Q'_i = floor(floor(x_i / B^jl) (X - 16) / 2^(shift - 64 jl)) is q_i or
  // q_i - 1 (the truncations only lower it, by less than 1 + 2^-60 in all).
  Integer X(ctx);
  sub(X, divisor.reciprocal(), Integer(16, ctx), s);
  const std::size_t jl = static_cast<std::size_t>(divisor.max_truncation() / 64);
  const std::size_t top_width = 2 * nd > jl ? 2 * nd - jl : 1, Wa = top_width + X.size() + 1;
  Integer A(ctx), Q(ctx), T(ctx), R(ctx);
  gather_slots(A, m, Wa, {{&row, W, W, 64 * std::uint64_t(jl), top_width}}, s);
  mul(A, A, X, s);  // slot products fit in Wa limbs: the slots stay apart
  gather_slots(Q, m, W, {{&A, Wa, Wa, divisor.quotient_shift() - 64 * std::uint64_t(jl), nd + 1}}, s);
  A = Integer(ctx);
  trace.mark(" quotients");
  // R_i = x_i - Q'_i P = (q_i - Q'_i) P + r_i, in [0, 2 P): no slot borrows
  // from the next.
  mul(T, Q, P, s);
  sub(R, row, T, s);
  row = Integer(ctx);
  if (R.sign() < 0) throw Error("mpgpu: internal: a radix row quotient came out too large");
  trace.mark(" remainders");
  // Slots with R_i >= P step once: T = R + (B^(W-1) - P) per slot has its
  // top limb set exactly there (correct_slots), and q_i = Q'_i + count_i.
  // A second step would mean a wrong estimate: the loop allows it and stops
  // with an error after that.
  Integer offset(ctx), offset_row(ctx);
  sub(offset, Integer::power_of_two(64 * std::uint64_t(W - 1), ctx), P, s);
  gather_slots(offset_row, m, W, {{&offset, 0, offset.size(), 0, offset.size()}}, s);
  for (int steps = 0;; ++steps) {
    add(T, R, offset_row, s);
    Integer counts(ctx);
    if (!correct_slots(R, counts, T, m, W, s)) break;
    if (steps == 2) throw Error("mpgpu: internal: a radix row division needed more than 2 corrections");
    add(Q, Q, counts, s);
  }
  trace.mark(" corrections");
  const std::size_t next = Q.size() > (m - 1) * W ? 2 * m : 2 * m - 1;
  gather_slots(row, next, next_pitch, {{&R, W, W, 0, nd}, {&Q, W, W, 0, nd}}, s);
  return next;
}

}  // namespace

std::size_t radix_device_min_limbs(const Context& ctx) {
  return detail::ContextAccess::state(ctx).tuning.radix_min_limbs;
}

std::size_t radix_leaf_limbs(const Context& ctx, std::size_t fallback) {
  const std::size_t forced = detail::ContextAccess::state(ctx).tuning.radix_leaf_limbs;
  return forced != 0 ? forced : fallback;
}

int radix_chunk_digits(int base) {
  if (base < 2 || base > 62) throw InvalidArgument("mpgpu: radix base " + std::to_string(base) + " out of range");
  int d = 0;
  unsigned __int128 p = 1;
  while (p * static_cast<unsigned>(base) < (static_cast<unsigned __int128>(1) << 64)) {
    p *= static_cast<unsigned>(base);
    ++d;
  }
  return d;
}

std::string radix_to_string_dc(const Integer& x, int base, std::size_t leaf_limbs) {
  if (base < 2 || base > 62)
    throw InvalidArgument("mpgpu::Integer::to_string: base " + std::to_string(base) +
                          " is out of range (expected 2..62)");
  leaf_limbs = std::max<std::size_t>(leaf_limbs, 1);
  const Context& ctx = x.context();
  const bool negative = x.sign() < 0;
  Integer row(ctx);
  abs(row, x);
  const std::size_t n = row.size();
  RadixPowers powers(base, ctx);
  PhaseTrace trace(ctx);
  // The top round K: the smallest with n <= 2 |P_K| - 2, so that
  // |x| < B^(2 |P_K| - 2) <= P_K^2. Round k splits every slot by P_k; the
  // last is the first whose pieces (< P_k) fit in a leaf.
  std::size_t m = 1, pitch = n, leaf_k = 0;
  bool split = n > leaf_limbs;
  if (split) {
    std::size_t k = 0;
    while (2 * powers.limbs(k) < n + 2) ++k;
    trace.mark("to_string powers", k);
    for (;; --k) {
      const Integer& P = powers.get(k);
      const bool last = k == 0 || P.size() <= leaf_limbs;
      pitch = last ? P.size() : 2 * powers.limbs(k - 1) + 2;
      m = split_round(row, m, P, pitch, {}, trace);
      trace.mark("to_string round", P.size());
      if (last) {
        leaf_k = k;
        break;
      }
    }
  }

  // The leaves: the top slot (the leading piece, no padding) by GMP on the
  // host; every other slot with exactly digits(leaf_k) digits by
  // leaf_to_text (device/radix_leaves.cuh): on the device for a CUDA
  // context (the text then comes back in one copy), on host threads for the
  // CPU context.
  const std::size_t total = row.size(), top_begin = std::min((m - 1) * pitch, total);
  const std::vector<limb_t> top_limbs = slot_limbs(row, top_begin, total - top_begin);
  mpz_t top;
  mpz_roinit_n(top, top_limbs.data(), static_cast<mp_size_t>(top_limbs.size()));
  std::string head(mpz_sizeinbase(top, base) + 2, '\0');
  mpz_get_str(head.data(), base, top);
  head.resize(std::strlen(head.c_str()));
  trace.mark("to_string top leaf", top_limbs.size());
  const std::size_t width = split ? powers.digits(leaf_k) : 0, lead = (negative ? 1 : 0) + head.size();
  device::RadixAlphabet alphabet{};
  std::memcpy(alphabet.c,
              base <= 36 ? "0123456789abcdefghijklmnopqrstuvwxyz" : "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
              static_cast<std::size_t>(base));
  const device::LimbDivisor chunk = device::make_limb_divisor(powers.get(0).to_uint64());
  const int chunk_digits = radix_chunk_digits(base);
  bool fits = true;
  std::string out = make_text(lead + (m - 1) * width, [&](char* text) {
    if (negative) text[0] = '-';
    std::memcpy(text + (negative ? 1 : 0), head.data(), head.size());
    char* leaves = text + lead;
    const std::size_t slots = m - 1;
    if (ctx.is_cuda()) {
      // Pages touched on host threads first: the copy back would fault
      // through hundreds of MB alone.
      parallel_ranges(slots * width, std::size_t{1} << 22,
                      [&](std::size_t b, std::size_t e) { std::memset(leaves + b, '0', e - b); });
      fits = cuda::radix_leaves_to_text(detail::ContextAccess::state(ctx), ctx.stream(), leaves,
                                        detail::IntegerAccess::device_data(row), total, slots, pitch, width, chunk,
                                        chunk_digits, base, alphabet);
      return;
    }
    const limb_t* limbs = mpz_limbs_read(detail::IntegerAccess::cpu_mpz(row));
    std::atomic<bool> all_fit{true};
    parallel_for(slots, [&](std::size_t i) {
      const std::size_t begin = std::min(i * pitch, total), n = std::min(pitch, total - begin);
      thread_local std::vector<limb_t> slot;
      slot.assign(limbs + begin, limbs + begin + n);
      if (!device::leaf_to_text(slot.data(), n, leaves + (slots - 1 - i) * width, width, chunk, chunk_digits,
                                static_cast<unsigned>(base), alphabet.c))
        all_fit = false;
    });
    fits = all_fit;
  });
  if (!fits) throw Error("mpgpu::Integer::to_string: a radix piece overflowed its digits (a library bug)");
  trace.mark("to_string leaves text", m);
  return out;
}

// ---- from_string -------------------------------------------------------------

Integer radix_from_digits_dc(std::string_view digits, int base, bool negative, const Context& ctx,
                             std::size_t leaf_limbs) {
  if (base < 2 || base > 62)
    throw InvalidArgument("mpgpu::Integer::from_string: base " + std::to_string(base) +
                          " is out of range (expected 2..62)");
  if (digits.empty()) throw InvalidArgument("mpgpu::Integer::from_string: no digits");
  RadixPowers powers(base, ctx);
  PhaseTrace trace(ctx);
  // Leaves of digits(k0) digits (2^k0 <= leaf_limbs chunks), cut from the
  // right; slot i (least significant first) holds the value of leaf i, the
  // top one shorter. Parsed by GMP on host threads into one host row, which
  // goes to the context in one copy.
  std::size_t k0 = 0;
  while ((std::size_t{2} << k0) <= std::max<std::size_t>(leaf_limbs, 1)) ++k0;
  const std::size_t leaf_digits = powers.digits(k0), len = digits.size();
  std::size_t m = (len + leaf_digits - 1) / leaf_digits, pitch = powers.limbs(k0);
  Integer row(ctx);
  {
    std::unique_ptr<limb_t[]> host(new limb_t[m * pitch]);  // every limb written below
    const DigitValues values(base);
    parallel_for(m, [&](std::size_t i) {
      const std::size_t end = len - i * leaf_digits, begin = end > leaf_digits ? end - leaf_digits : 0;
      thread_local std::vector<unsigned char> text;
      thread_local std::vector<limb_t> value;
      text.resize(end - begin);
      for (std::size_t j = begin; j < end; ++j) text[j - begin] = values(digits[j]);
      value.resize(pitch + 1);  // mpn_set_str: room for base^len - 1 and one limb more
      std::size_t n = mpn_set_str(value.data(), text.data(), text.size(), base);
      while (n > pitch && value[n - 1] == 0) --n;
      if (n > pitch) throw Error("mpgpu: internal: a radix leaf larger than its power");
      limb_t* slot = host.get() + i * pitch;
      std::copy(value.data(), value.data() + n, slot);
      std::fill(slot + n, slot + pitch, limb_t{0});
    });
    trace.mark("from_string leaves", m);
    row = Integer::from_limbs(host.get(), m * pitch, 1, ctx);
    trace.mark("from_string leaves in", m * pitch);
  }
  // Level k: every pair of slots (lo, hi), each < P_k, becomes hi P_k + lo
  // < P_k^2 <= B^(2 |P_k|): one product of the row of his by P_k and one
  // addition, with the slots 2 |P_k| limbs apart so that they never meet.
  for (std::size_t k = k0; m > 1; ++k) {
    const Integer& P = powers.get(k);
    const std::size_t nd = P.size(), next = (m + 1) / 2, next_pitch = 2 * nd;
    Integer hi(ctx), lo(ctx);
    gather_slots(hi, next, next_pitch, {{&row, 2 * pitch, 2 * pitch, 64 * std::uint64_t(pitch), nd}});
    gather_slots(lo, next, next_pitch, {{&row, 2 * pitch, 2 * pitch, 0, nd}});
    row = Integer(ctx);
    mul(hi, hi, P);
    add(row, hi, lo);
    m = next;
    pitch = next_pitch;
    trace.mark("from_string level", nd);
  }
  if (negative) neg(row, row);
  return row;
}

}  // namespace mpgpu::detail
