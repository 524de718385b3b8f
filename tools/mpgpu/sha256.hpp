// SHA-256 (FIPS 180-4), for `mpgpu calc --sha256`: a fingerprint of a huge
// decimal result that can be compared with another program's output
// (`printf %s "$digits" | sha256sum`). Written here because mpgpu has no
// crypto library among its dependencies; tests/calc/sha256_test.cpp checks it
// against the FIPS 180-4 example vectors.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mpgpu::cli {

class Sha256 {
 public:
  Sha256();
  /// Hashes `size` more bytes; may be called any number of times.
  void update(const void* data, std::size_t size);
  /// The digest of everything passed to update(); the object is spent after.
  std::array<std::uint8_t, 32> finish();

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

/// The digest of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace mpgpu::cli
