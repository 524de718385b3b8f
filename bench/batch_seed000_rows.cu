// batch_seed000's table rows (seed_row, powm_row): the narrow classes
// (512 .. 8192 bits) and the powm rows here, the wide ones in
// batch_seed000_rows_wide.cu, so that their kernels compile in parallel.
#include "batch_seed000.cuh"

void seed000_rows_narrow(int reps, bool quick, int min_bits, int max_bits) {
  if (min_bits <= 512 && max_bits >= 512) seed_row<16>(reps, quick);
  if (min_bits <= 1024 && max_bits >= 1024) seed_row<32>(reps, quick);
  if (min_bits <= 2048 && max_bits >= 2048) seed_row<64>(reps, quick);
  if (min_bits <= 4096 && max_bits >= 4096) seed_row<128>(reps, quick);
  if (min_bits <= 8192 && max_bits >= 8192) seed_row<256>(reps, quick);
}

void seed000_powm_rows(bool quick) {
  const int preps = quick ? 1 : 3;
  powm_row<8>(powm_instances(8), preps);
  powm_row<16>(powm_instances(16), preps);
  powm_row<32>(powm_instances(32), preps);
  powm_row<64>(powm_instances(64), preps);
  if (!quick) powm_row<128>(powm_instances(128), preps);
  if (!quick) powm_row<256>(powm_instances(256), 1);
}
