// pi to D decimal digits after the point, truncated: the Chudnovsky series by
// binary splitting, then pi = 426880 sqrt(10005) Q / T in fixed point.
//   pi DIGITS [DEVICE]     DEVICE: cpu (default), cuda, cuda:N or auto
// Prints "3." and DIGITS digits. `mpgpu pi` computes the same way (with more
// care for speed and progress); the install test checks that they agree.
#include <mpgpu/mpgpu.hpp>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

using mpgpu::Integer;

struct PQT {
  Integer P, Q, T;
};

// Terms [a, b): P = prod (6k-5)(2k-1)(6k-1), Q = prod k^3 640320^3/24,
// T = sum of (-1)^k (13591409 + 545140134 k) times the P's up to k and the Q's after it.
PQT split(std::uint64_t a, std::uint64_t b, const mpgpu::Context& ctx) {
  if (b - a == 1) {
    if (a == 0) return {Integer(1, ctx), Integer(1, ctx), Integer(13591409, ctx)};
    Integer k(a, ctx);
    PQT n{Integer(6 * a - 5, ctx) * Integer(2 * a - 1, ctx) * Integer(6 * a - 1, ctx),
          k * k * k * Integer(10939058860032000ull, ctx), Integer(0, ctx)};
    n.T = n.P * Integer(13591409 + 545140134 * a, ctx);
    if (a % 2) n.T.negate();
    return n;
  }
  const std::uint64_t m = (a + b) / 2;
  PQT l = split(a, m, ctx), r = split(m, b, ctx);
  return {l.P * r.P, l.Q * r.Q, l.T * r.Q + l.P * r.T};
}

// floor(pi 10^d) within a few units.
Integer pi_fixed_point(std::uint64_t d, const mpgpu::Context& ctx) {
  const PQT s = split(0, d / 14 + 2, ctx);  // each term adds more than 14 digits
  Integer radicand(ctx), root(ctx);
  mpgpu::ui_pow_ui(radicand, 10, 2 * d);
  mpgpu::sqrt(root, radicand * Integer(10005, ctx));  // sqrt(10005) 10^d, less than 1 short
  return Integer(426880, ctx) * root * s.Q / s.T;     // positive: / truncates down
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: pi DIGITS [cpu|cuda|cuda:N|auto]\n";
    return 2;
  }
  try {
    const mpgpu::Context ctx = mpgpu::Context::from_string(argc > 2 ? argv[2] : "cpu");
    const std::uint64_t digits = std::strtoull(argv[1], nullptr, 10);
    // Guard digits: the fixed point is off by a few units, so its last g
    // digits decide nothing unless they are near all 0s or all 9s; then
    // retry with more.
    for (std::uint64_t guard = 20;; guard *= 2) {
      Integer unit(ctx), q(ctx), r(ctx);
      mpgpu::ui_pow_ui(unit, 10, guard);
      mpgpu::tdiv_qr(q, r, pi_fixed_point(digits + guard, ctx), unit);
      if (r < Integer(10, ctx) || r + Integer(10, ctx) >= unit) continue;
      std::string text = q.to_string();
      if (digits) text.insert(1, ".");
      std::cout << text << "\n";
      return 0;
    }
  } catch (const mpgpu::Error& e) {
    std::cerr << "pi: " << e.what() << "\n";
    return 1;
  }
}
