// The tuning table of sm_90 (H100, H200): every threshold and cost-model
// constant that decides where or how mpgpu computes, in one place (GMP's
// gmp-mparam.h). Plain constants and constexpr functions: host code (g++),
// the device API's templates and users' inline code read the same values.
// Nothing here is a bound of correctness (kernel limits such as the longest
// operand of the column products stay with their kernels); any value in its
// stated range gives exact results, only the speed changes.
//
// Which table a build uses: mpgpu/tuning/table.hpp. The values that a
// context may override at run time (TuningParams, mpgpu/tuning.hpp) take
// their defaults from here; the others are compile-time constants (users'
// inline code and the batch templates are compiled with them).
//
// Provenance. Each group says the device, the date and the commit of the
// runs its values come from (the result files are in bench/results/, the
// figures and the choices in docs/tuning-history.md); "estimate" marks a
// value that no run swept. The block between the GENERATED markers is
// written by scripts/tune-batch from a recorded sweep (a CPU test checks
// it); the rest was written by hand from the runs named. To tune another
// GPU: run scripts/tune-batch and the sweeps named below on it, and write
// the results into a table of its own (docs/tuning.md).
//
// Units: limbs are 64-bit words; batch widths W are 32-bit words.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mpgpu::tuning::sm90 {

/// The table's name, as `mpgpu::tuning_table_name()` reports it.
inline constexpr const char* kName = "sm90";

// ---- where values live on a CUDA context (integer_crossovers.hpp) -------------------
// Estimates (never swept): set at commit cab6a8b, 2026-11-28, from the add
// rows of `mpgpu bench` (GMP's add against a device add with its launch).
inline constexpr std::size_t kHostValueMaxLimbs = std::size_t{1} << 14;
inline constexpr std::size_t kHostProductMaxLimbs = 1024;

// ---- products --------------------------------------------------------------------------
/// Largest na * nb multiplied by columns (shorter operand of at most 8192
/// limbs) rather than by NTTs. H200, 2026-11-28, commit f534c0c
/// (2026-11-28-nvidia-h200-f534c0c-side-primes.md: columns 41 us against
/// the NTT's 92 us at 2^24 limb products, 163 against 117 us at 2^26).
inline constexpr std::uint64_t kSchoolbookMaxWork = std::uint64_t{3} << 24;
/// log2 of the largest transform (points, times the batch of a chunked
/// product) whose three primes run side by side. H200, 2026-11-28, commit
/// f534c0c (same file: 21 and 23 within 2%; 2^20 points fill fewer tiles
/// than an H100/H200 holds resident).
inline constexpr int kMulSidePrimesMaxLog = 21;
/// log2 of the largest transform whose products mul_each batches into one
/// (src/cuda/mul_each.cu): below it a product is a chain of passes too
/// small to fill the GPU, so k of them batched cost about one; from 2^19
/// points a batch of four (2^21 points and more together) is bound by the
/// GPU's work, and gathering the operands costs more than it saves. H200,
/// 2026-11-29, commit 4ae7d19 (2026-11-29-nvidia-h200-4ae7d19-f527bb8-session9.md;
/// the value 18 itself not yet re-measured).
inline constexpr int kMulEachBatchMaxLog = 18;
/// Whether a batched product's final sums are one launch for the batch
/// (src/cuda/column_sums.cu) rather than an add_abs each: one launch
/// instead of k, for k products of the batch. H200 x2, 2026-11-29, commit
/// 9f67636 (2026-11-29-nvidia-h200-x2-9f67636-session13.md; pi 10^9 A/B).
inline constexpr int kMulEachSumsAtOnce = 1;
/// Where products first left the host (limbs of na + nb); products now run
/// on the device at every size, and the value survives as the anchor of
/// tests and selftest sizes. H100 80GB HBM3, 2026-11-22, commit aaff317
/// (historical).
inline constexpr std::size_t kDeviceProductMinLimbs = 4096;

