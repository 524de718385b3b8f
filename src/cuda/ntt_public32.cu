// The public batched NTT on 32-bit words (include/mpgpu/ntt.hpp, p < 2^32):
// up to 2^10 points a transform through the warp teams of
// include/mpgpu/ntt/team_ntt32.cuh (one read and one write of the data);
// longer transforms in several passes: column passes of up to 6 stages
// (column_ntt32.cuh) and a last team pass of 2^10 points, plus an in-place
// bit-reversal (bit_reverse_tiles.cuh) for natural order.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/result_words.cuh"
#include "mpgpu/error.hpp"
#include "mpgpu/field/roots.hpp"
#include "mpgpu/ntt/bit_reverse_tiles.cuh"
#include "mpgpu/ntt/column_ntt32.cuh"
#include "mpgpu/ntt/team_ntt32.cuh"
#include "mpgpu/tuning/table.hpp"

namespace mpgpu::detail::cuda {

namespace {

std::size_t half_points(int log_n) { return std::size_t{1} << (log_n - 1); }

/// The tables of (p, log_n), made once per context and cached (freed with
/// the context). Up to 2^10 points: the team kernel's stage twiddles, n/2
/// (w^e, shoup) pairs for w, then n/2 for w^-1. Longer: column_ntt32's
/// cross-twiddle tables in Montgomery form, lo and hi for w, then lo and hi
/// for w^-1, 2^b words each (b = ceil(log_n / 2)); their stages use the
/// 2^10-point team table.
const void* twiddles32(ContextState& st, Stream s, std::uint32_t p, std::uint64_t generator, int log_n) {
  std::lock_guard<std::recursive_mutex> lock(st.mutex);
  const auto key = std::make_pair(std::uint64_t{p}, log_n);
  if (auto it = st.ntt_twiddles32.find(key); it != st.ntt_twiddles32.end()) return it->second;
  const field::PrimeField32 f = field::PrimeField32::make(p);
  const auto w = static_cast<std::uint32_t>(field::root_of_unity(p, generator, log_n));
  const bool team = log_n <= ntt::kTeamNtt32MaxLog;
  const int bits = (log_n + 1) / 2;
  const std::size_t count = team ? half_points(log_n) : std::size_t{1} << bits;  // entries of one direction's table
  const std::size_t bytes = team ? 2 * count * sizeof(uint2) : 4 * count * sizeof(std::uint32_t);
  void* tables = nullptr;
  MPGPU_CUDA_CHECK(cudaMalloc(&tables, bytes));
  const unsigned blocks = static_cast<unsigned>((count + 255) / 256);
  if (team) {
    uint2* t = static_cast<uint2*>(tables);
    ntt::team_ntt32_table_kernel<<<blocks, 256, 0, s>>>(t, f, w, log_n);
    ntt::team_ntt32_table_kernel<<<blocks, 256, 0, s>>>(t + count, f, f.inv(w), log_n);
  } else {
    std::uint32_t* t = static_cast<std::uint32_t*>(tables);
    ntt::column_ntt32_table_kernel<<<blocks, 256, 0, s>>>(t, t + count, f, w, bits);
    ntt::column_ntt32_table_kernel<<<blocks, 256, 0, s>>>(t + 2 * count, t + 3 * count, f, f.inv(w), bits);
  }
  cudaError_t e = cudaGetLastError();
  // Later calls may come on other streams: finish the tables once, here.
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  if (e != cudaSuccess) {
    cudaFree(tables);
    MPGPU_CUDA_CHECK(e);
  }
  st.ntt_twiddles32.emplace(key, tables);
  return tables;
}

const uint2* team_tables(ContextState& st, Stream s, std::uint32_t p, std::uint64_t generator, int log_n) {
  return static_cast<const uint2*>(twiddles32(st, s, p, generator, log_n));
}

struct TeamLaunch {
  std::uint32_t* data;
  std::size_t batch;
  const uint2* table;
  field::PrimeField32 f;
  std::uint32_t scale, scale_shoup;
  bool scale_output, in_reversed, out_reversed;
  Stream s;

