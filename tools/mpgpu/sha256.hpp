// SHA-256 (FIPS 180-4), for `mpgpu calc --sha256`: a fingerprint of a huge
// decimal result that can be compared with another program's output
// (`printf %s "$digits" | sha256sum`). Written here because mpgpu has no
// crypto library among its dependencies; tests/calc/sha256_test.cpp checks it
// against the FIPS 180-4 example vectors.
//
// Two block functions: the x86 SHA extensions (SHA-NI) where the CPU has
// them, chosen once at run time, else portable C++.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mpgpu::cli {

namespace detail {
/// Hashes `blocks` whole 64-byte blocks at `data` into `state` (A..H).
using Sha256Blocks = void (*)(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks);
/// The portable block function; always available.
Sha256Blocks sha256_blocks_portable();
/// The SHA-NI block function, or nullptr where this CPU or build lacks it.
Sha256Blocks sha256_blocks_accelerated();
}  // namespace detail

class Sha256 {
 public:
  /// Uses the fastest block function this CPU has.
  Sha256();
  /// For tests: uses `blocks` (one of the detail functions above).
  explicit Sha256(detail::Sha256Blocks blocks);
  /// Hashes `size` more bytes; may be called any number of times.
  void update(const void* data, std::size_t size);
  /// The digest of everything passed to update(); the object is spent after.
  std::array<std::uint8_t, 32> finish();

 private:
  detail::Sha256Blocks blocks_;
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;  // < 64 between calls
  std::uint64_t total_bytes_ = 0;
};

/// A digest as 64 lowercase hex digits.
std::string digest_hex(const std::array<std::uint8_t, 32>& digest);
/// The digest of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace mpgpu::cli
