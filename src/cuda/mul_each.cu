// mul_abs_each (backend.hpp): independent products at once. Why: each
// product of 2^17 to 2^24 bits is a chain of small kernels (ntt_mul.cu:
// dependent passes, each too small to fill the GPU, even with its primes
// side by side; docs/integer.md, "Where products run"), so the merges of a
// binary splitting, four such products each, keep the GPU mostly idle when
// the products run one after another.
//
// Products that mul_abs would take as the padded product with its primes
// side by side (transforms of up to 2^mul_each_batch_max_log points) go
// together: each group of two or more is ONE batched product
// (mul_abs_side_by_side_batch, ntt_mul.cu), one chain of passes for the
// group, at the group's largest transform length. A group takes the
// products of that length and of half of it (padded to the double length:
// in this range a product costs its chain's latency, not its points, so
// the padding is cheaper than a second chain; binary splitting's P and Q
// products differ by about that). Products that alone would go by columns
// (schoolbook) are batched too, apart, when kMinColumnBatch or more are
// of about one size (a level of binary splitting's small merges). The
// others run on the branches of one StreamFork.
#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "cuda/backend.hpp"
#include "cuda/contracts.hpp"
#include "cuda/ntt_product.hpp"
#include "cuda/stream_fork.hpp"

namespace mpgpu::detail::cuda {

namespace {
/// A batch holds at most this many times the largest batched transform's
/// points (2^22 points at the default bound: 256 MiB of buffers).
constexpr unsigned kBatchPointsFactor = 16;
/// Products that one product alone would take by columns are batched from
/// this many of about one size (a batch then replaces that many launches).
constexpr std::size_t kMinColumnBatch = 8;
/// ... and of at least 2^kMinColumnBatchLog limbs of result (smaller
/// ones are a few microseconds each by columns).
constexpr int kMinColumnBatchLog = 10;
}  // namespace

void mul_abs_each(ContextState& st, Stream s, const ProductJob* jobs, Deferred* out, std::size_t count) {
  contract::mul_abs_each(jobs, count);
  if (count == 0) return;
  // (log_n, job) of the products that may be batched: the NTT ones, and
  // apart the ones mul_abs_each would multiply by columns (a launch each:
  // batched only kMinColumnBatch or more at a time).
  std::vector<std::pair<int, std::size_t>> batchable[2];
  std::vector<std::size_t> alone;
  for (std::size_t i = 0; i < count; ++i) {
    const ProductJob& j = jobs[i];
    const bool square = j.a.limbs == j.b.limbs && j.a.size == j.b.size;
    const int log_n = side_by_side_log_n(st, j.a.size, j.b.size, square);
    if (log_n > 0 && log_n <= st.tuning.mul_each_batch_max_log && (!j.by_columns || log_n >= kMinColumnBatchLog))
      batchable[j.by_columns].emplace_back(log_n, i);
    else alone.push_back(i);
  }
  for (int columns = 0; columns < 2; ++columns) {
    auto& candidates = batchable[columns];
    const std::size_t min_batch = columns ? kMinColumnBatch : 2;
    std::sort(candidates.begin(), candidates.end(), std::greater<>());
    for (std::size_t first = 0; first < candidates.size();) {
      const int log_n = candidates[first].first;
      // At most kBatchPointsFactor times the largest batched transform's
      // points in one batch (8 words a point), however many products the
      // caller hands in.
      const std::size_t max_products =
          std::max<std::size_t>(2, (std::size_t{kBatchPointsFactor} << st.tuning.mul_each_batch_max_log) >> log_n);
      std::size_t end = first;
      while (end < candidates.size() && candidates[end].first >= log_n - 1 && end - first < max_products) ++end;
      if (end - first < min_batch) {
        for (std::size_t g = first; g < end; ++g) alone.push_back(candidates[g].second);
      } else {
        std::vector<const ProductJob*> batch;
        std::vector<Deferred*> results;
        for (std::size_t g = first; g < end; ++g) {
          batch.push_back(&jobs[candidates[g].second]);
          results.push_back(&out[candidates[g].second]);
        }
        mul_abs_side_by_side_batch(st, s, batch.data(), batch.size(), log_n, results.data());
      }
      first = end;
    }
  }
  if (alone.empty()) return;
  // A job on branch 0 runs on s itself; the fork's destructor orders s after
  // the other branches on the way out of an exception too.
  StreamFork fork(st, s,
                  static_cast<int>(alone.size() < StreamFork::kMaxBranches ? alone.size() : StreamFork::kMaxBranches));
  for (std::size_t k = 0; k < alone.size(); ++k) {
    const ProductJob& j = jobs[alone[k]];
    const Stream branch = fork.branch(static_cast<int>(k % static_cast<std::size_t>(fork.branches())));
    out[alone[k]] = j.by_columns ? mul_columns(st, branch, j.r, j.a, j.b) : mul_abs(st, branch, j.r, j.a, j.b);
  }
  fork.join();
}

}  // namespace mpgpu::detail::cuda
