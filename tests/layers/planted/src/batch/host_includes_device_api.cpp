// Planted: a host source pulling in the device API (batch/*.cuh).
#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/tuning_table.hpp"
