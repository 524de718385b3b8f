// Shared by the gfp tests: the three table primes as typed-test parameters,
// GMP's view of an element, and element generators (uniform residues, and
// digit vectors built from edge digits 0, 1, r-2, r-1 to stress carries).
#pragma once

#include <gmp.h>

#include <cstdint>
#include <vector>

#include "mpgpu/gfp/convert_host.hpp"
#include "mpgpu/gfp/field.cuh"
#include "mpgpu/gfp/primes.hpp"
#include "mpgpu/gfp/roots.hpp"
#include "support/mpz.hpp"
#include "support/operands.hpp"

namespace gfp_test {

namespace gfp = mpgpu::gfp;
using mpgpu_test::Mpz;
using mpgpu_test::Operands;

struct P3 {
  static constexpr gfp::GfpPrime prime = gfp::p3;
};
struct P4 {
  static constexpr gfp::GfpPrime prime = gfp::p4;
};
struct P5 {
  static constexpr gfp::GfpPrime prime = gfp::p5;
};

template <class P>
struct Ctx {
  static constexpr int k = P::prime.k;
  using Elt = gfp::Element<k>;
  gfp::Field<k> f = gfp::make_field<k>(P::prime);
  Mpz p;
  Ctx() { gfp::modulus(p, P::prime); }

  Mpz value(const Elt& x) const {
    Mpz v;
    gfp::to_mpz(v, f, x);
    return v;
  }
  Elt element(const Mpz& v) const { return gfp::from_mpz(f, v); }
  Mpz mod(const Mpz& v) const {
    Mpz m;
    mpz_mod(m, v, p);
    return m;
  }
  Elt random(Operands& ops) const { return element(ops.random_bits(64 * k + 64)); }
  /// Digits drawn from {0, 1, r-2, r-1, uniform}: long carry/borrow chains.
  Elt edgy(Operands& ops) const {
    Elt x;
    for (int i = 0; i < k; ++i) {
      switch (ops.below(5)) {
        case 0: x.digit[i] = 0; break;
        case 1: x.digit[i] = 1; break;
        case 2: x.digit[i] = f.r - 2; break;
        case 3: x.digit[i] = f.r - 1; break;
        default: x.digit[i] = ops.limb() % f.r; break;
      }
    }
    return x;
  }
  /// 0, 1, 2, r-1, r, r^i, r^k - 1 (all digits r-1 = p-2), r^k (special = p-1),
  /// (p-1)/2 and (p+1)/2.
  std::vector<Elt> edge_elements() const {
    std::vector<Elt> v = {f.zero(), f.one(), f.small(2), f.small(f.r - 1), f.minus_one()};
    for (int i = 1; i < k; ++i) v.push_back(f.radix_power(i));
    Elt all{};
    for (int i = 0; i < k; ++i) all.digit[i] = f.r - 1;
    v.push_back(all);
    Mpz h;
    mpz_sub_ui(h, p, 1);
    mpz_fdiv_q_2exp(h, h, 1);
    v.push_back(element(h));
    mpz_add_ui(h, h, 1);
    v.push_back(element(h));
    return v;
  }
};

}  // namespace gfp_test
