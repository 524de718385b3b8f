// Huge strings written by several host threads. Private to the library.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace mpgpu::detail {

/// A string of n characters, all of them written by write(data) (which may
/// use several threads). Where the standard library has C++23's
/// resize_and_overwrite (text_buffer.cpp is compiled as C++23 when the
/// compiler can), the characters are written only by `write`: a fresh
/// 300 MB string otherwise costs a single-threaded fill that page-faults
/// through all of it first, a visible share of a large conversion
/// (docs/tuning-history.md, "Radix conversion").
std::string make_text(std::size_t n, const std::function<void(char*)>& write);

}  // namespace mpgpu::detail
