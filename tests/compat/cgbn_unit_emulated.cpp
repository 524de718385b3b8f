// CGBN's unit-test bodies (.cgbn/unit_tests/tests/*.h, unchanged, not in this
// repository) on the CPU, to check the device's shape before a GPU runs
// them. CGBN's tester.cu compares each kernel's results with the same body
// run on the host; through mpgpu's cgbn.h the host is a thread an instance
// (G = 1). This program runs the bodies either way:
//   - built plainly: a thread an instance, as tester.cu's cpu_run;
//   - built with -DMPGPU_CGBN_UNIT_EMULATED: on the warp emulation of
//     tests/batch/group_emulation.hpp, 32 lanes a warp, TPI lanes an
//     instance, subgroups of G lanes, instances past the count returning at
//     once as tester.cu's gpu_kernel does -- the device's code paths,
//     divergence included (each group operation must be reached by the
//     lanes it names).
// Both write every test's outputs to DIR/<test>.bin; the emulated one, given
// the plain one's DIR as --expect, compares and prints one line a test.
// scripts/cgbn-dropin --unit-emulated builds and runs both at some sizes
// (-DMPGPU_CGBN_UNIT_SIZE=size256t8, ...). The inputs are this program's:
// random words and CGBN's kinds of hard ones (0, 1, 0x7FFFFFFF, 0x80000000,
// 0x80000001, 0xFFFFFFFF words; runs of ones), from a fixed seed.
//
// Needs, from the build: -I .cgbn/unit_tests (types.h, sizes.h, tests/) and
// the generated cgbn_unit_prelude.h (tester.cu's test_t enum, its primary
// `implementation` template and MPGPU_CGBN_UNIT_TESTS(X), the list of
// tests), -D__device__= -D__host__= -D__forceinline__=inline for g++.
#if defined(MPGPU_CGBN_UNIT_EMULATED)
#define MPGPU_CGBN_EMULATE_GROUPS 1
#include "group_emulation.hpp"  // first: it specializes Group<G, S>
#endif

#include <gmp.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cgbn/cgbn.h"
#include "types.h"
#include "sizes.h"
#include "cgbn_unit_prelude.h"
#include "tests/tests.h"

#if defined(MPGPU_CGBN_UNIT_EMULATED)
int mpgpu_cgbn_emulated_lane() { return group_emulation::lane(); }
std::uint32_t* mpgpu_cgbn_emulated_scratch(int subgroup, int words) {
  static std::vector<std::vector<std::uint32_t>> scratch(32, std::vector<std::uint32_t>(1 << 16, 0xdeadbeefu));
  if (words > (1 << 16)) std::abort();
  return scratch[static_cast<std::size_t>(subgroup)].data();
}
#endif

