// The product of two integers whose limbs are spread over the parts of a context, by a
// four-step NTT whose transposes are all-to-alls between the parts (docs/multi-gpu.md,
// part 2, step 1: the decomposition; its local steps run here on the host).
//
// Digits of one limb, three ~62-bit primes (field::ntt_primes62's CRT set: a convolution
// of L <= 2^53 64-bit digits is exact), a cyclic transform of L = n1 n2 points, the digit
// vector viewed as x[j1 + n1 j2]:
//   1. all-to-all: every part gets its range of j1 (its columns), all j2;
//   2. per column a transform of n2 points (`ntt_forward` on the part's context, the
//      columns as a batch), times the twiddles w^(j1 k2);
//   3. all-to-all: every part gets its range of k2, all j1; per row a transform of n1
//      points: X[k2 + n2 k1]. The spectrum stays in this layout (the pointwise product
//      needs none in particular, the inverse undoes it);
//   4. pointwise products; the inverse runs the steps backwards (rows, all-to-all,
//      twiddles w^(-j1 k2), columns), and a last all-to-all brings the coefficients to
//      contiguous ranges, where Garner's CRT (ntt::Crt3) makes them three limbs each;
//   5. carries: each part sums its coefficients, sends the limbs past its range to the
//      next part (an all-to-all of 3-word blocks to the neighbour), and the carry into each
//      range follows from every part's (generate, propagate) pair, all-gathered.
// Parts' ranges (of j1, of k2 and of the product's limbs) follow the rule of a Batch's
// instances: count / G each, one more for the first count % G.
//
// The steps inside a part (the rearrangements around each all-to-all as strided rectangles,
// the twiddles, the pointwise products, the CRT and the carries) go through PartSteps: host
// loops on CPU parts, kernels on CUDA parts, queued without waiting so that the parts run at
// once. One host thread drives every part, so it reads the parts' carry statuses itself
// (across hosts that would be an all-gather).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "distributed/communicator.hpp"
#include "distributed/part_steps.hpp"
#include "mpgpu/context.hpp"

namespace mpgpu::distributed {

/// The range [begin, begin + count) of part `part` when `total` items are split over
/// `parts` parts as a Batch's instances are.
struct PartRange {
  std::size_t begin = 0, count = 0;
};
PartRange part_range(std::size_t total, std::size_t parts, std::size_t part);

/// The transform's shape for a product of `limbs` limbs over `parts` parts: L = 2^log_n1
/// 2^log_n2 >= limbs, n1 <= n2 <= 2 n1, at least `parts` columns and rows (so no part's
/// range of j1 or k2 is empty). Throws InvalidArgument when no such shape exists under
/// 2^53 points.
struct FourStepShape {
  int log_n1 = 0, log_n2 = 0;
};
FourStepShape four_step_shape(std::size_t limbs, std::size_t parts);

/// a b over parts of any kind: part g's range of a is a[g] (its data in part g's memory),
/// likewise b, in part order; the product's range of part g goes to product[g], whose count
/// must be part_range(na + nb, G, g).count. The parts' local steps run through `steps`
/// (made for these parts), the moves through `comm`. Work is queued on the parts' streams
/// and the call returns after the last carry is added (the carries' statuses are read back).
/// Errors as below.
void four_step_mul(const std::vector<Context>& parts, Communicator& comm, PartSteps& steps,
                   const std::vector<SendBlock>& a, const std::vector<SendBlock>& b,
                   const std::vector<RecvBlock>& product);

/// a b, where part g of `a` holds a's limbs [a_begin(g), a_begin(g) + a[g].size()), least
/// significant first, contiguous and in part order (any sizes, empty parts allowed), and
/// likewise b. The product's na + nb limbs come back split by part_range(na + nb, G, g),
/// with its high zero limbs kept (so the split depends only on the sizes). `parts`: one
/// context a part (CPU contexts; InvalidArgument otherwise), G = parts.size() =
/// comm.parts(). Each part must end with at least 4 limbs of the product (a carry crosses at
/// most the next part); InvalidArgument otherwise, as for an empty operand.
std::vector<std::vector<std::uint64_t>> four_step_mul(const std::vector<Context>& parts, Communicator& comm,
                                                      const std::vector<std::vector<std::uint64_t>>& a,
                                                      const std::vector<std::vector<std::uint64_t>>& b);

}  // namespace mpgpu::distributed
