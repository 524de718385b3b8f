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

/// The same on 32-bit words for a prime p < 2^32 (the field::ntt_primes31 /
/// ntt_primes32 tables, or any other such prime, checked the same way): the
/// same transform (the same root of unity) as the 64-bit functions give for
/// that p. On the GPU, transforms of up to 2^10 points run in one pass over
/// the data at 32-bit width (mpgpu/ntt/team_ntt32.cuh); longer ones in
/// 1 + ceil((log_n - 10) / 6) passes (mpgpu/ntt/column_ntt32.cuh), plus an
/// in-place bit reversal for natural order.
void ntt_forward(const Context& ctx, std::uint32_t* data, std::size_t batch, int log_n, std::uint32_t p,
                 NttOrder output = NttOrder::natural, Stream s = nullptr);
void ntt_inverse(const Context& ctx, std::uint32_t* data, std::size_t batch, int log_n, std::uint32_t p,
                 NttOrder input = NttOrder::natural, Stream s = nullptr);

// ---- checking residues (src/ntt/ntt_poly_api.cpp) ---------------------------------
/// The index of the first of x[0 .. count) that is not a canonical residue
/// (x[i] >= p), or count when all are; that word goes to *value when given.
/// The transforms above take residues unchecked (a check is one more pass
/// over the data); a caller holding words it did not make checks them with
/// this first (mpgpu's Python module does, for CuPy and PyTorch arrays). On
/// a CUDA context x is device memory and the scan runs on the device, on
/// `s` after its queued work, and synchronizes `s`.
std::size_t ntt_first_unreduced(const Context& ctx, const std::uint64_t* x, std::size_t count, std::uint64_t p,
                                std::uint64_t* value = nullptr, Stream s = nullptr);
std::size_t ntt_first_unreduced(const Context& ctx, const std::uint32_t* x, std::size_t count, std::uint32_t p,
                                std::uint32_t* value = nullptr, Stream s = nullptr);

// ---- pointwise and polynomial products mod p (src/ntt/ntt_poly_api.cpp) -----------
// Same primes as the transforms (checked the same way). Every coefficient of
// an input must be a canonical residue < p: checked before anything is
// written (on the device by a scan that synchronizes the stream); a failed
// call throws InvalidArgument and leaves every buffer untouched.

/// out[i] = a[i] * b[i] mod p, i < count. out may be a or b (exactly); any
/// other overlap of out with an input is rejected.
void ntt_pointwise_mul(const Context& ctx, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b,
                       std::size_t count, std::uint64_t p, Stream s = nullptr);

/// c = a * b mod p as polynomials (coefficient i of x^i): c gets
/// len_a + len_b - 1 coefficients, or none when len_a or len_b is 0. The
/// product's padded length 2^n (the smallest power of two >= len_a + len_b
/// - 1) must divide p - 1 and be at most 2^28; otherwise InvalidArgument
/// names the lengths and the prime's 2-adic limit, whichever method would
/// run. Short products use the schoolbook method, longer ones zero-padded
/// NTTs (forward with bit-reversed output, pointwise, inverse with
/// bit-reversed input). c may alias a or b (any overlap): the inputs are
/// read into scratch before c is written.
void poly_mul(const Context& ctx, std::uint64_t* c, const std::uint64_t* a, std::size_t len_a,
              const std::uint64_t* b, std::size_t len_b, std::uint64_t p, Stream s = nullptr);

/// `batch` independent products: a holds batch polynomials of len_a
/// coefficients, b batch of len_b, c batch of len_a + len_b - 1, each
/// contiguous. Same rules as poly_mul.
void poly_mul_batch(const Context& ctx, std::uint64_t* c, const std::uint64_t* a, std::size_t len_a,
                    const std::uint64_t* b, std::size_t len_b, std::size_t batch, std::uint64_t p,
                    Stream s = nullptr);

}  // namespace mpgpu
