// Asynchronous global -> shared copies (sm_80+ `cp.async`): a block can
// queue the loads of its next tile into shared memory and compute on the
// current one meanwhile, without registers held for the loads in flight.
//
// Without __CUDA_ARCH__ (host compilers, the kernel emulation of
// tests/ntt/cuda_host_shim) the copy happens at once and the waits do
// nothing, which is one of the orders the device allows.
#pragma once

#include <cstdint>

#include "mpgpu/limb/config.cuh"

namespace mpgpu::limb {

/// Queues the copy of one 8-byte word from global to shared memory (both
/// 8-byte aligned). Complete for this thread after cp_async_wait; visible to
/// the block after that and a barrier.
MPGPU_HD void cp_async_8(std::uint64_t* shared_dst, const std::uint64_t* global_src) {
#if defined(__CUDA_ARCH__)
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(dst), "l"(global_src) : "memory");
#else
  *shared_dst = *global_src;
#endif
}

/// Closes the group of copies this thread queued since the last commit.
MPGPU_HD void cp_async_commit() {
#if defined(__CUDA_ARCH__)
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// Waits until at most kPending of this thread's committed groups are
/// still in flight (the newest ones).
template <int kPending>
MPGPU_HD void cp_async_wait() {
#if defined(__CUDA_ARCH__)
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

}  // namespace mpgpu::limb