namespace {

/// tester.cu's fixtures add `size` to the size class.
template <class T>
struct Params : T {
  static const uint32_t size = T::BITS;
};
using params = Params<MPGPU_CGBN_UNIT_SIZE>;
using input_t = typename types<params>::input_t;
using output_t = typename types<params>::output_t;
constexpr int words = params::size / 32;

void hard_words(uint32_t* x, std::mt19937_64& rng) {
  static const uint32_t values[6] = {0x0, 0x1, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF};
  switch (rng() % 4) {
    case 0:
      for (int i = 0; i < words; ++i) x[i] = static_cast<uint32_t>(rng());
      break;
    case 1:
      for (int i = 0; i < words; ++i) x[i] = values[rng() % 6];
      break;
    case 2: {  // runs of ones and zeros
      std::memset(x, 0, sizeof(uint32_t) * words);
      int bit = 0;
      while (bit < 32 * words) {
        const int len = 1 + static_cast<int>(rng() % (16 * words));
        const bool one = rng() & 1;
        for (int b = bit; b < bit + len && b < 32 * words; ++b)
          if (one) x[b / 32] |= 1u << (b % 32);
        bit += len;
      }
      break;
    }
    default:  // small
      std::memset(x, 0, sizeof(uint32_t) * words);
      x[0] = static_cast<uint32_t>(rng() % 8);
  }
}

std::vector<input_t> make_inputs(int count) {
  std::mt19937_64 rng(0x5eed0000u + params::size * 64 + params::TPI);
  std::vector<input_t> in(static_cast<std::size_t>(count));
  for (auto& v : in) {
    hard_words(v.h1._limbs, rng);
    hard_words(v.h2._limbs, rng);
    if (rng() % 8 == 0) std::memcpy(v.h2._limbs, v.h1._limbs, sizeof(v.h1._limbs));  // equal operands
    for (int i = 0; i < words; ++i) v.x1._limbs[i] = static_cast<uint32_t>(rng());
    for (int i = 0; i < words; ++i) v.x2._limbs[i] = static_cast<uint32_t>(rng());
    for (int i = 0; i < words; ++i) v.x3._limbs[i] = static_cast<uint32_t>(rng());
    for (auto& u : v.u) u = static_cast<uint32_t>(rng());
  }
  return in;
}

/// Runs test T on `count` instances; false if the emulated lanes diverged.
template <test_t T>
bool run(std::vector<input_t>& in, std::vector<output_t>& out, int count) {
  implementation<T, params> impl;
#if defined(MPGPU_CGBN_UNIT_EMULATED)
  constexpr int per_warp = 32 / static_cast<int>(params::TPI);
  for (int first = 0; first < count; first += per_warp) {
    const bool ok = group_emulation::run_warp([&](int lane) {
      const int instance = first + lane / static_cast<int>(params::TPI);
      if (instance >= count) return;  // tester.cu's gpu_kernel
      impl.run(in.data(), out.data(), instance);
    });
    if (!ok) return false;
  }
#else
  for (int i = 0; i < count; ++i) impl.run(in.data(), out.data(), i);
#endif
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = ".", expect;
  int warps = 4;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--out")) dir = argv[i + 1];
    else if (!std::strcmp(argv[i], "--expect")) expect = argv[i + 1];
    else if (!std::strcmp(argv[i], "--warps")) warps = std::atoi(argv[i + 1]);
  }
  // Whole warps and one more instance, so the last warp is partly filled.
  const int count = warps * (32 / static_cast<int>(params::TPI)) + 1;
  std::vector<input_t> in = make_inputs(count);
  int failed = 0, passed = 0;
  auto one = [&](auto tag, const char* name) {
    constexpr test_t T = decltype(tag)::value;
    std::vector<output_t> out(static_cast<std::size_t>(count));
    std::memset(out.data(), 0, sizeof(output_t) * out.size());
    if (!run<T>(in, out, count)) {
      std::printf("DIVERGED  %s\n", name);
      ++failed;
      return;
    }
    const std::string file = dir + "/" + name + ".bin";
    if (FILE* f = std::fopen(file.c_str(), "wb")) {
      std::fwrite(out.data(), sizeof(output_t), out.size(), f);
      std::fclose(f);
    }
    if (expect.empty()) return;
    std::vector<output_t> want(out.size());
    FILE* f = std::fopen((expect + "/" + name + ".bin").c_str(), "rb");
    if (!f || std::fread(want.data(), sizeof(output_t), want.size(), f) != want.size()) {
      std::printf("NO-EXPECT %s\n", name);
      ++failed;
      if (f) std::fclose(f);
      return;
    }
    std::fclose(f);
    for (int i = 0; i < count; ++i) {
      if (std::memcmp(&out[static_cast<std::size_t>(i)], &want[static_cast<std::size_t>(i)], sizeof(output_t)) != 0) {
        std::printf("MISMATCH  %s instance %d (of %d)\n", name, i, count);
        ++failed;
        return;
      }
    }
    ++passed;
  };
#define MPGPU_CGBN_UNIT_RUN(t) one(std::integral_constant<test_t, t>{}, #t);
  MPGPU_CGBN_UNIT_TESTS(MPGPU_CGBN_UNIT_RUN)
  if (!expect.empty()) std::printf("%d/%d tests match\n", passed, passed + failed);
  return failed == 0 ? 0 : 1;
}
