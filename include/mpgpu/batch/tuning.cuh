// The batch layer's tuned environments: Env<W, G> with G from the tuning
// tables of tuning_table.hpp (products, streaming operations, the rest), for
// users' kernels and the library's launchers. Host sources that only need
// the numbers include tuning_table.hpp, which has no device code.
#pragma once

#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/tuning_table.hpp"

namespace mpgpu::batch {

template <int W>
using TunedEnv = Env<W, tuned_group_size(W)>;
template <int W>
using TunedProductEnv = Env<W, tuned_product_group_size(W)>;
template <int W>
using TunedLinearEnv = Env<W, tuned_linear_group_size(W)>;
template <int W>
using TunedModularEnv = Env<W, tuned_modular_group_size(W)>;
template <int W>
using TunedGcdEnv = Env<W, tuned_gcd_group_size(W)>;

}  // namespace mpgpu::batch
