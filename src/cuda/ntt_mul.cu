// Exact products of huge magnitudes on the device: three NTTs of 64-bit
// digits modulo three ~62-bit primes (include/mpgpu/ntt/block_ntt.cuh),
// Garner CRT per coefficient, column sums, and one scan add for the carries.
// Large balanced products may instead take digits of 2 or 4 limbs and 5 or
// 9 primes (ntt_mul_digits.cu; choose_digits decides).
//
// Per prime (run_prime_product, ntt_product.hpp): the operand loads, the
// pointwise product and the scaling are fused into the transforms' first and
// last passes: with N <= 2^23, 2 + 2 + 2 memory passes per prime (3 + 3 + 3
// beyond) and no element-wise kernels.
//
// Memory (N = transform length >= M = na + nb, words of 8 bytes; the result
// takes M + 2 limbs): three residue vectors of N, one vector of N for b's
// transform (reused for the column sums) and M + 1 carry words, 4 N + 2 M + 3
// words with the result: 6x the output when N = M. When N > 1.5 M that would
// pass 8x (10x for M just above a power of two), so the primes run one after
// another in one transform buffer and only the first M coefficients of primes
// 0 and 1 are kept aside: 2 N + 4 M + 3 words < 8 M (N <= 2 M - 2). Prime 0's
// last inverse pass writes straight into the kept area (N <= 2 M words there),
// prime 1's coefficients are copied (M words), prime 2's stay in place.
// Twiddle tables are small (2^14 + 2^(L/2 + 2) pairs) and cached in the context.
//
// Small transforms (N <= 2^kMulSidePrimesMaxLog points, padded or chunked)
// run the three primes side by side on three streams (stream_fork.hpp): each
// prime's chain of passes is a few hundred blocks at most there, so one
// prime at a time leaves the GPU mostly idle and a product costs the sum of
// its ~18 passes' latencies. Each prime then has its own spectrum buffer:
// 6 N + 3 M + 1 words (chunked: 3 k N' + 3 N' + 2 M + 1), above the 8x rule
// for N near 2 M but at most a few hundred MiB at that bound.
//
// Unbalanced products (mul_abs_chunked): when b is much shorter than a, a is
// cut into k chunks of L limbs and each chunk times b is a transform of N'
// points (N' a power of two >= L + nb, so no chunk product wraps), all k in
// one batched transform per prime; b's spectrum is made once per prime and
// multiplied into every chunk's (a broadcast pointwise epilogue). The chunk
// products overlap-add in the residue domain (a coefficient gets terms from
// at most two chunks, since L >= nb), fused with the CRT and the column sums.
// Exactness: a coefficient is a sum of at most nb digit products, the same
// bound as the padded product. Chosen when its pass-points are below 3/4 of
// the padded product's (choose_chunking), among the chunkings whose buffers,
// 3 k N' + N' + 2 M + 1 words, stay below 8x the output with the result.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/contracts.hpp"
#include "cuda/grid_stride.hpp"
#include "cuda/ntt_product.hpp"
#include "cuda/result_words.cuh"
#include "cuda/scoped_memory.cuh"
#include "cuda/stream_fork.hpp"
#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt/block_ntt.cuh"
#include "mpgpu/ntt/crt3.cuh"
#include "mpgpu/ntt/radix2_kernels.cuh"

