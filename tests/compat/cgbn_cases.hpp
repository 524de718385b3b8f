// The CGBN header's functions (include/mpgpu/compat/cgbn/cgbn.h) against
// GMP, at one width BITS and TPI threads an instance: for each function,
// rounds of 32/TPI instances (one warp) with operands of every kind --
// random, 0, all ones, a single high bit, 1, runs of ones and zeros, small
// -- mixed in the warp, every result and return value compared with GMP's.
//
// Shared by the CPU tests (included once per program): `run_instances`
// comes from the includer -- the warp emulation of tests/batch (G > 1, as
// on the device) or a plain loop (G = 1, CGBN's host path). The checks are
// CGBN's documented semantics, and where CGBN leaves a result undefined
// (division by zero, a modular inverse that does not exist) the behaviour
// docs/cgbn.md documents.
#pragma once

#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cgbn/cgbn.h"
#include "support/mpz.hpp"
#include "support/operands.hpp"

namespace cgbn_cases {

using mpgpu_test::Mpz;
using mpgpu_test::Operands;

/// Runs body(instance) for instances 0 .. count-1 as the includer's
/// threads would (all lanes of one warp for the emulation); false when the
/// lanes diverged.
bool run_instances(int tpi, int count, const std::function<void(int)>& body);

inline Mpz mod2exp(const Mpz& x, unsigned long bits) {
  Mpz r;
  mpz_fdiv_r_2exp(r, x, bits);
  return r;
}

template <uint32_t BITS>
Mpz mpz_of(const cgbn_mem_t<BITS>& m) {
  Mpz z;
  mpz_import(z, (BITS + 31) / 32, -1, 4, 0, 0, m._limbs);
  return z;
}

template <uint32_t BITS>
void mem_of(cgbn_mem_t<BITS>& m, const Mpz& z) {
  Mpz v = mod2exp(z, BITS);
  for (auto& w : m._limbs) w = 0;
  mpz_export(m._limbs, nullptr, -1, 4, 0, 0, v);
}

/// One instance's operands and results.
template <uint32_t BITS>
struct Slot {
  cgbn_mem_t<BITS> in[4];
  uint32_t u[3] = {};
  cgbn_mem_t<BITS> out[4];
  int64_t ret[4] = {};
};

/// An operand of kind k (cycled) of BITS bits.
inline Mpz operand(Operands& gen, unsigned bits, unsigned k) {
  switch (k % 8) {
    case 0: return Mpz();
    case 1: return Mpz::all_ones(bits);
    case 2: return Mpz::pow2(bits - 1);
    case 3: return Mpz::from_ui(1);
    case 4: return gen.runs(1 + gen.below(bits));
    case 5: return Mpz::from_ui(gen.below(1u << 16));
    default: return gen.uniform(bits);
  }
}

template <uint32_t BITS, uint32_t TPI>
struct Cases {
  using context_t = cgbn_context_t<TPI>;
  using env_t = cgbn_env_t<context_t, BITS>;
  using bn_t = typename env_t::cgbn_t;
  using wide_t = typename env_t::cgbn_wide_t;
  static constexpr int per_warp = 32 / static_cast<int>(TPI);
  static constexpr unsigned N = BITS;

  Operands gen{BITS * 131u + TPI};
  std::vector<Slot<BITS>> slots = std::vector<Slot<BITS>>(per_warp);
  std::vector<std::vector<Mpz>> x = std::vector<std::vector<Mpz>>(per_warp, std::vector<Mpz>(4));
  cgbn_error_report_t* report = nullptr;

  Cases() { cgbn_error_report_alloc(&report); }
  ~Cases() { cgbn_error_report_free(report); }

  /// Fresh operands for a round: kinds cycled over instances and rounds.
  void fill(int round) {
    for (int i = 0; i < per_warp; ++i) {
      for (int j = 0; j < 4; ++j) {
        x[i][j] = operand(gen, N, static_cast<unsigned>(round * 5 + i * 3 + j * 7 + gen.below(3)));
        mem_of(slots[i].in[j], x[i][j]);
      }
      for (auto& u : slots[i].u) u = static_cast<uint32_t>(gen.below(4) == 0 ? gen.below(3) : gen.limb());
      for (auto& o : slots[i].out) mem_of(o, Mpz());
    }
  }
  void set_in(int i, int j, const Mpz& v) {
    x[i][j] = mod2exp(v, N);
    mem_of(slots[i].in[j], x[i][j]);
  }

  /// Runs op(env, slot) on every instance of the warp.
  template <class Op>
  void run(const char* what, Op op) {
    const bool ok = run_instances(static_cast<int>(TPI), per_warp, [&](int i) {
      context_t context(cgbn_report_monitor, report, static_cast<uint32_t>(i));
      env_t env(context);
      op(env, slots[i]);
    });
    ASSERT_TRUE(ok) << what << ": the lanes diverged";
  }

  void expect(const char* what, int i, int k, const Mpz& want) {
    EXPECT_EQ(mpz_of(slots[i].out[k]), mod2exp(want, N))
        << what << " BITS=" << N << " TPI=" << TPI << " instance " << i << " output " << k << " operands "
        << x[i][0] << ", " << x[i][1] << ", " << x[i][2] << ", u " << slots[i].u[0] << ", " << slots[i].u[1];
  }
  void expect_ret(const char* what, int i, int k, int64_t want) {
    EXPECT_EQ(slots[i].ret[k], want) << what << " BITS=" << N << " TPI=" << TPI << " instance " << i << " return "
                                     << k << " operands " << x[i][0] << ", " << x[i][1] << ", u " << slots[i].u[0];
  }

#include "cgbn_cases_arith.inc"
#include "cgbn_cases_bits.inc"
#include "cgbn_cases_math.inc"
#include "cgbn_cases_barrett.inc"
#include "cgbn_cases_set.inc"

  void all(int rounds) {
    for (int r = 0; r < rounds; ++r) {
      fill(r);
      arith(r);
      bits(r);
      math(r);
      // Barrett: a warp of operands a call, as many at TPI 32 as at TPI 4.
      for (int k = 0; k < static_cast<int>(TPI) / 4; ++k) barrett(r * static_cast<int>(TPI) / 4 + k);
      barrett_outside(r);
      set_widths(r);
      if (::testing::Test::HasFailure()) return;
    }
    std::printf("[ cgbn   ] BITS=%u TPI=%u Barrett corrections 0/1/2/3: %d %d %d %d\n", N, TPI, corrections_seen[0],
                corrections_seen[1], corrections_seen[2], corrections_seen[3]);
    // Every path of the correction loop ran: none (the worst case), one or
    // two, and three.
    EXPECT_GT(corrections_seen[0], 0);
    EXPECT_GT(corrections_seen[1] + corrections_seen[2], 0);
    EXPECT_GT(corrections_seen[3], 0);
  }
};

}  // namespace cgbn_cases
