// The CGBN header (include/mpgpu/compat/cgbn/cgbn.h) with the device's
// shape on the CPU: groups of G > 1 threads an instance, several instances
// a warp, on the warp emulation of tests/batch (group_emulation.hpp: lanes
// as fibers, every group operation checked to be reached by all lanes), so
// the code the device runs -- subgroups, scratch per subgroup, stores by the
// first subgroup -- is checked against GMP where there is no GPU.
// BITS/TPI: CGBN's unit-test shapes from 32 to 1024 bits, widths with padding
// (96, 288) and one that is not a multiple of 32 (100).
// Diverging*: the instances of one warp on different paths, as CGBN allows
// (docs/cgbn.md): a modular power in some, a gcd in others, nothing in
// some, an early return, exponents of different lengths and loops of
// different trip counts. The emulation checks that each group operation is
// reached by all the lanes it names (the instance's subgroup), and no more.
#define MPGPU_CGBN_EMULATE_GROUPS 1
#include "group_emulation.hpp"  // first: it specializes Group<G> before any use

#include <vector>

#include "cgbn_cases.hpp"

int mpgpu_cgbn_emulated_lane() { return group_emulation::lane(); }

/// Scratch per subgroup, allocated once (fixed addresses while lanes run);
/// filled with garbage, as shared memory would be.
std::uint32_t* mpgpu_cgbn_emulated_scratch(int subgroup, int words) {
  static std::vector<std::vector<std::uint32_t>> scratch(32, std::vector<std::uint32_t>(1 << 16, 0xdeadbeefu));
  if (words > (1 << 16)) std::abort();
  return scratch[static_cast<std::size_t>(subgroup)].data();
}

namespace cgbn_cases {
bool run_instances(int tpi, int count, const std::function<void(int)>& body) {
  // All 32 lanes run; lane l serves instance l / tpi (count = 32 / tpi).
  (void)count;
  return group_emulation::run_warp([&](int lane) { body(lane / tpi); });
}
}  // namespace cgbn_cases

namespace {

template <uint32_t BITS, uint32_t TPI>
void check(int rounds) {
  cgbn_cases::Cases<BITS, TPI> c;
  c.all(rounds);
}

/// The paths of diverging_kernel in tests/compat/cgbn_gpu_test.cu, on one
/// emulated warp per round; instance k's path is chosen by k + round.
template <uint32_t BITS, uint32_t TPI>
void check_diverging(int rounds) {
  using context_t = cgbn_context_t<TPI>;
  using env_t = cgbn_env_t<context_t, BITS>;
  using cgbn_cases::mem_of;
  using cgbn_cases::mpz_of;
  using cgbn_cases::Mpz;
  constexpr int per_warp = 32 / static_cast<int>(TPI);
  cgbn_cases::Operands gen(BITS * 5 + TPI);
  struct Io {
    cgbn_mem_t<BITS> a, b, m, e, pow, sum, root;
  };
  for (int round = 0; round < rounds; ++round) {
    std::vector<Io> io(per_warp);
    std::vector<Mpz> a(per_warp), b(per_warp), m(per_warp), e(per_warp);
    for (int i = 0; i < per_warp; ++i) {
      a[i] = gen.random_bits(1 + gen.below(BITS));
      b[i] = (i + round) % 7 == 0 ? Mpz() : gen.random_bits(1 + gen.below(BITS));
      m[i] = gen.random_bits(BITS);
      if ((i + round) % 4 == 1) mpz_setbit(m[i], 0);
      if (mpz_cmp_ui(m[i].get(), 1) <= 0) m[i] = Mpz::from_ui(6);
      e[i] = gen.random_bits(BITS);
      mem_of(io[i].a, a[i]), mem_of(io[i].b, b[i]), mem_of(io[i].m, m[i]), mem_of(io[i].e, e[i]);
      mem_of(io[i].pow, Mpz()), mem_of(io[i].sum, Mpz()), mem_of(io[i].root, Mpz());
    }
    const bool ok = group_emulation::run_warp([&](int lane) {
      const int i = lane / static_cast<int>(TPI), k = i + round;
      if (round % 2 == 1 && i == per_warp - 1) return;  // a partly filled warp
      context_t context(cgbn_no_checks);
      env_t env(context);
      typename env_t::cgbn_t x, y, mod, ex, r;
      cgbn_load(env, x, &io[i].a);
      cgbn_load(env, y, &io[i].b);
      if (k % 3 == 2) return;
      if (k & 1) {
        cgbn_load(env, mod, &io[i].m);
        cgbn_load(env, ex, &io[i].e);
        cgbn_shift_right(env, ex, ex, (k * 37) % BITS);
        cgbn_modular_power(env, r, x, ex, mod);
      } else {
        cgbn_gcd(env, r, x, y);
      }
      cgbn_store(env, &io[i].pow, r);
      for (int j = 0; j < k % 5; ++j) cgbn_add(env, x, x, y);
      cgbn_store(env, &io[i].sum, x);
      if (cgbn_compare(env, x, y) > 0) {
        cgbn_sqrt(env, r, x);
        cgbn_store(env, &io[i].root, r);
      }
    });
    ASSERT_TRUE(ok) << "a group operation not reached by all the lanes it names, round " << round;
    for (int i = 0; i < per_warp; ++i) {
      const int k = i + round;
      Mpz r, s, t;
      if ((round % 2 == 1 && i == per_warp - 1) || k % 3 == 2) {
        EXPECT_EQ(mpz_of(io[i].pow), Mpz()) << i;
        continue;
      }
      if (k & 1) {
        mpz_fdiv_q_2exp(t, e[i], (k * 37) % BITS);
        mpz_powm(r, a[i], t, m[i]);
      } else {
        mpz_gcd(r, a[i], b[i]);
      }
      EXPECT_EQ(mpz_of(io[i].pow), r) << (k & 1 ? "modular_power " : "gcd ") << i << " round " << round;
      mpz_mul_ui(s, b[i], static_cast<unsigned long>(k % 5));
      mpz_add(s, s, a[i]);
      mpz_fdiv_r_2exp(s, s, BITS);
      EXPECT_EQ(mpz_of(io[i].sum), s) << "add loop " << i;
      mpz_sqrt(r, s);
      EXPECT_EQ(mpz_of(io[i].root), mpz_cmp(s, b[i]) > 0 ? r : Mpz()) << "sqrt " << i;
    }
  }
}

TEST(CgbnEmulated, Bits32Tpi4) { check<32, 4>(6); }
TEST(CgbnEmulated, Bits96Tpi4) { check<96, 4>(6); }
TEST(CgbnEmulated, Bits100Tpi8) { check<100, 8>(4); }
TEST(CgbnEmulated, Bits256Tpi8) { check<256, 8>(4); }
TEST(CgbnEmulated, Bits288Tpi8) { check<288, 8>(3); }
TEST(CgbnEmulated, Bits512Tpi16) { check<512, 16>(2); }
TEST(CgbnEmulated, Bits1024Tpi32) { check<1024, 32>(2); }
TEST(CgbnEmulated, DivergingBits256Tpi8) { check_diverging<256, 8>(6); }
TEST(CgbnEmulated, DivergingBits288Tpi8) { check_diverging<288, 8>(4); }
TEST(CgbnEmulated, DivergingBits512Tpi16) { check_diverging<512, 16>(4); }
TEST(CgbnEmulated, DivergingBits1024Tpi8) { check_diverging<1024, 8>(2); }

}  // namespace
