// GMP's digit values as a table per base, for validating and parsing text.
// Private to the library.
#pragma once

namespace mpgpu::detail {

/// The value of each character as a digit of `base` (2..62), or kNotADigit.
/// As GMP: for bases <= 36 letters are case-insensitive (a/A = 10); above
/// 36, 0-9, A-Z = 10..35, a-z = 36..61.
struct DigitValues {
  static constexpr unsigned char kNotADigit = 0xff;
  unsigned char value[256];
  explicit DigitValues(int base) {
    for (int c = 0; c < 256; ++c) {
      int d = -1;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (c >= 'A' && c <= 'Z') d = c - 'A' + 10;
      else if (c >= 'a' && c <= 'z') d = c - 'a' + (base <= 36 ? 10 : 36);
      value[c] = d >= 0 && d < base ? static_cast<unsigned char>(d) : kNotADigit;
    }
  }
  unsigned char operator()(char c) const { return value[static_cast<unsigned char>(c)]; }
};

}  // namespace mpgpu::detail
