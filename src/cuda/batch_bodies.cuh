// Kernel bodies of the host batch API: one functor per operation, run by
// mpgpu::batch::launch over the width class the host API picked. Each reads
// its operands, computes in registers, masks to the logical width and stores.
#pragma once

#include <cstddef>
#include <cstdint>

#include "batch/batch_backend.hpp"
#include "mpgpu/batch/batch.cuh"

namespace mpgpu::detail::batch::cuda {

using mpgpu::batch::word_t;

/// The Args of one call in 32-bit words.
struct Words {
  word_t* r;
  const word_t *a, *b, *m, *e;
  word_t* flag;
  std::uint32_t* answers;
  std::size_t stride, r_stride, e_stride, flag_stride;  // words between instances
  int bits, r_bits;
  std::uint64_t scalar;
  word_t* r2;                          // div_qr's remainder
  std::size_t b_stride, r2_stride;     // words between instances of b and r2 (div_qr_wide: narrower than a)
};

inline Words to_words(const Args& x) {
  return Words{reinterpret_cast<word_t*>(x.r),
               reinterpret_cast<const word_t*>(x.a),
               reinterpret_cast<const word_t*>(x.b),
               reinterpret_cast<const word_t*>(x.m),
               reinterpret_cast<const word_t*>(x.e),
               reinterpret_cast<word_t*>(x.flag),
               x.answers,
               2 * x.stride,
               2 * x.r_stride,
               2 * x.e_stride,
               2 * x.flag_stride,
               static_cast<int>(x.bits),
               static_cast<int>(x.r_bits),
               x.scalar,
               reinterpret_cast<word_t*>(x.r2),
               2 * x.b_step(),
               2 * x.r2_step()};
}

template <class E>
__device__ void load_live(const E& env, typename E::Num& x, const word_t* base, std::size_t stride,
                          std::size_t i, bool live) {
  if (live) mpgpu::batch::load(env, x, base + i * stride);
  else mpgpu::batch::set_zero(env, x);
}

/// Loads the class-width of words from word `offset` on of an instance stored with
/// `stride` words (an exponent narrower than the class; a half of a double-width value);
/// words past the instance read as 0.
template <class E>
__device__ void load_short(const E& env, typename E::Num& x, const word_t* base, std::size_t stride,
                           std::size_t i, bool live, std::size_t offset = 0) {
  const word_t* p = base + i * stride;
#pragma unroll
  for (int k = 0; k < E::per_thread; ++k) {
    std::size_t j = offset + static_cast<std::size_t>(env.first_word() + k);
    x.w[k] = (live && j < stride) ? p[j] : 0u;
  }
}

/// Stores the low `words` words of x (all of them if the class is not wider).
template <class E>
__device__ void store_prefix(const E& env, word_t* out, const typename E::Num& x, std::size_t words) {
  if (words >= static_cast<std::size_t>(E::words)) return mpgpu::batch::store(env, out, x);
#pragma unroll
  for (int k = 0; k < E::per_thread; ++k) {
    const std::size_t j = static_cast<std::size_t>(env.first_word() + k);
    if (j < words) out[j] = x.w[k];
  }
}

/// Stores r masked to `bits`.
template <class E>
__device__ void store_masked(const E& env, const Words& w, typename E::Num& r, std::size_t i, bool live) {
  mpgpu::batch::mask_bits(env, r, w.r_bits);
  if (live) mpgpu::batch::store(env, w.r + i * w.r_stride, r);
}

/// Bit `bit` of x, in every thread.
template <class E>
__device__ word_t test_bit(const E& env, const typename E::Num& x, int bit) {
  const int word = bit / mpgpu::batch::word_bits;
  word_t mine = 0;
  if (word >= env.first_word() && word < env.first_word() + E::per_thread)
    mine = (x.w[word - env.first_word()] >> (bit % mpgpu::batch::word_bits)) & 1u;
  return env.group.sum(mine);
}

template <class E>
__device__ void store_flag(const E& env, const Words& w, word_t value, std::size_t i, bool live) {
  if (!live || w.flag == nullptr || env.rank() != 0) return;
  word_t* f = w.flag + i * w.flag_stride;
  f[0] = value;
  for (std::size_t k = 1; k < w.flag_stride; ++k) f[k] = 0;
}

/// Element-wise operations that need no product: add ... rotates, and the
/// per-instance answers.
template <Op O>
struct LinearBody {
  Words w;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    namespace mb = mpgpu::batch;
    typename E::Num a, b, r;
    load_live(env, a, w.a, w.stride, i, live);
    constexpr bool two_operands = O == Op::add || O == Op::sub || O == Op::and_ || O == Op::ior ||
                                  O == Op::xor_ || O == Op::compare;
    if constexpr (two_operands) load_live(env, b, w.b, w.stride, i, live);
    constexpr int class_bits = E::words * mb::word_bits;
    const int n = static_cast<int>(w.scalar);
    if constexpr (O == Op::add) {
      word_t carry = mb::add(env, r, a, b);
      // Below the class width the carry is bit `bits` of the sum.
      if (w.bits < class_bits) carry = test_bit(env, r, w.bits);
      store_flag(env, w, carry, i, live);
    } else if constexpr (O == Op::sub) {
      store_flag(env, w, mb::sub(env, r, a, b), i, live);
    } else if constexpr (O == Op::add_ui) {
      mb::add_ui64(env, r, a, w.scalar);
    } else if constexpr (O == Op::sub_ui) {
      mb::sub_ui64(env, r, a, w.scalar);
    } else if constexpr (O == Op::and_) {
      mb::bit_and(env, r, a, b);
    } else if constexpr (O == Op::ior) {
      mb::bit_or(env, r, a, b);
    } else if constexpr (O == Op::xor_) {
      mb::bit_xor(env, r, a, b);
    } else if constexpr (O == Op::com) {
      mb::bit_not(env, r, a);
    } else if constexpr (O == Op::shl) {
      mb::shift_left(env, r, a, n);
    } else if constexpr (O == Op::shr) {
      mb::shift_right(env, r, a, n);
    } else if constexpr (O == Op::rotl || O == Op::rotr) {
      // Within the logical width: (a << s) | (a >> (bits - s)), 0 < s < bits.
      const int s = O == Op::rotl ? n : w.bits - n;
      typename E::Num hi;
      mb::shift_left(env, r, a, s);
      mb::shift_right(env, hi, a, w.bits - s);
      mb::bit_or(env, r, r, hi);
    } else {
      // Answers, no stored number.
      int answer = 0;
      if constexpr (O == Op::compare) answer = mb::compare(env, a, b);
      else if constexpr (O == Op::popcount) answer = mb::popcount(env, a);
      else if constexpr (O == Op::clz) answer = mb::count_leading_zeros(env, a) - (class_bits - w.bits);
      else if constexpr (O == Op::ctz) {
        answer = mb::count_trailing_zeros(env, a);
        if (answer > w.bits) answer = w.bits;
      }
      if (live && env.rank() == 0) w.answers[i] = static_cast<std::uint32_t>(answer);
      return;
    }
    store_masked(env, w, r, i, live);
  }
};

