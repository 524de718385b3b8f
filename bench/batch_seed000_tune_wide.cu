// batch_seed000 --tune: the sweep of the wide classes (2^14 .. 2^18 bits).
#include "batch_seed000.cuh"

void seed000_tune_wide(int reps, int min_bits, int max_bits) {
  const auto in = [&](int W) { return min_bits <= 32 * W && 32 * W <= max_bits; };
  if (in(512)) tune_wide_class<512>(reps);
  if (in(1024)) tune_wide_class<1024>(reps);
  if (in(2048)) tune_wide_class<2048>(reps);
  if (in(4096)) tune_wide_class<4096>(reps);
  if (in(8192)) tune_wide_class<8192>(reps);
}
