// cgbn_env_t<context, BITS>: CGBN's environment of one width, its number
// types and its operations, each run on mpgpu's Env (shape.h, frame.h) by
// the functions of arith.h, bits.h, wide.h, sqrt.h, accumulator.h,
// montgomery.h, power.h and barrett.h. Errors are reported as CGBN reports
// them, when the context's monitor asks for checks.
#pragma once

#include "accumulator.h"
#include "barrett.h"
#include "bits.h"
#include "context.h"
#include "frame.h"
#include "montgomery.h"
#include "power.h"
#include "set_width.h"
#include "sqrt.h"

template <class context_t, uint32_t bits, cgbn_syncable_t syncable = cgbn_instance_syncable>
class cgbn_env_t {
 public:
  static const uint32_t BITS = bits;
  static const uint32_t TPB = context_t::TPB;
  static const uint32_t TPI = context_t::TPI;
  static const uint32_t MAX_ROTATION = context_t::MAX_ROTATION;
  static const uint32_t SHM_LIMIT = context_t::SHM_LIMIT;
  static const bool CONSTANT_TIME = context_t::CONSTANT_TIME;
  static const cgbn_syncable_t SYNCABLE = syncable;

  using shape_t = mpgpu::compat::cgbn_detail::Shape<bits, static_cast<int>(context_t::TPI),
                                                    mpgpu::compat::cgbn_detail::single_thread>;
  using E = typename shape_t::E;
  using Num = typename E::Num;
  static const int N = static_cast<int>(bits);
  static const uint32_t LIMBS = shape_t::L;  ///< words a thread holds (mpgpu's L)
  static const uint32_t LOCAL_LIMBS = shape_t::L;
  static const uint32_t UNPADDED_BITS = 32 * shape_t::W;

  struct cgbn_t : Num {
    typedef cgbn_env_t parent_env_t;
  };
  struct cgbn_wide_t {
    cgbn_t _low, _high;
  };
  struct cgbn_local_t {
    uint32_t _limbs[shape_t::L];
  };
  struct cgbn_accumulator_t : mpgpu::compat::cgbn_detail::Accumulator<E> {};

  const context_t& _context;

  MPGPU_HD explicit cgbn_env_t(const context_t& context) : _context(context) {
#if defined(__CUDA_ARCH__)
    // More warps than the static scratch has slots for would share scratch.
    if (blockDim.x > 32u * mpgpu::compat::cgbn_detail::block_warps<shape_t, TPB>) {
      if ((threadIdx.x & 31u) == 0)
        printf("mpgpu cgbn.h: %u threads a block, more than the %d the scratch of %u bits has room for "
               "(set the parameters' TPB or define MPGPU_CGBN_MAX_BLOCK_THREADS)\n",
               blockDim.x, 32 * mpgpu::compat::cgbn_detail::block_warps<shape_t, TPB>, bits);
      if (_context.check_errors()) _context.report_error(cgbn_threads_per_block_mismatch);
      __trap();
    }
#endif
  }

 private:
  using Frame = mpgpu::compat::cgbn_detail::Frame<shape_t>;
  MPGPU_HD static int rank() { return mpgpu::compat::cgbn_detail::lane_in_warp() & (shape_t::G - 1); }
  MPGPU_HD static mpgpu::batch::word_t* scratch() { return mpgpu::compat::cgbn_detail::scratch<shape_t, TPB>(); }
  MPGPU_HD void report(bool failed, cgbn_error_t error) const {
    if (failed && _context.check_errors()) _context.report_error(error);
  }

