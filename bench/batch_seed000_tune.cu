// batch_seed000 --tune: the sweep of the narrow classes (512 .. 8192 bits,
// every group size) here, the wide ones in batch_seed000_tune_wide.cu.
#include "batch_seed000.cuh"

void seed000_tune_narrow(int reps, int min_bits, int max_bits) {
  const auto in = [&](int W) { return min_bits <= 32 * W && 32 * W <= max_bits; };
  if (in(16)) tune_class<16>(reps);
  if (in(32)) tune_class<32>(reps);
  if (in(64)) tune_class<64>(reps);
  if (in(128)) tune_class<128>(reps);
  if (in(256)) tune_class<256>(reps);
}
