// The device NTT's pass kernel (block_pass_kernel of
// include/mpgpu/ntt/block_ntt_kernels.cuh) run on the CPU: built by the host
// compiler against tests/ntt/cuda_host_shim (a stand-in <cuda_runtime.h>;
// each block's threads are fibers, switching at __syncthreads, in a shuffled
// order) and checked, whole transforms at a time, against the host NTT
// (HostPlan, the reference of ntt_device_test.cpp). So a change to the
// kernel is tested without a GPU.
//
// Each pass runs with the geometry launch_block_pass gives it (threads
// 2^(k + log_c - 4), block_smem_bytes(k + log_c), ceil(groups / 2^log_c)
// blocks), its arguments from block_pass_args; the tables come from
// block_table_kernel, one emulated thread per entry. Covered: every length
// 2^1 .. 2^16 (2^14 and up take two passes: the strided pass, its cross
// twiddles and the permuting pass), both orders, forward and inverse, the
// lazy (p < 2^62) and canonical (Goldilocks) kernels, batches with a partial
// last tile, reduce_input with src_len < n, every epilogue (lazy, canonical,
// scale, pointwise, square), and the strided bounded source of mul_abs_chunked
// (src/cuda/ntt_mul.cu) with a broadcast spectrum.
#include <cuda_runtime.h>  // tests/ntt/cuda_host_shim/cuda_runtime.h
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "mpgpu/field/primes.hpp"
#include "mpgpu/ntt/block_ntt_dispatch.cuh"  // the copy with host launches (cuda_host_source.cmake)
#include "mpgpu/ntt/block_ntt_kernels.cuh"
#include "mpgpu/ntt/ntt_host.hpp"

namespace mpgpu::ntt {
/// The kernel's `extern __shared__ std::uint64_t block_smem[]`: with the
/// shim, an ordinary array, shared by the one block running at a time.
alignas(16) std::uint64_t block_smem[(std::size_t{1} << kBlockTileLog) + (std::size_t{1} << kBlockTileLog) / 16];
}  // namespace mpgpu::ntt

namespace {

using mpgpu::field::PrimeField64;
using namespace mpgpu::ntt;

constexpr std::uint64_t kPoison = 0xdeadbeefdeadbeefull;

std::size_t bit_reverse(std::size_t k, int bits) {
  std::size_t r = 0;
  for (int i = 0; i < bits; ++i) r |= ((k >> i) & 1u) << (bits - 1 - i);
  return r;
}

/// Natural order to bit-reversed, per transform of 2^log_n.
std::vector<std::uint64_t> to_bit_reversed(const std::vector<std::uint64_t>& x, int log_n) {
  const std::size_t n = std::size_t{1} << log_n;
  std::vector<std::uint64_t> y(x.size());
  for (std::size_t b = 0; b < x.size() / n; ++b)
    for (std::size_t i = 0; i < n; ++i) y[b * n + bit_reverse(i, log_n)] = x[b * n + i];
  return y;
}

/// A buffer with guard words on both sides (checked untouched).
struct Guarded {
  static constexpr std::size_t kGuard = 64;
  static constexpr std::uint64_t kWord = 0x5a5a5a5a5a5a5a5aull;
  std::vector<std::uint64_t> buf;
  explicit Guarded(std::size_t n) : buf(n + 2 * kGuard, kWord) {}
  explicit Guarded(const std::vector<std::uint64_t>& v) : Guarded(v.size()) {
    std::copy(v.begin(), v.end(), data());
  }
  std::uint64_t* data() { return buf.data() + kGuard; }
  std::vector<std::uint64_t> values() const { return {buf.begin() + kGuard, buf.end() - kGuard}; }
  bool guards_intact() const {
    for (std::size_t i = 0; i < kGuard; ++i)
      if (buf[i] != kWord || buf[buf.size() - 1 - i] != kWord) return false;
    return true;
  }
};

/// The host plan of (p, log_n) and the device tables made by the emulated
/// block_table_kernel.
struct Prepared {
  std::shared_ptr<const HostPlan64> plan;
  PrimeField64 f;
  std::vector<ulonglong2> table_words;
  BlockTables tables;

