// The residue-type names, error messages and matrix-operand checks shared by
// the dot and matrix products on both backends (dot_host.cpp, matmul_host.cpp,
// dot_device_api.cpp, matmul_device_api.cpp), so that a rejected call reads
// the same everywhere. Private to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "mpgpu/dot/dot_host.hpp"
#include "mpgpu/error.hpp"

namespace mpgpu::dot::messages {

template <class T>
constexpr Residue residue_of() {
  if constexpr (std::is_same_v<T, std::uint32_t>) return Residue::u32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return Residue::u64;
  else return Residue::f64;
}

inline const char* residue_name(Residue r) {
  switch (r) {
    case Residue::u32: return "uint32";
    case Residue::u64: return "uint64";
    case Residue::f64: return "double";
  }
  return "?";
}

/// "mpgpu::dot: <method> on <type> residues: <why>"
[[noreturn]] inline void reject(Method m, Residue r, const std::string& why) {
  throw InvalidArgument(std::string("mpgpu::dot: ") + method_name(m) + " on " + residue_name(r) +
                        " residues: " + why);
}

/// "mpgpu::dot::<fn>: <method> on <type> residues: <why>" (matmul, matvec)
[[noreturn]] inline void reject(const char* fn, Method m, Residue r, const std::string& why) {
  throw InvalidArgument(std::string("mpgpu::dot::") + fn + ": " + method_name(m) + " on " + residue_name(r) +
                        " residues: " + why);
}

/// "mpgpu::dot::<fn>: <name>[row][col] is not a residue in [0, p) for p = <p>",
/// or <name>[index] for a vector. Appended piece by piece: g++ 12 reports a
/// false -Wrestrict in `"[" + std::to_string(i)` (GCC bug 105329).
[[noreturn]] inline void reject_element(const char* fn, const char* name, bool as_vector, std::size_t index,
                                        std::size_t row, std::size_t col, std::uint64_t p) {
  std::string what = std::string("mpgpu::dot::") + fn + ": " + name;
  const auto subscript = [&what](std::size_t i) {
    what += '[';
    what += std::to_string(i);
    what += ']';
  };
  if (as_vector) {
    subscript(index);
  } else {
    subscript(row);
    subscript(col);
  }
  throw InvalidArgument(what + " is not a residue in [0, p) for p = " + std::to_string(p));
}

/// Elements one past the last of a rows x cols matrix with leading dimension
/// ld, or false on size_t overflow.
inline bool extent(std::size_t rows, std::size_t ld, std::size_t cols, std::size_t& out) {
  if (rows == 0 || cols == 0) {
    out = 0;
    return true;
  }
  std::size_t t;
  if (__builtin_mul_overflow(rows - 1, ld, &t) || __builtin_add_overflow(t, cols, &out)) return false;
  return true;
}

/// The operand checks of C = A B (or y = A x, `vec`) under function `fn` and
/// method m, before any element is read: leading dimensions, extents that fit
/// size_t, non-null pointers for non-empty operands, and C (y) not
/// overlapping A or B (x) -- C is written while A and B are still read
/// (compared as addresses, the only portable-enough way for unrelated arrays).
template <class T>
void check_matrix_operands(const char* fn, Method m, Residue r, bool vec, const T* C, std::size_t ldc, const T* A,
                           std::size_t lda, const T* B, std::size_t ldb, std::size_t rows, std::size_t cols,
                           std::size_t k) {
  const char* cn = vec ? "y" : "C";
  const char* bn = vec ? "x" : "B";
  if (lda < k) reject(fn, m, r, "lda = " + std::to_string(lda) + " < k = " + std::to_string(k));
  if (!vec) {
    if (ldb < cols) reject(fn, m, r, "ldb = " + std::to_string(ldb) + " < n = " + std::to_string(cols));
    if (ldc < cols) reject(fn, m, r, "ldc = " + std::to_string(ldc) + " < n = " + std::to_string(cols));
  }
  std::size_t ea, eb, ec;
  if (!extent(rows, lda, k, ea) || !extent(k, ldb, cols, eb) || !extent(rows, ldc, cols, ec) ||
      ea > std::numeric_limits<std::size_t>::max() / sizeof(T) ||
      eb > std::numeric_limits<std::size_t>::max() / sizeof(T) ||
      ec > std::numeric_limits<std::size_t>::max() / sizeof(T))
    reject(fn, m, r, "matrix extent overflows size_t");
  if (ec > 0 && C == nullptr) reject(fn, m, r, std::string("null output pointer ") + cn);
  if (ea > 0 && A == nullptr) reject(fn, m, r, "null input pointer A");
  if (eb > 0 && B == nullptr) reject(fn, m, r, std::string("null input pointer ") + bn);
  const auto lo = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q); };
  const auto overlap = [&](const void* x, std::size_t ex, const void* y, std::size_t ey) {
    return ex > 0 && ey > 0 && lo(x) < lo(y) + ey * sizeof(T) && lo(y) < lo(x) + ex * sizeof(T);
  };
  if (overlap(C, ec, A, ea)) reject(fn, m, r, std::string(cn) + " overlaps A");
  if (overlap(C, ec, B, eb)) reject(fn, m, r, std::string(cn) + " overlaps " + bn);
}

}  // namespace mpgpu::dot::messages
