// The CGBN header (include/mpgpu/compat/cgbn/cgbn.h) on its host path, the
// one CGBN programs run when they call the same functions on the CPU (a
// thread holds a whole instance, G = 1): every function against GMP, at
// CGBN's unit-test shapes and beyond (BITS not a multiple of 32, 3072).
#include "cgbn_cases.hpp"

namespace cgbn_cases {
bool run_instances(int, int count, const std::function<void(int)>& body) {
  for (int i = 0; i < count; ++i) body(i);
  return true;
}
}  // namespace cgbn_cases

namespace {

template <uint32_t BITS, uint32_t TPI>
void check(int rounds) {
  cgbn_cases::Cases<BITS, TPI> c;
  c.all(rounds);
}

TEST(CgbnHost, Bits32) { check<32, 4>(8); }
TEST(CgbnHost, Bits33) { check<33, 4>(8); }
TEST(CgbnHost, Bits64) { check<64, 4>(8); }
TEST(CgbnHost, Bits192) { check<192, 8>(6); }
TEST(CgbnHost, Bits1024) { check<1024, 8>(6); }
TEST(CgbnHost, Bits2048) { check<2048, 32>(2); }
TEST(CgbnHost, Bits3072) { check<3072, 32>(1); }

}  // namespace
