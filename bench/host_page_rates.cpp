// Host page-fault and memcpy rates: how fast fresh host memory can be
// filled on this machine (the ceiling of a staged device -> host copy into
// a new mpz, src/context/host_pages.hpp), with 4 KiB or huge pages, with or without
// MADV_POPULATE_WRITE ahead of the copy, on 1-16 threads, and into warm
// memory, each with memcpy and with the streaming stores of
// src/context/stream_copy.hpp (the staged copies' fill of pinned buffers). 128 MiB
// (a 2^30-bit value), best of 5. Host only; no other mpgpu code.
//
//   host_page_rates
#include <sys/mman.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

#include "context/stream_copy.hpp"
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
using C = std::chrono::steady_clock;
static double now() { return std::chrono::duration<double>(C::now().time_since_epoch()).count(); }
int main() {
  const size_t bytes = size_t(128) << 20;
  std::vector<char> src(bytes, 7);
  for (int mode = 0; mode < 8; ++mode)
    for (int threads : {1, 2, 4, 8, 16}) {
      double best = 1e9;
      for (int rep = 0; rep < 5; ++rep) {
        char* p = (char*)mmap(nullptr, bytes + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char* a = (char*)(((uintptr_t)p + (2 << 20) - 1) & ~uintptr_t((2 << 20) - 1));
        if (mode & 1) madvise(a, bytes, MADV_HUGEPAGE);
        double t0 = now();
        std::vector<std::thread> ts;
        size_t part = bytes / threads;
        for (int t = 0; t < threads; ++t) ts.emplace_back([&, t] {
          char* q = a + t * part;
          if (mode & 2) madvise(q, part, MADV_POPULATE_WRITE);
          if (mode & 4) mpgpu::detail::stream_copy(q, src.data() + t * part, part);
          else memcpy(q, src.data() + t * part, part);
        });
        for (auto& t : ts) t.join();
        double dt = now() - t0;
        if (dt < best) best = dt;
        munmap(p, bytes + (2 << 20));
      }
      printf("fresh 128MiB %s: huge=%d populate=%d threads=%2d: %.2f ms  %.1f GB/s\n",
             mode & 4 ? "stream_copy" : "memcpy", mode & 1, (mode >> 1) & 1, threads, best * 1e3, bytes / best / 1e9);
    }
  // warm destination
  std::vector<char> dst(bytes, 1);
  for (const bool streaming : {false, true})
    for (int threads : {1, 4, 8, 16}) {
      double best = 1e9;
      for (int rep = 0; rep < 5; ++rep) {
        double t0 = now();
        std::vector<std::thread> ts;
        size_t part = bytes / threads;
        for (int t = 0; t < threads; ++t)
          ts.emplace_back([&, t] {
            if (streaming) mpgpu::detail::stream_copy(dst.data() + t * part, src.data() + t * part, part);
            else memcpy(dst.data() + t * part, src.data() + t * part, part);
          });
        for (auto& t : ts) t.join();
        double dt = now() - t0;
        if (dt < best) best = dt;
      }
      printf("warm 128MiB %s threads=%2d: %.2f ms  %.1f GB/s\n", streaming ? "stream_copy" : "memcpy", threads,
             best * 1e3, bytes / best / 1e9);
    }
}