  Prepared(std::uint64_t p, int log_n) : plan(host_plan<PrimeField64>(p, log_n)), f(PrimeField64::make(p)) {
    const BlockTableLayout layout = BlockTableLayout::make(log_n);
    table_words.assign(layout.entries(), ulonglong2{kPoison, kPoison});
    const std::uint64_t w = plan->root();
    const unsigned blocks = static_cast<unsigned>((layout.entries() + 255) / 256);
    cuda_host_shim::launch(dim3(blocks), dim3(256), 0, &block_table_kernel, table_words.data(), f, w, f.inv(w),
                           log_n);
    tables = BlockTables::view(table_words.data(), log_n);
  }
};

/// Passes run so far by the kernels specialized for one tile shape.
int fixed_passes = 0;

/// One pass, launched as launch_block_pass does: lazy passes over tiles of
/// 2^12 elements of 6, 7, 10 or 12 stages by block_pass_fixed_kernel, the
/// rest by block_pass_kernel.
template <bool kForward, bool kLazy>
cudaError_t run_pass(const BlockPassArgs& a) {
  const int tile_log = a.k + a.log_c;
  const unsigned threads = tile_log > kBlockPerThreadLog ? 1u << (tile_log - kBlockPerThreadLog) : 1u;
  const std::size_t smem = block_smem_bytes(tile_log);
  const std::uint64_t blocks = (a.total_groups + (std::uint64_t{1} << a.log_c) - 1) >> a.log_c;
  if (smem > sizeof(block_smem) || blocks > 0x7fffffffu) return cudaErrorInvalidConfiguration;
  const dim3 grid(static_cast<unsigned>(blocks));
  const bool other_fold = (a.flags & kPassFoldIn) != 0 && a.k != 6;  // as launch_block_pass_direction
  if (kLazy && tile_log == kBlockMultiPassTileLog && !other_fold && (a.k == 6 || a.k == 7 || a.k == 10 || a.k == 12)) {
    ++fixed_passes;
    switch (a.k) {
      case 6: cuda_host_shim::launch(grid, dim3(threads), smem, &block_pass_fixed_kernel<kForward, 6>, a); break;
      case 7: cuda_host_shim::launch(grid, dim3(threads), smem, &block_pass_fixed_kernel<kForward, 7>, a); break;
      case 10: cuda_host_shim::launch(grid, dim3(threads), smem, &block_pass_fixed_kernel<kForward, 10>, a); break;
      default: cuda_host_shim::launch(grid, dim3(threads), smem, &block_pass_fixed_kernel<kForward, 12>, a); break;
    }
    return cudaGetLastError();
  }
  const void* fn = reinterpret_cast<const void*>(&block_pass_kernel<kForward, kLazy>);
  if (smem > 48 * 1024) cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  cuda_host_shim::launch(grid, dim3(threads), smem, &block_pass_kernel<kForward, kLazy>, a);
  return cudaGetLastError();
}

/// All passes of t, each a separate emulated launch; `schedule` (forward
/// order, as block_passes gives it) replaces block_passes' schedule when not
/// empty.
::testing::AssertionResult run_transform(const BlockTransform& t, const Prepared& s,
                                         std::vector<BlockPass> schedule = {}) {
  // Fresh garbage in shared memory for every block: a read of a slot that
  // the block has not written shows up in the result.
  cuda_host_shim::on_block_start = [] { std::fill(std::begin(block_smem), std::end(block_smem), kPoison); };
  std::vector<BlockPass> passes = block_transform_passes(t);
  if (!schedule.empty()) {
    if (!t.forward) std::reverse(schedule.begin(), schedule.end());
    passes = schedule;
  }
  const bool lazy = block_ntt_lazy(s.f.p);
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const BlockPassArgs a = block_pass_args(t, passes, i, s.tables, s.f);
    const cudaError_t e = t.forward ? (lazy ? run_pass<true, true>(a) : run_pass<true, false>(a))
                                    : (lazy ? run_pass<false, true>(a) : run_pass<false, false>(a));
    if (e != cudaSuccess)
      return ::testing::AssertionFailure() << "pass " << i << ": " << cudaGetErrorString(e) << " ("
                                           << cuda_host_shim::last_message << ")";
  }
  return ::testing::AssertionSuccess();
}

std::vector<std::uint64_t> random_words(std::size_t n, std::uint64_t bound, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = bound == 0 ? gen() : gen() % bound;
  return v;
}

