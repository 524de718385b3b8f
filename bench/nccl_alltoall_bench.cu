// The all-to-all rate between this host's GPUs through NCCL: what the
// distributed product's four transposes (docs/multi-gpu.md, parts 2 and 4)
// would move, measured instead of NVLink's nominal rate.
//
//   nccl_alltoall_bench [--reps N] [--max-mib M]
//
// Each of the G devices holds S bytes and sends S / G of them to every device
// (itself included, a local copy), as one group of ncclSend/ncclRecv pairs a
// peer, the way the design's all-to-alls are written. S runs from 16 MiB to
// --max-mib (default 8192) by powers of 4. Time: host wall clock from the
// group's start to every stream synchronized, after a warm-up, median of
// --reps (default 9). "sent a GPU" counts the bytes that leave a device,
// S (G - 1) / G, and the rate is that over the time. The received blocks are
// checked (each word names its sender, receiver and position). NVLink
// multicast stays off (NCCL_NVLS_ENABLE=0, as on every lent machine).
// Needs two or more GPUs; prints a markdown table; never fails on speed.
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

#define CUDA_CHECK(call)                                                                          \
  do {                                                                                            \
    const cudaError_t e_ = (call);                                                                \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)
#define NCCL_CHECK(call)                                                                          \
  do {                                                                                            \
    const ncclResult_t r_ = (call);                                                               \
    if (r_ != ncclSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, ncclGetErrorString(r_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

/// Word k of the block that device `from` sends to device `to`.
__host__ __device__ std::uint64_t word(int from, int to, std::size_t k) {
  return (static_cast<std::uint64_t>(from) << 56) ^ (static_cast<std::uint64_t>(to) << 48) ^ k;
}

__global__ void fill_blocks(std::uint64_t* send, int from, int devices, std::size_t block_words) {
  const std::size_t total = block_words * static_cast<std::size_t>(devices);
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < total;
       i += std::size_t{gridDim.x} * blockDim.x)
    send[i] = word(from, static_cast<int>(i / block_words), i % block_words);
}

/// Counts the words of recv that are not what device `to` should have got.
__global__ void count_wrong(const std::uint64_t* recv, int to, int devices, std::size_t block_words,
                            unsigned long long* wrong) {
  const std::size_t total = block_words * static_cast<std::size_t>(devices);
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < total;
       i += std::size_t{gridDim.x} * blockDim.x)
    if (recv[i] != word(static_cast<int>(i / block_words), to, i % block_words)) atomicAdd(wrong, 1ull);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 9;
  std::size_t max_mib = 8192;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--max-mib" && i + 1 < argc) max_mib = std::strtoull(argv[++i], nullptr, 10);
    else {
      std::fprintf(stderr, "usage: nccl_alltoall_bench [--reps N] [--max-mib M]\n");
      return 2;
    }
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
    std::printf("nccl_alltoall_bench: %d CUDA device(s); needs two or more\n", count);
    return 0;
  }
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // before NCCL's first call reads it
  const auto g = static_cast<std::size_t>(count);
  std::vector<int> devices(g);
  for (int d = 0; d < count; ++d) devices[static_cast<std::size_t>(d)] = d;
  std::vector<ncclComm_t> comms(g);
  NCCL_CHECK(ncclCommInitAll(comms.data(), count, devices.data()));
  int version = 0;
  NCCL_CHECK(ncclGetVersion(&version));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# NCCL all-to-all on %d x %s, NCCL %d, median of %d after a warm-up\n\n", count, prop.name, version,
              reps);
  std::printf("| bytes a GPU | sent a GPU | ms | sent a GPU / s | checked |\n| ---: | ---: | ---: | ---: | --- |\n");

  std::vector<cudaStream_t> streams(g);
  std::vector<std::uint64_t*> send(g, nullptr), recv(g, nullptr);
  std::vector<unsigned long long*> wrong(g, nullptr);
  const std::size_t max_bytes = max_mib << 20;
  for (std::size_t i = 0; i < g; ++i) {
    CUDA_CHECK(cudaSetDevice(devices[i]));
    CUDA_CHECK(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
    CUDA_CHECK(cudaMalloc(&send[i], max_bytes));
    CUDA_CHECK(cudaMalloc(&recv[i], max_bytes));
    CUDA_CHECK(cudaMalloc(&wrong[i], sizeof(unsigned long long)));
  }
  for (std::size_t bytes = std::size_t{16} << 20; bytes <= max_bytes; bytes *= 4) {
    const std::size_t block_words = bytes / 8 / g;
    for (std::size_t i = 0; i < g; ++i) {
      CUDA_CHECK(cudaSetDevice(devices[i]));
      fill_blocks<<<1024, 256, 0, streams[i]>>>(send[i], static_cast<int>(i), count, block_words);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemsetAsync(recv[i], 0, bytes, streams[i]));
      CUDA_CHECK(cudaMemsetAsync(wrong[i], 0, sizeof(unsigned long long), streams[i]));
    }
    auto all_to_all = [&] {
      NCCL_CHECK(ncclGroupStart());
      for (std::size_t i = 0; i < g; ++i)
        for (std::size_t j = 0; j < g; ++j) {
          NCCL_CHECK(ncclSend(send[i] + j * block_words, block_words, ncclUint64, static_cast<int>(j), comms[i],
                              streams[i]));
          NCCL_CHECK(ncclRecv(recv[i] + j * block_words, block_words, ncclUint64, static_cast<int>(j), comms[i],
                              streams[i]));
        }
      NCCL_CHECK(ncclGroupEnd());
      for (std::size_t i = 0; i < g; ++i) {
        CUDA_CHECK(cudaSetDevice(devices[i]));
        CUDA_CHECK(cudaStreamSynchronize(streams[i]));
      }
    };
    all_to_all();  // warm-up (and the data checked below)
    unsigned long long bad = 0;
    for (std::size_t i = 0; i < g; ++i) {
      CUDA_CHECK(cudaSetDevice(devices[i]));
      count_wrong<<<1024, 256, 0, streams[i]>>>(recv[i], static_cast<int>(i), count, block_words, wrong[i]);
      CUDA_CHECK(cudaGetLastError());
      unsigned long long w = 0;
      CUDA_CHECK(cudaMemcpyAsync(&w, wrong[i], sizeof w, cudaMemcpyDeviceToHost, streams[i]));
      CUDA_CHECK(cudaStreamSynchronize(streams[i]));
      bad += w;
    }
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      all_to_all();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    const double t = median(ms);
    const double sent = static_cast<double>(block_words * 8 * (g - 1));
    std::printf("| %zu MiB | %.1f MiB | %.3f | %.1f GB/s | %s |\n", bytes >> 20, sent / (1 << 20), t,
                sent / (t * 1e-3) / 1e9, bad == 0 ? "yes" : "NO");
    std::fflush(stdout);
  }
  for (std::size_t i = 0; i < g; ++i) {
    CUDA_CHECK(cudaSetDevice(devices[i]));
    CUDA_CHECK(cudaFree(send[i]));
    CUDA_CHECK(cudaFree(recv[i]));
    CUDA_CHECK(cudaFree(wrong[i]));
    CUDA_CHECK(cudaStreamDestroy(streams[i]));
    NCCL_CHECK(ncclCommDestroy(comms[i]));
  }
  return 0;
}