 public:
  // ---- basic arithmetic -------------------------------------------------------------------
  MPGPU_HD void set(cgbn_t& r, const cgbn_t& a) const { r = a; }
  /// r = source mod 2^BITS for a number of another width (set_width.h).
  /// Another TPI: reported (cgbn_threads_per_instance_mismatch) and r
  /// unchanged (CGBN reports it and returns).
  template <class source_cgbn_t>
  MPGPU_HD void set(cgbn_t& r, const source_cgbn_t& source) const {
    using source_env_t = typename source_cgbn_t::parent_env_t;
    if constexpr (source_env_t::TPI != TPI) {
      report(true, cgbn_threads_per_instance_mismatch);
    } else {
      Frame f(rank(), scratch());
      Num t;
      mpgpu::compat::cgbn_detail::set_width<shape_t, typename source_env_t::shape_t>(t, source);
      mpgpu::compat::cgbn_detail::fit<N>(f.e, t);
      static_cast<Num&>(r) = t;
    }
  }
  MPGPU_HD void swap(cgbn_t& r, cgbn_t& a) const {
    const cgbn_t t = r;
    r = a;
    a = t;
  }
  MPGPU_HD int32_t add(cgbn_t& r, const cgbn_t& a, const cgbn_t& b) const {
    Frame f(rank(), scratch());
    return mpgpu::compat::cgbn_detail::add<N>(f.e, r, a, b);
  }
  MPGPU_HD int32_t sub(cgbn_t& r, const cgbn_t& a, const cgbn_t& b) const {
    Frame f(rank(), scratch());
    return mpgpu::compat::cgbn_detail::sub<N>(f.e, r, a, b);
  }
  MPGPU_HD int32_t negate(cgbn_t& r, const cgbn_t& a) const {
    Frame f(rank(), scratch());
    return mpgpu::compat::cgbn_detail::negate<N>(f.e, r, a);
  }
  MPGPU_HD void mul(cgbn_t& r, const cgbn_t& a, const cgbn_t& b) const {
    Frame f(rank(), scratch());
    mpgpu::compat::cgbn_detail::mul<N>(f.e, r, a, b);
  }
  MPGPU_HD void mul_high(cgbn_t& r, const cgbn_t& a, const cgbn_t& b) const {
    Frame f(rank(), scratch());
    mpgpu::compat::cgbn_detail::mul_high<N>(f.e, r, a, b);
  }
  MPGPU_HD void sqr(cgbn_t& r, const cgbn_t& a) const {
    Frame f(rank(), scratch());
    mpgpu::compat::cgbn_detail::sqr<N>(f.e, r, a);
  }
  MPGPU_HD void sqr_high(cgbn_t& r, const cgbn_t& a) const {
    Frame f(rank(), scratch());
    mpgpu::compat::cgbn_detail::sqr_high<N>(f.e, r, a);
  }
  /// Division by zero: reported; q = 2^BITS - 1 and r = num (CGBN: undefined).
  MPGPU_HD void div_rem(cgbn_t& q, cgbn_t& r, const cgbn_t& num, const cgbn_t& denom) const {
    Frame f(rank(), scratch());
    Num qq, rr;  // q and r may alias num or denom
    const auto status = mpgpu::compat::cgbn_detail::div_rem<N>(f.e, qq, rr, num, denom);
    report(status != mpgpu::batch::status_ok, cgbn_division_by_zero_error);
    static_cast<Num&>(q) = qq;
    static_cast<Num&>(r) = rr;
  }
  MPGPU_HD void div(cgbn_t& q, const cgbn_t& num, const cgbn_t& denom) const {
    cgbn_t r;
    div_rem(q, r, num, denom);
  }
  MPGPU_HD void rem(cgbn_t& r, const cgbn_t& num, const cgbn_t& denom) const {
    cgbn_t q;
    div_rem(q, r, num, denom);
  }
  MPGPU_HD void sqrt(cgbn_t& s, const cgbn_t& a) const {
    cgbn_t r;
    sqrt_rem(s, r, a);
  }
  MPGPU_HD void sqrt_rem(cgbn_t& s, cgbn_t& r, const cgbn_t& a) const {
    Frame f(rank(), scratch());
    Num ss, rr;
    mpgpu::compat::cgbn_detail::sqrt_rem<N>(f.e, ss, rr, a);
    static_cast<Num&>(s) = ss;
    static_cast<Num&>(r) = rr;
  }
  MPGPU_HD bool equals(const cgbn_t& a, const cgbn_t& b) const {
    Frame f(rank(), scratch());
    return mpgpu::batch::equals(f.e, a, b);
  }
  MPGPU_HD int32_t compare(const cgbn_t& a, const cgbn_t& b) const {
    Frame f(rank(), scratch());
    return mpgpu::batch::compare(f.e, a, b);
  }
  MPGPU_HD void extract_bits(cgbn_t& r, const cgbn_t& a, uint32_t start, uint32_t len) const {
    Frame f(rank(), scratch());
    mpgpu::compat::cgbn_detail::extract_bits<N>(f.e, r, a, start, len);
  }
  MPGPU_HD void insert_bits(cgbn_t& r, const cgbn_t& a, uint32_t start, uint32_t len, const cgbn_t& value) const {
    Frame f(rank(), scratch());
    mpgpu::compat::cgbn_detail::insert_bits<N>(f.e, r, a, start, len, value);
  }