namespace mpgpu::detail::cuda {

// Defined in ntt_public.cu: the cached block-NTT tables of (p, log_n).
const void* ntt_block_tables(ContextState& st, Stream s, std::uint64_t p, std::uint64_t generator, int log_n);

// The lazy kernels (values < 2p between stages, ntt::block_ntt_lazy) and the
// Montgomery pointwise product (x y < 4p^2 < p 2^64) both need p < 2^62.
constexpr bool kProductPrimesLazy = [] {
  for (const field::NttPrime& q : field::ntt_primes62)
    if (q.p >= (std::uint64_t{1} << 62) || ((q.p - 1) & 0xffffffffu) != 0) return false;
  return true;
}();
static_assert(kProductPrimesLazy);

/// Prime `prime`'s coefficients of the product of q into q.out.
void run_prime_product(ContextState& st, Stream s, const field::NttPrime& prime, const PrimeProduct& q) {
  const field::PrimeField64 f = field::PrimeField64::make(prime.p);
  const ntt::BlockTables tables =
      ntt::BlockTables::view(ntt_block_tables(st, s, prime.p, prime.generator, q.log_n), q.log_n);
  const std::uint64_t n = std::uint64_t{1} << q.log_n;
  // With a batch, each transform reads its own slot (stride and total
  // bound: the slots' ends read as 0); one product: the defaults.
  const bool slots = q.batch > 1;
  ntt::BlockTransform t{};
  t.batch = q.batch;
  t.log_n = q.log_n;
  t.forward = true;
  t.natural = false;
  t.reduce_input = true;
  t.digit_limbs = q.digit_limbs;
  t.dst = t.work = q.x;
  t.src = q.a.limbs;
  t.src_len = q.a.size;
  t.src_stride = slots ? q.a.size : 0;
  t.src_total = slots ? q.batch * q.a.size : 0;
  t.epilogue = q.square ? ntt::PassEpilogue::square : ntt::PassEpilogue::lazy;
  MPGPU_CUDA_CHECK(ntt::run_block_transform(t, tables, f, s));
  if (!q.square) {
    t.dst = q.x;
    t.work = q.y;
    t.src = q.b.limbs;
    t.src_len = q.b.size;
    t.src_stride = slots ? q.b.size : 0;
    t.src_total = slots ? q.batch * q.b.size : 0;
    t.epilogue = ntt::PassEpilogue::pointwise;
    t.other = q.x;  // slot by slot (other_broadcast stays false)
    MPGPU_CUDA_CHECK(ntt::run_block_transform(t, tables, f, s));
  }
  ntt::BlockTransform inv{};
  inv.work = q.x;
  inv.dst = q.out;  // a non-permuting last pass may write elsewhere
  inv.src = q.x;
  inv.src_len = n;
  inv.batch = q.batch;
  inv.log_n = q.log_n;
  inv.forward = false;
  inv.natural = false;
  inv.reduce_input = false;
  inv.epilogue = ntt::PassEpilogue::scale;
  inv.scale = f.mul(f.inv(n % prime.p), f.r1);  // n^-1 and the pointwise product's 2^-64 (r1 = 2^64 mod p)
  inv.other = nullptr;
  MPGPU_CUDA_CHECK(ntt::run_block_transform(inv, tables, f, s));
}

namespace {

/// log2 of the largest transform (points, times the batch when chunked)
/// whose primes run side by side: the context's side_primes_max_log
/// (TuningParams; kMulSidePrimesMaxLog by default, 0: never).
int side_primes_max_log(const ContextState& st) { return st.tuning.side_primes_max_log; }

/// Position of coefficient j in the chunk products: chunk c = j / L and the
/// offset in it; the chunk before (c - 1) holds j at off + L when that is
/// below N'. Advanced one coefficient at a time (no division per step).
struct ChunkCursor {
  std::size_t c, off;
  __device__ void next(std::size_t chunk) {
    if (++off == chunk) {
      off = 0;
      ++c;
    }
  }
};

/// Coefficient (c, off) mod p of the chunked product from x (k transforms of
/// 2^log_np canonical residues): chunk c's term (none past the last chunk)
/// plus the tail of chunk c - 1 when it reaches this far.
__device__ __forceinline__ std::uint64_t overlapped(const std::uint64_t* x, std::uint64_t p, ChunkCursor at,
                                                    std::size_t chunk, std::size_t chunks, int log_np) {
  std::uint64_t v = at.c < chunks ? x[(at.c << log_np) + at.off] : 0;
  const std::size_t prev = at.off + chunk;
  if (at.c > 0 && prev < (std::size_t{1} << log_np)) {
    v += x[((at.c - 1) << log_np) + prev];
    if (v >= p) v -= p;
  }
  return v;
}

/// Overlap-add, CRT and column sums of the chunked product in one pass:
/// lo[j] = low word of c_j[0] + c_(j-1)[1] + c_(j-2)[2], carry[j+1] its high
/// word, carry[0] = 0 (as column_kernel). Each thread takes kRun consecutive
/// columns (one division to place the first) and combines the two before
/// its run once more.
template <int kRun>
__global__ void chunked_finish_kernel(std::uint64_t* lo, std::uint64_t* carry, const std::uint64_t* x0,
                                      const std::uint64_t* x1, const std::uint64_t* x2, ntt::Crt3 crt,
                                      std::uint64_t p0, std::uint64_t p1, std::uint64_t p2, std::size_t m,
                                      std::size_t chunk, std::size_t chunks, int log_np) {
  const std::size_t runs = (m + kRun - 1) / kRun;
  for (std::size_t run = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; run < runs;
       run += std::size_t{gridDim.x} * blockDim.x) {
    const std::size_t j0 = run * kRun;
    const std::size_t first = j0 >= 2 ? j0 - 2 : 0;
    ChunkCursor at{first / chunk, first % chunk};
    std::uint64_t prev1[3] = {0, 0, 0}, prev2[3] = {0, 0, 0};  // c_(j-1), c_(j-2)
    for (std::size_t j = first; j < j0 + kRun && j < m; ++j, at.next(chunk)) {
      std::uint64_t c[3];
      crt.combine(overlapped(x0, p0, at, chunk, chunks, log_np), overlapped(x1, p1, at, chunk, chunks, log_np),
                  overlapped(x2, p2, at, chunk, chunks, log_np), c);
      if (j >= j0) {
        std::uint64_t sum = c[0], h = 0;
        h += limb::add_with_carry(sum, prev1[1], 0, sum);
        h += limb::add_with_carry(sum, prev2[2], 0, sum);
        lo[j] = sum;
        carry[j + 1] = h;
        if (j == 0) carry[0] = 0;
      }
      for (int w = 0; w < 3; ++w) {
        prev2[w] = prev1[w];
        prev1[w] = c[w];
      }
    }
  }
}

/// Passes of a bit-reversed transform of 2^log_n points (block_plan.hpp).
std::size_t passes_of(int log_n, std::size_t batch) { return ntt::block_passes(log_n, batch, false).size(); }

/// Chunking of an na x nb product (na >= nb): log2 N' and the chunk length L
/// = N' - nb, or log_np = 0 when the padded product is cheaper. Cost model:
/// points times memory passes, 2 k N' + N' for the chunks (a's chunks and
/// the inverse, batched; b once) against 3 N for the padded product; the
/// chunked form must win by a quarter (its finishing pass recombines up to
/// two chunks a coefficient).
struct Chunking {
  int log_np = 0;
  std::size_t chunk = 0, chunks = 0;
};

Chunking choose_chunking(std::size_t na, std::size_t nb, int log_n) {
  const std::size_t m = na + nb;
  Chunking best;
  const double full = 3.0 * double(std::size_t{1} << log_n) * double(passes_of(log_n, 1));
  double best_cost = 0.75 * full;
  int lp = 1;
  while ((std::size_t{1} << lp) < 2 * nb) ++lp;  // L >= nb: at most two chunks overlap
  for (; lp < log_n; ++lp) {
    const std::size_t np = std::size_t{1} << lp, chunk = np - nb;
    const std::size_t k = (na + chunk - 1) / chunk;
    const double cost = (2.0 * double(k) + 1.0) * double(np) * double(passes_of(lp, k));
    const bool fits = 3 * k * np + np + (2 * m + 1) + (m + 2) <= 8 * m;  // buffers + result
    if (fits && cost < best_cost) {
      best_cost = cost;
      best = {lp, chunk, k};
    }
  }
  return best;
}

/// The chunked product (see the file comment); a.size >= b.size.
Deferred mul_abs_chunked(ContextState& st, Stream s, limb_t* r, Operand a, Operand b, const Chunking& ch) {
  const std::size_t m = a.size + b.size;
  const int lp = ch.log_np;
  const std::size_t np = std::size_t{1} << lp, k = ch.chunks;
  int total_log = lp;
  while ((std::size_t{1} << total_log) < k * np) ++total_log;
  const bool side_by_side = total_log <= side_primes_max_log(st);
  ScopedDeviceMemory residues(st, s, 3 * k * np * sizeof(std::uint64_t));
  ScopedDeviceMemory spectrum(st, s, (side_by_side ? 3 : 1) * np * sizeof(std::uint64_t));
  std::uint64_t* x[3] = {residues.as<std::uint64_t>(), residues.as<std::uint64_t>() + k * np,
                         residues.as<std::uint64_t>() + 2 * k * np};
  StreamFork fork(st, s, side_by_side ? 3 : 1);  // after the buffers: joined before they are freed
  for (int i = 0; i < 3; ++i) {
    const Stream bs = fork.branch(side_by_side ? i : 0);
    std::uint64_t* const y = spectrum.as<std::uint64_t>() + (side_by_side ? i * np : 0);
    const field::NttPrime& prime = field::ntt_primes62[i];
    const field::PrimeField64 f = field::PrimeField64::make(prime.p);
    const ntt::BlockTables tables = ntt::BlockTables::view(ntt_block_tables(st, bs, prime.p, prime.generator, lp), lp);
    // b's spectrum, once.
    ntt::BlockTransform t{};
    t.batch = 1;
    t.log_n = lp;
    t.forward = true;
    t.natural = false;
    t.reduce_input = true;
    t.dst = t.work = y;
    t.src = b.limbs;
    t.src_len = b.size;
    t.epilogue = ntt::PassEpilogue::lazy;
    MPGPU_CUDA_CHECK(ntt::run_block_transform(t, tables, f, bs));
    // The k chunks of a (chunk c: limbs c L .. c L + L - 1, zero padded),
    // each multiplied by b's spectrum in its last pass.
    t.batch = k;
    t.dst = t.work = x[i];
    t.src = a.limbs;
    t.src_len = ch.chunk;
    t.src_stride = ch.chunk;
    t.src_total = a.size;
    t.epilogue = ntt::PassEpilogue::pointwise;
    t.other = y;
    t.other_broadcast = true;
    MPGPU_CUDA_CHECK(ntt::run_block_transform(t, tables, f, bs));
    ntt::BlockTransform inv{};
    inv.dst = inv.work = x[i];
    inv.src = x[i];
    inv.src_len = np;
    inv.batch = k;
    inv.log_n = lp;
    inv.forward = false;
    inv.natural = false;
    inv.reduce_input = false;
    inv.epilogue = ntt::PassEpilogue::scale;
    inv.scale = f.mul(f.inv(np % prime.p), f.r1);  // n^-1 and the pointwise product's 2^-64
    inv.other = nullptr;
    MPGPU_CUDA_CHECK(ntt::run_block_transform(inv, tables, f, bs));
  }
  fork.join();
  ScopedDeviceMemory columns(st, s, (2 * m + 1) * sizeof(std::uint64_t));
  std::uint64_t* lo = columns.as<std::uint64_t>();
  std::uint64_t* carry = lo + m;
  const ntt::Crt3 crt =
      ntt::Crt3::make(field::ntt_primes62[0].p, field::ntt_primes62[1].p, field::ntt_primes62[2].p);
  constexpr int kRun = 8;
  chunked_finish_kernel<kRun><<<grid_for((m + kRun - 1) / kRun), 256, 0, s>>>(
      lo, carry, x[0], x[1], x[2], crt, field::ntt_primes62[0].p, field::ntt_primes62[1].p,
      field::ntt_primes62[2].p, m, ch.chunk, k, lp);
  MPGPU_CHECK_LAUNCH("chunked_finish_kernel");
  return add_abs(st, s, r, {carry, m + 1}, {lo, m});
}

/// The padded product with the primes side by side (see the file comment):
/// prime i transforms in x[i] with its own spectrum buffer y[i].
Deferred mul_abs_side_by_side(ContextState& st, Stream s, limb_t* r, Operand a, Operand b, bool square, int log_n) {
  const std::size_t m = a.size + b.size, n = std::size_t{1} << log_n;
  ScopedDeviceMemory residues(st, s, 3 * n * sizeof(std::uint64_t));
  ScopedDeviceMemory spectra(st, s, (square ? 0 : 3 * n) * sizeof(std::uint64_t));
  ScopedDeviceMemory columns(st, s, (2 * m + 1) * sizeof(std::uint64_t));
  std::uint64_t* const x = residues.as<std::uint64_t>();
  {
    StreamFork fork(st, s, 3);  // after the buffers: joined before they are freed
    for (int i = 0; i < 3; ++i) {
      std::uint64_t* const xi = x + i * n;
      std::uint64_t* const yi = square ? nullptr : spectra.as<std::uint64_t>() + i * n;
      run_prime_product(st, fork.branch(i), field::ntt_primes62[i], {a, b, square, log_n, 1, xi, yi, xi});
    }
    fork.join();
  }
  const ntt::Crt3 crt =
      ntt::Crt3::make(field::ntt_primes62[0].p, field::ntt_primes62[1].p, field::ntt_primes62[2].p);
  ntt::crt_kernel<<<grid_for(m), 256, 0, s>>>(x, x + n, x + 2 * n, crt, m);
  MPGPU_CHECK_LAUNCH("crt_kernel");
  std::uint64_t* const lo = columns.as<std::uint64_t>();
  std::uint64_t* const carry = lo + m;
  ntt::column_kernel<<<grid_for(m), 256, 0, s>>>(lo, carry, x, x + n, x + 2 * n, m);
  MPGPU_CHECK_LAUNCH("column_kernel");
  return add_abs(st, s, r, {carry, m + 1}, {lo, m});
}

}  // namespace

namespace {

struct GatherSource {
  const limb_t* limbs;
  std::size_t size;
};

/// dst[j * slot + i] = source j's limb i, or 0 past its size (j < count).
__global__ void gather_kernel(limb_t* dst, const GatherSource* sources, std::size_t slot, std::size_t count) {
  for (std::size_t idx = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; idx < slot * count;
       idx += std::size_t{gridDim.x} * blockDim.x) {
    const GatherSource g = sources[idx / slot];
    const std::size_t i = idx % slot;
    dst[idx] = i < g.size ? g.limbs[i] : 0;
  }
}

}  // namespace

int side_by_side_log_n(const ContextState& st, std::size_t na, std::size_t nb, bool square) {
  const std::size_t m = na + nb;
  int log_n = 1;
  while ((std::size_t{1} << log_n) < m) ++log_n;
  if (log_n > side_primes_max_log(st)) return 0;
  if (!square && choose_chunking(std::max(na, nb), std::min(na, nb), log_n).log_np != 0) return 0;
  if (choose_digits(na, nb, square, st.tuning.ntt_digit_limbs).limbs > 1) return 0;
  return log_n;
}

void mul_abs_side_by_side_batch(ContextState& st, Stream s, const ProductJob* const* jobs, std::size_t k, int log_n,
                                Deferred* const* out) {
  use_device(st.device);
  order_after_context(st, s);  // operands may be in flight on the context's stream
  const std::size_t n = std::size_t{1} << log_n;
  std::size_t sa = 0, sb = 0;
  for (std::size_t j = 0; j < k; ++j) {
    sa = std::max(sa, jobs[j]->a.size);
    sb = std::max(sb, jobs[j]->b.size);
  }
  // The operands in slots of sa and sb limbs, zero-filled past each one's
  // size (the transforms' first pass reads a slot as one operand and pads
  // it to 2^log_n with zeros): one gather kernel over a table of the
  // operands (k may be hundreds: one copy each would be a launch each).
  ScopedDeviceMemory gathered(st, s, k * (sa + sb) * sizeof(limb_t));
  limb_t* const ga = gathered.as<limb_t>();
  limb_t* const gb = ga + k * sa;
  {
    std::vector<GatherSource> table(2 * k);
    for (std::size_t j = 0; j < k; ++j) {
      table[j] = {jobs[j]->a.limbs, jobs[j]->a.size};
      table[k + j] = {jobs[j]->b.limbs, jobs[j]->b.size};
    }
    ScopedDeviceMemory device_table(st, s, table.size() * sizeof(GatherSource));
    copy_to_device(st, s, device_table.p, table.data(), table.size() * sizeof(GatherSource));
    const GatherSource* const t = device_table.as<GatherSource>();
    gather_kernel<<<grid_for(k * sa), 256, 0, s>>>(ga, t, sa, k);
    MPGPU_CHECK_LAUNCH("gather_kernel");
    gather_kernel<<<grid_for(k * sb), 256, 0, s>>>(gb, t + k, sb, k);
    MPGPU_CHECK_LAUNCH("gather_kernel");
  }
  ScopedDeviceMemory residues(st, s, 3 * k * n * sizeof(std::uint64_t));
  ScopedDeviceMemory spectra(st, s, 3 * k * n * sizeof(std::uint64_t));
  ScopedDeviceMemory columns(st, s, (2 * k * n + 1) * sizeof(std::uint64_t));
  std::uint64_t* const x = residues.as<std::uint64_t>();
  {
    StreamFork fork(st, s, 3);  // after the buffers: joined before they are freed
    for (int i = 0; i < 3; ++i) {
      std::uint64_t* const xi = x + i * k * n;
      std::uint64_t* const yi = spectra.as<std::uint64_t>() + i * k * n;
      PrimeProduct q{{ga, sa}, {gb, sb}, false, log_n, 1, xi, yi, xi};
      q.batch = k;
      run_prime_product(st, fork.branch(i), field::ntt_primes62[i], q);
    }
    fork.join();
  }
  // CRT and column sums over the k slots as one array: slot j holds product
  // j's na + nb - 1 coefficients and zeros up to 2^log_n (no wrap), and its
  // top coefficient is one digit product (< 2^128), so no column sum of a
  // slot reaches into the next and each product's carry add reads its own.
  const ntt::Crt3 crt =
      ntt::Crt3::make(field::ntt_primes62[0].p, field::ntt_primes62[1].p, field::ntt_primes62[2].p);
  const std::size_t total = k * n;
  ntt::crt_kernel<<<grid_for(total), 256, 0, s>>>(x, x + total, x + 2 * total, crt, total);
  MPGPU_CHECK_LAUNCH("crt_kernel");
  std::uint64_t* const lo = columns.as<std::uint64_t>();
  std::uint64_t* const carry = lo + total;
  ntt::column_kernel<<<grid_for(total), 256, 0, s>>>(lo, carry, x, x + total, x + 2 * total, total);
  MPGPU_CHECK_LAUNCH("column_kernel");
  // Each product's limbs from its column sums: one launch for them all on
  // the context's stream (its result slots published early), else one
  // add_abs each (another stream's slots are published at the kernel's end).
  if (st.tuning.mul_each_sums_at_once != 0 && publish_early(st, s)) {
    std::vector<ColumnSum> sums(k);
    for (std::size_t j = 0; j < k; ++j)
      sums[j] = {jobs[j]->r, carry + j * n, lo + j * n, jobs[j]->a.size + jobs[j]->b.size};
    column_sums_each(st, s, sums.data(), k, out);
    return;
  }
  for (std::size_t j = 0; j < k; ++j) {
    const std::size_t m = jobs[j]->a.size + jobs[j]->b.size;
    *out[j] = add_abs(st, s, jobs[j]->r, {carry + j * n, m + 1}, {lo + j * n, m});
  }
}

Deferred mul_abs(ContextState& st, Stream s, limb_t* r, Operand a, Operand b) {
  contract::mul_abs(r, a, b);
  use_device(st.device);
  order_after_context(st, s);  // operands may be in flight on the context's stream
  const bool square = a.limbs == b.limbs && a.size == b.size;
  const std::size_t m = a.size + b.size;
  int log_n = 1;
  while ((std::size_t{1} << log_n) < m) ++log_n;
  const int max_log = std::min({field::ntt_primes62[0].n, field::ntt_primes62[1].n, field::ntt_primes62[2].n});
  if (log_n > max_log || log_n > 40)
    throw Overflow("mpgpu::mul: a product of " + std::to_string(m) + " limbs exceeds the NTT length limit");
  const std::size_t n = std::size_t{1} << log_n;
  if (!square) {
    if (a.size < b.size) std::swap(a, b);
    const Chunking ch = choose_chunking(a.size, b.size, log_n);
    if (ch.log_np != 0) return mul_abs_chunked(st, s, r, a, b, ch);
  }
  const DigitsPlan plan = choose_digits(a.size, b.size, square, st.tuning.ntt_digit_limbs);
  if (plan.limbs > 1) return mul_abs_digits(st, s, r, a, b, square, plan);
  if (log_n <= side_primes_max_log(st)) return mul_abs_side_by_side(st, s, r, a, b, square, log_n);

  // Where prime i transforms (x) and where its first m coefficients end
  // (coeffs); see the file comment for the two layouts.
  const bool keep_aside = 4 * n + 2 * m + 3 > 8 * m;
  ScopedDeviceMemory residues(st, s, (keep_aside ? n + 2 * m : 3 * n) * sizeof(std::uint64_t));
  ScopedDeviceMemory other(st, s, n * sizeof(std::uint64_t));
  ScopedDeviceMemory carries(st, s, (m + 1) * sizeof(std::uint64_t));
  std::uint64_t* const base = residues.as<std::uint64_t>();
  std::uint64_t* x[3] = {base, base + n, base + 2 * n};
  std::uint64_t* coeffs[3] = {x[0], x[1], x[2]};
  if (keep_aside) {
    x[1] = x[2] = base;
    coeffs[0] = base + n;  // 2 m >= n words from here: room for prime 0's whole last pass
    coeffs[1] = base + n + m;
    coeffs[2] = base;
  }
  std::uint64_t* y = other.as<std::uint64_t>();

  for (int i = 0; i < 3; ++i) {
    run_prime_product(st, s, field::ntt_primes62[i],
                      {a, b, square, log_n, 1, x[i], y, i == 0 ? coeffs[0] : x[i]});
    if (i == 1 && coeffs[1] != x[1])
      MPGPU_CUDA_CHECK(cudaMemcpyAsync(coeffs[1], x[1], m * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice, s));
  }
  const ntt::Crt3 crt =
      ntt::Crt3::make(field::ntt_primes62[0].p, field::ntt_primes62[1].p, field::ntt_primes62[2].p);
  ntt::crt_kernel<<<grid_for(m), 256, 0, s>>>(coeffs[0], coeffs[1], coeffs[2], crt, m);
  MPGPU_CHECK_LAUNCH("crt_kernel");
  std::uint64_t* lo = y;
  std::uint64_t* carry = carries.as<std::uint64_t>();
  ntt::column_kernel<<<grid_for(m), 256, 0, s>>>(lo, carry, coeffs[0], coeffs[1], coeffs[2], m);
  MPGPU_CHECK_LAUNCH("column_kernel");
  // r = carry (m + 1 limbs) + lo (m limbs); neither need be normalized.
  return add_abs(st, s, r, {carry, m + 1}, {lo, m});
}

}  // namespace mpgpu::detail::cuda