/// The cost model that ranks the NTT digit sizes (1, 2 or 4 limbs a point)
/// of a huge product (src/cuda/ntt_mul_digits.cu, plan_seconds). Only the
/// ranking matters. Fitted on an H100 80GB HBM3, 2026-11-23: per-pass costs
/// from commit 676010a (2026-11-23-nvidia-h100-80gb-hbm3-676010a-occupancy.md,
/// three 80-register blocks an SM), the narrow-pass term from the 2^30-bit
/// product at D = 4, commit 720c6a7 (...-720c6a7-digits.md); the ranking
/// matched every D forced at 2^27 .. 2^30 bits, 8 of 8. Not refitted on
/// the H200.
struct NttDigitModel {
  double pass_point_ps = 5.2;         ///< a pass, per point
  double stage_point_ps = 0.63;       ///< each stage of a pass, per point
  double narrow_pass_point_ps = 10.6; ///< a strided pass of fewer than 4 columns, per point
  double pass_launch_s = 4e-6;        ///< a pass's launch
  double digit_limb_point_ps = 2.75;  ///< a forward first pass, per point and limb beyond the first
  double garner_point_prime2_ps = 0.9;///< Garner, per coefficient and prime^2
  double column_bytes_per_s = 2.9e12; ///< the column sums' writes (2 m words)
  /// Digits of 2 or 4 limbs only from transforms of this many points
  /// (log2): below, the model overrates them (at 2^28 bits D = 4 took 3.62
  /// ms against 3.28 for D = 2; H100, 720c6a7).
  int digits_min_log_n = 22;
};
inline constexpr NttDigitModel kNttDigitModel{};

// ---- division and radix conversion --------------------------------------------------
/// Divisor limbs from which a CUDA context divides by a Newton reciprocal
/// on the device. H100 80GB HBM3, 2026-11-22, commit 33d9c88
/// (2026-11-22-nvidia-h100-80gb-hbm3-7aa6fe7.md: at 1024 limbs device and
/// host tie, at 2048 the device wins 784 us to 1.35 ms).
inline constexpr std::size_t kDeviceDivisionMinLimbs = 2048;
/// Limbs from which to_string / from_string run the level-at-once trees on
/// a CUDA context. H100 80GB HBM3, 2026-11-22, commit 0742857 (GMP wins at
/// 2^18 bits, the device at 2^20).
inline constexpr std::size_t kRadixDeviceMinLimbs = std::size_t{1} << 13;
/// The trees' leaves (limbs), converted by GMP on host threads. H100 80GB
/// HBM3, 2026-11-22, commit f294c9b (...-f294c9b-radix.md: the fastest
/// leaves of 16 .. 128 limbs at 2^30 bits).
inline constexpr std::size_t kRadixToStringLeafLimbs = 128;
inline constexpr std::size_t kRadixFromStringLeafLimbs = 64;

// ---- whole-number algorithms (integer_crossovers.hpp) -------------------------------
// H200, 2026-11-28, bench/whole_bench: powers, roots and sequences at
// commits 8e3dc03 and 92f3ea4 (...-8e3dc03-whole.md, ...-92f3ea4-end-to-end.md),
// the sequences' leaves at 394127c, the gcd at 78406a1 and f534c0c.
inline constexpr std::size_t kDevicePowerMinLimbs = 2048;
inline constexpr std::size_t kDeviceRootMinLimbs = 8192;
inline constexpr std::size_t kDeviceSqrtMinLimbs = 32768;
inline constexpr std::size_t kDeviceSequenceMinLimbs = 2048;
inline constexpr std::size_t kSequenceLeavesPerThread = 2;
inline constexpr std::size_t kSequenceLeafMaxLimbs = 2048;
/// Swept on the 2-vCPU development VM (no GPU involved), commit 7d64a2c.
inline constexpr std::size_t kPrimeSieveSegmentNumbers = std::size_t{1} << 17;
inline constexpr std::size_t kDeviceGcdMinLimbs = 4096;
inline constexpr std::size_t kHostHalfGcdMaxLimbs = 2048;

// ---- the public NTT on 32-bit words ------------------------------------------------
/// Most stages of a column pass (1 .. 6, the kernel's limit): the largest
/// passes, fewest reads of the data. H100 80GB HBM3, 2026-11-24, commit
/// 081818a (...-081818a-ntt32.md: passes capped at 4 stages were slower at
/// 2^16, 2^20 and 2^24 points, at 5 stages at 2^16 and equal elsewhere).
inline constexpr int kNtt32ColumnStages = 6;

// ---- host <-> device copies ------------------------------------------------------------
/// Pinned staging chunks and copy threads of the large copies. H200,
/// 2026-11-28: the chunk size from the sweep at commit 9636c62
/// (...-9636c62-session4.md: 8 MiB chunks with 8-16 threads fastest), the
/// threads at commit 74c638c (...-74c638c-session4-final.md: 16 against 8).
inline constexpr std::size_t kStagingChunkBytes = std::size_t{8} << 20;
inline constexpr unsigned kStagingThreads = 16;
/// Copies from this many bytes are staged. Estimate (never swept; commit
/// 16bc7ce, 2026-11-28).
inline constexpr std::size_t kStagingMinBytes = std::size_t{1} << 20;
/// The pinned ring of small uploads: 256 uploads of 2^18 bits in flight.
/// Ring against no ring: H200, 2026-11-28, commit f534c0c (pi to 10^8
/// digits); its size is an estimate (never swept; commit ba4c11d).
inline constexpr std::size_t kUploadRingBytes = std::size_t{8} << 20;

