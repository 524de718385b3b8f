// Products of wide instances through number-theoretic transforms inside the
// group (as in Oancea & Watt's midsize multiplication): the operands' 32-bit
// words are the coefficients of two polynomials, their cyclic convolution of
// length L >= 2W is computed mod three primes below 2^30 by transforms in
// shared memory, and the coefficients are rebuilt by CRT (Garner) and summed
// with their carries. Schoolbook runs (mul.cuh) cost W^2 multiply-adds; this
// costs ~9 L log2(L) / 2 butterflies of one Montgomery product each.
//
// Exactness (the CRT bound): a coefficient of the product is a sum of at
// most W products of two words, so it is below W * 2^64. The three primes'
// product is above 2^88, so every coefficient is recovered exactly while
// W * 2^64 < 2^88, i.e. W < 2^24 words; kNttProductMaxWords asserts a
// smaller width (and the transform length must divide every p - 1: 2^23).
// Tests run all-ones operands, which give the largest coefficients.
//
// Layout in `work` (words): X[L] and Y[L], the transforms of a and b, then
// T[L], the twiddles of every stage, T_h[j] = w_{2h}^j (j < h) at offset h,
// in Montgomery form, so a warp reads consecutive words (no bank conflicts)
// at every stage. Squares use X and T only. A thread's own run of words
// (loading the operand, reading the residues) moves 16 bytes at a time.
//
// Arithmetic: residues in Montgomery form (x R mod p, R = 2^32), kept lazily
// in [0, 2p) (Harvey's butterflies; the primes are below 2^30, so sums below
// 4p fit a word): one PrimeField32::mont_mul_lazy per butterfly (a
// Montgomery twiddle multiplies by the plain root), one unsigned min for
// each reduction, canonical values only where the residues are read out.
// Forward transforms are decimation in frequency from natural to
// bit-reversed order, the pointwise product runs in bit-reversed order, and
// the inverse is decimation in time back to natural order: no permutation
// pass. Stages go in radix-4 pairs (one sync a pair); the last
// forward pair, the pointwise product and the first inverse pair touch four
// consecutive words and run fused, one 16-byte access each.
//
// The pieces: the primes and their constants (ntt_mul/primes.cuh), a
// thread's accesses and butterflies (ntt_mul/butterflies.cuh), the group's
// convolution mod one prime (ntt_mul/transform.cuh), the CRT and the sum of
// the coefficients (ntt_mul/crt.cuh), and ntt_mul_runs, the product of a
// group (ntt_mul/product.cuh).
#pragma once

#include "mpgpu/batch/ntt_mul/butterflies.cuh"
#include "mpgpu/batch/ntt_mul/crt.cuh"
#include "mpgpu/batch/ntt_mul/primes.cuh"
#include "mpgpu/batch/ntt_mul/product.cuh"
#include "mpgpu/batch/ntt_mul/transform.cuh"
