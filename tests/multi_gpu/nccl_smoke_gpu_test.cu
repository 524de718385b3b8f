// NCCL works across this machine's GPUs: an all-reduce (sum) of a few words
// over every device, each device's words known in advance, the sums checked
// on every device. What the distributed product (docs/multi-gpu.md, part 2)
// will build on. Skips with fewer than two GPUs.
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include <nccl.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call
#define NCCL_OK(call)                                                            \
  do {                                                                           \
    const ncclResult_t r_ = (call);                                              \
    ASSERT_EQ(r_, ncclSuccess) << #call << ": " << ncclGetErrorString(r_);       \
  } while (0)

/// Word k of device d's buffer: distinct per device, and sums that carry
/// out of 32 bits, so that a reduction on the wrong width shows.
std::uint64_t word(int d, std::size_t k) { return (static_cast<std::uint64_t>(d) + 1) * 0x1000000001ull + k * 0xFFFFFFFFull; }

TEST(NcclSmoke, AllReduceSumOverEveryDevice) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
    cudaGetLastError();
    GTEST_SKIP() << "fewer than 2 CUDA devices (" << count << ")";
  }
  // NVLink multicast stays off on the lent machines (before NCCL reads it).
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  constexpr std::size_t kWords = 5;
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(count));
  std::vector<int> devices(static_cast<std::size_t>(count));
  for (int d = 0; d < count; ++d) devices[static_cast<std::size_t>(d)] = d;
  NCCL_OK(ncclCommInitAll(comms.data(), count, devices.data()));
  std::vector<cudaStream_t> streams(comms.size());
  std::vector<std::uint64_t*> send(comms.size()), recv(comms.size());
  for (int d = 0; d < count; ++d) {
    const auto i = static_cast<std::size_t>(d);
    CUDA_OK(cudaSetDevice(d));
    CUDA_OK(cudaStreamCreate(&streams[i]));
    CUDA_OK(cudaMalloc(&send[i], kWords * sizeof(std::uint64_t)));
    CUDA_OK(cudaMalloc(&recv[i], kWords * sizeof(std::uint64_t)));
    std::vector<std::uint64_t> mine(kWords);
    for (std::size_t k = 0; k < kWords; ++k) mine[k] = word(d, k);
    CUDA_OK(cudaMemcpy(send[i], mine.data(), kWords * sizeof(std::uint64_t), cudaMemcpyHostToDevice));
  }
  // One thread drives every device: the calls go in one group.
  NCCL_OK(ncclGroupStart());
  for (std::size_t i = 0; i < comms.size(); ++i)
    NCCL_OK(ncclAllReduce(send[i], recv[i], kWords, ncclUint64, ncclSum, comms[i], streams[i]));
  NCCL_OK(ncclGroupEnd());
  std::vector<std::uint64_t> want(kWords, 0);
  for (int d = 0; d < count; ++d)
    for (std::size_t k = 0; k < kWords; ++k) want[k] += word(d, k);
  for (int d = 0; d < count; ++d) {
    const auto i = static_cast<std::size_t>(d);
    CUDA_OK(cudaSetDevice(d));
    CUDA_OK(cudaStreamSynchronize(streams[i]));
    std::vector<std::uint64_t> got(kWords);
    CUDA_OK(cudaMemcpy(got.data(), recv[i], kWords * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
    for (std::size_t k = 0; k < kWords; ++k) EXPECT_EQ(got[k], want[k]) << "device " << d << ", word " << k;
    CUDA_OK(cudaFree(send[i]));
    CUDA_OK(cudaFree(recv[i]));
    CUDA_OK(cudaStreamDestroy(streams[i]));
    NCCL_OK(ncclCommDestroy(comms[i]));
  }
}

}  // namespace
