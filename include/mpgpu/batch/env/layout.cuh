// Env<W, G>: the group of G threads that holds one instance of W words, the
// words each thread owns (a Num) and the layout of the instance's shared
// scratch. The rules for using an Env: env.cuh.
#pragma once

#include "mpgpu/batch/group.cuh"
#include "mpgpu/batch/ntt_sizes.cuh"
#include "mpgpu/batch/register_mul.cuh"

namespace mpgpu::batch {

/// S: which lanes the group's operations name when G < 32 (group.cuh): the
/// whole warp (the library's kernels), or the group's own lanes (instances
/// of a warp may diverge: compat/cgbn).
template <int W, int G, WarpSync S = WarpSync::warp>
struct Env {
  static_assert(W % G == 0, "W must be a multiple of the group size");
  static constexpr int words = W;
  static constexpr int threads = G;
  static constexpr int per_thread = W / G;  ///< L: words per thread
  static_assert(per_thread >= 4 && per_thread % 2 == 0, "at least 4 words per thread");
  /// Columns per product-scanning run (mul.cuh): each thread computes runs of `run`
  /// columns, load-balanced in pairs from both ends (as Oancea & Watt's midsize
  /// multiplication balances its threads).
  static constexpr int run = per_thread / 2;
  /// Shared memory of the product staging: operands with zero padding, then
  /// the two partial-sum arrays of the wide product (they reuse the space).
  static constexpr int operand_span = W + 4 * run;
  static constexpr int partial_span = 2 * W + 2 * run;
  /// A thread per instance of at most kRegisterProductMaxWords words
  /// multiplies in registers (register_mul.cuh): no product staging, so
  /// work is only the W words that shifts stage.
  static constexpr bool register_products = G == 1 && W <= kRegisterProductMaxWords;
  /// Classes of at least kNttProductMinWords words multiply through
  /// transforms in shared memory (ntt_mul.cuh), in ntt_work_words(W) words.
  static constexpr bool ntt_products = !register_products && W >= kNttProductMinWords;
  static constexpr int staged_work_words = 2 * operand_span > 2 * partial_span ? 2 * operand_span : 2 * partial_span;
  static constexpr int work_words = register_products ? W
                                    : ntt_products && ntt_work_words(W) > staged_work_words ? ntt_work_words(W)
                                                                                            : staged_work_words;
  static constexpr int comm_words = Group<G, S>::comm_words;
  /// Shared words per instance that products (mul, mul_wide, mul_high,
  /// sqr), shifts and the linear operations need: all but the exponent,
  /// i.e. only the W words of a shift for register products.
  static constexpr int product_scratch_words = comm_words + work_words;
  /// Shared words per instance: group communication, staging, an exponent.
  static constexpr int scratch_words = comm_words + work_words + W;

  struct Num {
    word_t w[per_thread];
  };

  Group<G, S> group;
  word_t* work = nullptr;      ///< work_words words
  word_t* exponent = nullptr;  ///< W words (powm)

  MPGPU_HD Env(int rank, word_t* scratch) {
    group.rank = rank;
    group.comm = scratch;
    work = scratch + comm_words;
    exponent = work + work_words;
  }
  MPGPU_HD int rank() const { return group.rank; }
  /// Index of this thread's first word in the instance.
  MPGPU_HD int first_word() const { return group.rank * per_thread; }
};

}  // namespace mpgpu::batch
