// batch_seed000's table rows of the wide classes (2^14 .. 2^18 bits).
#include "batch_seed000.cuh"

void seed000_rows_wide(int reps, bool quick, int min_bits, int max_bits) {
  if (min_bits <= 16384 && max_bits >= 16384) seed_row<512>(reps, quick);
  if (min_bits <= 32768 && max_bits >= 32768) seed_row<1024>(reps, quick);
  if (min_bits <= 65536 && max_bits >= 65536) seed_row<2048>(reps, quick);
  if (min_bits <= 131072 && max_bits >= 131072) seed_row<4096>(reps, quick);
  if (min_bits <= 262144 && max_bits >= 262144) seed_row<8192>(reps, quick);
}
