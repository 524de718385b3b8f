// The size of the tests: full (the default) or sanitizer-sized.
//
// MPGPU_TEST_SANITIZER=1 (environment; any value but empty or "0") makes
// the heavy tests sanitizer-sized, for runs under compute-sanitizer
// (memcheck, racecheck: 50-400x slower than a plain run, most of it per
// kernel launch and per byte a kernel touches; scripts/sanitize-gpu-tests
// sets it). Sanitizer-sized tests take fewer random rounds, fewer special
// values of each kind, one sign combination a case in rotation instead of
// all four, and the smallest sizes that still reach each code path the
// full tests reach: every device algorithm, each crossover of the tuning
// table (mpgpu/tuning/sm90.hpp) from both sides, each kernel's tile and a
// tile plus one, every width class and group size G of the batch tests.
// No test is dropped; where a test's size is its point (operands above
// 2^31 bits, more results than slots, peak memory) it keeps its smallest
// meaningful case, and says so where it picks it.
//
// This is the one place that reads the variable; tests ask
// sanitizer_sized() or pick with sized(full, small). A process prints once
// that it runs sanitizer-sized, so a log shows which kind of run it was.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace mpgpu_test {

inline bool sanitizer_sized() {
  static const bool on = [] {
    const char* env = std::getenv("MPGPU_TEST_SANITIZER");
    const bool v = env && *env && std::strcmp(env, "0") != 0;
    if (v) {
      std::printf("[ mpgpu  ] sanitizer-sized tests (MPGPU_TEST_SANITIZER=%s): smaller sizes, fewer rounds\n", env);
      std::fflush(stdout);
    }
    return v;
  }();
  return on;
}

/// `full` normally, `small` in sanitizer-sized runs.
template <typename T>
T sized(const T& full, const T& small) {
  return sanitizer_sized() ? small : full;
}

/// In sanitizer-sized runs, whether case number `index` of a loop runs when
/// only one in `keep_one_in` should (the others still run in full runs):
/// for thinning loops over many similar cases while every kind still comes
/// round.
inline bool sanitizer_keeps(std::size_t index, std::size_t keep_one_in) {
  return !sanitizer_sized() || index % keep_one_in == 0;
}

}  // namespace mpgpu_test
