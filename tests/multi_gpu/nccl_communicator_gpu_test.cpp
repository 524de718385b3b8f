// The distributed product's NCCL communicator (src/distributed/nccl_communicator.hpp) over
// every GPU of the machine: blocks of different sizes between every pair of parts (empty
// ones and each part's block to itself among them), each word naming its sender, receiver
// and position, checked on the host after the parts' streams finish; refused tables move
// nothing. Skips with fewer than two GPUs.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "distributed/nccl_communicator.hpp"
#include "mpgpu/error.hpp"
#include "support/cuda_assert.hpp"

namespace {

using mpgpu::Context;
using mpgpu::distributed::NcclCommunicator;
using mpgpu::distributed::RecvBlock;
using mpgpu::distributed::SendBlock;

std::uint64_t word(std::size_t from, std::size_t to, std::size_t k) {
  return (static_cast<std::uint64_t>(from) << 56) ^ (static_cast<std::uint64_t>(to) << 48) ^ (k * 0x9E3779B97F4A7C15ull >> 16);
}

/// The words part `from` sends to part `to`: sizes that differ by pair, zero for some.
std::size_t block_words(std::size_t from, std::size_t to) { return ((from + 2 * to) % 3) * 1000 + (from == to ? 17 : 0); }


TEST(NcclCommunicator, BlocksOfEverySizeBetweenEveryPair) {
  const int devices = Context::cuda_device_count();
  if (devices < 2) GTEST_SKIP() << "fewer than 2 CUDA devices (" << devices << ")";
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // NVLink multicast off, as on the lent machines
  const std::size_t G = static_cast<std::size_t>(devices);
  std::vector<Context> parts;
  for (int d = 0; d < devices; ++d) parts.push_back(Context::cuda(d));
  NcclCommunicator comm(parts);
  ASSERT_EQ(comm.parts(), G);

  // One send and one receive buffer a part, blocks back to back, in the part's device memory.
  std::vector<std::uint64_t*> send_mem(G), recv_mem(G);
  std::vector<std::vector<SendBlock>> send(G, std::vector<SendBlock>(G));
  std::vector<std::vector<RecvBlock>> recv(G, std::vector<RecvBlock>(G));
  std::vector<std::size_t> send_total(G, 0), recv_total(G, 0);
  for (std::size_t i = 0; i < G; ++i)
    for (std::size_t j = 0; j < G; ++j) {
      send_total[i] += block_words(i, j);
      recv_total[i] += block_words(j, i);
    }
  for (std::size_t i = 0; i < G; ++i) {
    CUDA_ASSERT(cudaSetDevice(static_cast<int>(i)));
    CUDA_ASSERT(cudaMalloc(&send_mem[i], send_total[i] * 8 + 8));
    CUDA_ASSERT(cudaMalloc(&recv_mem[i], recv_total[i] * 8 + 8));
    std::vector<std::uint64_t> host;
    std::size_t s = 0, r = 0;
    for (std::size_t j = 0; j < G; ++j) {
      for (std::size_t k = 0; k < block_words(i, j); ++k) host.push_back(word(i, j, k));
      send[i][j] = {send_mem[i] + s, block_words(i, j)};
      recv[i][j] = {recv_mem[i] + r, block_words(j, i)};
      s += block_words(i, j);
      r += block_words(j, i);
    }
    CUDA_ASSERT(cudaMemcpy(send_mem[i], host.data(), host.size() * 8, cudaMemcpyHostToDevice));
    CUDA_ASSERT(cudaMemset(recv_mem[i], 0xEE, recv_total[i] * 8 + 8));
  }

  // A table whose counts disagree is refused before anything moves.
  auto bad = recv;
  bad[1][0].count += 1;
  EXPECT_THROW(comm.all_to_all(send, bad), mpgpu::InvalidArgument);

  comm.all_to_all(send, recv);
  for (std::size_t i = 0; i < G; ++i) {
    CUDA_ASSERT(cudaSetDevice(static_cast<int>(i)));
    CUDA_ASSERT(cudaStreamSynchronize(parts[i].stream()));
    std::vector<std::uint64_t> got(recv_total[i] + 1);
    CUDA_ASSERT(cudaMemcpy(got.data(), recv_mem[i], got.size() * 8, cudaMemcpyDeviceToHost));
    std::size_t r = 0;
    for (std::size_t j = 0; j < G; ++j)
      for (std::size_t k = 0; k < block_words(j, i); ++k, ++r)
        ASSERT_EQ(got[r], word(j, i, k)) << "part " << i << " from part " << j << ", word " << k;
    EXPECT_EQ(got[r], 0xEEEEEEEEEEEEEEEEull) << "part " << i << ": a word past the blocks was written";
  }
  for (std::size_t i = 0; i < G; ++i) {
    CUDA_ASSERT(cudaSetDevice(static_cast<int>(i)));
    CUDA_ASSERT(cudaFree(send_mem[i]));
    CUDA_ASSERT(cudaFree(recv_mem[i]));
  }
}

TEST(NcclCommunicator, PartsMustBeCudaContextsOnDistinctDevices) {
  EXPECT_THROW((void)NcclCommunicator({Context::cpu(), Context::cpu()}), mpgpu::InvalidArgument);
  EXPECT_THROW((void)NcclCommunicator(std::vector<Context>{}), mpgpu::InvalidArgument);
  if (Context::cuda_device_count() < 1) GTEST_SKIP() << "no CUDA device";
  EXPECT_THROW((void)NcclCommunicator({Context::cuda(0), Context::cuda(0)}), mpgpu::InvalidArgument);
}

}  // namespace
