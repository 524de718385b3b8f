// A memcpy whose stores bypass the caches (non-temporal stores), for copies
// whose destination the CPU will not read soon: a pinned staging buffer
// that the DMA engine reads next, or a large destination that cannot stay
// in cache anyway. An ordinary store first reads the line it writes (a
// read-for-ownership), so a memcpy moves three bytes over the memory bus
// per byte copied; a streaming store writes whole lines and moves two. When
// several threads copy while the DMA engine also reads host memory, the
// bus is the bound, so the saved third is throughput.
//
// The stores are weakly ordered: stream_copy ends with a store fence, so
// that whatever the caller does next (an atomic release, a DMA submitted by
// another thread after it) sees the bytes. Host-only, plain C++; on other
// processors it is memcpy. Private to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mpgpu::detail {

inline void stream_copy(void* dst, const void* src, std::size_t bytes) noexcept {
  if (bytes == 0) return;
#if defined(__SSE2__)
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  // Up to the destination's first 16-byte boundary: streaming stores need it.
  std::size_t head = (16 - (reinterpret_cast<std::uintptr_t>(d) & 15)) & 15;
  if (head > bytes) head = bytes;
  std::memcpy(d, s, head);
  d += head;
  s += head;
  bytes -= head;
  for (; bytes >= 64; bytes -= 64, d += 64, s += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 32));
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(d), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 48), e);
  }
  std::memcpy(d, s, bytes);  // the last < 64 bytes
  _mm_sfence();
#else
  std::memcpy(dst, src, bytes);
#endif
}

}  // namespace mpgpu::detail