/// Products.
template <Op O>
struct MulBody {
  Words w;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    namespace mb = mpgpu::batch;
    typename E::Num a, b, r;
    load_live(env, a, w.a, w.stride, i, live);
    constexpr int class_bits = E::words * mb::word_bits;
    if constexpr (O == Op::mul_ui) {
      // The scalar is the same for every instance: a uniform choice.
      if (w.scalar >> mb::word_bits) mb::mul_ui64(env, r, a, w.scalar);
      else mb::mul_ui32(env, r, a, static_cast<word_t>(w.scalar));
    } else if constexpr (O == Op::sqr) {
      mb::sqr(env, r, a);
    } else {
      load_live(env, b, w.b, w.stride, i, live);
      if constexpr (O == Op::mul_low) {
        mb::mul(env, r, a, b);
      } else if constexpr (O == Op::mul_high) {
        typename E::Num lo, hi;
        mb::mul_wide(env, lo, hi, a, b);
        if (w.bits == class_bits) {
          r = hi;
        } else {
          // floor(product / 2^bits) from the two halves.
          mb::shift_left(env, r, hi, class_bits - w.bits);
          mb::shift_right(env, lo, lo, w.bits);
          mb::bit_or(env, r, r, lo);
        }
      } else if constexpr (O == Op::mul_wide) {
        typename E::Num hi;
        mb::mul_wide(env, r, hi, a, b);
        // r's class has at least W words; the high half goes where it fits
        // (words beyond r's class are zero: the product has 2 * bits bits),
        // and words beyond 2W are zero padding.
        if (live) {
          word_t* out = w.r + i * w.r_stride;
          mb::store(env, out, r);
          if (w.r_stride >= 2 * static_cast<std::size_t>(E::words)) {
            mb::store(env, out + E::words, hi);
          } else {
#pragma unroll
            for (int k = 0; k < E::per_thread; ++k) {
              const std::size_t j = static_cast<std::size_t>(E::words + env.first_word() + k);
              if (j < w.r_stride) out[j] = hi.w[k];
            }
          }
          for (std::size_t k = 2 * E::words + env.rank(); k < w.r_stride; k += E::threads) out[k] = 0;
        }
        return;
      }
    }
    store_masked(env, w, r, i, live);
  }
};

/// Montgomery operations and powm: the modulus constants are set up per call.
template <Op O>
struct ModularBody {
  Words w;
  template <class E>
  __device__ void operator()(const E& env, std::size_t i, bool live) const {
    namespace mb = mpgpu::batch;
    typename E::Num a, n, r;
    if constexpr (O != Op::mont_reduce) load_live(env, a, w.a, w.stride, i, live);
    load_live(env, n, w.m, w.stride, i, live);
    mb::Modulus<E> mod;
    mb::setup_modulus(env, mod, n);
    if constexpr (O == Op::to_mont) {
      mb::to_montgomery(env, r, a, mod);
    } else if constexpr (O == Op::from_mont) {
      mb::from_montgomery(env, r, a, mod);
    } else if constexpr (O == Op::mont_sqr) {
      mb::montgomery_sqr(env, r, a, mod);
    } else if constexpr (O == Op::mont_reduce) {
      // The double-width value is b, stored with its own stride: its low and high class-widths.
      typename E::Num lo, hi;
      load_short(env, lo, w.b, w.b_stride, i, live);
      load_short(env, hi, w.b, w.b_stride, i, live, E::words);
      mb::montgomery_reduce(env, r, lo, hi, mod);
    } else if constexpr (O == Op::mont_mul) {
      typename E::Num b;
      load_live(env, b, w.b, w.stride, i, live);
      mb::montgomery_mul(env, r, a, b, mod);
    } else if constexpr (O == Op::powm || O == Op::powm_sliding) {
      typename E::Num e;
      load_short(env, e, w.e, w.e_stride, i, live);
      if constexpr (O == Op::powm) mb::powm(env, r, a, e, mod);
      else mb::powm_sliding(env, r, a, e, mod);
    }
    store_masked(env, w, r, i, live);
  }
};

}  // namespace mpgpu::detail::batch::cuda
