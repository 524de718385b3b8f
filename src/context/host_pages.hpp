// Advice to the kernel about host memory that a copy is about to fill.
//
// A copy from the device into fresh host memory (a new mpz, a new vector)
// touches every page for the first time. Each first touch is a page fault
// in which the kernel allocates and zeroes the page: with 4 KiB pages that
// is one fault per 4 KiB, one after another on the faulting thread, and it
// costs more than the copy itself. Two pieces of advice help: huge pages
// (one fault per 2 MiB) and faulting the pages in ahead of the copy on
// several threads (CopyTeam), while the DMA engine moves other chunks.
//
// Neither changes the memory's contents; a kernel that refuses huge pages
// (transparent huge pages off, another OS) leaves 4 KiB faults, so the
// advice's errors are ignored. Private to the library; host-only.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace mpgpu::detail {

/// The transparent huge page size of x86-64 and of aarch64 with 4 KiB pages.
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
/// Destinations of at least this many bytes are advised to use huge pages.
/// glibc's malloc serves requests this large (its largest dynamic mmap
/// threshold on 64-bit targets) from a mapping of their own, so the advice,
/// which splits a mapping where it begins and ends, touches no other
/// allocation's mapping; below it the destination may lie in the heap,
/// where repeated advice would cut the heap into many mappings (a process
/// may have at most vm.max_map_count of them).
inline constexpr std::size_t kHugePageAdviceMinBytes = std::size_t{32} << 20;

namespace host_pages_internal {
inline std::uintptr_t page_bytes() {
#if defined(__linux__)
  static const std::uintptr_t bytes = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return bytes;
#else
  return 4096;
#endif
}
}  // namespace host_pages_internal

/// Asks for huge pages on the 2 MiB-aligned interior of [p, p + bytes)
/// (MADV_HUGEPAGE), before its first touch, when bytes is at least
/// kHugePageAdviceMinBytes. The interior lies wholly inside the range, so
/// no memory outside it changes page size.
inline void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes < kHugePageAdviceMinBytes) return;
  const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(p) + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kHugePageBytes - 1);
  if (begin < end) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

/// Whether the page holding p is in memory (mincore). True when it cannot
/// tell: then nothing is faulted in ahead, which is the safe default.
inline bool page_resident(const void* p) noexcept {
#if defined(__linux__)
  const std::uintptr_t page = reinterpret_cast<std::uintptr_t>(p) & ~(host_pages_internal::page_bytes() - 1);
  unsigned char in_core = 0;
  if (mincore(reinterpret_cast<void*>(page), 1, &in_core) != 0) return true;
  return (in_core & 1) != 0;
#else
  (void)p;
  return true;
#endif
}

/// Faults the pages of [p, p + bytes) in for writing, contents unchanged:
/// one atomic OR with 0 per page, a write access that leaves the byte as it
/// is. Ordinary faults, so several threads fault in parts of one mapping
/// side by side (Linux takes a per-mapping lock for a fault, not the whole
/// address space's); MADV_POPULATE_WRITE would do it in one call but holds
/// the address space's lock, so it stops scaling past a few threads
/// (bench/host_page_rates.cpp measures both). Skipped when the range's first and
/// last pages are in memory already (a reused destination: touching a
/// resident range only walks it for nothing).
inline void fault_in_for_write(void* p, std::size_t bytes) noexcept {
  if (bytes == 0) return;
  char* const first = static_cast<char*>(p);
  if (page_resident(first) && page_resident(first + bytes - 1)) return;
  const std::uintptr_t step = host_pages_internal::page_bytes();
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(first) + bytes;
  for (std::uintptr_t a = reinterpret_cast<std::uintptr_t>(first); a < end; a = (a & ~(step - 1)) + step)
    __atomic_fetch_or(reinterpret_cast<volatile unsigned char*>(a), static_cast<unsigned char>(0), __ATOMIC_RELAXED);
}

}  // namespace mpgpu::detail
