// The tuning table this build of mpgpu uses: `mpgpu::tuning::table` names
// one of the per-architecture tables of this folder (sm90.hpp, ...).
//
// Only sm_90 (H100, H200) has been measured, so every build takes sm90.hpp,
// whatever MPGPU_CUDA_ARCH it compiles for, and so does a CPU-only build.
// The choice is one per build, not per device: the table's crossovers are
// constexpr and compiled into users' inline code and into the batch
// templates, so a user's program and the library must agree on them. A
// context's run-time values (TuningParams, mpgpu/tuning.hpp) take their
// defaults from this table and may be overridden per context.
//
// When a second table exists (say sm100.hpp), select it here from a
// definition the build sets for the whole project and its installed
// config (never from __CUDA_ARCH__, which differs between the host and
// device passes of one source). Layer 0: includes nothing of mpgpu, so
// every layer may include it.
#pragma once

#include "mpgpu/tuning/sm90.hpp"

namespace mpgpu::tuning {

namespace table = sm90;

}  // namespace mpgpu::tuning
