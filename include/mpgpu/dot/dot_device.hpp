// Dot products mod p in a Context (g++ compiles this header): on a CUDA
// context the vectors are DEVICE pointers and the work runs on the GPU
// (src/cuda/dot_device.cu); on a CPU context they are host pointers and the
// call is the host implementation (mpgpu/dot/dot_host.hpp), so the same code
// serves both backends. Methods, residue types and bounds are dot_host.hpp's
// (docs/dot.md): the same check_admissible runs first and throws the same
// mpgpu::InvalidArgument before any element is read.
//
// Elements are then checked on the device, fused into the dot kernel: a
// value >= p (or, for doubles, negative, fractional or NaN) fails the call
// with an InvalidArgument naming the first bad index ("a[7]", "dot 2, b[4]"),
// and no output is written. Every call synchronizes the stream it runs on
// (to read that verdict); `s` = nullptr means the context's stream. Inputs
// must be ready on that stream.
//
// `automatic` on the device (choose_device_method) may differ from the host:
// see docs/dot.md, "Automatic choice on the GPU".
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpgpu/context.hpp"
#include "mpgpu/dot/dot_host.hpp"

namespace mpgpu::dot {

/// The method `automatic` runs on a CUDA context (throws like
/// check_admissible when none is admissible).
Method choose_device_method(Residue r, std::uint64_t p, std::size_t n);

// ---- single: returns sum a[i] * b[i] mod p, i < n ----------------------------------
std::uint64_t dot(const Context& ctx, const std::uint32_t* a, const std::uint32_t* b, std::size_t n,
                  std::uint64_t p, Method m = Method::automatic, Stream s = nullptr);
std::uint64_t dot(const Context& ctx, const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
                  std::uint64_t p, Method m = Method::automatic, Stream s = nullptr);
std::uint64_t dot(const Context& ctx, const double* a, const double* b, std::size_t n, std::uint64_t p,
                  Method m = Method::automatic, Stream s = nullptr);

// ---- strided: sum a[i * stride_a] * b[i * stride_b] mod p (strides >= 1) ----------
std::uint64_t dot_strided(const Context& ctx, const std::uint32_t* a, std::size_t stride_a,
                          const std::uint32_t* b, std::size_t stride_b, std::size_t n, std::uint64_t p,
                          Method m = Method::automatic, Stream s = nullptr);
std::uint64_t dot_strided(const Context& ctx, const std::uint64_t* a, std::size_t stride_a,
                          const std::uint64_t* b, std::size_t stride_b, std::size_t n, std::uint64_t p,
                          Method m = Method::automatic, Stream s = nullptr);
std::uint64_t dot_strided(const Context& ctx, const double* a, std::size_t stride_a, const double* b,
                          std::size_t stride_b, std::size_t n, std::uint64_t p, Method m = Method::automatic,
                          Stream s = nullptr);

// ---- batched: out[k] = dot(a + k*n, b + k*n, n) for k < count ----------------------
// `out` is device memory on a CUDA context; it is written only when every
// element of every dot is a residue.
void dot_batched(const Context& ctx, std::uint64_t* out, const std::uint32_t* a, const std::uint32_t* b,
                 std::size_t count, std::size_t n, std::uint64_t p, Method m = Method::automatic,
                 Stream s = nullptr);
void dot_batched(const Context& ctx, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b,
                 std::size_t count, std::size_t n, std::uint64_t p, Method m = Method::automatic,
                 Stream s = nullptr);
void dot_batched(const Context& ctx, std::uint64_t* out, const double* a, const double* b, std::size_t count,
                 std::size_t n, std::uint64_t p, Method m = Method::automatic, Stream s = nullptr);

// ---- the benchmark baseline ------------------------------------------------------------
/// sum a[i] b[i] mod p with one 128-bit `%` per term (no delayed reduction):
/// what bench/dot_device_bench.cu compares the methods against. Same checks
/// as dot() with integer_delayed.
std::uint64_t dot_reduce_every_term(const Context& ctx, const std::uint32_t* a, const std::uint32_t* b,
                                    std::size_t n, std::uint64_t p, Stream s = nullptr);
std::uint64_t dot_reduce_every_term(const Context& ctx, const std::uint64_t* a, const std::uint64_t* b,
                                    std::size_t n, std::uint64_t p, Stream s = nullptr);
std::uint64_t dot_reduce_every_term(const Context& ctx, const double* a, const double* b, std::size_t n,
                                    std::uint64_t p, Stream s = nullptr);

}  // namespace mpgpu::dot
