// The Lucas-Lehmer test: 2^p - 1 is prime (p >= 3) exactly when s = 4,
// s = s^2 - 2 mod 2^p - 1, repeated p - 2 times, ends at 0.
//   lucas_lehmer P [DEVICE]     prints "prime" or "composite"
// The reduction uses 2^p = 1 mod 2^p - 1: fold the high bits onto the low
// ones with a shift, an and and an add, no division.
#include <mpgpu/mpgpu.hpp>

#include <cstdint>
#include <cstdlib>
#include <iostream>

using mpgpu::Integer;

bool mersenne_prime(std::uint64_t p, const mpgpu::Context& ctx) {
  if (p == 2) return true;
  const Integer m = Integer::all_ones(p, ctx);  // 2^p - 1
  const Integer m_minus_2 = m - Integer(2, ctx);
  Integer s(4, ctx), high(ctx);
  for (std::uint64_t i = 0; i < p - 2; ++i) {
    mpgpu::sqr(s, s);
    s += m_minus_2;  // s^2 - 2, kept non-negative
    while (mpgpu::sizeinbase2(s) > p) {
      mpgpu::tdiv_q_2exp(high, s, p);
      s &= m;
      s += high;
    }
  }
  return s.is_zero() || s == m;
}

int main(int argc, char** argv) {
  const std::uint64_t p = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 0;
  if (p < 2) {
    std::cerr << "usage: lucas_lehmer P [cpu|cuda|cuda:N|auto]   (P >= 2)\n";
    return 2;
  }
  try {
    const mpgpu::Context ctx = mpgpu::Context::from_string(argc > 2 ? argv[2] : "cpu");
    std::cout << (mersenne_prime(p, ctx) ? "prime" : "composite") << "\n";
    return 0;
  } catch (const mpgpu::Error& e) {
    std::cerr << "lucas_lehmer: " << e.what() << "\n";
    return 1;
  }
}
