// The CUDA backend of the dot and matrix products mod p, as the host API
// (src/dot/dot_device_api.cpp, src/dot/matmul_device_api.cpp) sees it: plain
// functions over device pointers, declared for g++ and defined in
// src/cuda/dot_device.cu, src/cuda/matmul_device.cu (or, without CUDA, by
// src/no_cuda/cuda_unavailable.cpp, which throws BackendUnavailable).
//
// Callers have checked every parameter (method admissible for p and n,
// strides, pointers, extents); these functions check the elements on the
// device and report the first bad one instead of writing any output.
#pragma once

#include <cstddef>
#include <cstdint>

#include "context/context_state.hpp"
#include "mpgpu/dot/dot_host.hpp"

namespace mpgpu::detail::dot_cuda {

/// The first element that is not a residue, if any, in the host's order
/// (dot by dot, all of a before b). Dots: `index` is k * n + i for element i
/// of dot k, `in_b` says which operand. Matrices:
/// `index` is row * cols + col of the operand checked.
struct BadElement {
  bool found = false;
  std::size_t index = 0;
  bool in_b = false;
};

struct DotArgs {
  dot::Method method;  // resolved (not automatic) and admissible
  dot::Residue residue;
  const void* a;
  const void* b;
  std::size_t stride_a, stride_b;  // elements, >= 1
  std::size_t count;               // dots
  std::size_t batch_stride;        // elements between dots (both operands)
  std::size_t n;                   // length of each dot
  std::uint64_t p;
  bool per_term = false;           // the benchmark baseline: reduce after every term
};

/// Computes `count` dots. If `out` (device) is non-null, writes them there,
/// only when every element is a residue; else count must be 1 and the result
/// goes to *result. Synchronizes `s` (to read the check's verdict).
BadElement dot(ContextState& st, Stream s, const DotArgs& args, std::uint64_t* out, std::uint64_t* result);

struct MatArgs {
  dot::Method method;  // fp_naive or integer_delayed, admissible for p
  dot::Residue residue;  // u64 or f64
  void* C;
  std::size_t ldc;
  const void* A;
  std::size_t lda;
  const void* B;
  std::size_t ldb;
  std::size_t m, n, k;  // all >= 1
  std::uint64_t p;
};

/// The first element of the rows x cols matrix M (leading dimension ld,
/// residues of type r) that is not a residue mod p. Synchronizes `s`.
BadElement check_matrix(ContextState& st, Stream s, dot::Residue r, const void* M, std::size_t rows,
                        std::size_t cols, std::size_t ld, std::uint64_t p);

/// C = A B mod p with checked operands (row-major; n = 1, ldb = ldc = 1 for
/// matrix-vector products). Asynchronous on `s`.
void matmul(ContextState& st, Stream s, const MatArgs& args);

}  // namespace mpgpu::detail::dot_cuda
