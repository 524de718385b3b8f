// cgbn_context_t<TPI, params>: CGBN's per-thread context, which carries the
// error monitor, the report and the instance number that errors name.
// Constructors check what CGBN checks (TPI in {4, 8, 16, 32}, TPB against
// blockDim.x when params say a TPB, no constant-time mode) when the monitor
// is not cgbn_no_checks.
#pragma once

#include "errors.h"
#include "mpgpu/limb/config.cuh"

typedef enum {
  cgbn_instance_syncable,
  cgbn_warp_syncable,
  cgbn_block_syncable,
  cgbn_grid_syncable
} cgbn_syncable_t;

class cgbn_default_parameters_t {
 public:
  static const uint32_t TPB = 0;  // threads per block: 0 takes blockDim.x
  static const uint32_t MAX_ROTATION = 4;
  static const uint32_t SHM_LIMIT = 0;
  static const bool CONSTANT_TIME = false;
};

template <class context_t, uint32_t bits, cgbn_syncable_t syncable>
class cgbn_env_t;

template <uint32_t tpi, class params = cgbn_default_parameters_t>
class cgbn_context_t {
 public:
  static const uint32_t TPB = params::TPB;
  static const uint32_t TPI = tpi;
  static const uint32_t MAX_ROTATION = params::MAX_ROTATION;
  static const uint32_t SHM_LIMIT = params::SHM_LIMIT;
  static const bool CONSTANT_TIME = params::CONSTANT_TIME;

  const cgbn_monitor_t _monitor;
  cgbn_error_report_t* const _report;
  const int32_t _instance;
  uint32_t* _scratch = nullptr;

  MPGPU_HD cgbn_context_t() : _monitor(cgbn_no_checks), _report(nullptr), _instance(-1) {}
  MPGPU_HD explicit cgbn_context_t(cgbn_monitor_t monitor) : _monitor(monitor), _report(nullptr), _instance(-1) {
    check_parameters();
  }
  MPGPU_HD cgbn_context_t(cgbn_monitor_t monitor, cgbn_error_report_t* report)
      : _monitor(monitor), _report(report), _instance(-1) {
    check_parameters();
  }
  MPGPU_HD cgbn_context_t(cgbn_monitor_t monitor, cgbn_error_report_t* report, uint32_t instance)
      : _monitor(monitor), _report(report), _instance(static_cast<int32_t>(instance)) {
    check_parameters();
  }

  MPGPU_HD uint32_t* scratch() const { return _scratch; }
  MPGPU_HD bool check_errors() const { return _monitor != cgbn_no_checks; }

  /// Records `error` in the report (the first error wins, as in CGBN), prints
  /// it under cgbn_print_monitor, traps under cgbn_halt_monitor. Called by
  /// every thread of the instance; the first thread of it reports.
  MPGPU_HD void report_error(cgbn_error_t error) const {
#if defined(__CUDA_ARCH__)
    if ((threadIdx.x & (tpi - 1)) != 0) return;
#endif
    if (_report != nullptr) {
#if defined(__CUDA_ARCH__)
      const bool first = atomicCAS(reinterpret_cast<unsigned*>(const_cast<cgbn_error_t*>(&_report->_error)),
                                   static_cast<unsigned>(cgbn_no_error), static_cast<unsigned>(error)) ==
                         static_cast<unsigned>(cgbn_no_error);
#else
      cgbn_error_t expected = cgbn_no_error;
      const bool first = __atomic_compare_exchange_n(const_cast<cgbn_error_t*>(&_report->_error), &expected, error,
                                                     false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
#endif
      if (first) {
        _report->_instance = static_cast<uint32_t>(_instance);
#if defined(__CUDA_ARCH__)
        _report->_threadIdx = threadIdx;
        _report->_blockIdx = blockIdx;
#endif
      }
    }
    if (_monitor == cgbn_print_monitor) {
      const char* m = mpgpu::compat::cgbn_detail::error_message(error, true);
      printf("cgbn error: %s\n", m != nullptr ? m : "unknown error reported by instance");
    } else if (_monitor == cgbn_halt_monitor) {
#if defined(__CUDA_ARCH__)
      __trap();
#else
      std::abort();
#endif
    }
  }

  template <class env_t>
  MPGPU_HD env_t env() {
    return env_t(*this);
  }
  template <uint32_t bits, cgbn_syncable_t syncable>
  MPGPU_HD cgbn_env_t<cgbn_context_t, bits, syncable> env() {
    return cgbn_env_t<cgbn_context_t, bits, syncable>(*this);
  }

 private:
  MPGPU_HD void check_parameters() const {
    if (_monitor == cgbn_no_checks) return;
    if (tpi != 32 && tpi != 16 && tpi != 8 && tpi != 4) report_error(cgbn_unsupported_threads_per_instance);
#if defined(__CUDA_ARCH__)
    if (params::TPB != 0 && params::TPB != blockDim.x) report_error(cgbn_threads_per_block_mismatch);
#endif
    if (params::CONSTANT_TIME) report_error(cgbn_unsupported_operation);
  }
};
