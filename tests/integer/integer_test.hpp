// The fixture shared by the Integer differential tests. Each test body file
// is compiled once and linked into two executables: integer_<area>_test runs
// it on Context::cpu() (GMP backend, in CI), integer_<area>_gpu_test on
// Context::cuda(0) (skipped without a device). The executable's backend comes
// from test_backend(), defined by backend_cpu.cpp or backend_cuda.cpp, and
// becomes the test parameter, so test names end in /cpu or /cuda.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>

#include "mpgpu/mpgpu.hpp"
#include "support/integer_check.hpp"
#include "support/operands.hpp"

namespace mpgpu_test {

/// The backend this executable tests.
mpgpu::Backend test_backend();

/// The test parameter: a backend, printed by name in test listings.
struct BackendParam {
  mpgpu::Backend backend;
};
inline const char* backend_name(mpgpu::Backend b) { return b == mpgpu::Backend::cuda ? "cuda" : "cpu"; }
inline void PrintTo(const BackendParam& p, std::ostream* os) { *os << backend_name(p.backend); }

/// The context this executable tests (backend_cpu.cpp: Context::cpu(),
/// backend_cuda.cpp: Context::cuda(0); batch/backend_*.cpp: contexts over
/// several parts), or nullopt with the reason to skip in `why`.
std::optional<mpgpu::Context> test_context(std::string& why);

class IntegerTest : public ::testing::TestWithParam<BackendParam> {
 protected:
  void SetUp() override {
    std::string why;
    ctx_ = test_context(why);
    if (!ctx_) GTEST_SKIP() << why;
  }
  const mpgpu::Context& ctx() const { return *ctx_; }
  bool on_gpu() const { return ctx_->is_cuda(); }
  /// Runs the rest of the test in a new context of the same backend with
  /// `params` (Context::with_tuning): ctx() and make() use it from here on;
  /// values made before belong to the old context.
  void use_tuning(const mpgpu::TuningParams& params) { ctx_.emplace(ctx_->with_tuning(params)); }
  /// The oracle value as an Integer of this test's context; on a CUDA
  /// context in device memory, so that the operations under test run their
  /// device paths (values made on the host would otherwise stay there while
  /// small: tests/integer/placement.cpp covers that).
  mpgpu::Integer make(const Mpz& v) const {
    mpgpu::Integer x = mpgpu::Integer::from_mpz(v, ctx());
    x.place_on_device();
    return x;
  }

 private:
  std::optional<mpgpu::Context> ctx_;
};

inline std::string backend_test_name(const ::testing::TestParamInfo<BackendParam>& info) {
  return backend_name(info.param.backend);
}

}  // namespace mpgpu_test

/// Runs the fixture `Suite` (derived from IntegerTest) on this executable's backend.
#define MPGPU_INSTANTIATE_ON_BACKEND(Suite)                                                 \
  INSTANTIATE_TEST_SUITE_P(On, Suite,                                                      \
                           ::testing::Values(::mpgpu_test::BackendParam{::mpgpu_test::test_backend()}), \
                           ::mpgpu_test::backend_test_name)