  template <int L>
  void run() const {
    constexpr std::size_t per_block = ntt::kTeamNtt32Warps * ntt::TeamShape32<L>::kTeamsPerWarp;
    // Blocks stride over the batch beyond 2^20 blocks.
    const auto blocks = static_cast<unsigned>(std::min<std::size_t>((batch + per_block - 1) / per_block, 1u << 20));
    const auto kernel = f.p < (1u << 31) ? ntt::team_ntt32_kernel<L, true> : ntt::team_ntt32_kernel<L, false>;
    kernel<<<blocks, ntt::kTeamNtt32Warps * 32, 0, s>>>(data, batch, table, f, scale, scale_shoup, scale_output,
                                                        in_reversed, out_reversed);
    MPGPU_CHECK_LAUNCH("team_ntt32_kernel");
  }
  void run(int log_n) const {
    switch (log_n) {
      case 1: return run<1>();
      case 2: return run<2>();
      case 3: return run<3>();
      case 4: return run<4>();
      case 5: return run<5>();
      case 6: return run<6>();
      case 7: return run<7>();
      case 8: return run<8>();
      case 9: return run<9>();
      case 10: return run<10>();
      default: throw InvalidArgument("mpgpu: team NTT of 2^" + std::to_string(log_n) + " points");  // not reached
    }
  }
};
static_assert(ntt::kTeamNtt32MaxLog == 10, "TeamLaunch::run(int) lists the lengths");

/// One column pass (column_ntt32.cuh) of k stages.
struct ColumnLaunch {
  std::uint32_t* data;
  std::size_t words;
  const uint2* stage_table;
  const std::uint32_t *lo, *hi;
  int lo_bits;
  field::PrimeField32 f;
  bool forward;
  Stream s;