::testing::AssertionResult same(const std::vector<std::uint64_t>& got, const std::vector<std::uint64_t>& want,
                                const char* what) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << what << ": size";
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i])
      return ::testing::AssertionFailure() << what << ": index " << i << ": " << got[i] << " != " << want[i];
  return ::testing::AssertionSuccess();
}

/// A forward transform of `batch` x 2^log_n points from src (src_len words
/// each) into dst, through `work`, with a canonical last pass.
BlockTransform forward_transform(std::size_t batch, int log_n, bool natural, const std::uint64_t* src,
                                 std::uint64_t src_len, std::uint64_t* dst, std::uint64_t* work) {
  BlockTransform t{};
  t.batch = batch;
  t.log_n = log_n;
  t.forward = true;
  t.natural = natural;
  t.src = src;
  t.src_len = src_len;
  t.dst = dst;
  t.work = work;
  t.epilogue = PassEpilogue::canonical;
  return t;
}

/// Forward in `natural` or bit-reversed order against the host, then the
/// inverse (scaled by n^-1) back to the input. Out of place, or in place;
/// natural order with several passes through a separate work buffer, as the
/// device API does.
void check_round_trip(std::uint64_t p, int log_n, std::size_t batch, bool natural, bool in_place,
                      std::uint64_t seed, const std::vector<BlockPass>& schedule = {}) {
  SCOPED_TRACE(::testing::Message() << "p " << p << ", log_n " << log_n << ", batch " << batch << ", "
                                    << (natural ? "natural" : "bit-reversed") << (in_place ? ", in place" : ""));
  const Prepared s(p, log_n);
  const std::size_t n = std::size_t{1} << log_n;
  std::vector<std::uint64_t> x = random_words(n * batch, p, seed);
  std::fill(x.begin(), x.begin() + std::min<std::size_t>(n, 5), p - 1);  // maximal residues
  std::vector<std::uint64_t> want = x;
  s.plan->forward(want.data(), batch);
  if (!natural) want = to_bit_reversed(want, log_n);

  const bool several = (schedule.empty() ? block_passes(log_n, batch, natural) : schedule).size() > 1;
  Guarded src(x), dst(n * batch), work(n * batch);
  std::uint64_t* const out_words = in_place ? src.data() : dst.data();
  BlockTransform t = forward_transform(batch, log_n, natural, src.data(), n, out_words,
                                       natural && several ? work.data() : out_words);
  ASSERT_TRUE(run_transform(t, s, schedule));
  Guarded& out = in_place ? src : dst;
  ASSERT_TRUE(same(out.values(), want, "forward"));

  Guarded back(n * batch);
  BlockTransform inv = t;
  inv.forward = false;
  inv.src = out.data();
  inv.dst = in_place ? out.data() : back.data();
  inv.work = natural && several ? work.data() : inv.dst;
  inv.epilogue = PassEpilogue::scale;
  inv.scale = s.plan->size_inverse();
  ASSERT_TRUE(run_transform(inv, s, schedule));
  ASSERT_TRUE(same((in_place ? out : back).values(), x, "inverse"));

  // The canonical epilogue of an inverse (its lazy values lie in [0, 4p)):
  // n times the input.
  Guarded spectrum(want), times_n(n * batch);
  inv.src = spectrum.data();
  inv.dst = times_n.data();
  inv.work = natural && several ? work.data() : inv.dst;
  inv.epilogue = PassEpilogue::canonical;
  ASSERT_TRUE(run_transform(inv, s, schedule));
  std::vector<std::uint64_t> nx(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) nx[i] = s.f.mul(x[i], n % p);
  ASSERT_TRUE(same(times_n.values(), nx, "inverse, canonical epilogue"));
  EXPECT_TRUE(src.guards_intact() && dst.guards_intact() && work.guards_intact() && back.guards_intact() &&
              spectrum.guards_intact() && times_n.guards_intact());
}

TEST(BlockNttEmulation, EveryLengthBothOrdersLazy) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[0].p;
  for (int log_n = 1; log_n <= 16; ++log_n)
    for (bool natural : {true, false}) {
      check_round_trip(p, log_n, 1, natural, false, 100 + log_n);
      if (HasFatalFailure()) return;
    }
}

