// Probe: the floor of one small device operation on this machine (launch,
// completion, read-back), to decide how mpgpu's small operations wait.
// Build: nvcc -O2 -arch=sm_90 launch_latency.cu -o launch_latency
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e = (x);                                                              \
    if (e != cudaSuccess) {                                                           \
      std::printf("%s failed: %s\n", #x, cudaGetErrorString(e));                      \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

__global__ void write_flag(volatile unsigned long long* flag, unsigned long long v) { *flag = v; }

template <class F>
double median_us(F&& f, int reps = 201) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f(i);
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char**) {
  if (argc > 1) CHECK(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  unsigned long long *host_flag, *dev_view;
  CHECK(cudaHostAlloc(&host_flag, 8, cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer(&dev_view, host_flag, 0));
  void* p;
  CHECK(cudaMallocAsync(&p, 1 << 20, s));
  CHECK(cudaFreeAsync(p, s));
  CHECK(cudaStreamSynchronize(s));
  double sync_us = median_us([&](int i) {
    write_flag<<<1, 32, 0, s>>>(dev_view, i);
    cudaStreamSynchronize(s);
  });
  double spin_us = median_us([&](int i) {
    *const_cast<volatile unsigned long long*>(host_flag) = ~0ull;
    write_flag<<<1, 32, 0, s>>>(dev_view, i);
    while (*const_cast<volatile unsigned long long*>(host_flag) != (unsigned long long)i) {
    }
  });
  cudaStreamSynchronize(s);
  double alloc_us = median_us([&](int) {
    void* q;
    cudaMallocAsync(&q, 8192, s);
    cudaFreeAsync(q, s);
  });
  double alloc_kernel_sync_us = median_us([&](int i) {
    void* q;
    cudaMallocAsync(&q, 8192, s);
    write_flag<<<1, 32, 0, s>>>(dev_view, i);
    cudaFreeAsync(q, s);
    cudaStreamSynchronize(s);
  });
  double two_kernels_sync_us = median_us([&](int i) {
    write_flag<<<1, 32, 0, s>>>(dev_view, i);
    write_flag<<<1, 32, 0, s>>>(dev_view, i);
    cudaStreamSynchronize(s);
  });
  std::printf("schedule %s: launch+streamSync %.2f us, launch+spin on mapped flag %.2f us, "
              "mallocAsync+freeAsync %.2f us, alloc+launch+free+sync %.2f us, 2 launches+sync %.2f us\n",
              argc > 1 ? "spin" : "auto", sync_us, spin_us, alloc_us, alloc_kernel_sync_us, two_kernels_sync_us);
  return 0;
}
