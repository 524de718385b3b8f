// The whole public host API of mpgpu.
#pragma once

#include "mpgpu/batch.hpp"
#include "mpgpu/context.hpp"
#include "mpgpu/dot.hpp"
#include "mpgpu/error.hpp"
#include "mpgpu/gfp.hpp"
#include "mpgpu/integer.hpp"
#include "mpgpu/ntt.hpp"
#include "mpgpu/series.hpp"
