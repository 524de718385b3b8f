// The parts of a huge product on the device, shared by its two layouts:
// ntt_mul.cu (64-bit digits, three primes, and the chunked unbalanced form)
// and ntt_mul_digits.cu (digits of 2 or 4 limbs, 5 or 9 primes), which
// mul_abs chooses between for large balanced operands.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/backend.hpp"
#include "mpgpu/field/primes.hpp"

namespace mpgpu::detail::cuda {

/// One prime's share of a product (run_prime_product).
struct PrimeProduct {
  Operand a, b;         ///< b is not read when squaring
  bool square;
  int log_n;
  int digit_limbs;      ///< limbs per transform point (1, 2 or 4)
  std::uint64_t* x;     ///< 2^log_n words: a's spectrum, then the product's
  std::uint64_t* y;     ///< 2^log_n words: b's spectrum (not used when squaring)
  std::uint64_t* out;   ///< the coefficients (2^log_n words): x, or anywhere the last pass may write
};

/// Prime `prime`'s coefficients of the product of q into q.out (defined in
/// ntt_mul.cu): the forward transform of a reads the limbs directly (its
/// first pass reduces each digit mod p and pads with zeros: no load kernel);
/// the forward transform of b ends by multiplying into a's spectrum
/// (Montgomery product, no pointwise kernel; squaring multiplies a's spectrum
/// by itself instead); the inverse's last pass scales by n^-1 * 2^64 (which
/// also cancels the Montgomery factor) and leaves canonical residues.
/// Spectra stay bit-reversed (the pointwise product does not care).
void run_prime_product(ContextState& st, Stream s, const field::NttPrime& prime, const PrimeProduct& q);

struct DigitsPlan {
  int limbs = 1;   ///< limbs per transform point: 1 (ntt_mul.cu's own layout), 2 or 4
  int primes = 3;  ///< NTT primes (the first ones of field::ntt_primes62)
  int log_n = 0;   ///< transform length 2^log_n
};

/// The plan for an na x nb-limb product (both > 0): the digit size with the
/// lowest modelled time among those whose buffers keep the product's peak
/// memory <= 8x its output; forced_limbs = 1, 2 or 4 forces one (when it
/// fits, else 1; the context's TuningParams::ntt_digit_limbs: tests and
/// tuning runs), other values let the model choose.
DigitsPlan choose_digits(std::size_t na, std::size_t nb, bool square, int forced_limbs);

/// r = |a| |b| (r: na + nb + 2 limbs) through plan (plan.limbs > 1).
Deferred mul_abs_digits(ContextState& st, Stream s, limb_t* r, Operand a, Operand b, bool square,
                       const DigitsPlan& plan);

}  // namespace mpgpu::detail::cuda
