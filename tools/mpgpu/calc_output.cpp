#include "calc_output.hpp"

#include "sha256.hpp"

namespace mpgpu::cli {

// The library's exact count (a comparison with a power of ten, on the
// value's own context): no decimal text of a huge result is made.
std::uint64_t decimal_digits(const Integer& v) { return sizeinbase(v, 10); }

std::string format_calc_result(const Integer& v, CalcFormat format) {
  switch (format) {
    case CalcFormat::decimal:
      return v.to_string(10);
    case CalcFormat::hex: {
      std::string digits = v.to_string(16);  // "-ff"
      return v.sign() < 0 ? "-0x" + digits.substr(1) : "0x" + digits;
    }
    case CalcFormat::digits:
      return std::to_string(decimal_digits(v));
    case CalcFormat::sha256:
      return sha256_hex(v.to_string(10));
  }
  return {};
}

}  // namespace mpgpu::cli