// ---- the batch layer (batch/tuning_table.hpp, batch/ntt_sizes.cuh) ---------------------
/// Classes of at least this many 32-bit words multiply through the NTT
/// inside the group (2^16 bits). H100 80GB HBM3, 2026-11-23, commit 15be3e7
/// (2026-11-23-nvidia-h100-80gb-hbm3-0af9630-ntt-products.md: one product an instance at 2^16
/// bits 3.27 against 2.74 M/s by staged runs); smaller classes through the
/// NTT were never measured, so the crossover below is an estimate.
inline constexpr int kBatchNttProductMinWords = 2048;
/// Batch powm takes sliding windows from this modulus class up (in bits)
/// when several threads share an instance. H100 80GB HBM3, 2026-11-23,
/// commit 89d4373 (...-89d4373-powm.md: 1.05-1.07x from 512 bits, about
/// even at 256).
inline constexpr int kBatchPowmSlidingMinBits = 512;
/// Montgomery squares by rows of their own (batch/montgomery/rows_sqr.cuh)
/// from this many 32-bit words a thread up; below, a square is a product by
/// rows. Off (no class has this many words a thread): on an H200, 2026-11-29,
/// commit 27ad98a (2026-11-29-nvidia-h200-27ad98a-squares-cgbn-dropin.md), at
/// 16 words a thread the square ran 0.75-0.85x the product's rate and powm
/// 0.79-0.89x: it saves 23% of the multiplies but adds more carry-chain
/// additions than the multiply pipe then frees.
inline constexpr int kMontgomerySqrRowsMinWordsPerThread = 1 << 20;
// Threads per instance G for a width of W 32-bit words: the products, the
// streaming operations, every other operation. H100 80GB HBM3, 2026-11-25,
// commit 2980e93 (2026-11-25-nvidia-h100-80gb-hbm3-2980e93-tune.md,
// `batch_seed000 --tune`); not swept on the H200.
// BEGIN GENERATED by scripts/tune-batch (per width of the sweep: products by the fastest products, streaming by the fastest single addition, the rest by the fastest powm)
constexpr int tuned_product_group_size(int W) {
  if (W <= 8) return 1;
  if (W == 96) return 8;
  if (W == 16) return 1;
  if (W == 32) return 1;
  if (W == 64) return 8;
  if (W == 128) return 8;
  if (W == 256) return 16;
  if (W == 512) return 32;
  if (W == 1024) return 32;
  if (W == 2048) return 256;
  if (W == 4096) return 512;
  if (W == 8192) return 1024;
  return W / 16;
}
constexpr int tuned_linear_group_size(int W) {
  if (W <= 8) return 1;
  if (W == 96) return 8;
  if (W == 16) return 4;
  if (W == 32) return 1;
  if (W == 64) return 16;
  if (W == 128) return 32;
  if (W == 256) return 32;
  if (W == 512) return 64;
  if (W == 1024) return 128;
  if (W == 2048) return 256;
  if (W == 4096) return 512;
  if (W == 8192) return 1024;
  return W / 16;
}
constexpr int tuned_group_size(int W) {
  if (W <= 8) return 1;
  if (W == 96) return 8;
  if (W == 16) return 1;
  if (W == 32) return 8;
  if (W == 64) return 16;
  if (W == 128) return 32;
  if (W == 256) return 32;
  return W / 16;
}
// END GENERATED

/// Threads per instance for Montgomery operations and powm (the batch
/// classes of up to a warp multiply by rows in registers,
/// batch/montgomery/rows.cuh): 6 to 16 words a thread from 1024 bits, a
/// thread an instance below. NVIDIA H200, 2026-11-28, commit 3779855's
/// probe (bench/probes/powm_rows.cu; bench/results/
/// 2026-11-28-nvidia-h200-3779855-powm-rows.md): powm by sliding windows at
/// 1024 bits G = 2 2.31e6/s against G = 4 2.15e6 (16384 instances; G = 8
/// 1.98e6 with 65536); 2048 bits G = 8 2.94e5 against G = 16 2.61e5 (16384);
/// 3072 bits G = 16 7.98e4 against G = 8 6.92e4; 4096 bits G = 16 3.72e4
/// against G = 32 3.17e4 (4096 instances; with 1024 instances G = 32
/// 2.88e4 against 2.77e4); 8192 bits G = 32 4655 against G = 16 3977.
/// Classes beyond the probe keep the general table.
constexpr int tuned_modular_group_size(int W) {
  if (W <= 16) return 1;
  if (W == 32) return 2;
  if (W == 64) return 8;
  if (W == 96 || W == 128) return 16;
  if (W == 256) return 32;
  return tuned_group_size(W);
}

