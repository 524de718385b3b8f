// The public number-theoretic transform: batches of transforms of length
// 2^log_n (0 <= log_n <= 28) over a word-size prime field, in place, on the
// GPU (device memory, CUDA context) or on the CPU (host memory, CPU context).
//
// Conventions (the same as ntt::HostPlan64, which is the CPU backend):
//   forward:  X[k] = sum_j x[j] w^(j k)           (w = g^((p-1)/n), g the
//   inverse:  x[j] = n^-1 sum_k X[k] w^(-j k)      table's primitive root)
// Values are canonical residues in [0, p). NttOrder::bit_reversed leaves the
// forward output (and takes the inverse input) in bit-reversed index order,
// which skips a permutation pass when only pointwise products happen in
// between (convolutions). p: an odd prime < 2^64 with 2^log_n | p - 1 (the
// field::ntt_primes62 table, or any other such prime, checked). Device
// twiddles are made once per (p, log_n) and cached in the context.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpgpu/context.hpp"

namespace mpgpu {

enum class NttOrder { natural, bit_reversed };

/// data: `batch` transforms of 2^log_n words each, contiguous.
void ntt_forward(const Context& ctx, std::uint64_t* data, std::size_t batch, int log_n, std::uint64_t p,
                 NttOrder output = NttOrder::natural, Stream s = nullptr);
void ntt_inverse(const Context& ctx, std::uint64_t* data, std::size_t batch, int log_n, std::uint64_t p,
                 NttOrder input = NttOrder::natural, Stream s = nullptr);

}  // namespace mpgpu
