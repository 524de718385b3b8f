// The product of two integers whose limbs are spread over the parts of a context, by a
// four-step NTT whose transposes are all-to-alls between the parts (docs/multi-gpu.md,
// part 2).
//
// Digits of d limbs (1, 2 or 4) and the first P = 3, 5 or 9 primes of field::ntt_primes62
// (as the one-GPU product's digits: ntt/crt_many.cuh), a cyclic transform of L = n1 n2 points,
// the digit vector viewed as x[j1 + n1 j2]:
//   1. all-to-all: every part gets its range of j1 (its columns), all j2, as limbs;
//   2. per column the digits mod p, a transform of n2 points (`ntt_forward` on the part's
//      context, the columns as a batch), times the twiddles w^(j1 k2);
//   3. all-to-all: every part gets its range of k2, all j1; per row a transform of n1
//      points: X[k2 + n2 k1]. The spectrum stays in this layout (the pointwise product
//      needs none in particular, the inverse undoes it);
//   4. pointwise products; the inverse runs the steps backwards (rows, all-to-all,
//      twiddles w^(-j1 k2), columns), and an all-to-all brings the coefficients to
//      contiguous ranges, where Garner's CRT makes them 2 d + 1 limbs each;
//   5. carries: each part sums its coefficients (coefficient n at limb n d), sends the d + 1
//      limbs past its digits to the next part, and the carry into each part follows from
//      every part's (generate, propagate) pair;
//   6. a last all-to-all moves the limbs from the digits' ranges to the product's.
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

/// The transform's shape for `points` points over `parts` parts: L = 2^log_n1 2^log_n2 >=
/// points, n1 <= n2 <= 2 n1, at least `parts` columns and rows (so no part's range of j1 or
/// k2 is empty). Throws InvalidArgument when no such shape exists under 2^max_log_points.
struct FourStepShape {
  int log_n1 = 0, log_n2 = 0;
};
FourStepShape four_step_shape(std::size_t points, std::size_t parts, int max_log_points = 53);

/// The primes a product with digits of `digit_limbs` limbs takes (the first P of
/// field::ntt_primes62): 3, 5 or 9 for 1, 2 or 4 limbs; InvalidArgument for other sizes.
int four_step_primes(std::size_t digit_limbs);

/// a b over parts of any kind: part g's range of a is a[g] (its data in part g's memory),
/// likewise b, in part order; the product's range of part g goes to product[g], whose count
/// must be part_range(na + nb, G, g).count. The parts' local steps run through `steps`
/// (made for these parts), the moves through `comm`. Work is queued on the parts' streams
/// and the call returns after the carries' statuses are read back (the last move to the
/// product's ranges may still run: synchronize the parts' streams before reading it).
/// Digits of `digit_limbs` limbs (1, 2 or 4, with 3, 5 or 9 primes): larger digits mean
/// fewer points and less to move a limb, more primes. Each part must end with at least 2
/// digits of the product. Errors as below.
void four_step_mul(const std::vector<Context>& parts, Communicator& comm, PartSteps& steps,
                   const std::vector<SendBlock>& a, const std::vector<SendBlock>& b,
                   const std::vector<RecvBlock>& product, std::size_t digit_limbs = 1);

/// a b, where part g of `a` holds a's limbs [a_begin(g), a_begin(g) + a[g].size()), least
/// significant first, contiguous and in part order (any sizes, empty parts allowed), and
/// likewise b. The product's na + nb limbs come back split by part_range(na + nb, G, g),
/// with its high zero limbs kept (so the split depends only on the sizes). `parts`: one
/// context a part (CPU contexts; InvalidArgument otherwise), G = parts.size() =
/// comm.parts(). Each part must end with at least 2 digits of the product (its d + 1 limbs
/// past a part's range cross at most the next part); InvalidArgument otherwise, as for an
/// empty operand or digits of another size.
std::vector<std::vector<std::uint64_t>> four_step_mul(const std::vector<Context>& parts, Communicator& comm,
                                                      const std::vector<std::vector<std::uint64_t>>& a,
                                                      const std::vector<std::vector<std::uint64_t>>& b,
                                                      std::size_t digit_limbs = 1);

}  // namespace mpgpu::distributed
