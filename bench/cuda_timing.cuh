// Shared by the CUDA benchmark programs: a fatal CUDA check and the median of
// CUDA-event timings on one stream.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorName(e_), __FILE__, __LINE__); \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

namespace mpgpu_bench {

/// Median milliseconds of `reps` timed calls f(1) .. f(reps) on stream s,
/// after one warm-up call f(0); the index lets a caller rotate buffers.
template <class F>
double median_ms_indexed(cudaStream_t s, int reps, F&& f) {
  f(0);
  CHECK(cudaStreamSynchronize(s));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(start, s));
    f(r + 1);
    CHECK(cudaEventRecord(stop, s));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// As median_ms_indexed, for a call that takes no index.
template <class F>
double median_ms(cudaStream_t s, int reps, F&& f) {
  return median_ms_indexed(s, reps, [&](int) { f(); });
}

}  // namespace mpgpu_bench