// The passes of the kernels specialized for one tile shape: 2^18 (6 + 12
// stages) and 2^19 points (7 + 12), batches of 2^10 points (10 stages, four
// transforms a tile) and 2^12 (one pass of 12), both orders.
TEST(BlockNttEmulation, SpecializedTileShapes) {
  const std::uint64_t p = mpgpu::field::ntt_primes62[0].p;
  const int before = fixed_passes;
  for (const auto& [log_n, batch] : {std::pair{18, 1}, std::pair{19, 1}, std::pair{10, 9}, std::pair{12, 2}})
    for (bool natural : {true, false}) {
      check_round_trip(p, log_n, static_cast<std::size_t>(batch), natural, false, 400 + log_n);
      if (HasFatalFailure()) return;
    }
  EXPECT_GT(fixed_passes, before);
}

// The top pass's cross twiddles folded into the next pass (block_fold_cross),
// as 2^24 points take them (6 + 6 + 12 stages), on shorter transforms with
// schedules of three passes whose second pass has log_s >= cross_bits:
// 2^16 (4 + 4 + 8, the generic kernel, batches of 3) and 2^20 (4 + 6 + 10,
// the folding pass in the specialized 6-stage kernel as for 2^24; and 6 + 4
// + 10, in the generic kernel); both orders, both prime classes; and a
// schedule where nothing is folded (log_s < cross_bits).
TEST(BlockNttEmulation, CrossTwiddlesFoldedIntoTheNextPass) {
  const std::vector<BlockPass> s16{{15, 4, 8, false}, {11, 4, 8, false}, {7, 8, 4, false}};
  const std::vector<BlockPass> s20{{19, 4, 8, false}, {15, 6, 6, false}, {9, 10, 2, false}};
  const std::vector<BlockPass> s20_generic{{19, 6, 6, false}, {13, 4, 8, false}, {9, 10, 2, false}};
  const std::vector<BlockPass> s16_no_fold{{15, 6, 6, false}, {9, 4, 8, false}, {5, 6, 6, false}};
  std::size_t next = 0;
  EXPECT_TRUE(block_fold_cross(s16, 16, 8, next));
  EXPECT_EQ(next, 1u);
  EXPECT_TRUE(block_fold_cross(s20, 20, 10, next));
  EXPECT_TRUE(block_fold_cross(s20_generic, 20, 10, next));
  EXPECT_FALSE(block_fold_cross(s16_no_fold, 16, 8, next));
  EXPECT_TRUE(block_fold_cross(block_passes(24, 1, false), 24, 12, next));  // the 2^24 schedule folds
  for (std::uint64_t p : {mpgpu::field::ntt_primes62[0].p, mpgpu::field::goldilocks.p})
    for (bool natural : {false, true}) {
      auto with_order = [natural](std::vector<BlockPass> s) {
        s.back().permute = natural;
        return s;
      };
      check_round_trip(p, 16, 3, natural, false, 500, with_order(s16));
      if (HasFatalFailure()) return;
      check_round_trip(p, 16, 1, natural, !natural, 501, with_order(s16_no_fold));
      if (HasFatalFailure()) return;
    }
  const int before = fixed_passes;
  check_round_trip(mpgpu::field::ntt_primes62[0].p, 20, 1, false, false, 502, s20);
  EXPECT_EQ(fixed_passes, before + 6);  // the 6- and 10-stage passes of its three transforms
  if (HasFatalFailure()) return;
  check_round_trip(mpgpu::field::ntt_primes62[0].p, 20, 1, false, false, 503, s20_generic);
}

TEST(BlockNttEmulation, EveryLengthBothOrdersCanonicalGoldilocks) {
  const std::uint64_t p = mpgpu::field::goldilocks.p;
  for (int log_n = 1; log_n <= 16; ++log_n)
    for (bool natural : {true, false}) {
      check_round_trip(p, log_n, 1, natural, log_n % 3 == 0, 200 + log_n);
      if (HasFatalFailure()) return;
    }
}

TEST(BlockNttEmulation, InPlace) {
  for (std::uint64_t p : {mpgpu::field::ntt_primes62[1].p, mpgpu::field::goldilocks.p})
    for (int log_n : {3, 11, 13, 14})
      for (bool natural : {true, false}) {
        check_round_trip(p, log_n, 2, natural, true, 300 + log_n);
        if (HasFatalFailure()) return;
      }
}

