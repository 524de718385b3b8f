// A stand-in for <cuda_runtime.h> with which a plain C++ compiler (g++, no
// CUDA toolkit) builds device code such as include/mpgpu/ntt/block_ntt.cuh
// and runs its kernels on the host, one block at a time, each thread of the
// block a fiber (ucontext) on the calling OS thread, as
// tests/batch/group_emulation.hpp does for a warp.
//
// Only for the test targets that put this folder first on their include
// path (tests/ntt/CMakeLists.txt). __CUDACC__ and __CUDA_ARCH__ stay
// undefined, so mpgpu's shared headers take their host branches; the CUDA
// qualifiers vanish; __shared__ variables become ordinary ones (an
// `extern __shared__ T name[]` inside a kernel then names a namespace-scope
// array that the test defines: the dynamic shared memory of the one block
// running at a time). Kernel launches: cuda_host_shim::launch(...), or the
// `<<<...>>>` syntax rewritten to `* cuda_host_shim::launch_config(...)` by
// tests/ntt/cuda_host_source.cmake (g++ cannot parse `<<<`).
//
// __syncthreads() switches to the next thread. Between two barriers the
// threads run in a shuffled order, so shared-memory traffic that a missing
// __syncthreads leaves unordered gives order-dependent (wrong) results; the
// scheduler checks that every thread of a block reaches the same number of
// barriers (a __syncthreads skipped by some threads hangs or corrupts on the
// device) and reports cudaErrorLaunchFailure otherwise.
#pragma once

#if defined(__CUDACC__) || defined(__CUDA_ARCH__)
#error "tests/ntt/cuda_host_shim is for host compilers only"
#endif

#include <ucontext.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// ---- qualifiers -------------------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __shared__
#define __constant__

// ---- vector types -------------------------------------------------------------------------------------
struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
};
struct alignas(16) ulonglong2 {
  unsigned long long x, y;
};
inline ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { return ulonglong2{x, y}; }

// ---- runtime API (the parts device-code headers use) --------------------------------------------------
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorLaunchFailure = 719,
};
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
using cudaStream_t = struct CUstream_st*;

namespace cuda_host_shim {

constexpr std::size_t kDefaultDynamicSmem = 48 * 1024;
constexpr std::size_t kMaxDynamicSmem = 227 * 1024;  // sm_90
constexpr unsigned kMaxThreads = 1024;
constexpr std::size_t kStackBytes = 256 * 1024;  // per thread (debug builds keep every local)

inline cudaError_t last_error = cudaSuccess;
inline std::string last_message;
/// Per kernel: the cudaFuncAttributeMaxDynamicSharedMemorySize it was given.
inline std::map<const void*, int> smem_limits;
/// Dynamic shared memory of the running launch (bytes).
inline std::size_t dynamic_smem_bytes = 0;
/// Called before each block runs (e.g. to poison its shared memory).
inline std::function<void()> on_block_start;
inline unsigned long long order_seed = 1;
inline long blocks_run = 0;

inline void fail(cudaError_t e, std::string msg) {
  if (last_error == cudaSuccess) {
    last_error = e;
    last_message = std::move(msg);
  }
}

}  // namespace cuda_host_shim

