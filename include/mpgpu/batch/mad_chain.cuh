// One carry chain of 32-bit multiply-adds and additions as an object, so
// that an algorithm is written once for the device and the host: on the
// device each link is one PTX instruction that reads and sets the carry
// flag (limb/carry_chain32.cuh), on the host a carry word does the same.
// The first link of a chain sets the flag without reading it; `end` reads
// it and closes the chain. Rules of the flag (carry_chain32.cuh): nothing
// that touches it may run between two links of one chain, so two chains
// never interleave; other instructions (shuffles, plain products) may.
#pragma once

#include <cstdint>

#include "mpgpu/batch/word.cuh"

namespace mpgpu::batch {

class MadChain {
 public:
  /// lo(a * b) + c + carry.
  MPGPU_HD word_t mad_lo(word_t a, word_t b, word_t c) {
#if defined(__CUDA_ARCH__)
    const word_t r = open_ ? limb::madc_lo_cc(a, b, c) : limb::mad_lo_cc(a, b, c);
    open_ = true;
    return r;
#else
    return take(static_cast<std::uint64_t>(static_cast<word_t>(std::uint64_t{a} * b)) + c);
#endif
  }
  /// hi(a * b) + c + carry.
  MPGPU_HD word_t mad_hi(word_t a, word_t b, word_t c) {
#if defined(__CUDA_ARCH__)
    const word_t r = open_ ? limb::madc_hi_cc(a, b, c) : limb::mad_hi_cc(a, b, c);
    open_ = true;
    return r;
#else
    return take(((std::uint64_t{a} * b) >> 32) + c);
#endif
  }
  /// a + b + carry.
  MPGPU_HD word_t add(word_t a, word_t b) {
#if defined(__CUDA_ARCH__)
    const word_t r = open_ ? limb::addc_cc(a, b) : limb::add_cc(a, b);
    open_ = true;
    return r;
#else
    return take(std::uint64_t{a} + b);
#endif
  }
  /// a + b + carry, closing the chain (the sum must fit a word).
  MPGPU_HD word_t end(word_t a, word_t b = 0) {
#if defined(__CUDA_ARCH__)
    return open_ ? limb::addc(a, b) : a + b;
#else
    return static_cast<word_t>(a + b + carry_);
#endif
  }

 private:
#if defined(__CUDA_ARCH__)
  bool open_ = false;  // compile-time known in unrolled code: picks the first link's form
#else
  word_t carry_ = 0;
  MPGPU_HD word_t take(std::uint64_t s) {
    s += carry_;
    carry_ = static_cast<word_t>(s >> 32);
    return static_cast<word_t>(s);
  }
#endif
};

}  // namespace mpgpu::batch