TEST(BlockNttEmulation, BatchesWithPartialTiles) {
  // A single-pass tile holds 2^(11 - log_n) transforms: batches of 3, and
  // one more than a tile.
  const std::uint64_t p = mpgpu::field::ntt_primes62[1].p;
  for (int log_n : {1, 2, 5, 8, 11, 14})
    for (std::size_t batch : {std::size_t{3}, (std::size_t{1} << (11 - std::min(log_n, 11))) + 1})
      for (bool natural : {true, false}) {
        if (log_n >= 11 && batch > 3) continue;
        check_round_trip(p, log_n, batch, natural, false, 7 * log_n + batch);
        if (HasFatalFailure()) return;
      }
  check_round_trip(mpgpu::field::goldilocks.p, 4, 3, true, false, 77);
}

/// Forward with reduce_input on any 64-bit words, src_len < n (the rest
/// zero), and the pointwise epilogue against a per-transform `other`.
void check_reduce_pointwise(std::uint64_t p, int log_n, std::size_t batch, std::uint64_t src_len, bool natural,
                            std::uint64_t seed) {
  SCOPED_TRACE(::testing::Message() << "p " << p << ", log_n " << log_n << ", batch " << batch << ", src_len "
                                    << src_len << ", " << (natural ? "natural" : "bit-reversed"));
  const Prepared s(p, log_n);
  const std::size_t n = std::size_t{1} << log_n;
  // src holds 2^log_n words per transform; only the first src_len are read.
  const std::vector<std::uint64_t> words = random_words(n * batch, 0, seed);
  std::vector<std::uint64_t> x(n * batch, 0);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t i = 0; i < src_len; ++i) x[b * n + i] = words[b * n + i] % p;
  std::vector<std::uint64_t> spec = x;
  s.plan->forward(spec.data(), batch);
  if (!natural) spec = to_bit_reversed(spec, log_n);
  const std::vector<std::uint64_t> other = random_words(n * batch, p, seed + 1);

  const bool several = block_passes(log_n, batch, natural).size() > 1;
  Guarded src(words), dst(n * batch), work(n * batch);
  BlockTransform t = forward_transform(batch, log_n, natural, src.data(), src_len, dst.data(),
                                       natural && several ? work.data() : dst.data());
  t.reduce_input = true;
  ASSERT_TRUE(run_transform(t, s));
  ASSERT_TRUE(same(dst.values(), spec, "reduced, zero-padded forward"));

  std::vector<std::uint64_t> want(n * batch);
  for (std::size_t i = 0; i < want.size(); ++i) want[i] = s.f.mont_mul(spec[i], other[i]);
  t.epilogue = PassEpilogue::pointwise;
  t.other = other.data();
  ASSERT_TRUE(run_transform(t, s));
  ASSERT_TRUE(same(dst.values(), want, "pointwise"));

  for (std::size_t i = 0; i < want.size(); ++i) want[i] = s.f.mont_mul(spec[i], spec[i]);
  t.epilogue = PassEpilogue::square;
  t.other = nullptr;
  ASSERT_TRUE(run_transform(t, s));
  ASSERT_TRUE(same(dst.values(), want, "square"));
  EXPECT_TRUE(src.guards_intact() && dst.guards_intact() && work.guards_intact());
}

TEST(BlockNttEmulation, ReduceInputZeroPaddingAndPointwise) {
  for (std::uint64_t p : {mpgpu::field::ntt_primes62[2].p, mpgpu::field::goldilocks.p}) {
    check_reduce_pointwise(p, 1, 3, 1, false, 1);
    check_reduce_pointwise(p, 6, 5, 37, true, 2);
    check_reduce_pointwise(p, 10, 3, 1000, false, 3);
    check_reduce_pointwise(p, 12, 1, 4096, true, 4);
    check_reduce_pointwise(p, 14, 2, 9000, false, 5);
    check_reduce_pointwise(p, 15, 1, 20000, true, 6);
    if (HasFatalFailure()) return;
  }
}

