// The CUDA runtime side of a Context: stream, stream-ordered memory pool,
// result-word slots for small read-backs (result_words.cu), copies (large ones through
// pinned staging buffers, staging.cu; small uploads through a pinned ring,
// upload_ring.cu) and device facts.
#include <cstdint>
#include <cstring>
#include <string>

#include "cuda/backend.hpp"
#include "cuda/check.cuh"
#include "cuda/contracts.hpp"
#include "cuda/result_words.cuh"
#include "cuda/staging.hpp"
#include "cuda/upload_ring.hpp"

namespace mpgpu::detail::cuda {

int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: the CPU backend takes over
    return 0;
  }
  return n;
}

void init_context(ContextState& st, int device) {
  MPGPU_CUDA_CHECK(cudaSetDevice(device));
  cudaStream_t stream = nullptr;
  MPGPU_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  st.stream = stream;
  cudaEvent_t order = nullptr;
  MPGPU_CUDA_CHECK(cudaEventCreateWithFlags(&order, cudaEventDisableTiming));
  st.stream_order_event = order;
  st.device = device;
  // The device's default pool, told to keep freed memory: after warm-up,
  // cudaMallocAsync is a pool lookup, never a driver allocation.
  cudaMemPool_t pool = nullptr;
  MPGPU_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  std::uint64_t keep = UINT64_MAX;
  MPGPU_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  st.mem_pool = pool;
  init_result_words(st);
  std::size_t free_bytes = 0;
  MPGPU_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &st.total_memory));
  init_upload_ring(st);  // last: nothing after it throws
  st.backend = Backend::cuda;
}

void destroy_context(ContextState& st) noexcept {
  cudaSetDevice(st.device);
  if (st.stream) cudaStreamSynchronize(st.stream);
  // Branches joined into a user stream are not behind st.stream: wait for
  // them too before their tables go.
  for (Stream side : st.fork_streams)
    if (side) cudaStreamSynchronize(side);
  for (auto& entry : st.ntt_twiddles) cudaFree(entry.second);
  st.ntt_twiddles.clear();
  for (auto& entry : st.ntt_twiddles32) cudaFree(entry.second);
  st.ntt_twiddles32.clear();
  for (ContextState::EpochTileBuffer* b : {&st.carry_tiles, &st.remainder_tiles}) {
    if (b->words) cudaFreeAsync(b->words, st.stream);  // pool memory
    *b = {};
  }
  free_result_words(st);
  free_staging(st);  // after the stream is idle; waits for copies on other streams too
  free_upload_ring(st);  // the same
  for (Stream& side : st.fork_streams) {
    if (side) cudaStreamDestroy(side);
    side = nullptr;
  }
  if (st.fork_event) cudaEventDestroy(static_cast<cudaEvent_t>(st.fork_event));
  st.fork_event = nullptr;
  if (st.stream_order_event) cudaEventDestroy(static_cast<cudaEvent_t>(st.stream_order_event));
  st.stream_order_event = nullptr;
  if (st.stream) cudaStreamDestroy(st.stream);
  st.stream = nullptr;
}

DeviceInfo device_info(int device) {
  cudaDeviceProp p{};
  MPGPU_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  DeviceInfo info;
  info.backend = Backend::cuda;
  info.device = device;
  info.name = p.name;
  info.multiprocessors = p.multiProcessorCount;
  info.compute_major = p.major;
  info.compute_minor = p.minor;
  info.l2_cache = static_cast<std::size_t>(p.l2CacheSize);
  MPGPU_CUDA_CHECK(cudaSetDevice(device));
  MPGPU_CUDA_CHECK(cudaMemGetInfo(&info.free_memory, &info.total_memory));
  MPGPU_CUDA_CHECK(cudaRuntimeGetVersion(&info.runtime_version));
  MPGPU_CUDA_CHECK(cudaDriverGetVersion(&info.driver_version));
  return info;
}

