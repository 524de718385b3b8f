// Construction, loads and stores of an Env's numbers, and masks to a
// logical width below the class width (env.cuh).
#pragma once

#include "mpgpu/batch/env/layout.cuh"
#include "mpgpu/batch/warp_io.cuh"

namespace mpgpu::batch {

// ---- construction, loads and stores ---------------------------------------------------

template <class E>
MPGPU_HD void set_zero(const E&, typename E::Num& r) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) r.w[i] = 0;
}

template <class E>
MPGPU_HD void set_ui32(const E& env, typename E::Num& r, word_t v) {
  set_zero(env, r);
  if (env.rank() == 0) r.w[0] = v;
}

/// r = v for a 64-bit v: words 0 and 1, both thread 0's (L >= 4).
template <class E>
MPGPU_HD void set_ui64(const E& env, typename E::Num& r, std::uint64_t v) {
  set_zero(env, r);
  if (env.rank() == 0) r.w[0] = static_cast<word_t>(v), r.w[1] = static_cast<word_t>(v >> word_bits);
}

// How the device moves a thread's words (the same answer in every compile,
// host or device; the host, and the CPU emulation of the tests, always move
// them word by word: the paths below are device code).
namespace env_detail {
/// 16-byte loads and stores when a thread's words allow them.
template <class E>
constexpr bool vector_io() {
  return E::per_thread % 4 == 0;
}

/// Thread-per-instance classes of 512 and 1024 bits load and store through
/// a shared tile per warp (warp_io.cuh): a thread's own 64 or 128 bytes
/// would otherwise make every warp instruction touch 32 cache lines.
/// (-DMPGPU_NO_WARP_TILED_IO turns it off, for A/B measurements.)
template <class E>
constexpr bool warp_tiled_io() {
#if defined(MPGPU_NO_WARP_TILED_IO)
  return false;
#else
  return E::threads == 1 && (E::words == 16 || E::words == 32);
#endif
}
}  // namespace env_detail

/// Loads this thread's words of an instance stored at `p` (W words, 16-byte aligned).
template <class E>
MPGPU_HD void load(const E& env, typename E::Num& r, const word_t* p) {
  p += env.first_word();
#if defined(__CUDA_ARCH__)
  if constexpr (env_detail::warp_tiled_io<E>()) {
    warp_io::tiled_load<E::words>(r.w, p);
  } else if constexpr (env_detail::vector_io<E>()) {
#pragma unroll
    for (int i = 0; i < E::per_thread; i += 4) {
      uint4 v = *reinterpret_cast<const uint4*>(p + i);
      r.w[i] = v.x, r.w[i + 1] = v.y, r.w[i + 2] = v.z, r.w[i + 3] = v.w;
    }
  } else
#endif
  {
#pragma unroll
    for (int i = 0; i < E::per_thread; ++i) r.w[i] = p[i];
  }
}

template <class E>
MPGPU_HD void store(const E& env, word_t* p, const typename E::Num& a) {
  p += env.first_word();
#if defined(__CUDA_ARCH__)
  if constexpr (env_detail::warp_tiled_io<E>()) {
    warp_io::tiled_store<E::words>(p, a.w);
  } else if constexpr (env_detail::vector_io<E>()) {
#pragma unroll
    for (int i = 0; i < E::per_thread; i += 4)
      *reinterpret_cast<uint4*>(p + i) = make_uint4(a.w[i], a.w[i + 1], a.w[i + 2], a.w[i + 3]);
  } else
#endif
  {
#pragma unroll
    for (int i = 0; i < E::per_thread; ++i) p[i] = a.w[i];
  }
}

/// Zeroes every bit at position >= bits (bits <= 32*W): results of a logical
/// width below the class width.
template <class E>
MPGPU_HD void mask_bits(const E& env, typename E::Num& r, int bits) {
#pragma unroll
  for (int i = 0; i < E::per_thread; ++i) {
    int lowest = (env.first_word() + i) * word_bits;
    int keep = bits - lowest;
    if (keep <= 0) r.w[i] = 0;
    else if (keep < word_bits) r.w[i] &= (word_t{1} << keep) - 1u;
  }
}

}  // namespace mpgpu::batch
