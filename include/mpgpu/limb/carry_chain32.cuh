// 32-bit PTX carry chains, one instruction per function, for chains that
// run across statements and unrolled loops: the batch layer's multi-word
// add/sub (batch/word.cuh) and its register products (batch/
// register_mul.cuh), as CGBN and sppark build theirs. Device code only.
//
// The carry flag CC.CF lives between consecutive `asm volatile` statements
// of one chain: volatile keeps them in program order, and nothing the
// compiler puts between them touches the flag. A chain starts with an
// instruction that sets the flag without reading it (set_carry_flag,
// set_borrow_flag, add_cc, mad_lo_cc, mad_hi_cc), continues with ones that read and
// set it (addc_cc, subc_cc, propagate_carry, propagate_borrow, madc_*_cc)
// and ends with one that only reads it (carry_flag, borrow_flag, add_carry,
// addc, madc_lo, madc_hi). The caller must not put anything that could touch the
// flag (another chain, a function call) inside a chain.
#pragma once

#include <cstdint>

namespace mpgpu::limb {

#if defined(__CUDACC__)
/// CC.CF = cin (cin in {0, 1}): cin + 0xffffffff carries exactly when cin is 1.
__device__ __forceinline__ void set_carry_flag(std::uint32_t cin) {
  [[maybe_unused]] std::uint32_t unused;  // the sum: only its carry is wanted
  asm volatile("add.cc.u32 %0, %1, 0xffffffff;" : "=r"(unused) : "r"(cin));
}
/// CC.CF = borrow bin (bin in {0, 1}): 0 - bin borrows exactly when bin is 1.
__device__ __forceinline__ void set_borrow_flag(std::uint32_t bin) {
  [[maybe_unused]] std::uint32_t unused;
  asm volatile("sub.cc.u32 %0, 0, %1;" : "=r"(unused) : "r"(bin));
}

/// a + b, carry out to CF (starts a chain).
__device__ __forceinline__ std::uint32_t add_cc(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r;
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
/// a + b + CF (ends the chain).
__device__ __forceinline__ std::uint32_t addc(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r;
  asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
/// a + b + CF, carry out to CF.
__device__ __forceinline__ std::uint32_t addc_cc(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r;
  asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
/// a - b - CF, borrow out to CF.
__device__ __forceinline__ std::uint32_t subc_cc(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r;
  asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
/// x + CF, carry out to CF.
__device__ __forceinline__ std::uint32_t propagate_carry(std::uint32_t x) {
  asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(x));
  return x;
}
/// x - CF, borrow out to CF.
__device__ __forceinline__ std::uint32_t propagate_borrow(std::uint32_t x) {
  asm volatile("subc.cc.u32 %0, %0, 0;" : "+r"(x));
  return x;
}
/// x + CF (ends the chain).
__device__ __forceinline__ std::uint32_t add_carry(std::uint32_t x) {
  std::uint32_t r;
  asm volatile("addc.u32 %0, %1, 0;" : "=r"(r) : "r"(x));
  return r;
}
/// CF as 0 or 1 (ends the chain).
__device__ __forceinline__ std::uint32_t carry_flag() {
  std::uint32_t r;
  asm volatile("addc.u32 %0, 0, 0;" : "=r"(r));
  return r;
}
/// 0 - CF after a subtraction chain: 0, or 0xffffffff after a borrow (ends
/// the chain; bit 0 is the borrow).
__device__ __forceinline__ std::uint32_t borrow_flag() {
  std::uint32_t r;
  asm volatile("subc.u32 %0, 0, 0;" : "=r"(r));
  return r;
}

// Multiply-add links: lo(a * b) + c or hi(a * b) + c, the carry as named.
#define MPGPU_LIMB_MAD_CHAIN(name, op)                                             \
  __device__ __forceinline__ std::uint32_t name(std::uint32_t a, std::uint32_t b, \
                                                std::uint32_t c) {                 \
    std::uint32_t r;                                                               \
    asm volatile(op " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));        \
    return r;                                                                      \
  }
MPGPU_LIMB_MAD_CHAIN(mad_lo_cc, "mad.lo.cc.u32")   // carry out
MPGPU_LIMB_MAD_CHAIN(madc_lo_cc, "madc.lo.cc.u32") // carry in and out
MPGPU_LIMB_MAD_CHAIN(madc_lo, "madc.lo.u32")       // carry in
MPGPU_LIMB_MAD_CHAIN(mad_hi_cc, "mad.hi.cc.u32")
MPGPU_LIMB_MAD_CHAIN(madc_hi_cc, "madc.hi.cc.u32")
MPGPU_LIMB_MAD_CHAIN(madc_hi, "madc.hi.u32")
#undef MPGPU_LIMB_MAD_CHAIN

/// (c:hi:lo) += a * b, a whole chain in one statement: a product-scanning
/// column accumulator whose top word c counts the overflows of (hi:lo).
__device__ __forceinline__ void mul_accumulate_32(std::uint32_t a, std::uint32_t b, std::uint32_t& lo,
                                                  std::uint32_t& hi, std::uint32_t& c) {
  asm("mad.lo.cc.u32 %0, %3, %4, %0;\n\t"
      "madc.hi.cc.u32 %1, %3, %4, %1;\n\t"
      "addc.u32 %2, %2, 0;"
      : "+r"(lo), "+r"(hi), "+r"(c)
      : "r"(a), "r"(b));
}
#endif

}  // namespace mpgpu::limb
