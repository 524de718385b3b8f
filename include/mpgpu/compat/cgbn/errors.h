// CGBN's error reporting for the compatibility header (cgbn.h): the error
// codes, the report that a kernel fills (cgbn_error_report_t) and its host
// functions, with CGBN's names and values so that programs that test them
// keep working. The host functions are inline (CGBN defines them out of
// line in a header, so a program of several translation units that include
// it needs tricks to link; here it does not).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "mpgpu/limb/config.cuh"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

typedef enum {
  cgbn_no_error = 0,
  cgbn_unsupported_threads_per_instance = 1,
  cgbn_unsupported_size = 2,
  cgbn_unsupported_limbs_per_thread = 3,
  cgbn_unsupported_operation = 4,
  cgbn_threads_per_block_mismatch = 5,
  cgbn_threads_per_instance_mismatch = 6,
  cgbn_division_by_zero_error = 7,
  cgbn_division_overflow_error = 8,
  cgbn_invalid_montgomery_modulus_error = 9,
  cgbn_modulus_not_odd_error = 10,
  cgbn_inverse_does_not_exist_error = 11,
} cgbn_error_t;

typedef enum {
  cgbn_no_checks,      // no checking at all
  cgbn_report_monitor, // errors go to the report
  cgbn_print_monitor,  // to the report, and printed
  cgbn_halt_monitor,   // to the report, then the kernel traps
} cgbn_monitor_t;

#if defined(__CUDACC__)
typedef dim3 cgbn_dim3_t;
typedef cudaError_t cgbn_status_t;
#else
// Host-only builds (the CPU tests, compiled by g++): no CUDA types.
struct cgbn_dim3_t {
  unsigned x, y, z;
};
typedef int cgbn_status_t;
#endif

typedef struct {
  volatile cgbn_error_t _error;
  uint32_t _instance;
  cgbn_dim3_t _threadIdx;
  cgbn_dim3_t _blockIdx;
} cgbn_error_report_t;

namespace mpgpu::compat::cgbn_detail {
inline void clear_report(cgbn_error_report_t* report) {
  report->_error = cgbn_no_error;
  report->_instance = 0xFFFFFFFFu;
  report->_threadIdx = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
  report->_blockIdx = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
}

/// The message of an error code (CGBN's words), or NULL for cgbn_no_error.
/// `printed`: the words of CGBN's print monitor, which differ for three codes.
MPGPU_HD const char* error_message(cgbn_error_t error, bool printed = false) {
  switch (error) {
    case cgbn_unsupported_threads_per_instance: return "unsupported threads per instance";
    case cgbn_unsupported_size: return "unsupported size";
    case cgbn_unsupported_limbs_per_thread: return "unsupported limbs per thread";
    case cgbn_unsupported_operation: return "unsupported operation";
    case cgbn_threads_per_block_mismatch: return "TPB does not match blockDim.x";
    case cgbn_threads_per_instance_mismatch: return "TPI does not match env_t::TPI";
    case cgbn_division_by_zero_error: return printed ? "division by zero on instance" : "division by zero";
    case cgbn_division_overflow_error: return printed ? "division overflow on instance" : "division overflow";
    case cgbn_invalid_montgomery_modulus_error:
      return printed ? "division invalid montgomery modulus" : "invalid montgomery modulus";
    case cgbn_modulus_not_odd_error: return "invalid modulus (it must be odd)";
    case cgbn_inverse_does_not_exist_error: return "inverse does not exist";
    default: return nullptr;
  }
}
}  // namespace mpgpu::compat::cgbn_detail

/// Allocates a report that kernels and the host both see (managed memory
/// with CUDA, as CGBN; host memory in host-only builds), cleared.
inline cgbn_status_t cgbn_error_report_alloc(cgbn_error_report_t** report) {
#if defined(__CUDACC__)
  cgbn_status_t status = cudaMallocManaged(reinterpret_cast<void**>(report), sizeof(cgbn_error_report_t));
  if (status != cudaSuccess) return status;
#else
  *report = static_cast<cgbn_error_report_t*>(std::malloc(sizeof(cgbn_error_report_t)));
  if (*report == nullptr) return 2;
  cgbn_status_t status = 0;
#endif
  mpgpu::compat::cgbn_detail::clear_report(*report);
  return status;
}

inline cgbn_status_t cgbn_error_report_free(cgbn_error_report_t* report) {
#if defined(__CUDACC__)
  return cudaFree(report);
#else
  std::free(report);
  return 0;
#endif
}

/// True when an error was reported. (Synchronize the device first: CGBN's
/// CGBN_CHECK macro does.)
inline bool cgbn_error_report_check(cgbn_error_report_t* report) { return report->_error != cgbn_no_error; }

inline void cgbn_error_report_reset(cgbn_error_report_t* report) { mpgpu::compat::cgbn_detail::clear_report(report); }

inline const char* cgbn_error_string(cgbn_error_report_t* report) {
  return mpgpu::compat::cgbn_detail::error_message(report->_error);
}
