// The CGBN header (include/mpgpu/compat/cgbn/cgbn.h) with the device's
// shape on the CPU: groups of G > 1 threads an instance, several instances
// a warp, on the warp emulation of tests/batch (group_emulation.hpp: lanes
// as fibers, every group operation checked to be reached by all lanes), so
// the code the device runs -- subgroups, scratch per subgroup, stores by the
// first subgroup -- is checked against GMP where there is no GPU.
// BITS/TPI: CGBN's unit-test shapes from 32 to 1024 bits, widths with padding
// (96, 288) and one that is not a multiple of 32 (100).
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

TEST(CgbnEmulated, Bits32Tpi4) { check<32, 4>(6); }
TEST(CgbnEmulated, Bits96Tpi4) { check<96, 4>(6); }
TEST(CgbnEmulated, Bits100Tpi8) { check<100, 8>(4); }
TEST(CgbnEmulated, Bits256Tpi8) { check<256, 8>(4); }
TEST(CgbnEmulated, Bits288Tpi8) { check<288, 8>(3); }
TEST(CgbnEmulated, Bits512Tpi16) { check<512, 16>(2); }
TEST(CgbnEmulated, Bits1024Tpi32) { check<1024, 32>(2); }

}  // namespace
