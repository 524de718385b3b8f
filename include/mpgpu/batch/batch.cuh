// The whole device API of batched fixed-width integers (see env.cuh).
#pragma once

#include "mpgpu/batch/divide.cuh"
#include "mpgpu/batch/env.cuh"
#include "mpgpu/batch/gcd.cuh"
#include "mpgpu/batch/launch.cuh"
#include "mpgpu/batch/launch_staged.cuh"
#include "mpgpu/batch/montgomery.cuh"
#include "mpgpu/batch/mul.cuh"
#include "mpgpu/batch/signed.cuh"
#include "mpgpu/batch/tuning.cuh"
