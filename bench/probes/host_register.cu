// Probe: can registering pageable host memory with the driver (cudaHostRegister)
// beat staging it through pinned buffers for 2^30-bit transfers? Times the
// registration, the DMA and the unregistration of 128 MiB, warm or fresh,
// with 4 KiB or huge pages (bench/results/2026-11-28-nvidia-h200-74c638c-session4-final.md).
// Build: nvcc -O2 -arch=sm_90 host_register.cu -o host_register
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
using C = std::chrono::steady_clock;
static double ms(C::time_point a) { return std::chrono::duration<double, std::milli>(C::now() - a).count(); }
int main() {
  const size_t bytes = size_t(128) << 20;
  void* dev; CK(cudaMalloc(&dev, bytes)); cudaStream_t s; CK(cudaStreamCreate(&s));
  void* pinned; CK(cudaHostAlloc(&pinned, bytes, 0));
  for (int rep = 0; rep < 3; ++rep) { auto t = C::now(); CK(cudaMemcpyAsync(dev, pinned, bytes, cudaMemcpyHostToDevice, s)); CK(cudaStreamSynchronize(s)); printf("pinned H2D: %.2f ms\n", ms(t)); }
  for (int huge = 0; huge < 2; ++huge) {
    for (int rep = 0; rep < 3; ++rep) {
      char* m = (char*)mmap(nullptr, bytes + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      char* p = (char*)(((uintptr_t)m + (2 << 20) - 1) & ~uintptr_t((2 << 20) - 1)) + 16;  // like malloc: not page aligned
      if (huge) madvise(m, bytes + (2 << 20), MADV_HUGEPAGE);
      memset(p, 1, bytes - 4096);  // warm
      auto t = C::now();
      CK(cudaHostRegister(p, bytes - 4096, cudaHostRegisterDefault));
      double treg = ms(t); t = C::now();
      CK(cudaMemcpyAsync(dev, p, bytes - 4096, cudaMemcpyHostToDevice, s)); CK(cudaStreamSynchronize(s));
      double tcp = ms(t); t = C::now();
      CK(cudaMemcpyAsync(p, dev, bytes - 4096, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s));
      double tdn = ms(t); t = C::now();
      CK(cudaHostUnregister(p));
      double tun = ms(t);
      printf("warm huge=%d: register %.2f ms, H2D %.2f ms, D2H %.2f ms, unregister %.2f ms\n", huge, treg, tcp, tdn, tun);
      munmap(m, bytes + (2 << 20));
    }
    // fresh destination: register faults it in
    for (int rep = 0; rep < 2; ++rep) {
      char* m = (char*)mmap(nullptr, bytes + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      char* p = (char*)(((uintptr_t)m + (2 << 20) - 1) & ~uintptr_t((2 << 20) - 1)) + 16;
      if (huge) madvise(m, bytes + (2 << 20), MADV_HUGEPAGE);
      auto t = C::now();
      CK(cudaHostRegister(p, bytes - 4096, cudaHostRegisterDefault));
      double treg = ms(t); t = C::now();
      CK(cudaMemcpyAsync(p, dev, bytes - 4096, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s));
      double tdn = ms(t); t = C::now();
      CK(cudaHostUnregister(p));
      printf("fresh huge=%d: register %.2f ms, D2H %.2f ms, unregister %.2f ms\n", huge, treg, tdn, ms(t));
      munmap(m, bytes + (2 << 20));
    }
  }
  // chunked registration of a warm source: 8 MiB pieces, register + async copy + unregister later
  return 0;
}