  // ---- 32-bit scalars ---------------------------------------------------------------------------
  MPGPU_HD uint32_t get_ui32(const cgbn_t& a) const {
    Frame f(rank(), scratch());
    return mpgpu::compat::cgbn_detail::word_of(f.e, a, 0);
  }
  MPGPU_HD void set_ui32(cgbn_t& r, uint32_t value) const {
    Frame f(rank(), scratch());
    mpgpu::batch::set_ui32(f.e, r, value);
    mpgpu::compat::cgbn_detail::fit<N>(f.e, r);
  }
  MPGPU_HD int32_t add_ui32(cgbn_t& r, const cgbn_t& a, uint32_t v) const {
    Frame f(rank(), scratch());
    return mpgpu::compat::cgbn_detail::add_ui32<N>(f.e, r, a, v);
  }
  MPGPU_HD int32_t sub_ui32(cgbn_t& r, const cgbn_t& a, uint32_t v) const {
    Frame f(rank(), scratch());
    return mpgpu::compat::cgbn_detail::sub_ui32<N>(f.e, r, a, v);
  }
  MPGPU_HD uint32_t mul_ui32(cgbn_t& r, const cgbn_t& a, uint32_t v) const {
    Frame f(rank(), scratch());
    return mpgpu::compat::cgbn_detail::mul_ui32<N>(f.e, r, a, v);
  }
  /// div == 0: reported, returns 0; r = 2^BITS - 1 (CGBN: r undefined).
  MPGPU_HD uint32_t div_ui32(cgbn_t& r, const cgbn_t& a, uint32_t d) const {
    Frame f(rank(), scratch());
    report(d == 0, cgbn_division_by_zero_error);
    const uint32_t rem = mpgpu::batch::div_ui32(f.e, r, a, d);
    mpgpu::compat::cgbn_detail::fit<N>(f.e, r);
    return d == 0 ? 0u : rem;
  }
  MPGPU_HD uint32_t rem_ui32(const cgbn_t& a, uint32_t d) const {
    Frame f(rank(), scratch());
    report(d == 0, cgbn_division_by_zero_error);
    const uint32_t rem = mpgpu::batch::rem_ui32(f.e, a, d == 0 ? 1u : d);
    return d == 0 ? 0u : rem;
  }
  MPGPU_HD bool equals_ui32(const cgbn_t& a, uint32_t v) const { return compare_ui32(a, v) == 0; }
  MPGPU_HD int32_t compare_ui32(const cgbn_t& a, uint32_t v) const {
    Frame f(rank(), scratch());
    Num t;
    mpgpu::batch::set_ui32(f.e, t, v);
    return mpgpu::batch::compare(f.e, a, t);
  }
  /// len > 32 takes 32 bits (CGBN extracts "at most 32").
  MPGPU_HD uint32_t extract_bits_ui32(const cgbn_t& a, uint32_t start, uint32_t len) const {
    Frame f(rank(), scratch());
    // bits_ui32 broadcasts whatever start is (no instance may skip it); bits
    // at and past BITS are zero in a.
    return mpgpu::compat::cgbn_detail::bits_ui32(f.e, a, start, len > 32 ? 32u : len);
  }
  MPGPU_HD void insert_bits_ui32(cgbn_t& r, const cgbn_t& a, uint32_t start, uint32_t len, uint32_t value) const {
    cgbn_t v;
    set_ui32(v, value);  // masked to BITS; insert_bits keeps len bits of it within BITS
    insert_bits(r, a, start, len > 32 ? 32u : len, v);
  }
  MPGPU_HD uint32_t binary_inverse_ui32(uint32_t n0) const {
    report((n0 & 1u) == 0, cgbn_inverse_does_not_exist_error);
    return 0u - mpgpu::batch::negated_inverse_word(n0);
  }
  /// gcd(a, v); v == 0 gives 0 and a == 0 gives v, as CGBN.
  MPGPU_HD uint32_t gcd_ui32(const cgbn_t& a, uint32_t v) const {
    Frame f(rank(), scratch());
    uint32_t x = v, y = mpgpu::batch::rem_ui32(f.e, a, v == 0 ? 1u : v);
    if (v == 0) return 0;
    while (y != 0) {
      const uint32_t t = x % y;
      x = y;
      y = t;
    }
    return x;
  }

