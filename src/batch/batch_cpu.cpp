// The CPU backend of the batch operations: GMP's mpn layer on each instance,
// instances split over threads.
//
// Each instance is computed into per-thread scratch and then written, so r
// may be any operand (an instance is read completely before it is written).
// Operands are at most data_limbs(bits) limbs long (the padding is zero), so
// most operations work on those limbs only; Montgomery arithmetic needs the
// class width, since R = 2^(64 * stride).
#include <gmp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <thread>
#include <type_traits>
#include <vector>

#include "batch_backend.hpp"
#include "batch_layout.hpp"

namespace mpgpu::detail::batch {

static_assert(std::is_same_v<limb_t, mp_limb_t>, "instances are handed to GMP's mpn functions unchanged");

namespace {

/// -x^-1 mod 2^64 for odd x (Newton: x is its own inverse mod 8, and each
/// step doubles the correct low bits: 3, 6, 12, 24, 48, 96).
limb_t negated_inverse(limb_t x) {
  limb_t inv = x;
  for (int i = 0; i < 5; ++i) inv *= 2 - x * inv;
  return limb_t{0} - inv;
}

std::size_t bit_length(const limb_t* x, std::size_t n) {
  n = normalized_limbs(x, n);
  return n ? 64 * (n - 1) + static_cast<std::size_t>(std::bit_width(x[n - 1])) : 0;
}

/// One thread's worker: its scratch, sized once for the call's operation, and
/// the code for one instance.
class Worker {
 public:
  explicit Worker(const Args& args)
      : a_(args), n_(data_limbs(args.bits)),
        direct_(args.r && args.r_stride == args.stride && args.r_bits == args.bits && args.b_step() == args.stride &&
                is_elementwise(args.op)),
        t_(2 * args.stride + 2), u_(2 * args.stride + 2), q_(2 * args.stride + 2) {
    for (mpz_t& z : z_) mpz_init2(z, 64 * (2 * args.stride + 2));  // room for any result or product
    mpz_set_ui(z_[3], 0);
    mpz_setbit(z_[3], args.bits);  // 2^bits: signed values are x - 2^bits
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  Worker(Worker&& o) noexcept
      : a_(o.a_), n_(o.n_), direct_(o.direct_), t_(std::move(o.t_)), u_(std::move(o.u_)), q_(std::move(o.q_)) {
    for (int k = 0; k < 4; ++k) {
      mpz_init(z_[k]);
      mpz_swap(z_[k], o.z_[k]);
    }
  }
  ~Worker() {
    for (mpz_t& z : z_) mpz_clear(z);
  }

  /// Instances [begin, end). An elementwise op into an r shaped as a goes
  /// straight into r, in a loop of its own: the copy through t_ and the
  /// per-instance dispatch cost more than the arithmetic (docs/tuning-history.md,
  /// "CPU batch").
  void run_range(std::size_t begin, std::size_t end) {
    if (!direct_) {
      for (std::size_t i = begin; i < end; ++i) run(i);
      return;
    }
    // Locals: the mpn calls are opaque, so fields read through a_ would be
    // reloaded after each one.
    const std::size_t stride = a_.stride, bits = a_.bits;
    limb_t* r = a_.r + begin * stride;
    const limb_t* a = a_.a + begin * stride;
    const limb_t* b = a_.b ? a_.b + begin * stride : a;  // unread by the unary ops
    with_elementwise_op(a_.op, [&](auto op) {
      for (std::size_t i = begin; i < end; ++i, r += stride, a += stride, b += stride) {
        elementwise<decltype(op)::value>(i, r, a, b);
        mask_instance(r, stride, bits);
      }
    });
  }

  void run(std::size_t i) {
    const limb_t* a = a_.a + i * a_.stride;
    const limb_t* b = a_.b ? a_.b + i * a_.b_step() : nullptr;
    switch (a_.op) {
      case Op::compare: {
        const int c = mpn_cmp(a, b, sz(n_));
        a_.answers[i] = static_cast<std::uint32_t>(static_cast<std::int32_t>((c > 0) - (c < 0)));
        return;
      }
      case Op::popcount:
        a_.answers[i] = static_cast<std::uint32_t>(mpn_popcount(a, sz(n_)));
        return;
      case Op::clz:
        a_.answers[i] = static_cast<std::uint32_t>(a_.bits - bit_length(a, n_));
        return;
      case Op::ctz:
        a_.answers[i] = static_cast<std::uint32_t>(trailing_zeros(a));
        return;
      case Op::cmp_signed: {
        // Different signs: the negative one is smaller; equal signs order as unsigned.
        const limb_t sa = sign_bit(a), sb = sign_bit(b);
        const int c = sa != sb ? (sa ? -1 : 1) : mpn_cmp(a, b, sz(n_));
        a_.answers[i] = static_cast<std::uint32_t>(static_cast<std::int32_t>((c > 0) - (c < 0)));
        return;
      }
      default:
        break;
    }
    const std::size_t rn = compute(i, a, b);  // the result's limbs, in t_
    if (!a_.r) return;  // rem: only r2 was written
    limb_t* r = a_.r + i * a_.r_stride;
    std::copy_n(t_.data(), std::min(rn, a_.r_stride), r);
    std::fill(r + std::min(rn, a_.r_stride), r + a_.r_stride, limb_t{0});
    mask_instance(r, a_.r_stride, a_.r_bits);
  }

 private:
  mp_size_t sz(std::size_t n) const { return static_cast<mp_size_t>(n); }

  /// Bit bits - 1 of x: the sign of a two's complement operand.
  limb_t sign_bit(const limb_t* x) const { return (x[(a_.bits - 1) / 64] >> ((a_.bits - 1) % 64)) & 1; }

  /// z = x as a signed number of `bits` bits.
  void signed_value(mpz_ptr z, const limb_t* x) const {
    mpz_t view;
    mpz_roinit_n(view, x, sz(normalized_limbs(x, n_)));
    if (sign_bit(x)) mpz_sub(z, view, z_[3]);
    else mpz_set(z, view);
  }

  /// t_[0, n) = z for 0 <= z < 2^(64 n).
  void from_mpz(mpz_srcptr z) {
    std::fill_n(t_.data(), n_, limb_t{0});
    std::copy_n(mpz_limbs_read(z), mpz_size(z), t_.data());
  }

  /// t_ = floor(a / b), u_ = a mod b, n limbs each, for b != 0 (b may be
  /// stored narrower than a: its b_step() limbs).
  void divide(const limb_t* a, const limb_t* b) {
    const std::size_t an = normalized_limbs(a, n_), bn = normalized_limbs(b, std::min(n_, a_.b_step()));
    std::fill_n(t_.data(), n_, limb_t{0});
    std::fill_n(u_.data(), n_, limb_t{0});
    if (an < bn) {
      std::copy_n(a, n_, u_.data());
      return;
    }
    mpn_tdiv_qr(t_.data(), u_.data(), 0, a, sz(an), b, sz(bn));
  }

  std::size_t trailing_zeros(const limb_t* a) const {
    for (std::size_t j = 0; j < n_; ++j)
      if (a[j]) return 64 * j + static_cast<std::size_t>(std::countr_zero(a[j]));
    return a_.bits;
  }

  /// t_[0, 2n) = a * b over the data limbs (normalized sizes, as mpz_mul).
  void product(const limb_t* a, const limb_t* b) {
    std::fill_n(t_.data(), 2 * n_, limb_t{0});
    std::size_t an = normalized_limbs(a, n_), bn = normalized_limbs(b, n_);
    if (!an || !bn) return;
    if (a == b) {
      mpn_sqr(t_.data(), a, sz(an));
      return;
    }
    if (an < bn) {
      std::swap(a, b);
      std::swap(an, bn);
    }
    mpn_mul(t_.data(), a, sz(an), b, sz(bn));
  }

  /// out[0, n) = a << s mod 2^(64 n), for 0 < s < bits.
  void shift_left(limb_t* out, const limb_t* a, std::size_t s) const {
    const std::size_t q = s / 64, bit = s % 64;
    std::fill_n(out, q, limb_t{0});
    if (bit) mpn_lshift(out + q, a, sz(n_ - q), static_cast<unsigned>(bit));
    else std::copy_n(a, n_ - q, out + q);
  }
  /// out[0, n) = a >> s, for 0 < s < bits.
  void shift_right(limb_t* out, const limb_t* a, std::size_t s) const {
    const std::size_t q = s / 64, bit = s % 64;
    if (bit) mpn_rshift(out, a + q, sz(n_ - q), static_cast<unsigned>(bit));
    else std::copy_n(a + q, n_ - q, out);
    std::fill(out + (n_ - q), out + n_, limb_t{0});
  }
  /// t_ = (a << s) | (a >> (bits - s)): rotation within the width, once the
  /// final write has masked off the bits shifted past it.
  void rotate_left(const limb_t* a, std::size_t s) {
    shift_left(t_.data(), a, s);
    shift_right(u_.data(), a, a_.bits - s);
    mpn_ior_n(t_.data(), t_.data(), u_.data(), sz(n_));
  }

  /// t_[0, mn) = x mod m, m normalized to mn limbs (top limb nonzero), x of xn
  /// limbs in u_ or elsewhere (not t_). Returns mn.
  std::size_t reduce(const limb_t* x, std::size_t xn, const limb_t* m, std::size_t mn) {
    xn = normalized_limbs(x, xn);
    std::fill_n(t_.data(), mn, limb_t{0});
    if (xn < mn) {
      std::copy_n(x, xn, t_.data());
      return mn;
    }
    // xn - mn + 1 <= 2 stride + 1: q_ never grows, so a thread never allocates.
    mpn_tdiv_qr(q_.data(), t_.data(), 0, x, sz(xn), m, sz(mn));
    return mn;
  }

  /// Montgomery reduction with R = 2^(64 stride) of the 2 stride + 1 limbs in
  /// u_, then an exact reduction: t_ = u_ / R mod m, for any u_ < R^2.
  std::size_t redc(const limb_t* m, std::size_t mn) {
    const std::size_t k = a_.stride;
    limb_t* u = u_.data();
    const limb_t minv = negated_inverse(m[0]);
    for (std::size_t i = 0; i < k; ++i) {
      // Adding q m with q = -u[i] / m mod 2^64 clears limb i.
      limb_t c = mpn_addmul_1(u + i, m, sz(mn), u[i] * minv);
      // u + Q m < R^2 + R m < 2^(64 (2k + 1)), so the carry stops inside u_.
      for (std::size_t j = i + mn; c; ++j) {
        u[j] += c;
        c = u[j] < c;
      }
    }
    // u_[k, 2k] = (u + Q m) / R < R + m: one more exact reduction makes it < m.
    return reduce(u + k, k + 1, m, mn);
  }

  /// Operations of one pass over the data limbs: t[0, n) = op(a, b), where t
  /// may be a or b itself (GMP allows its mpn calls in place).
  static bool is_elementwise(Op op) {
    return with_elementwise_op(op, [](auto) {});
  }
  template <Op kOp>
  void elementwise(std::size_t i, limb_t* t, const limb_t* a, const limb_t* b) {
    const mp_size_t n = sz(n_);
    if constexpr (kOp == Op::add) {
      const limb_t c = mpn_add_n(t, a, b, n);
      // Below 64 n bits the sum fits and the carry is bit `bits` of it.
      write_flag(i, a_.bits == 64 * n_ ? c : (t[a_.bits / 64] >> (a_.bits % 64)) & 1);
    } else if constexpr (kOp == Op::sub) {
      write_flag(i, mpn_sub_n(t, a, b, n));  // a, b < 2^bits: the n-limb borrow says a < b
    } else if constexpr (kOp == Op::add_ui) {
      mpn_add_1(t, a, n, a_.scalar);
    } else if constexpr (kOp == Op::sub_ui) {
      mpn_sub_1(t, a, n, a_.scalar);  // wraps mod 2^(64 n); the mask takes it mod 2^bits
    } else if constexpr (kOp == Op::mul_ui) {
      mpn_mul_1(t, a, n, a_.scalar);
    } else if constexpr (kOp == Op::and_) {
      mpn_and_n(t, a, b, n);
    } else if constexpr (kOp == Op::ior) {
      mpn_ior_n(t, a, b, n);
    } else if constexpr (kOp == Op::xor_) {
      mpn_xor_n(t, a, b, n);
    } else {
      static_assert(kOp == Op::com, "with_elementwise_op lists the ops");
      mpn_com(t, a, n);
    }
  }
  /// Calls f(std::integral_constant<Op, op>) if op is one of elementwise's;
  /// returns whether it was.
  template <class F>
  static bool with_elementwise_op(Op op, F f) {
    switch (op) {
      case Op::add: return f(std::integral_constant<Op, Op::add>{}), true;
      case Op::sub: return f(std::integral_constant<Op, Op::sub>{}), true;
      case Op::add_ui: return f(std::integral_constant<Op, Op::add_ui>{}), true;
      case Op::sub_ui: return f(std::integral_constant<Op, Op::sub_ui>{}), true;
      case Op::mul_ui: return f(std::integral_constant<Op, Op::mul_ui>{}), true;
      case Op::and_: return f(std::integral_constant<Op, Op::and_>{}), true;
      case Op::ior: return f(std::integral_constant<Op, Op::ior>{}), true;
      case Op::xor_: return f(std::integral_constant<Op, Op::xor_>{}), true;
      case Op::com: return f(std::integral_constant<Op, Op::com>{}), true;
      default: return false;
    }
  }

  /// The result of one instance into t_; returns its limbs.
  std::size_t compute(std::size_t i, const limb_t* a, const limb_t* b) {
    limb_t* t = t_.data();
    const std::size_t n = n_;
    if (with_elementwise_op(a_.op, [&](auto op) { elementwise<decltype(op)::value>(i, t, a, b); })) return n;
    switch (a_.op) {
      case Op::mul_low:
        product(a, b);
        return n;
      case Op::sqr:
        product(a, a);
        return n;
      case Op::mul_wide:
        product(a, b);
        return 2 * n;
      case Op::mul_high: {
        product(a, b);
        // floor(a b / 2^bits), at the logical width: limbs from bits / 64 on.
        const std::size_t q = a_.bits / 64, bit = a_.bits % 64;
        if (bit) mpn_rshift(u_.data(), t + q, sz(2 * n - q), static_cast<unsigned>(bit));
        else std::copy_n(t + q, 2 * n - q, u_.data());
        std::copy_n(u_.data(), n, t);
        return n;
      }
      case Op::shl:
        shift_left(t, a, a_.scalar);
        return n;
      case Op::shr:
        shift_right(t, a, a_.scalar);
        return n;
      case Op::rotl:
        rotate_left(a, a_.scalar);
        return n;
      case Op::rotr:
        rotate_left(a, a_.bits - a_.scalar);
        return n;
      case Op::to_mont: {
        // a R mod m: a shifted up by the class width, then divided.
        const limb_t* m = a_.m + i * a_.stride;
        const std::size_t k = a_.stride;
        std::fill_n(u_.data(), k, limb_t{0});
        std::copy_n(a, k, u_.data() + k);
        return reduce(u_.data(), 2 * k, m, normalized_limbs(m, k));
      }
      case Op::from_mont: {
        const limb_t* m = a_.m + i * a_.stride;
        std::fill_n(u_.data(), 2 * a_.stride + 1, limb_t{0});
        std::copy_n(a, n, u_.data());
        return redc(m, normalized_limbs(m, a_.stride));
      }
      case Op::mont_mul:
      case Op::mont_sqr: {
        const limb_t* m = a_.m + i * a_.stride;
        product(a, a_.op == Op::mont_sqr ? a : b);
        std::fill_n(u_.data(), 2 * a_.stride + 1, limb_t{0});
        std::copy_n(t, 2 * n, u_.data());
        return redc(m, normalized_limbs(m, a_.stride));
      }
      case Op::mont_reduce: {
        // b < 2^(2 bits) <= R^2 has at most 2 stride limbs: redc takes any u_ < R^2.
        const limb_t* m = a_.m + i * a_.stride;
        std::fill_n(u_.data(), 2 * a_.stride + 1, limb_t{0});
        std::copy_n(b, std::min(a_.b_step(), 2 * a_.stride), u_.data());
        return redc(m, normalized_limbs(m, a_.stride));
      }
      case Op::powm:
      case Op::powm_sliding: {
        const limb_t* m = a_.m + i * a_.stride;
        const limb_t* e = a_.e + i * a_.e_stride;
        mpz_t base, exp, mod;
        mpz_roinit_n(base, a, sz(normalized_limbs(a, n)));
        mpz_roinit_n(exp, e, sz(normalized_limbs(e, a_.e_stride)));
        mpz_roinit_n(mod, m, sz(normalized_limbs(m, n)));
        mpz_powm(z_[0], base, exp, mod);  // exp == 0 gives 1 (m > 1 here)
        from_mpz(z_[0]);
        return n;
      }
      case Op::div_ui:
        mpn_divrem_1(t, 0, a, sz(n), static_cast<limb_t>(a_.scalar));
        return n;
      case Op::rem_ui:
        std::fill_n(t, n, limb_t{0});
        t[0] = mpn_mod_1(a, sz(n), static_cast<limb_t>(a_.scalar));
        return n;
      case Op::div_qr:
        divide(a, b);
        if (a_.r2) {  // r2 may be narrower than a: the remainder, below b, fits
          const std::size_t step = a_.r2_step(), kept = std::min(n, step);
          limb_t* r2 = a_.r2 + i * step;
          std::copy_n(u_.data(), kept, r2);
          std::fill(r2 + kept, r2 + step, limb_t{0});
        }
        return n;
      case Op::gcd: {
        mpz_t x, y;
        mpz_roinit_n(x, a, sz(normalized_limbs(a, n)));
        mpz_roinit_n(y, b, sz(normalized_limbs(b, n)));
        mpz_gcd(z_[0], x, y);
        from_mpz(z_[0]);
        return n;
      }
      case Op::invert: {
        const limb_t* m = a_.m + i * a_.stride;
        mpz_t x, mod;
        mpz_roinit_n(x, a, sz(normalized_limbs(a, n)));
        mpz_roinit_n(mod, m, sz(normalized_limbs(m, n)));
        // The status follows the device API's: 1 for m == 0, 2 for no inverse.
        std::uint32_t status = mpz_sgn(mod) == 0 ? 1 : mpz_invert(z_[0], x, mod) ? 0 : 2;
        if (status) mpz_set_ui(z_[0], 0);
        a_.answers[i] = status;
        from_mpz(z_[0]);
        return n;
      }
      case Op::sar:
        if (!sign_bit(a)) {
          shift_right(t, a, a_.scalar);
          return n;
        }
        // ~(~a >> k): ones come in from the top (the write masks them to the width).
        mpn_com(u_.data(), a, sz(n));
        mask_instance(u_.data(), n, a_.bits);  // ~a within the width: no ones from above it
        shift_right(t, u_.data(), a_.scalar);
        mpn_com(t, t, sz(n));
        return n;
      case Op::mul_high_signed:
        signed_value(z_[1], a);
        signed_value(z_[2], b);
        mpz_mul(z_[0], z_[1], z_[2]);
        mpz_fdiv_q_2exp(z_[0], z_[0], a_.bits);
        mpz_fdiv_r_2exp(z_[0], z_[0], a_.bits);  // two's complement
        from_mpz(z_[0]);
        return n;
      default:
        return 0;
    }
  }

  void write_flag(std::size_t i, limb_t bit) {
    if (!a_.flag) return;
    limb_t* f = a_.flag + i * a_.flag_stride;
    f[0] = bit;
    std::fill(f + 1, f + a_.flag_stride, limb_t{0});
  }

  const Args& a_;
  std::size_t n_;  // data limbs of a, b, m
  bool direct_;    // an elementwise op into an r shaped as a: no copy through t_
  std::vector<limb_t> t_, u_, q_;  // result, second operand or product, quotient
  mpz_t z_[4];  // a result, two signed operands, 2^bits
};

/// A rough count of limb operations per instance, to decide whether threads pay.
double instance_cost(const Args& args) {
  const double n = static_cast<double>(data_limbs(args.bits));
  const double k = static_cast<double>(args.stride);
  switch (args.op) {
    case Op::mul_low:
    case Op::mul_high:
    case Op::mul_wide:
    case Op::sqr:
    case Op::div_qr:
    case Op::gcd:
    case Op::invert:
    case Op::mul_high_signed:
      return n * n;
    case Op::to_mont:
    case Op::from_mont:
    case Op::mont_mul:
    case Op::mont_sqr:
    case Op::mont_reduce:
      return 2 * k * k;
    case Op::powm:
    case Op::powm_sliding:
      return 64.0 * static_cast<double>(args.e_stride) * 2 * k * k;
    default:
      return n;
  }
}

}  // namespace

void run_cpu(const Args& args) {
  if (args.count == 0) return;
  // A thread costs tens of microseconds to start; 2^18 limb operations take
  // a few hundred, so each thread gets at least that much work.
  constexpr double kWorkPerThread = double(1 << 18);
  const double work = instance_cost(args) * static_cast<double>(args.count);
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads =
      std::min({cores, args.count, static_cast<std::size_t>(work / kWorkPerThread) + 1});
  // Scratch is allocated here, so no thread throws (GMP's own allocations,
  // in mpz_powm, abort on exhausted memory as they do everywhere).
  std::vector<Worker> workers;
  workers.reserve(threads);
  for (std::size_t t = 0; t < threads; ++t) workers.emplace_back(args);
  if (threads == 1) {
    workers[0].run_range(0, args.count);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  const std::size_t per = (args.count + threads - 1) / threads;
  auto range = [&](std::size_t t) {
    const std::size_t end = std::min(args.count, (t + 1) * per);
    workers[t].run_range(t * per, end);
  };
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(range, t);
  range(0);
  for (std::thread& th : pool) th.join();
}

}  // namespace mpgpu::detail::batch
