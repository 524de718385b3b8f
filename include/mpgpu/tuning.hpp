// mpgpu::TuningParams: the tuning values a context may change at run time
// (FLINT's dot_params): product, division, radix and sequence crossovers,
// the NTT digit size, the 32-bit NTT's column passes and the host <-> device
// copies. Their defaults are the build's tuning table
// (mpgpu/tuning/table.hpp); docs/tuning.md explains both.
//
// A context carries one TuningParams, fixed when the context is made
// (Context::cpu(params), Context::cuda(device, params), ctx.with_tuning(params))
// and read without a lock by every thread that uses the context. Changing
// them means making another context. Contexts made without params
// (Context::cpu(), Context::cuda(n), from_string, the default context) take
// TuningParams::from_environment(): the table's values with the MPGPU_*
// overrides of the tuning scripts, read once, when the context is made.
//
// Every value in its stated range gives exact results; only the speed
// changes. Values outside a range are clamped to it where they are used
// (and reported as given by Context::tuning()).
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpgpu/tuning/table.hpp"

namespace mpgpu {

struct TuningParams {
  // ---- products (CUDA contexts) ----
  /// Largest na * nb (limb products) multiplied by columns when the shorter
  /// operand has at most 8192 limbs; above, by NTTs. 0: every product
  /// above 32 limbs by NTTs. MPGPU_SCHOOLBOOK_MAX_WORK.
  std::uint64_t schoolbook_max_work = tuning::table::kSchoolbookMaxWork;
  /// Limbs a point of a huge product's NTTs: 0 lets the cost model choose
  /// (tuning::table::kNttDigitModel); 1, 2 or 4 force that digit size where
  /// its buffers fit (else 1). Other values act as 0. MPGPU_NTT_DIGIT_LIMBS.
  int ntt_digit_limbs = 0;
  /// log2 of the largest transform (points, times the batch of a chunked
  /// product) whose three primes run side by side on three streams; 0:
  /// never. MPGPU_NTT_SIDE_PRIMES_MAX_LOG.
  int side_primes_max_log = tuning::table::kMulSidePrimesMaxLog;
  /// log2 of the largest transform whose products `mul_each` computes as
  /// one batched product (those taking the primes-side-by-side form, by
  /// transform length); 0: never (each on a branch of its own).
  /// MPGPU_MUL_EACH_BATCH_MAX_LOG.
  int mul_each_batch_max_log = tuning::table::kMulEachBatchMaxLog;
  /// 1: a batched product's last step, the sum of each product's column
  /// words, is one launch for the whole batch (column_sums_each); 0: an
  /// add_abs each. MPGPU_MUL_EACH_SUMS_AT_ONCE.
  int mul_each_sums_at_once = tuning::table::kMulEachSumsAtOnce;

  // ---- division, radix conversion, sequences (CUDA contexts) ----
  /// Divisor limbs from which division runs by a Newton reciprocal on the
  /// device. MPGPU_DIVISION_MIN_LIMBS.
  std::size_t division_min_limbs = tuning::table::kDeviceDivisionMinLimbs;
  /// Limbs from which to_string / from_string run the level-at-once trees
  /// on the device. MPGPU_RADIX_MIN_LIMBS.
  std::size_t radix_min_limbs = tuning::table::kRadixDeviceMinLimbs;
  /// Leaves of those trees, in limbs (at least 1); 0: the table's, 128 for
  /// to_string and 64 for from_string. MPGPU_RADIX_LEAF_LIMBS.
  std::size_t radix_leaf_limbs = 0;
  /// Leaves of fac_ui's and bin_uiui's product trees, in limbs; 0: the
  /// table's rule (a share of the host threads, within
  /// [kDeviceSequenceMinLimbs, kSequenceLeafMaxLimbs]). MPGPU_SEQUENCE_LEAF_LIMBS.
  std::size_t sequence_leaf_limbs = 0;

