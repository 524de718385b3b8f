// e to D decimal digits after the point, truncated: sum 1/k! by binary
// splitting, then floor((P + Q) 10^d / Q).
//   e DIGITS [DEVICE]      DEVICE: cpu (default), cuda, cuda:N or auto
// Prints "2." and DIGITS digits, as `mpgpu e DIGITS`.
#include <mpgpu/mpgpu.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

using mpgpu::Integer;

struct PQ {
  Integer P, Q;
};

// Terms [a, b): Q = a (a+1) ... (b-1), P / Q = sum over k of 1 / (a (a+1) ... k).
PQ split(std::uint64_t a, std::uint64_t b, const mpgpu::Context& ctx) {
  if (b - a == 1) return {Integer(1, ctx), Integer(a, ctx)};
  const std::uint64_t m = (a + b) / 2;
  PQ l = split(a, m, ctx), r = split(m, b, ctx);
  return {l.P * r.Q + r.P, l.Q * r.Q};
}

// floor(e 10^d) less at most 1: the terms k < n with n! > 10^(d + 3).
Integer e_fixed_point(std::uint64_t d, const mpgpu::Context& ctx) {
  std::uint64_t n = 2;
  while (std::lgamma(static_cast<double>(n) + 1) < (static_cast<double>(d) + 3) * std::log(10.0)) ++n;
  const PQ s = split(1, n + 1, ctx);
  Integer scale(ctx);
  mpgpu::ui_pow_ui(scale, 10, d);
  return (s.P + s.Q) * scale / s.Q;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: e DIGITS [cpu|cuda|cuda:N|auto]\n";
    return 2;
  }
  try {
    const mpgpu::Context ctx = mpgpu::Context::from_string(argc > 2 ? argv[2] : "cpu");
    const std::uint64_t digits = std::strtoull(argv[1], nullptr, 10);
    // Guard digits decide the last digit unless they are near all 0s or 9s.
    for (std::uint64_t guard = 20;; guard *= 2) {
      Integer unit(ctx), q(ctx), r(ctx);
      mpgpu::ui_pow_ui(unit, 10, guard);
      mpgpu::tdiv_qr(q, r, e_fixed_point(digits + guard, ctx), unit);
      if (r < Integer(10, ctx) || r + Integer(10, ctx) >= unit) continue;
      std::string text = q.to_string();
      if (digits) text.insert(1, ".");
      std::cout << text << "\n";
      return 0;
    }
  } catch (const mpgpu::Error& e) {
    std::cerr << "e: " << e.what() << "\n";
    return 1;
  }
}
