// tests/compat/cgbn_unit_filter/gtest/gtest.h: lets scripts/cgbn-dropin build
// CGBN's unit-test suite (.cgbn/unit_tests/tester.cu, unchanged) one size at a
// time. Put first on the include path, it is what tester.cu's
// `#include "gtest/gtest.h"` finds: it includes the real gtest.h and, with
// -DMPGPU_CGBN_UNIT_FILTER, replaces INSTANTIATE_TYPED_TEST_SUITE_P with one
// that keeps only the sizes named by -DMPGPU_CGBN_UNIT_KEEP_<prefix>=1
// (prefix as tester.cu's unit_tests.cc names it: S32T4, S2048T32, ...; any
// number of them). The kernels of the other sizes are then never
// instantiated, so each size compiles in its own nvcc run into its own
// program. Without MPGPU_CGBN_UNIT_FILTER nothing changes. The replacement's
// body is GoogleTest's own (the same from 1.10 to 1.14).
#pragma once
#include_next <gtest/gtest.h>

#ifdef MPGPU_CGBN_UNIT_FILTER
#undef INSTANTIATE_TYPED_TEST_SUITE_P
#define INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, SuiteName, Types, ...)                               \
  MPGPU_CGBN_UNIT_IF(MPGPU_CGBN_UNIT_IS(Prefix))(                                                      \
      static bool gtest_##Prefix##_##SuiteName GTEST_ATTRIBUTE_UNUSED_ =                             \
          ::testing::internal::TypeParameterizedTestSuite<                                           \
              SuiteName, GTEST_SUITE_NAMESPACE_(SuiteName)::gtest_AllTests_,                         \
              ::testing::internal::GenerateTypeList<Types>::type>::                                  \
              Register(GTEST_STRINGIFY_(Prefix), ::testing::internal::CodeLocation(__FILE__, __LINE__), \
                       &GTEST_TYPED_TEST_SUITE_P_STATE_(SuiteName), GTEST_STRINGIFY_(SuiteName),     \
                       GTEST_REGISTERED_TEST_NAMES_(SuiteName),                                      \
                       ::testing::internal::GenerateNames<                                           \
                           ::testing::internal::NameGeneratorSelector<__VA_ARGS__>::type,            \
                           ::testing::internal::GenerateTypeList<Types>::type>()))

// MPGPU_CGBN_UNIT_IS(P) is 1 when MPGPU_CGBN_UNIT_KEEP_<P> is defined as 1, else 0
// (PROBE_1 holds a comma that moves the 1 into second place).
#define MPGPU_CGBN_UNIT_CAT_(a, b) a##b
#define MPGPU_CGBN_UNIT_CAT(a, b) MPGPU_CGBN_UNIT_CAT_(a, b)
#define MPGPU_CGBN_UNIT_SECOND_(a, b, ...) b
#define MPGPU_CGBN_UNIT_SECOND(...) MPGPU_CGBN_UNIT_SECOND_(__VA_ARGS__)
#define MPGPU_CGBN_UNIT_PROBE_1 ~, 1
#define MPGPU_CGBN_UNIT_IS(P) \
  MPGPU_CGBN_UNIT_SECOND(MPGPU_CGBN_UNIT_CAT(MPGPU_CGBN_UNIT_PROBE_, MPGPU_CGBN_UNIT_KEEP_##P), 0, ~)
#define MPGPU_CGBN_UNIT_IF(c) MPGPU_CGBN_UNIT_CAT(MPGPU_CGBN_UNIT_IF_, c)
#define MPGPU_CGBN_UNIT_IF_0(...) static_assert(true, "size left out by the filter")
#define MPGPU_CGBN_UNIT_IF_1(...) __VA_ARGS__
#endif
