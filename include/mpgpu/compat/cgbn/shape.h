// How a CGBN width runs on mpgpu's device API: cgbn_env_t<context, BITS>
// with TPI threads an instance becomes Env<W, G> (mpgpu/batch/env.cuh).
//
// Env needs W / G >= 4 words a thread, an even count. CGBN allows fewer
// (1024 bits on 32 threads is 1 word each), so G is the largest power of two
// <= TPI that leaves each thread 4 words or more, preferring one that
// divides the words exactly: the TPI threads of an instance are then TPI/G
// subgroups of G threads that compute the same instance side by side (same
// loads, same results; only the first subgroup stores). W is ceil(BITS/32)
// rounded up to G times an even count >= 4; the words above BITS are zero in
// every value (the "padded" case: results are reduced to BITS bits, carries
// taken at bit BITS, Montgomery's R is 2^BITS as in CGBN).
//
// On the host (CGBN's programs run the same functions on the CPU, e.g. its
// unit tests compare both) a thread holds the whole instance: G = 1.
#pragma once

#include <cstdint>

#include "mpgpu/batch/env.cuh"

namespace mpgpu::compat::cgbn_detail {

using mpgpu::batch::word_t;

constexpr int words_of_bits(std::uint32_t bits) { return static_cast<int>((bits + 31) / 32); }

/// The group size for `words` words on `tpi` threads (see the top).
constexpr int group_size(int words, int tpi) {
  int best = 1;
  for (int g = 1; g <= tpi; g *= 2)
    if (4 * g <= words) best = g;
  for (int g = best; g >= 1; g /= 2)
    if (words % (2 * g) == 0 && words / g >= 4) return g;
  return best;
}

constexpr int round_up_even(int x) { return x % 2 == 0 ? x : x + 1; }

template <std::uint32_t Bits, int Tpi, bool Single>
struct Shape {
  static_assert(Bits >= 1, "CGBN widths start at 1 bit");
  static constexpr int bits = static_cast<int>(Bits);
  static constexpr int logical_words = words_of_bits(Bits);
  static constexpr int G = Single ? 1 : group_size(logical_words, Tpi);
  static constexpr int L = round_up_even((logical_words + G - 1) / G < 4 ? 4 : (logical_words + G - 1) / G);
  static constexpr int W = L * G;
  /// Bits of the class above BITS, always zero.
  static constexpr bool padded = 32 * W != bits;
  /// Group operations name only the subgroup's own lanes
  /// (WarpSync::group), so instances of one warp may diverge as CGBN allows.
  using E = mpgpu::batch::Env<W, G, mpgpu::batch::WarpSync::group>;
  /// Twice as wide, for the wide operations (division and square roots of
  /// a 2*BITS-bit number). It only divides, shifts, adds, compares and
  /// moves words (wide.h, sqrt.h): never a product, whose staging (or NTT
  /// work from 2^16 bits) would need far more shared memory. Those need
  /// 2W words of its work area and no group words (G <= 32).
  using E2 = mpgpu::batch::Env<2 * W, G, mpgpu::batch::WarpSync::group>;
  static_assert(E2::comm_words == 0, "groups of at most a warp");
  /// Shared words a subgroup needs: E's, or the wide Env's 2W words, which
  /// lie in the same words, rounded to 16 bytes.
  static constexpr int scratch_words = ((E::scratch_words > 2 * W ? E::scratch_words : 2 * W) + 3) / 4 * 4;
};

}  // namespace mpgpu::compat::cgbn_detail

/// CGBN's memory layout of one number: ceil(bits/32) 32-bit words, least
/// significant first, no padding -- so hosts that fill it from GMP
/// (mpz_export with 32-bit words) keep working.
template <std::uint32_t bits>
struct cgbn_mem_t {
 public:
  std::uint32_t _limbs[(bits + 31) / 32];
};
