// The device API: Env<W, G> runs operations on one fixed-width instance of
// W 32-bit words (32*W bits) held by a group of G threads, thread `rank`
// owning words [rank*L, (rank+1)*L), L = W/G, in registers (a Num). Users'
// kernels make one Env per thread and chain operations on Nums, so a whole
// formula runs in one kernel with intermediates in registers (a chain of
// additions, a polynomial of products and additions).
//
// The Env hides whether a thread (G == 1), lanes of a warp (G <= 32) or
// several warps (G > 32, one instance per block) cooperate. Rules, because
// the group synchronizes inside operations:
//  - every thread of a block makes the same calls in the same order (give
//    instances past the end of the batch zeros, and skip only their stores);
//  - with G > 32, a block holds exactly one instance;
//  - an Env is not copied (pass `const E&`), and a thread keeps one Env
//    over a scratch area: the group's carry resolves alternate halves of
//    its shared words and track which one is next (group.cuh). A kernel
//    that makes a new Env over the same scratch must __syncthreads() first.
// Inside the library the same rule holds: group operations are never skipped
// by a data-dependent branch (e.g. compare broadcasts even when the operands
// are equal), because lanes of other instances in the warp take part.
// Each instance needs Env::scratch_words words of shared memory (see
// launch.cuh for a kernel skeleton that lays this out).
//
// The pieces: the Env and its scratch layout (env/layout.cuh), loads and
// stores (env/io.cuh), additions and subtractions with their carries
// resolved or delayed (env/arith.cuh), comparisons, bitwise operations, bit
// counts and shifts (env/bits.cuh). Products are in mul.cuh, Montgomery
// arithmetic and powm in montgomery.cuh, division in divide.cuh, gcd and
// inverse in gcd.cuh, two's-complement forms in signed.cuh.
#pragma once

#include "mpgpu/batch/env/arith.cuh"
#include "mpgpu/batch/env/bits.cuh"
#include "mpgpu/batch/env/io.cuh"
#include "mpgpu/batch/env/layout.cuh"
