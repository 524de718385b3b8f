// How the gfp/ host code (convert_host.hpp, fft_host.hpp) reports a bad
// argument without including the host API's error.hpp, an outer layer:
// these throw mpgpu::InvalidArgument and mpgpu::DivisionByZero with the
// message given, and are defined out of line in src/gfp/gfp_roots.cpp, as
// roots.hpp's functions are. The checks themselves stay inline at the call
// sites; only the throw is out of line.
#pragma once

#include <string>

namespace mpgpu::gfp::detail {

[[noreturn]] void throw_invalid_argument(const std::string& what);
[[noreturn]] void throw_division_by_zero(const std::string& what);

}  // namespace mpgpu::gfp::detail