/// Forward with reduce_input on digits of `digits` limbs (the products of
/// mul_abs_digits, src/cuda/ntt_mul.cu): element i is limbs i D .. i D + D - 1
/// as one number mod p, limbs past `limbs` read as 0 (a last partial digit,
/// then zero padding); batch 1, and batch 2 with a limb stride.
void check_digits(std::uint64_t p, int log_n, int digits, std::uint64_t limbs, bool natural, std::uint64_t seed) {
  SCOPED_TRACE(::testing::Message() << "p " << p << ", log_n " << log_n << ", digits of " << digits << " limbs, "
                                    << limbs << " limbs, " << (natural ? "natural" : "bit-reversed"));
  const Prepared s(p, log_n);
  const PrimeField64& f = s.f;
  const std::size_t n = std::size_t{1} << log_n;
  const std::size_t batch = 2, stride = limbs + 3;  // transform b reads limbs b * stride ..
  std::vector<std::uint64_t> words = random_words(batch * stride, 0, seed);
  std::fill(words.begin(), words.begin() + std::min<std::size_t>(8, limbs), ~std::uint64_t{0});  // all-ones digits
  std::vector<std::uint64_t> x(n * batch, 0);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t v = 0, r = 1;  // r = 2^(64 t) mod p
      for (int t = 0; t < digits; ++t, r = f.mul(r, f.r1)) {
        const std::size_t at = i * digits + t;
        if (at < limbs) v = f.add(v, f.mul(words[b * stride + at] % p, r));
      }
      x[b * n + i] = v;
    }
  s.plan->forward(x.data(), batch);
  if (!natural) x = to_bit_reversed(x, log_n);

  const bool several = block_passes(log_n, batch, natural).size() > 1;
  Guarded src(words), dst(n * batch), work(n * batch);
  BlockTransform t = forward_transform(batch, log_n, natural, src.data(), limbs, dst.data(),
                                       natural && several ? work.data() : dst.data());
  t.reduce_input = true;
  t.digit_limbs = digits;
  t.src_stride = stride;
  t.src_total = words.size();
  ASSERT_TRUE(run_transform(t, s));
  ASSERT_TRUE(same(dst.values(), x, "forward of digits"));
  EXPECT_TRUE(src.guards_intact() && dst.guards_intact() && work.guards_intact());
}

TEST(BlockNttEmulation, DigitsOfSeveralLimbs) {
  for (std::uint64_t p : {mpgpu::field::ntt_primes62[4].p, mpgpu::field::goldilocks.p}) {
    for (int d : {2, 4}) {
      check_digits(p, 1, d, 1, false, 1);
      check_digits(p, 5, d, 16 * d - 1, true, 2);
      check_digits(p, 11, d, 1000 * d + 1, false, 3);
      check_digits(p, 14, d, 5000 * d - 3, false, 4);
      check_digits(p, 14, d, 8192 * d, true, 5);
      if (HasFatalFailure()) return;
    }
  }
}

