// The tuning table of the batch layer: threads per instance G for a width of
// W 32-bit words, as the host API uses it. Users' kernels can take the same
// choice through TunedEnv<W>.
//
// Measured with `batch_seed000 --tune` on an H100 (bench/results/): fewer
// words per thread win at 512 .. 4096 bits (4 at 512, 8 at 1024 .. 4096, as
// more threads share a product's terms), 16 from 8192 bits up (fewer
// synchronizing threads). 3072 bits runs 8 threads of 12 words; up to 256
// bits a whole instance per thread. A tuning program that rewrites this
// table from its own measurements is future work.
#pragma once

#include "mpgpu/batch/env.cuh"

namespace mpgpu::batch {

template <int W>
constexpr int tuned_group_size() {
  if constexpr (W <= 8) return 1;
  else if constexpr (W == 16) return 4;
  else if constexpr (W == 96) return 8;
  else if constexpr (W <= 128) return W / 8;
  else return W / 16;
}

template <int W>
using TunedEnv = Env<W, tuned_group_size<W>()>;

}  // namespace mpgpu::batch
