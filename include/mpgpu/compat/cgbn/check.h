// CGBN_CHECK(report), as CGBN's samples define it (samples/utility/
// gpu_support.h; CGBN's cgbn.h itself has none): synchronize the device, then
// print the reported error with its instance and thread, and exit. Opt-in:
// include "cgbn/check.h" after "cgbn/cgbn.h" when a program does not bring
// its own (a program that does keeps it; the guard below yields to it).
#pragma once

#include "cgbn.h"

#if !defined(CGBN_CHECK) && defined(__CUDACC__)
#define CGBN_CHECK(report) mpgpu_cgbn_check((report), __FILE__, __LINE__)
inline void mpgpu_cgbn_check(cgbn_error_report_t* report, const char* file, int32_t line) {
  cudaError_t status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    std::printf("CUDA error occurred: %s\n", cudaGetErrorString(status));
    std::printf("Error reported at %s, line %d\n", file, line);
    std::exit(1);
  }
  if (cgbn_error_report_check(report)) {
    std::printf("\nCGBN error occurred: %s\n", cgbn_error_string(report));
    if (report->_instance != 0xFFFFFFFFu) {
      std::printf("Error reported by instance %u", report->_instance);
      if (report->_blockIdx.x != 0xFFFFFFFFu || report->_threadIdx.x != 0xFFFFFFFFu) std::printf(", ");
    }
    if (report->_blockIdx.x != 0xFFFFFFFFu)
      std::printf("blockIdx=(%u, %u, %u) ", report->_blockIdx.x, report->_blockIdx.y, report->_blockIdx.z);
    if (report->_threadIdx.x != 0xFFFFFFFFu)
      std::printf("threadIdx=(%u, %u, %u)", report->_threadIdx.x, report->_threadIdx.y, report->_threadIdx.z);
    std::printf("\nError reported at %s, line %d\n", file, line);
    std::exit(1);
  }
}
#endif