  // ---- the public NTT on 32-bit words (CUDA contexts) ----
  /// Most stages of a column pass, 1 .. 6. MPGPU_NTT32_COLUMN_STAGES.
  int ntt32_column_stages = tuning::table::kNtt32ColumnStages;

  // ---- host <-> device copies (CUDA contexts) ----
  /// Pinned bytes of the ring that small uploads go through without a host
  /// wait; 0: no ring (every small upload synchronizes its stream); else
  /// clamped to [4 KiB, 1 GiB]. MPGPU_UPLOAD_RING_BYTES.
  std::size_t upload_ring_bytes = tuning::table::kUploadRingBytes;
  /// Bytes of each of the 4 pinned staging buffers of the large copies,
  /// clamped to [64 KiB, 256 MiB]. MPGPU_STAGING_CHUNK_BYTES.
  std::size_t staging_chunk_bytes = tuning::table::kStagingChunkBytes;
  /// Host threads of a staged copy, the caller included, clamped to [1, the
  /// hardware threads]. MPGPU_STAGING_THREADS.
  unsigned staging_threads = tuning::table::kStagingThreads;
  /// Copies of at least this many bytes from or to pageable memory are
  /// staged; smaller ones go straight. MPGPU_STAGING_MIN_BYTES.
  std::size_t staging_min_bytes = tuning::table::kStagingMinBytes;

  /// The build's tuning table (the same as TuningParams{}).
  static TuningParams defaults() { return TuningParams{}; }
  /// defaults() with each MPGPU_* variable named above that is set taking
  /// its place (decimal, or hexadecimal after 0x). For tuning runs and
  /// scripts; programs pass params instead.
  static TuningParams from_environment();

  bool operator==(const TuningParams&) const = default;

  /// Calls f(name, variable, field) for every field above, in order: its
  /// name, the MPGPU_* variable that overrides it, and a reference to it.
  /// The one list of the fields, so that from_environment and the tools that
  /// print params cannot miss one.
  template <class Params, class F>
  static void for_each_field(Params& p, F&& f) {
    f("schoolbook_max_work", "MPGPU_SCHOOLBOOK_MAX_WORK", p.schoolbook_max_work);
    f("ntt_digit_limbs", "MPGPU_NTT_DIGIT_LIMBS", p.ntt_digit_limbs);
    f("side_primes_max_log", "MPGPU_NTT_SIDE_PRIMES_MAX_LOG", p.side_primes_max_log);
    f("mul_each_batch_max_log", "MPGPU_MUL_EACH_BATCH_MAX_LOG", p.mul_each_batch_max_log);
    f("mul_each_sums_at_once", "MPGPU_MUL_EACH_SUMS_AT_ONCE", p.mul_each_sums_at_once);
    f("division_min_limbs", "MPGPU_DIVISION_MIN_LIMBS", p.division_min_limbs);
    f("radix_min_limbs", "MPGPU_RADIX_MIN_LIMBS", p.radix_min_limbs);
    f("radix_leaf_limbs", "MPGPU_RADIX_LEAF_LIMBS", p.radix_leaf_limbs);
    f("sequence_leaf_limbs", "MPGPU_SEQUENCE_LEAF_LIMBS", p.sequence_leaf_limbs);
    f("ntt32_column_stages", "MPGPU_NTT32_COLUMN_STAGES", p.ntt32_column_stages);
    f("upload_ring_bytes", "MPGPU_UPLOAD_RING_BYTES", p.upload_ring_bytes);
    f("staging_chunk_bytes", "MPGPU_STAGING_CHUNK_BYTES", p.staging_chunk_bytes);
    f("staging_threads", "MPGPU_STAGING_THREADS", p.staging_threads);
    f("staging_min_bytes", "MPGPU_STAGING_MIN_BYTES", p.staging_min_bytes);
  }
};

/// The name of the build's tuning table ("sm90").
inline const char* tuning_table_name() { return tuning::table::kName; }

}  // namespace mpgpu
