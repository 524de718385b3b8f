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
  /// Products at once (mul_abs_side_by_side_batch): a and b are `batch`
  /// slots of a.size and b.size limbs one after another (each zero past its
  /// operand), x, y and out hold batch * 2^log_n words, slot by slot.
  std::size_t batch = 1;
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

/// One product's last step: r = hi + lo (hi: m + 1 words, lo: m words,
/// r: room for m + 1 limbs), the high and low words of its column sums.
struct ColumnSum {
  limb_t* r;
  const std::uint64_t* hi;
  const std::uint64_t* lo;
  std::size_t m;
};

/// Every sum of `sums` in one launch (a few for hundreds), each product's
/// size published in a result-words slot of its own and returned in
/// *out[j] (column_sums.cu). Only on the context's own stream (the slots
/// are published early: ResultWords::publish_now).
void column_sums_each(ContextState& st, Stream s, const ColumnSum* sums, std::size_t k, Deferred* const* out);

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

/// The transform length (log2) of the form mul_abs takes for an na x nb
/// product (both > 0) when that form is the padded product with its three
/// primes side by side (one-limb digits, not chunked, 2^log_n within the
/// context's side_primes_max_log), else 0: the products that
/// mul_abs_side_by_side_batch can take together.
int side_by_side_log_n(const ContextState& st, std::size_t na, std::size_t nb, bool square);

/// jobs[i]->r = |a_i| |b_i| for k independent products whose
/// side_by_side_log_n is at most log_n (na + nb <= 2^log_n for each), as
/// ONE batched product of k transforms of 2^log_n points (ntt_mul.cu): the
/// operands gathered into slots, each prime's transforms as batches of k
/// (the pointwise product per slot), one CRT and one column pass over the
/// k slots, then one carry add per product into its own r (out[i] its
/// deferred size). Why: a product of up to 2^21 points is a chain of
/// dependent passes far too small to fill the GPU, so k products cost about
/// one chain instead of k (binary splitting's merges: docs/workloads.md).
/// Memory: (sa + sb) k + 6 k 2^log_n + 2 k 2^log_n words besides the results.
void mul_abs_side_by_side_batch(ContextState& st, Stream s, const ProductJob* const* jobs, std::size_t k, int log_n,
                                Deferred* const* out);

}  // namespace mpgpu::detail::cuda
