// mpgpu's drop-in for NVIDIA's CGBN (github.com/NVlabs/CGBN): CGBN's public
// API with CGBN's semantics, implemented on mpgpu's batch device API
// (mpgpu/batch/, Env<W, G>). A CGBN program moves by changing its include
// path: compile with
//   -I <mpgpu>/include/mpgpu/compat -I <mpgpu>/include
// (and C++17 or later: the header uses if constexpr and inline variables),
// and #include "cgbn/cgbn.h" resolves here. docs/cgbn.md is the porting
// guide: what is the same, what differs, and the table of every function.
//
// The pieces: errors.h (error codes and the report), context.h
// (cgbn_context_t), shape.h (how BITS and TPI map onto Env<W, G>; the
// cgbn_mem_t layout), frame.h (the Env and its shared scratch per call),
// env.h with env_bits.inc and env_math.inc (cgbn_env_t and its methods),
// api.h and api_modular.h (the cgbn_* functions). The arithmetic at the logical width BITS:
// arith.h, bits.h, wide.h, sqrt.h, accumulator.h, montgomery.h, power.h,
// barrett.h.
// check.h adds a CGBN_CHECK macro for programs without their own.
//
// This is a top layer: it includes mpgpu's batch device API, and nothing
// of mpgpu includes it.
#pragma once

#include "api.h"
#include "api_modular.h"
