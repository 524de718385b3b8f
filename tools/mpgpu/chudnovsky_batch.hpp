// pi's series (constants_pi.cpp) for many subtrees at once, level by level in
// mpgpu::Batch operations: on a CUDA context every merge of a level, over all
// the subtrees, is a few batched kernels (products, sums, sign extensions)
// instead of four library products each on a host core. Why: at pi to 10^9
// digits the host's subtrees (up to 2^18 bits) can bound the whole series on
// a host of few cores, while the GPU, which merges everything above them,
// idles; the batch layer multiplies thousands of 2^10..2^18-bit values at
// once. binary_split gives the left-most share of its host subtrees to this,
// on a thread of its own (SplitPlan::batched_share; by default nearly all of
// them: kSeriesBatchedShare), and the rest to host threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "split_plan.hpp"  // TermRange
#include "mpgpu/integer.hpp"

namespace mpgpu::cli {

/// A node of pi's series: P, Q, T of a range of terms (constants_pi.cpp).
struct ChudnovskyNode {
  Integer P, Q, T;
};

/// Bits that hold P, Q and T of the node [a, b) (b > a), T with its sign (two's
/// complement): a multiple of 64 from the bound |T| <= (b - a)(A + B (b - 1)) Q
/// with Q <= ((b - 1)^3 640320^3 / 24)^(b - a) (P < Q for every term k >= 1).
std::size_t chudnovsky_node_width(std::uint64_t a, std::uint64_t b);

/// The nodes of `ranges` (each b > a), as the plain recursion (binary_split)
/// would make them, their work queued in ctx and their values in `into`
/// (ctx itself, or another context of its device: a thread with a context
/// of its own makes nodes for the calling thread's context without waiting
/// for that context's queue): the ranges of one depth of the balanced tree
/// together, one Batch a value and level, from their leaves (series_leaves:
/// one kernel on a CUDA context) up, then every top made an Integer at once
/// (Batch::to_integers); a range wider than Batch::max_bits at its top is
/// split in halves, batched, its halves merged by Integer products in ctx
/// (every merge of a height at once), and the nodes moved to `into` at once
/// (to_context_each). Any context: on the CPU one the batch layer runs on GMP's mpn
/// functions (the tests' way to check this against the recursion).
std::vector<ChudnovskyNode> chudnovsky_nodes_batched(std::span<const TermRange> ranges, const Context& ctx,
                                                     const Context& into);

}  // namespace mpgpu::cli
