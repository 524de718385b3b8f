// The residue-type names and error messages shared by the dot and matrix
// products on both backends (dot_host.cpp, matmul_host.cpp, dot_device_api.cpp,
// matmul_device_api.cpp), so that a rejected call reads the same everywhere.
// Private to the library.
#pragma once

#include <cstdint>
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

}  // namespace mpgpu::dot::messages
