// pi and e to any number of decimal digits, exactly (truncated, never
// rounded), with mpgpu::Integer on a given context: `mpgpu pi`, `mpgpu e`
// and the pi/e rows of `mpgpu bench --workloads`.
//
// Each constant c is first computed in fixed point, X ~ c * 10^(D + g),
// with an error below kFixedPointError units (pi_fixed_point,
// e_fixed_point). The D digits are then floor(X / 10^g) unless the g guard
// digits are within kFixedPointError of a carry (all 0s or all 9s, give or
// take the error): then the true value could lie on either side of a digit
// boundary, and the computation is repeated with more guard digits.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "mpgpu/integer.hpp"

namespace mpgpu::cli {

enum class Constant { pi, e };

/// "pi" or "e".
const char* constant_name(Constant c);
/// The integer part of the constant as a character ('3' or '2').
char constant_integer_digit(Constant c);

/// Progress of a long computation: the stage ("series", "square root",
/// "division", "guard digits", ...) and the fraction of it done (0 to 1).
using StageProgress = std::function<void(std::string_view stage, double fraction)>;

/// What a computation tells its caller as it goes. Each may be empty; both
/// are called on the calling thread only.
struct StageHooks {
  StageProgress progress;
  /// A line about the stage just reported (how the series was spread over
  /// host threads and where its time went), for `--timings`.
  std::function<void(std::string_view stage, const std::string& note)> note;
};

/// How the series of binary splitting use host threads (binary_splitting.hpp).
struct SeriesOptions {
  /// Host threads in all, the calling one included; 0: default_host_threads()
  /// (MPGPU_THREADS, else the hardware's). 1: the series as a plain recursion
  /// on the calling thread, every operation where the library places it.
  unsigned threads = 0;
  /// Nodes estimated at most this many bits are computed by host threads
  /// with GMP, larger ones on the calling thread in the target context.
  /// 0: on a CUDA context MPGPU_SERIES_HOST_BITS, else kSeriesHostMaxBits;
  /// on the CPU context every node (tests give a cut to run the CUDA
  /// context's way of splitting on the CPU).
  double host_max_bits = 0;
  /// Threads that merge the nodes above the cut up to device_subtree_max_bits,
  /// each in a context of its own (SplitPlan::device_threads). 0: on a CUDA
  /// context MPGPU_SERIES_DEVICE_THREADS (0 there: none), else kSeriesDeviceThreads; none on
  /// the CPU context (whose nodes are all host work) unless a test gives a cut.
  unsigned device_threads = 0;
  /// 0: MPGPU_SERIES_DEVICE_BITS, else kSeriesDeviceSubtreeMaxBits.
  double device_subtree_max_bits = 0;
  /// Whether the merges in a CUDA context hand their products to mul_each
  /// at once (which batches those of one transform length into one
  /// product) instead of one after another: 1 yes, 0 no, -1:
  /// MPGPU_SERIES_MUL_EACH, else kSeriesProductsAtOnce.
  int products_at_once = -1;
  /// SplitPlan::caller_helps: 1 the calling thread runs host jobs while it
  /// waits for a host node, 0 it sleeps, -1: on a CUDA context
  /// MPGPU_SERIES_CALLER_HELPS, else kSeriesCallerHelps (on the CPU context: 1).
  int caller_helps = -1;
  /// SplitPlan::batched_share for a series that can batch its subtrees (pi):
  /// >= 0 as given, -1: on a CUDA context MPGPU_SERIES_BATCHED_SHARE, else
  /// kSeriesBatchedShare (on the CPU context: 0).
  double batched_share = -1;
  /// SplitPlan::batched_chunk: 0: MPGPU_SERIES_BATCHED_CHUNK, else kSeriesBatchedChunk.
  std::size_t batched_chunk = 0;
};

/// The default of SeriesOptions::caller_helps on a CUDA context: the
/// calling thread takes host jobs while it waits, as on the CPU. Whether it
/// should rather only drive the device (a job it takes holds back the
/// merges that become ready meanwhile, and pi to 10^9 digits is bound by
/// the calling thread) is to be measured with MPGPU_SERIES_CALLER_HELPS=0;
/// `--timings` prints the time it spent in host jobs.
inline constexpr bool kSeriesCallerHelps = true;

/// The default of SeriesOptions::products_at_once. The products of a merge
/// above the cut are of about one size, so mostly of one transform length:
/// mul_each makes them one batched product, one chain of passes instead of
/// four (docs/workloads.md, "Products at once", with the measurements).
inline constexpr bool kSeriesProductsAtOnce = true;

/// With products at once: the maximal nodes above the cut of at most this
/// many bits are level groups (SplitPlan::level_group_max_bits), merged a
/// level at a time, every merge of a level in one mul_each. Their products
/// (from halves of 2^17 bits up) are far too small to fill the GPU one merge
/// at a time. Groups of up to 2^27 bits (about 512 subtrees at the 2^18-bit
/// cut) take their lowest levels in calls of hundreds of merges; the batched
/// subtrees arrive a chunk of 1024 at a time, left to right, so a group is
/// whole soon after its chunk (the sweep of 2^23 to 2^29 bits: docs/workloads.md,
/// "Batched subtrees"). MPGPU_SERIES_GROUP_BITS overrides it for tuning runs
/// (0: no groups).
inline constexpr double kSeriesLevelGroupMaxBits = 1 << 27;

/// SeriesOptions::products_at_once resolved for ctx (never on the CPU
/// context, whose merges run their products on host threads instead).
bool series_products_at_once(const Context& ctx, const SeriesOptions& options);

/// The default of SeriesOptions::host_max_bits on a CUDA context: nodes of
/// up to 2^18 bits are host work, whose merges multiply halves of up to
/// 2^17 bits with GMP. Every merge above the cut costs the calling thread
/// about five device operations, each with its fixed cost (a launch and a
/// wait for its result's size): halving the cut doubles their count. Every
/// doubling of the cut adds a level of ever larger GMP products to the host
/// threads. A first estimate between the two (pi to 10^8 digits: about 4000
/// subtrees), to be swept on a GPU with MPGPU_SERIES_HOST_BITS; `--timings`
/// prints the host threads' work and the calling thread's waits.
inline constexpr double kSeriesHostMaxBits = 1 << 18;

/// The defaults of SeriesOptions::device_threads and device_subtree_max_bits
/// on a CUDA context. Merges of nodes from the cut up to about 2^24 bits
/// cost the calling thread a fixed time each whatever their size, so
/// threads each in a context of its own were to merge those subtrees at
/// once. Measured (docs/workloads.md, "Device threads"): no gain, so none
/// by default; MPGPU_SERIES_DEVICE_THREADS=N and MPGPU_SERIES_DEVICE_BITS
/// turn them on for experiments.
inline constexpr unsigned kSeriesDeviceThreads = 0;
inline constexpr double kSeriesDeviceSubtreeMaxBits = 1 << 24;

/// The defaults of SeriesOptions::batched_share and batched_chunk on a CUDA
/// context (SplitPlan::batched_share; pi only: chudnovsky_batch.hpp). With
/// the leaves made on the device (series_leaves) and the tops made Integers
/// at once (Batch::to_integers), one thread makes the subtrees through the
/// batch layer several times faster than all the host's cores make them
/// with GMP, well ahead of the calling thread's merges, which then bound the
/// series (docs/workloads.md, "Batched subtrees", with the measured sweep).
/// The host threads keep the right-most twentieth, which the calling thread
/// needs last. MPGPU_SERIES_BATCHED_SHARE overrides it. A chunk of 1024
/// subtrees of up to 2^18 bits is ~100 MB a value at its top level.
inline constexpr double kSeriesBatchedShare = 0.95;
inline constexpr std::size_t kSeriesBatchedChunk = 1024;

/// compute_constant's first guard digits: 10^19 < 2^64 (see there).
inline constexpr std::uint64_t kDefaultGuardDigits = 19;

/// |X - c * 10^d| < kFixedPointError for the X the fixed-point functions return.
inline constexpr unsigned kFixedPointError = 10;

/// pi * 10^d within kFixedPointError: Chudnovsky's series by binary splitting
/// (P, Q, T), then 426880 * sqrt(10005 * 10^(2d)) * Q / T with an integer
/// square root and one division.
Integer pi_fixed_point(const Context& ctx, std::uint64_t d, const StageHooks& hooks = {},
                       const SeriesOptions& series = {});
/// e * 10^d within kFixedPointError: sum of 1/k! for k < N by binary
/// splitting (P, Q), then floor((P + Q) * 10^d / Q).
Integer e_fixed_point(const Context& ctx, std::uint64_t d, const StageHooks& hooks = {},
                      const SeriesOptions& series = {});

/// floor(scale * num / den) up to one unit plus a relative error of 2^-60,
/// for a result of at most `result_bits` bits: num and den are first
/// shifted right together to about result_bits + 64 bits, since the lower
/// bits of a binary-splitting P, Q or T cannot change the leading digits.
Integer fixed_ratio(const Integer& scale, const Integer& num, const Integer& den, std::uint64_t result_bits);

struct ConstantResult {
  Integer scaled;               ///< floor(c * 10^digits), exact
  std::uint64_t guard_digits;   ///< the guard digits of the attempt that settled it
  unsigned attempts;            ///< 1, or more when guard digits were ambiguous
};

/// floor(c * 10^digits), exact: fixed point with `first_guard` (at least 2)
/// guard digits, repeated with twice as many while they are ambiguous. The
/// default 19 keeps 10^g in one limb, so splitting off the guard digits is
/// a division by one limb (on a CUDA context a one-pass scan on the device).
ConstantResult compute_constant(Constant c, const Context& ctx, std::uint64_t digits, const StageHooks& hooks = {},
                                std::uint64_t first_guard = kDefaultGuardDigits, const SeriesOptions& series = {});

/// The printed form of floor(c * 10^digits): "3.14159..." with `digits`
/// digits after the point ("3" for digits = 0).
std::string constant_text(const Integer& scaled, std::uint64_t digits);
/// sha256_hex(constant_text(scaled, digits)), without making that text.
std::string constant_sha256_hex(const Integer& scaled, std::uint64_t digits);

}  // namespace mpgpu::cli