void* allocate(ContextState& st, Stream s, std::size_t bytes) {
  use_device(st.device);
  if (bytes > st.total_memory) {  // hopeless: say so without asking the driver
    std::size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    throw OutOfMemory("mpgpu: out of device memory on cuda:" + std::to_string(st.device) + ": " +
                          std::to_string(bytes) + " bytes requested, more than the device's " +
                          std::to_string(st.total_memory) + " (" + std::to_string(free_bytes) + " free)",
                      bytes, free_bytes);
  }
  void* p = nullptr;
  cudaError_t e = cudaMallocAsync(&p, bytes, s);
  if (e == cudaErrorMemoryAllocation) {
    // Memory the pool holds for other streams may be returned: trim, retry once.
    cudaGetLastError();
    cudaDeviceSynchronize();
    cudaMemPoolTrimTo(static_cast<cudaMemPool_t>(st.mem_pool), 0);
    e = cudaMallocAsync(&p, bytes, s);
  }
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    throw OutOfMemory("mpgpu: out of device memory on cuda:" + std::to_string(st.device) + ": " +
                          std::to_string(bytes) + " bytes requested, " + std::to_string(free_bytes) +
                          " bytes free of " + std::to_string(total),
                      bytes, free_bytes);
  }
  MPGPU_CUDA_CHECK(e);
  contract::record_allocation(p, bytes);
  return p;
}

void deallocate(ContextState& st, Stream s, void* p) noexcept {
  if (!p) return;
  contract::forget_allocation(p);
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current != st.device) cudaSetDevice(st.device);
  cudaFreeAsync(p, s);
}

int pointer_device(const void* p) noexcept {
  cudaPointerAttributes attributes{};
  // CUDA 11 and later answer cudaSuccess with cudaMemoryTypeUnregistered for
  // plain host memory; an error (an old driver, a bad address) means "not ours".
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  const bool on_device = attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
  return on_device ? attributes.device : -1;
}

namespace {
/// Copies of at least this many bytes go through the pinned staging buffers
/// (staging.hpp), smaller ones straight from or to pageable memory: the
/// context's TuningParams (kStagingMinBytes by default).
std::size_t staging_min_bytes(const ContextState& st) { return st.tuning.staging_min_bytes; }
}  // namespace

void copy_to_device(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes) {
  use_device(st.device);
  if (ring_copy_to_device(st, s, dst, src, bytes, staging_min_bytes(st))) return;
  copy_to_device_synchronous(st, s, dst, src, bytes);
}

void copy_to_device_synchronous(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes) {
  use_device(st.device);
  if (bytes >= staging_min_bytes(st) && staged_copy_to_device(st, s, dst, src, bytes)) return;
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s));
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(s));
}

void order_after_context(ContextState& st, Stream s) {
  if (s == st.stream) return;
  std::lock_guard<std::recursive_mutex> lock(st.mutex);  // the order event is shared
  order_after_context_stream(st, s);
}

void copy_to_host(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes) {
  use_device(st.device);
  order_after_context(st, s);
  if (bytes >= staging_min_bytes(st) && staged_copy_to_host(st, s, dst, src, bytes)) return;
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s));
  MPGPU_CUDA_CHECK(cudaStreamSynchronize(s));
}

void prepare_host_destination(ContextState& st, void* dst, std::size_t bytes) {
  if (bytes >= staging_min_bytes(st)) staged_prefault(st, dst, bytes);
}

void copy_on_device(ContextState& st, Stream s, void* dst, const void* src, std::size_t bytes) {
  use_device(st.device);
  order_after_context(st, s);
  MPGPU_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
}

void synchronize(Stream s) { MPGPU_CUDA_CHECK(cudaStreamSynchronize(s)); }

namespace {
__global__ void fill_kernel(limb_t* r, std::size_t n, limb_t value) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    r[i] = value;
}
}  // namespace

void fill(ContextState& st, Stream s, limb_t* r, std::size_t n, limb_t value) {
  contract::fill(r, n);
  if (!n) return;
  use_device(st.device);
  if (value == 0 || value == ~limb_t{0}) {
    MPGPU_CUDA_CHECK(cudaMemsetAsync(r, value ? 0xff : 0, n * sizeof(limb_t), s));
    return;
  }
  unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65536));
  fill_kernel<<<blocks, 256, 0, s>>>(r, n, value);
  MPGPU_CHECK_LAUNCH("fill_kernel");
}

}  // namespace mpgpu::detail::cuda