  template <int K, bool kForward, bool kLazy>
  void run(int log_s, int exp_shift, std::uint32_t first_twiddle) const {
    // A column a thread and no grid-stride loop (column_ntt32_kernel): the
    // grid covers every column (2^31 - 1 blocks reach 2^39 columns).
    const std::size_t tasks = words >> K;
    const auto blocks = static_cast<unsigned>((tasks + ntt::kColumnNtt32Threads - 1) / ntt::kColumnNtt32Threads);
    ntt::column_ntt32_kernel<K, kForward, kLazy><<<blocks, ntt::kColumnNtt32Threads, 0, s>>>(
        data, tasks, log_s, exp_shift, stage_table, lo, hi, lo_bits, f, first_twiddle);
    MPGPU_CHECK_LAUNCH("column_ntt32_kernel");
  }
  template <int K>
  void run(int log_s, int exp_shift, std::uint32_t first_twiddle) const {
    const bool lazy = f.p < (1u << 31);
    if (forward) lazy ? run<K, true, true>(log_s, exp_shift, first_twiddle)
                      : run<K, true, false>(log_s, exp_shift, first_twiddle);
    else lazy ? run<K, false, true>(log_s, exp_shift, first_twiddle)
              : run<K, false, false>(log_s, exp_shift, first_twiddle);
  }
  void run(int k, int log_s, int exp_shift, std::uint32_t first_twiddle) const {
    switch (k) {
      case 1: return run<1>(log_s, exp_shift, first_twiddle);
      case 2: return run<2>(log_s, exp_shift, first_twiddle);
      case 3: return run<3>(log_s, exp_shift, first_twiddle);
      case 4: return run<4>(log_s, exp_shift, first_twiddle);
      case 5: return run<5>(log_s, exp_shift, first_twiddle);
      case 6: return run<6>(log_s, exp_shift, first_twiddle);
      default: throw InvalidArgument("mpgpu: column NTT pass of " + std::to_string(k) + " stages");  // not reached
    }
  }
};
static_assert(ntt::kColumnNtt32MaxLog == 6, "ColumnLaunch::run(int, ...) lists the pass sizes");
static_assert(tuning::table::kNtt32ColumnStages >= 1 && tuning::table::kNtt32ColumnStages <= ntt::kColumnNtt32MaxLog,
              "the tuning table's column passes are ones the kernel has");

/// The stages of the column passes of a 2^log_n-point transform
/// (log_n > 10): log_n - 10 split as evenly as possible into passes of at
/// most the context's ntt32_column_stages (TuningParams, clamped to 1 .. 6;
/// the tuning table's 6 by default); the last 10 stages are the team pass.
std::vector<int> column_pass_stages(const ContextState& st, int log_n) {
  const int most = std::clamp(st.tuning.ntt32_column_stages, 1, ntt::kColumnNtt32MaxLog);
  const int rest = log_n - ntt::kTeamNtt32MaxLog;
  const int count = (rest + most - 1) / most;
  std::vector<int> stages;
  for (int i = 0; i < count; ++i) stages.push_back(rest / count + (i < rest % count ? 1 : 0));
  return stages;
}

void bit_reverse(std::uint32_t* data, std::size_t batch, int log_n, Stream s) {
  const std::size_t tiles = batch << (log_n - 10);
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>(tiles, 1u << 20));
  ntt::bit_reverse_tiles_kernel<<<blocks, 32 * ntt::kBitReverseTileRows, 0, s>>>(data, batch, log_n);
  MPGPU_CHECK_LAUNCH("bit_reverse_tiles_kernel");
}

/// A transform of more than 2^10 points: the column passes and the team
/// pass (column_ntt32.cuh), forward in that order, inverse transposed.
void transform_in_passes(ContextState& st, Stream s, std::uint32_t* data, std::size_t batch, int log_n,
                         std::uint32_t p, std::uint64_t generator, bool forward, bool bit_reversed) {
  const field::PrimeField32 f = field::PrimeField32::make(p);
  constexpr int kTeamLog = ntt::kTeamNtt32MaxLog;
  const uint2* team = team_tables(st, s, p, generator, kTeamLog) + (forward ? 0 : half_points(kTeamLog));
  const int bits = (log_n + 1) / 2;
  const auto* cross = static_cast<const std::uint32_t*>(twiddles32(st, s, p, generator, log_n));
  const std::size_t count = std::size_t{1} << bits;
  const std::uint32_t* lo = cross + (forward ? 0 : 2 * count);
  const ColumnLaunch column{data, batch << log_n, team, lo, lo + count, bits, f, forward, s};
  const std::vector<int> stages = column_pass_stages(st, log_n);
  const std::size_t chunks = batch << (log_n - kTeamLog);
  if (forward) {
    int done = 0;
    for (int k : stages) {
      column.run(k, log_n - done - k, done, f.r1);
      done += k;
    }
    const TeamLaunch last{data, chunks, team, f, 0, 0, false, false, true, s};
    last.run(kTeamLog);
    if (!bit_reversed) bit_reverse(data, batch, log_n, s);
    return;
  }
  if (!bit_reversed) bit_reverse(data, batch, log_n, s);
  const auto kernel = p < (1u << 31) ? ntt::team_ntt32_dit_kernel<kTeamLog, true>
                                     : ntt::team_ntt32_dit_kernel<kTeamLog, false>;
  constexpr std::size_t per_block = ntt::kTeamNtt32Warps * ntt::TeamShape32<kTeamLog>::kTeamsPerWarp;
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>((chunks + per_block - 1) / per_block, 1u << 20));
  kernel<<<blocks, ntt::kTeamNtt32Warps * 32, 0, s>>>(data, chunks, team, f);
  MPGPU_CHECK_LAUNCH("team_ntt32_dit_kernel");
  // Column passes in reverse order; the first pass of the forward (the
  // last here) also scales by 1/n.
  const std::uint32_t inv_n = f.inv(static_cast<std::uint32_t>((std::uint64_t{1} << log_n) % p));
  int done = log_n - kTeamLog;
  for (auto it = stages.rbegin(); it != stages.rend(); ++it) {
    done -= *it;
    column.run(*it, log_n - done - *it, done, done == 0 ? f.to_mont(inv_n) : f.r1);
  }
}

}  // namespace

void ntt_transform32(ContextState& st, Stream s, std::uint32_t* data, std::size_t batch, int log_n,
                     std::uint32_t p, std::uint64_t generator, bool forward, bool bit_reversed) {
  use_device(st.device);
  if (batch == 0 || log_n == 0) return;  // length 1: the identity
  if (log_n > ntt::kTeamNtt32MaxLog)
    return transform_in_passes(st, s, data, batch, log_n, p, generator, forward, bit_reversed);
  const field::PrimeField32 f = field::PrimeField32::make(p);
  const uint2* tables = team_tables(st, s, p, generator, log_n);
  const std::uint32_t scale = forward ? 1u : f.inv(static_cast<std::uint32_t>((std::uint64_t{1} << log_n) % p));
  TeamLaunch launch{data, batch, tables + (forward ? 0 : half_points(log_n)), f, scale, f.shoup(scale),
                    !forward, !forward && bit_reversed, forward && bit_reversed, s};
  launch.run(log_n);
}

}  // namespace mpgpu::detail::cuda