/// One prime's transforms of mul_abs_chunked (src/cuda/ntt_mul.cu): b's
/// spectrum (lazy), the chunks of a read through the strided bounded source
/// times it (broadcast pointwise), and the scaled inverse; against the host.
void check_chunked(const mpgpu::field::NttPrime& prime, std::size_t na, std::size_t nb, int lp, std::uint64_t seed) {
  SCOPED_TRACE(::testing::Message() << "p " << prime.p << ", na " << na << ", nb " << nb << ", log N' " << lp);
  const Prepared s(prime.p, lp);
  const PrimeField64& f = s.f;
  const std::size_t np = std::size_t{1} << lp, chunk = np - nb, k = (na + chunk - 1) / chunk;
  ASSERT_GE(chunk, nb);
  const std::vector<std::uint64_t> a = random_words(na, 0, seed), b = random_words(nb, 0, seed + 1);
  Guarded ga(a), gb(b), gy(np), gx(k * np);

  BlockTransform t{};
  t.batch = 1;
  t.log_n = lp;
  t.forward = true;
  t.natural = false;
  t.reduce_input = true;
  t.dst = t.work = gy.data();
  t.src = gb.data();
  t.src_len = nb;
  t.epilogue = PassEpilogue::lazy;
  ASSERT_TRUE(run_transform(t, s));
  t.batch = k;
  t.dst = t.work = gx.data();
  t.src = ga.data();
  t.src_len = chunk;
  t.src_stride = chunk;
  t.src_total = na;
  t.epilogue = PassEpilogue::pointwise;
  t.other = gy.data();
  t.other_broadcast = true;
  ASSERT_TRUE(run_transform(t, s));

  // Host: b's spectrum, each chunk's, their products (natural order).
  std::vector<std::uint64_t> yb(np, 0), xa(k * np, 0);
  for (std::size_t i = 0; i < nb; ++i) yb[i] = b[i] % prime.p;
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t i = 0; i < chunk && c * chunk + i < na; ++i) xa[c * np + i] = a[c * chunk + i] % prime.p;
  s.plan->forward(yb.data());
  s.plan->forward(xa.data(), k);
  const std::vector<std::uint64_t> y = gy.values();
  for (std::size_t i = 0; i < np; ++i) {
    ASSERT_LT(y[i], 2 * prime.p) << "lazy spectrum, index " << i;
    ASSERT_EQ(y[i] % prime.p, yb[bit_reverse(i, lp)]) << "b's spectrum, index " << i;
  }
  std::vector<std::uint64_t> prod(k * np);
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t i = 0; i < np; ++i) prod[c * np + i] = f.mont_mul(xa[c * np + i], yb[i]);
  ASSERT_TRUE(same(gx.values(), to_bit_reversed(prod, lp), "chunk spectra times b's"));

  BlockTransform inv{};
  inv.dst = inv.work = gx.data();
  inv.src = gx.data();
  inv.src_len = np;
  inv.batch = k;
  inv.log_n = lp;
  inv.forward = false;
  inv.natural = false;
  inv.reduce_input = false;
  inv.epilogue = PassEpilogue::scale;
  inv.scale = f.mul(f.inv(np % prime.p), f.r1);  // n^-1 and the pointwise product's 2^-64
  ASSERT_TRUE(run_transform(inv, s));
  // The chunk products mod p: the host inverse of the plain products.
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t i = 0; i < np; ++i) prod[c * np + i] = f.mul(xa[c * np + i], yb[i]);
  s.plan->inverse(prod.data(), k);
  ASSERT_TRUE(same(gx.values(), prod, "chunk products"));
  // And the first chunk's product is the schoolbook one (no wrap: chunk + nb <= N').
  for (std::size_t j = 0; j < std::min<std::size_t>(np, 64); ++j) {
    std::uint64_t want = 0;
    for (std::size_t i = 0; i <= j; ++i)
      if (i < chunk && i < na && j - i < nb) want = f.add(want, f.mul(a[i] % prime.p, b[j - i] % prime.p));
    ASSERT_EQ(prod[j], want) << "schoolbook, coefficient " << j;
  }
  EXPECT_TRUE(ga.guards_intact() && gb.guards_intact() && gy.guards_intact() && gx.guards_intact());
}

TEST(BlockNttEmulation, ChunkedProductStridedBoundedSource) {
  for (int i = 0; i < 3; ++i) {
    const auto& prime = mpgpu::field::ntt_primes62[i];
    check_chunked(prime, 1000, 37, 7, 10 + i);  // 11 chunks, the last partial
    check_chunked(prime, 300, 100, 9, 20 + i);  // chunk 412 > na: one chunk, bounded by src_total
    if (HasFatalFailure()) return;
  }
  check_chunked(mpgpu::field::ntt_primes62[0], 30000, 5000, 14, 30);  // two passes, 3 chunks
}

TEST(BlockNttEmulation, LauncherThroughRewrittenSyntax) {
  // run_block_transform's own launches (block_ntt_dispatch.cuh's `<<<...>>>`,
  // rewritten for the shim) give the same as the per-pass driver above.
  const std::uint64_t p = mpgpu::field::ntt_primes62[0].p;
  for (int log_n : {5, 14})
    for (bool natural : {true, false}) {
      const Prepared s(p, log_n);
      const std::size_t n = std::size_t{1} << log_n, batch = 3;
      const std::vector<std::uint64_t> x = random_words(n * batch, p, log_n);
      std::vector<std::uint64_t> want = x;
      s.plan->forward(want.data(), batch);
      if (!natural) want = to_bit_reversed(want, log_n);
      Guarded src(x), dst(n * batch), work(n * batch);
      const BlockTransform t = forward_transform(batch, log_n, natural, src.data(), n, dst.data(), work.data());
      ASSERT_EQ(run_block_transform(t, s.tables, s.f, nullptr), cudaSuccess);
      ASSERT_TRUE(same(dst.values(), want, "run_block_transform"));
    }
}

TEST(BlockNttEmulation, SchedulerCatchesDivergentBarriers) {
  // The emulation itself: a __syncthreads skipped by some threads is reported.
  struct K {
    static void kernel(int* out) {
      if (threadIdx.x < 3) __syncthreads();
      out[threadIdx.x] = 1;
    }
  };
  std::vector<int> out(8, 0);
  cuda_host_shim::launch(dim3(1), dim3(8), 0, &K::kernel, out.data());
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

}  // namespace
