#include "calc_output.hpp"

#include "owned_mpz.hpp"
#include "sha256.hpp"

namespace mpgpu::cli {

std::uint64_t decimal_digits(const Integer& v) {
  tools::Mpz z, power;
  v.to_mpz(z.get());
  mpz_abs(z.get(), z.get());
  if (mpz_sgn(z.get()) == 0) return 1;
  // mpz_sizeinbase(z, 10) is exact or one too large: compare with 10^(k-1).
  const std::size_t k = mpz_sizeinbase(z.get(), 10);
  mpz_ui_pow_ui(power.get(), 10, k - 1);
  return mpz_cmp(z.get(), power.get()) < 0 ? k - 1 : k;
}

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
