// Products of fixed-width instances. A thread per instance of up to 1024 bits
// multiplies in registers (register_mul.cuh), classes of at least
// kNttProductMinWords words through transforms (ntt_mul.cuh). Otherwise (the
// product scanning of Oancea & Watt's midsize multiplication) the operands
// are staged in shared memory, each thread computes runs of Q = L/2
// consecutive product columns by product scanning in registers, runs are
// paired from both ends of the product so every thread does the same number
// of terms (and walks a pair as one loop, so the lanes of a warp step
// together), and the runs' (Q + 2)-word results are summed by two group
// additions. Squares scan each column's products a[i] a[j] with i < j once,
// double them and add the diagonal a[c/2]^2: about half the terms of a
// product.
//
// The pieces: the runs one thread computes (mul/paired_runs.cuh for groups
// of up to a warp, mul/sliding_runs.cuh for larger ones), the staged product
// of a group (mul/staged.cuh), and the products of any group with the
// choice among registers, the NTT and staged runs (mul/products.cuh).
#pragma once

#include "mpgpu/batch/mul/paired_runs.cuh"
#include "mpgpu/batch/mul/products.cuh"
#include "mpgpu/batch/mul/sliding_runs.cuh"
#include "mpgpu/batch/mul/staged.cuh"
