// TuningParams::from_environment: the MPGPU_* overrides of tuning runs. Read
// when a context is made without params, never on an operation's path.
#include "mpgpu/tuning.hpp"

#include <cstdlib>

namespace mpgpu {

namespace {

/// Sets `value` to the unsigned number in environment variable `name`
/// (decimal, or hexadecimal after 0x) when the variable is set; a value
/// that is not a number reads as 0, as strtoull gives it.
template <class T>
void read_override(const char* name, T& value) {
  if (const char* v = std::getenv(name)) value = static_cast<T>(std::strtoull(v, nullptr, 0));
}

}  // namespace

TuningParams TuningParams::from_environment() {
  TuningParams p;
  read_override("MPGPU_SCHOOLBOOK_MAX_WORK", p.schoolbook_max_work);
  read_override("MPGPU_NTT_DIGIT_LIMBS", p.ntt_digit_limbs);
  read_override("MPGPU_NTT_SIDE_PRIMES_MAX_LOG", p.side_primes_max_log);
  read_override("MPGPU_DIVISION_MIN_LIMBS", p.division_min_limbs);
  read_override("MPGPU_RADIX_MIN_LIMBS", p.radix_min_limbs);
  read_override("MPGPU_RADIX_LEAF_LIMBS", p.radix_leaf_limbs);
  read_override("MPGPU_SEQUENCE_LEAF_LIMBS", p.sequence_leaf_limbs);
  read_override("MPGPU_NTT32_COLUMN_STAGES", p.ntt32_column_stages);
  read_override("MPGPU_UPLOAD_RING_BYTES", p.upload_ring_bytes);
  read_override("MPGPU_STAGING_CHUNK_BYTES", p.staging_chunk_bytes);
  read_override("MPGPU_STAGING_THREADS", p.staging_threads);
  read_override("MPGPU_STAGING_MIN_BYTES", p.staging_min_bytes);
  return p;
}

}  // namespace mpgpu
