// The device NTT over a word-size prime: one kernel per pass of the schedule
// in block_plan.hpp, each pass one trip through device memory.
//
// Arithmetic: plain residues (no Montgomery form), twiddle products by
// Shoup's method with precomputed quotients (w, floor(w 2^64 / p)): 3 64-bit
// products (~10 IMAD on sm_90) against Montgomery's 3 full ones (~14) and no
// conversion passes. For p < 2^62 with 2^32 dividing p - 1 (every prime of
// ntt_primes62) reduction is lazy (Harvey's butterflies, one conditional
// subtraction per butterfly): forward values lie in [0, 2p), inverse values
// in [0, 4p) (4p < 2^64; Shoup's lazy product < 2p for any 64-bit input);
// the output is made canonical in the last pass; and q p in Shoup's product
// costs one 32-bit product (PassArith::mul). For other primes (Goldilocks,
// the 31- and 32-bit ones, any other prime the public API accepts) the same
// kernels run with canonical arithmetic (kLazy = false).
//
// Inside a block: a tile of 2^k rows x 2^log_c columns; each thread owns 16
// elements, and does up to 3 stages at a time in registers (radix-8 units:
// 8 elements at row spacing 2^low, two units per thread), so a 12-stage
// pass costs 4 shared-memory round trips and 3 __syncthreads instead of 12.
// A round first loads all 16 of a thread's elements (16 loads in flight),
// then computes, then stores. The first round reads straight from global
// memory and the last writes straight back (except on a permuting pass).
// The smallest stages (low == 0) know at compile time which butterflies
// have twiddle 1 and skip their products (7 of 12 in a radix-8 unit).
// Registers: 114-128 of the 128 that __launch_bounds__(512, 1) allows
// (ptxas, CUDA 13.0); a 64-register cap (two 512-thread blocks per SM, or 8
// words a thread) spilled 300-600 bytes, so a 2^13 tile runs one block per
// SM. Tiles of 2^12 (256 threads; several-pass transforms and batches of
// short ones) run the lazy kernels at 80 registers, three blocks per SM
// (launch_block_pass_direction); the common shapes of such passes (6, 7,
// 10 and 12 stages) run kernels with the shape compiled in
// (block_pass_fixed_kernel), the others one generic kernel.
//
// Twiddles: `inner` holds w_(2^(j+1))^i for the in-block stages, one row per
// stage (2^13 entries, 128 KiB at most, a round touches 3 rows), read
// through the L1 cache; the cross
// twiddle w^e (e < 2^L) is lo[e mod 2^B] * hi[e >> B] (B = ceil(L/2)), two
// Shoup products from two small tables instead of a gather from a table as
// large as the data. Where the schedule allows (2^24 points: 6 + 6 + 12
// stages), the top pass's cross twiddles move into the next pass, which
// needs one product for them (block_fold_cross): the top pass then moves
// its data without twiddle products.
//
// The pieces, innermost first (CUB's thread / agent / kernel / dispatch
// layers); this header only includes them, so that its includers see all:
//   block_ntt_args.cuh      twiddle-table layout and view, pass flags, BlockPassArgs
//   block_ntt_thread.cuh    per-thread arithmetic (PassArith), radix-2^R units
//   block_ntt_view.cuh      a block's view of a pass (positions, prologue, epilogue)
//   block_ntt_agent.cuh     the rounds of a pass, block_pass_body
//   block_ntt_kernels.cuh   the table and pass kernels
//   block_ntt_dispatch.cuh  host side: kernel choice and launch, whole transforms
#pragma once

#include "mpgpu/ntt/block_ntt_args.cuh"
#include "mpgpu/ntt/block_ntt_thread.cuh"
#include "mpgpu/ntt/block_ntt_view.cuh"
#include "mpgpu/ntt/block_ntt_agent.cuh"
#include "mpgpu/ntt/block_ntt_kernels.cuh"
#include "mpgpu/ntt/block_ntt_dispatch.cuh"
