// Where a cgbn_env_t's operations get their Env: the thread's rank in its
// group and the group's shared scratch (shape.h says which Env).
//
// On the device each warp holds 32/G subgroups (an instance has TPI/G of
// them; TPI <= 32, so instances never span warps), each with
// Shape::scratch_words of static shared memory, for every warp of the block
// up to block_warps(): TPB/32 when the parameters give a TPB, else
// MPGPU_CGBN_MAX_BLOCK_THREADS/32 when defined, else as many as fit in 46
// KiB, at most 8 (256 threads: CGBN's samples and tests launch 128). A
// block with more threads than that traps at the env's construction rather
// than let two warps share scratch. CGBN kernels pass no shared memory, so
// the scratch is static: a kernel that uses several widths holds one
// scratch for each (the static total must stay within 48 KiB).
//
// On the host a thread holds a whole instance (G = 1) and uses a
// thread-local buffer. MPGPU_CGBN_EMULATE_GROUPS (the CPU tests, with
// tests/batch/group_emulation.hpp) keeps the device's shape on the host:
// the test provides mpgpu_cgbn_emulated_lane() and
// mpgpu_cgbn_emulated_scratch(subgroup, words): the scratch of subgroup
// lane / G of the warp, at least `words` words, at a fixed address.
#pragma once

#include <cstdint>

#include "shape.h"

#if !defined(__CUDA_ARCH__) && !defined(MPGPU_CGBN_EMULATE_GROUPS)
#include <vector>
#endif

#if defined(MPGPU_CGBN_EMULATE_GROUPS)
int mpgpu_cgbn_emulated_lane();
std::uint32_t* mpgpu_cgbn_emulated_scratch(int subgroup, int words);
#endif

namespace mpgpu::compat::cgbn_detail {

/// True where a thread holds a whole instance (the host, not emulating).
#if defined(__CUDA_ARCH__) || defined(MPGPU_CGBN_EMULATE_GROUPS)
inline constexpr bool single_thread = false;
#else
inline constexpr bool single_thread = true;
#endif

// (A variable, not a function: device code may read constexpr variables
// without --expt-relaxed-constexpr, which CGBN's builds do not pass.)
template <class S, std::uint32_t Tpb>
inline constexpr int block_warps_fit = 46 * 1024 / ((32 / S::G) * S::scratch_words * 4);
template <class S, std::uint32_t Tpb>
inline constexpr int block_warps =
    Tpb != 0 ? static_cast<int>((Tpb + 31) / 32)
#if defined(MPGPU_CGBN_MAX_BLOCK_THREADS)
             : (MPGPU_CGBN_MAX_BLOCK_THREADS + 31) / 32;
#else
             : block_warps_fit<S, Tpb> > 8 ? 8 : block_warps_fit<S, Tpb> < 1 ? 1 : block_warps_fit<S, Tpb>;
#endif

/// The thread's lane in its warp (0 on the plain host).
MPGPU_HD int lane_in_warp() {
#if defined(__CUDA_ARCH__)
  return static_cast<int>(threadIdx.x & 31u);
#elif defined(MPGPU_CGBN_EMULATE_GROUPS)
  return mpgpu_cgbn_emulated_lane();
#else
  return 0;
#endif
}

/// This thread's subgroup's scratch: S::scratch_words words, 16-byte aligned.
template <class S, std::uint32_t Tpb>
MPGPU_HD word_t* scratch() {
#if defined(__CUDA_ARCH__)
  constexpr int subgroups = 32 / S::G;
  __shared__ __align__(16) word_t buf[block_warps<S, Tpb> * subgroups * S::scratch_words];
  const unsigned slot = (threadIdx.x >> 5) * subgroups + (threadIdx.x & 31u) / S::G;
  return buf + static_cast<std::size_t>(slot) * S::scratch_words;
#elif defined(MPGPU_CGBN_EMULATE_GROUPS)
  return mpgpu_cgbn_emulated_scratch(mpgpu_cgbn_emulated_lane() / S::G, S::scratch_words);
#else
  thread_local std::vector<word_t> buf;
  if (buf.size() < static_cast<std::size_t>(S::scratch_words)) buf.resize(S::scratch_words);
  return buf.data();
#endif
}

/// The Envs of one operation: the width's and the one twice as wide, over
/// the same scratch (used one after the other, each access ordered by the
/// group's syncs).
template <class S>
struct Frame {
  typename S::E e;
  typename S::E2 e2;
  MPGPU_HD Frame(int rank, word_t* scratch) : e(rank, scratch), e2(rank, scratch) {}
};

}  // namespace mpgpu::compat::cgbn_detail