  // ---- wide ---------------------------------------------------------------------------------
  MPGPU_HD void mul_wide(cgbn_wide_t& r, const cgbn_t& a, const cgbn_t& b) const {
    Frame f(rank(), scratch());
    Num lo, hi;
    mpgpu::compat::cgbn_detail::mul_wide<N>(f.e, lo, hi, a, b);
    static_cast<Num&>(r._low) = lo;
    static_cast<Num&>(r._high) = hi;
  }
  MPGPU_HD void sqr_wide(cgbn_wide_t& r, const cgbn_t& a) const {
    Frame f(rank(), scratch());
    Num lo, hi;
    mpgpu::compat::cgbn_detail::sqr_wide<N>(f.e, lo, hi, a);
    static_cast<Num&>(r._low) = lo;
    static_cast<Num&>(r._high) = hi;
  }
  /// CGBN requires num._high < denom: otherwise reported as a division
  /// overflow, and q is the quotient mod 2^BITS. denom == 0: reported.
  MPGPU_HD void div_rem_wide(cgbn_t& q, cgbn_t& r, const cgbn_wide_t& num, const cgbn_t& denom) const {
    Frame f(rank(), scratch());
    Num qq, rr;
    const bool over = mpgpu::batch::compare(f.e, num._high, denom) >= 0;
    const auto status = mpgpu::compat::cgbn_detail::div_rem_wide<N>(f.e, f.e2, qq, rr, num._low, num._high, denom);
    report(status != mpgpu::batch::status_ok, cgbn_division_by_zero_error);
    report(status == mpgpu::batch::status_ok && over, cgbn_division_overflow_error);
    static_cast<Num&>(q) = qq;
    static_cast<Num&>(r) = rr;
  }
  MPGPU_HD void div_wide(cgbn_t& q, const cgbn_wide_t& num, const cgbn_t& denom) const {
    cgbn_t r;
    div_rem_wide(q, r, num, denom);
  }
  MPGPU_HD void rem_wide(cgbn_t& r, const cgbn_wide_t& num, const cgbn_t& denom) const {
    cgbn_t q;
    div_rem_wide(q, r, num, denom);
  }
  MPGPU_HD void sqrt_wide(cgbn_t& s, const cgbn_wide_t& a) const {
    Frame f(rank(), scratch());
    Num ss, lo, hi;
    mpgpu::compat::cgbn_detail::sqrt_rem_wide<N, false>(f.e, f.e2, ss, lo, hi, a._low, a._high);
    static_cast<Num&>(s) = ss;
  }
  MPGPU_HD void sqrt_rem_wide(cgbn_t& s, cgbn_wide_t& r, const cgbn_wide_t& a) const {
    Frame f(rank(), scratch());
    Num ss, lo, hi;
    mpgpu::compat::cgbn_detail::sqrt_rem_wide<N, true>(f.e, f.e2, ss, lo, hi, a._low, a._high);
    static_cast<Num&>(s) = ss;
    static_cast<Num&>(r._low) = lo;
    static_cast<Num&>(r._high) = hi;
  }

#include "env_bits.inc"
#include "env_math.inc"
};