inline cudaError_t cudaGetLastError() {
  const cudaError_t e = cuda_host_shim::last_error;
  cuda_host_shim::last_error = cudaSuccess;
  return e;
}
inline cudaError_t cudaPeekAtLastError() { return cuda_host_shim::last_error; }
inline const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
  }
  return "unknown error";
}
inline cudaError_t cudaFuncSetAttribute(const void* fn, cudaFuncAttribute attr, int value) {
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize || value < 0 ||
      std::size_t(value) > cuda_host_shim::kMaxDynamicSmem)
    return cudaErrorInvalidValue;
  cuda_host_shim::smem_limits[fn] = value;
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int* device) {
  *device = 0;  // one emulated device
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSynchronize() { return cuda_host_shim::last_error; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cuda_host_shim::last_error; }

// ---- built-in variables: the running thread's (set by the scheduler) -----------------------------------
inline uint3 threadIdx{0, 0, 0};
inline uint3 blockIdx{0, 0, 0};
inline dim3 blockDim;
inline dim3 gridDim;
inline constexpr int warpSize = 32;

// ---- the block scheduler -------------------------------------------------------------------------------
namespace cuda_host_shim {

struct Block {
  ucontext_t main_ctx;
  std::vector<ucontext_t> ctx;
  std::vector<long> syncs;
  std::vector<char> done;
  unsigned cur = 0;
  const std::function<void()>* body = nullptr;
};

inline Block* current = nullptr;

inline std::vector<std::unique_ptr<char[]>>& stacks() {
  static std::vector<std::unique_ptr<char[]>> s;
  return s;
}

inline void set_thread(unsigned t) {
  threadIdx.x = t % blockDim.x;
  threadIdx.y = (t / blockDim.x) % blockDim.y;
  threadIdx.z = t / (blockDim.x * blockDim.y);
}

inline void trampoline() {
  Block* b = current;
  const unsigned t = b->cur;
  (*b->body)();
  b->done[t] = 1;
  swapcontext(&b->ctx[t], &b->main_ctx);
}

/// Runs body() on every thread of the block blockIdx (blockDim threads).
/// Returns false (and records cudaErrorLaunchFailure) when the threads'
/// barrier counts diverge; the block is then abandoned.
inline bool run_block(const std::function<void()>& body) {
  const unsigned n = blockDim.x * blockDim.y * blockDim.z;
  auto& st = stacks();
  while (st.size() < n) st.emplace_back(new char[kStackBytes]);  // uninitialized: pages touched on use
  Block b;
  b.ctx.resize(n);
  b.syncs.assign(n, 0);
  b.done.assign(n, 0);
  b.body = &body;
  current = &b;
  for (unsigned t = 0; t < n; ++t) {
    getcontext(&b.ctx[t]);
    b.ctx[t].uc_stack.ss_sp = st[t].get();
    b.ctx[t].uc_stack.ss_size = kStackBytes;
    b.ctx[t].uc_link = nullptr;
    makecontext(&b.ctx[t], trampoline, 0);
  }
  std::vector<unsigned> order(n);
  bool ok = true;
  for (;;) {
    for (unsigned t = 0; t < n; ++t) order[t] = t;
    for (unsigned t = n - 1; t > 0 && t < n; --t) {  // a shuffled order in each round
      order_seed = order_seed * 6364136223846793005ull + 1442695040888963407ull;
      std::swap(order[t], order[(order_seed >> 33) % (t + 1)]);
    }
    for (unsigned t : order) {
      if (b.done[t]) continue;
      b.cur = t;
      set_thread(t);
      swapcontext(&b.main_ctx, &b.ctx[t]);
    }
    unsigned finished = 0;
    for (unsigned t = 0; t < n; ++t) finished += b.done[t] != 0;
    bool same = true;
    for (unsigned t = 1; t < n; ++t) same = same && b.syncs[t] == b.syncs[0] && b.done[t] == b.done[0];
    if (!same) {
      fail(cudaErrorLaunchFailure, "threads of block " + std::to_string(blockIdx.x) +
                                       " reached different numbers of __syncthreads");
      ok = false;
      break;
    }
    if (finished == n) break;
  }
  current = nullptr;
  ++blocks_run;
  return ok;
}

/// Launch: every block of `grid` in turn (x fastest), body() on each thread.
inline void run_grid(dim3 grid, dim3 block, std::size_t smem, const void* fn, const std::function<void()>& body) {
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  if (threads == 0 || threads > kMaxThreads || grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.y > 65535 ||
      grid.z > 65535) {
    fail(cudaErrorInvalidConfiguration, "invalid launch configuration");
    return;
  }
  std::size_t limit = kDefaultDynamicSmem;
  if (auto it = smem_limits.find(fn); it != smem_limits.end() && std::size_t(it->second) > limit) limit = it->second;
  if (smem > limit) {
    fail(cudaErrorInvalidValue, std::to_string(smem) + " bytes of dynamic shared memory above the kernel's limit " +
                                    std::to_string(limit));
    return;
  }
  gridDim = grid;
  blockDim = block;
  dynamic_smem_bytes = smem;
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        blockIdx = uint3{x, y, z};
        if (on_block_start) on_block_start();
        if (!run_block(body)) return;
      }
}

/// kernel<<<grid, block, smem, stream>>>(args...), run now.
template <class... P, class... A>
void launch(dim3 grid, dim3 block, std::size_t smem, void (*kernel)(P...), A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "kernel argument count");
  // Each thread gets its own copy of the parameters (converted as a launch does).
  const std::tuple<std::decay_t<P>...> params(std::forward<A>(args)...);
  const std::function<void()> body = [&] { std::apply(kernel, params); };
  run_grid(grid, block, smem, reinterpret_cast<const void*>(kernel), body);
}

template <class... A>
struct LaunchArgs {
  dim3 grid, block;
  std::size_t smem;
  std::tuple<A...> args;
};

struct LaunchConfig {
  dim3 grid, block;
  std::size_t smem;
  template <class... A>
  LaunchArgs<std::decay_t<A>...> operator()(A&&... args) const {
    return {grid, block, smem, std::tuple<std::decay_t<A>...>(std::forward<A>(args)...)};
  }
};

/// `<<<grid, block[, smem[, stream]]>>>`, as rewritten by cuda_host_source.cmake:
/// `kernel * launch_config(grid, block, smem, stream)(args...)`.
inline LaunchConfig launch_config(dim3 grid, dim3 block, std::size_t smem = 0, cudaStream_t = nullptr) {
  return LaunchConfig{grid, block, smem};
}

template <class... P, class... A>
void operator*(void (*kernel)(P...), const LaunchArgs<A...>& l) {
  std::apply([&](const A&... a) { launch(l.grid, l.block, l.smem, kernel, a...); }, l.args);
}

}  // namespace cuda_host_shim

// ---- intrinsics ------------------------------------------------------------------------------------------
inline void __syncthreads() {
  cuda_host_shim::Block* b = cuda_host_shim::current;
  const unsigned t = b->cur;
  ++b->syncs[t];
  swapcontext(&b->ctx[t], &b->main_ctx);
}
template <class T>
inline T __ldg(const T* p) {
  return *p;
}
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) | __brev(static_cast<unsigned>(x >> 32));
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