/// Threads per instance for the modular family by width and instance count,
/// for the host API's batch calls (TunedModularEnv keeps the single G of
/// tuned_modular_group_size, which is also the G of every width without
/// rows here). n instances at G make n G / 32 warps: a small G does more
/// work a thread but, with few instances, leaves SMs idle. The rows follow
/// one rule: the smallest G with n G >= kModularFillThreads (1024 warps,
/// about 8 an SM on 132 SMs), chosen only among the G measured fastest at
/// that width at some count; below every threshold, the largest of them.
/// Each width keeps at most 3 G (each is a kernel per modular operation).
/// NVIDIA H200, 2026-11-28, commit f8ff43b
/// (2026-11-28-nvidia-h200-f8ff43b-cgbn-side-by-side.md, "Raw output":
/// powm and Montgomery products at every G) and commit 3779855's probe
/// (2026-11-28-nvidia-h200-3779855-powm-rows.md). The fastest G measured,
/// each as the rule gives it: 1024 bits G 2 at 16384 instances, G 1 at
/// 65536; 2048 bits G 8 at 4096, G 2 at 16384 and 32768; 3072 bits G 16
/// at 2048, G 4 at 8192 and 16384; 4096 bits G 32 at 1024, G 8 at 4096,
/// G 4 at 16384; 8192 bits G 32 at 1024, G 8 at 8192. Up to 512 bits G 1
/// was fastest at the one count measured; from 16384 bits nothing was.
inline constexpr std::size_t kModularFillThreads = 32768;
struct ModularGroupRow {
  int words;                  ///< the width class W
  std::size_t min_instances;  ///< the row holds from this many instances up
  int group_size;             ///< G
};
/// Per width, thresholds falling (the first row that holds wins); the
/// thresholds are kModularFillThreads / G (a CPU test checks the rule).
inline constexpr ModularGroupRow kModularGroupRows[] = {
    {32, 32768, 1}, {32, 0, 2},                   // 1024 bits
    {64, 16384, 2}, {64, 0, 8},                   // 2048 bits
    {96, 8192, 4},  {96, 0, 16},                  // 3072 bits
    {128, 8192, 4}, {128, 4096, 8}, {128, 0, 32}, // 4096 bits
    {256, 4096, 8}, {256, 0, 32},                 // 8192 bits
};
constexpr int tuned_modular_group_size(int W, std::size_t instances) {
  for (const ModularGroupRow& row : kModularGroupRows)
    if (row.words == W && instances >= row.min_instances) return row.group_size;
  return tuned_modular_group_size(W);
}

/// Threads per instance for gcd and the modular inverse (divsteps,
/// batch/divsteps.cuh): 16 words a thread, a thread an instance up to 512
/// bits. Every thread of a group repeats the scalar divsteps, so smaller
/// groups than the general table's win. NVIDIA H200, 2026-11-29, commit
/// c142e60 (bench/results/2026-11-29-nvidia-h200-c142e60-divsteps.md, every
/// G measured): invert at 1024 bits G = 2 4.28e7/s against G = 8 3.46e7
/// (16384 instances); 2048 bits G = 4 1.28e7 against G = 16 9.13e6 (8192);
/// 3072 bits G = 8 5.48e6 against G = 4 4.63e6 (4096); 4096 bits G = 8
/// 3.42e6 against G = 32 2.55e6 (4096); 8192 bits G = 16 8.92e5 against
/// G = 32 8.04e5 (2048); gcd within 3% of its own best at these G (1024
/// bits G = 1 1.09e8 against G = 2 1.06e8).
constexpr int tuned_gcd_group_size(int W) {
  if (W <= 16) return 1;
  if (W == 96) return 8;  // 12 words a thread: 6 threads are no group size
  return W / 16;
}

/// Chains of carry-resolving operations staged from 2^18 bits; a minimum of
/// 3 resident blocks at 2^17 bits. H100 80GB HBM3, 2026-11-24 (probes
/// ...-staged-linear.md and ...-linear-chains.md, built from commit
/// 7dc7648 and f9b4b78).
constexpr bool tuned_staged_chain(int W) { return W >= 8192; }
constexpr int tuned_chain_min_blocks(int W) { return W == 4096 ? 3 : 0; }

}  // namespace mpgpu::tuning::sm90
