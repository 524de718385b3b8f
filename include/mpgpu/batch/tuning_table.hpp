// The tuning tables of the batch layer: threads per instance G for a width
// of W 32-bit words, as the host API uses them: one table for products
// (mul, mul_wide, mul_high, sqr), one for the streaming operations of one
// pass (add, sub, bitwise, shifts, rotates, compare, popcount, clz, ctz), one
// for every other operation. Plain C++ (constexpr functions, no device
// code), so host sources read the tables without the device API; users'
// kernels take the same choices through tuning.cuh's TunedProductEnv<W>,
// TunedLinearEnv<W> and TunedEnv<W>.
//
// The values are the build's tuning table (mpgpu/tuning/table.hpp), whose
// GENERATED block scripts/tune-batch writes from a sweep of the batch
// benchmark's tuning mode (`batch_seed000 --tune`), which times, for each
// G, a batch of independent products, a small polynomial of products and
// additions, a single addition, a chain of six carry-resolving additions,
// and powm. The product table takes the G of the fastest products; the
// streaming one the G of the fastest single addition (among the G within 1%
// of it, the one fastest on the chain of six); the other the G of the
// fastest powm. A thread per instance multiplies and squares in registers
// up to 1024 bits (register_mul.cuh) and so wins the products at 512 and
// 1024 bits and powm at 512 bits; wider powm spreads over more threads (8
// at 1024 bits, 16 at 2048, 32 at 4096 and 8192). Outside the sweep: a
// thread per instance up to 256 bits, 8 threads of 12 words at 3072 bits,
// 16 words per thread above 8192 bits. The staged runs of up to 32 threads
// walk their two runs as one loop (mul.cuh: paired_runs), so the wide
// classes' products take 16 words a thread at 2^14 bits and 32 at 2^15; the
// NTT classes, 2^16 .. 2^18 bits, stay at 8. Streaming operations reach the
// memory bandwidth from 4 to 8 words a thread and, at 1024 bits, with a
// thread per instance; at 32 words a thread they lose about a third of it.
// The sweep these tables come from and the margins behind each choice:
// docs/tuning-history.md, "Batch tuning tables". A CPU test checks that the
// table's block matches the recorded sweep; rerun the program on a new GPU.
#pragma once

#include <cstddef>

#include "mpgpu/tuning/table.hpp"

namespace mpgpu::batch {

constexpr int tuned_product_group_size(int W) { return ::mpgpu::tuning::table::tuned_product_group_size(W); }
constexpr int tuned_linear_group_size(int W) { return ::mpgpu::tuning::table::tuned_linear_group_size(W); }
constexpr int tuned_group_size(int W) { return ::mpgpu::tuning::table::tuned_group_size(W); }
/// Montgomery operations and powm (not from the sweep: written by hand
/// from the probe that the table cites).
constexpr int tuned_modular_group_size(int W) { return ::mpgpu::tuning::table::tuned_modular_group_size(W); }
/// The same by width and instance count: the G that the host API's
/// Montgomery operations and powm take for a batch of `instances`
/// (written by hand from the runs that the table cites).
constexpr int tuned_modular_group_size(int W, std::size_t instances) {
  return ::mpgpu::tuning::table::tuned_modular_group_size(W, instances);
}

/// The distinct G that tuned_modular_group_size(W, n) gives over all n,
/// largest first: the CUDA backend compiles a kernel of each modular
/// operation at each, so the table may name at most kMaxModularGroups per
/// width (a static_assert below holds it to that).
inline constexpr int kMaxModularGroups = 3;
struct ModularGroups {
  int count = 0;
  int sizes[kMaxModularGroups] = {};
  bool too_many = false;  ///< the table names more G for the width than fit
};
constexpr ModularGroups modular_groups(int W) {
  ModularGroups g;
  auto add = [&g](int size) {
    for (int k = 0; k < g.count; ++k)
      if (g.sizes[k] == size) return;
    if (g.count == kMaxModularGroups) {
      g.too_many = true;
      return;
    }
    int k = g.count++;
    for (; k > 0 && g.sizes[k - 1] < size; --k) g.sizes[k] = g.sizes[k - 1];
    g.sizes[k] = size;
  };
  bool from_zero = false;  // a row for every count, or the single G below the smallest threshold
  for (const auto& row : ::mpgpu::tuning::table::kModularGroupRows) {
    if (row.words != W) continue;
    add(row.group_size);
    from_zero |= row.min_instances == 0;
  }
  if (!from_zero) add(tuned_modular_group_size(W));
  return g;
}
static_assert(
    [] {
      for (const auto& row : ::mpgpu::tuning::table::kModularGroupRows)
        if (modular_groups(row.words).too_many) return false;
      return true;
    }(),
    "the modular tuning rows name more than kMaxModularGroups group sizes for a width");
/// gcd and the modular inverse (by hand, from the measurements the table cites).
constexpr int tuned_gcd_group_size(int W) { return ::mpgpu::tuning::table::tuned_gcd_group_size(W); }

/// Whether Montgomery squares at W words over G threads are the square's own
/// rows (batch/montgomery/rows_sqr.cuh: G <= 32 and from the table's
/// kMontgomerySqrRowsMinWordsPerThread to 32 words a thread), else products by
/// rows; -DMPGPU_MONTGOMERY_SQR_BY_PRODUCT keeps products, for A/B runs.
/// Batch powm then takes fixed windows (squares are 4 of every 5 steps),
/// not sliding ones, whose steps are products for every instance.
constexpr bool tuned_montgomery_sqr_by_rows(int W, int G) {
#if defined(MPGPU_MONTGOMERY_SQR_BY_PRODUCT)
  (void)W;
  (void)G;
  return false;
#else
  // At most 32 words a thread: the square packs a thread's low bits of a in one word.
  return G <= 32 && W / G <= 32 && W / G >= ::mpgpu::tuning::table::kMontgomerySqrRowsMinWordsPerThread;
#endif
}

/// Whether a chain of carry-resolving linear operations (such as six
/// additions in a row) at W words, in the tuned linear class, runs faster
/// through launch_staged (three stages) than through launch. Launched wins
/// up to 2^17 bits; at 2^18 bits an instance is one 1024-thread block an
/// SM, its block-wide carry resolves leave no load in flight, and staging
/// the next operands wins (launch_staged.cuh). Figures:
/// docs/tuning-history.md, "Staged chains". Not generated: outside the
/// sweep (written into the table by hand).
constexpr bool tuned_staged_chain(int W) { return ::mpgpu::tuning::table::tuned_staged_chain(W); }

/// The `__launch_bounds__` minimum of resident blocks an SM (launch's
/// MinBlocksPerSM) for such a chain launched with launch: at 2^17 bits
/// (512 threads of 8 words) a minimum of 3 fits a third block in 40
/// registers without spilling, which measured faster than no minimum.
/// 0 (no minimum) elsewhere: at 2^16 bits and below the blocks are small
/// enough already, and wider minimums spilled. Figures:
/// docs/tuning-history.md, "Staged chains".
constexpr int tuned_chain_min_blocks(int W) { return ::mpgpu::tuning::table::tuned_chain_min_blocks(W); }

}  // namespace mpgpu::batch
