// The Communicator over CUDA parts (docs/multi-gpu.md, part 2, step 2): NCCL's grouped
// ncclSend/ncclRecv, one pair a peer and block, as bench/nccl_alltoall_bench.cu measures
// them. Built as its own library, mpgpu_nccl, when NCCL is found (MPGPU_NCCL), so that the
// main library does not depend on NCCL.
#pragma once

#include <vector>

#include "distributed/communicator.hpp"
#include "mpgpu/context.hpp"

struct ncclComm;

namespace mpgpu::distributed {

class NcclCommunicator final : public Communicator {
 public:
  /// One NCCL communicator a part (ncclCommInitAll over the parts' devices). The parts must
  /// be CUDA contexts on distinct devices (InvalidArgument otherwise); each part's blocks
  /// move on that part's stream. NVLink multicast is not used by these calls; the caller
  /// sets NCCL_NVLS_ENABLE=0 where a machine asks for it (as the lent machines do).
  explicit NcclCommunicator(std::vector<Context> parts);
  ~NcclCommunicator() override;
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  std::size_t parts() const override { return parts_.size(); }
  /// Queues every block on its parts' streams, after the work already queued there, and
  /// returns without waiting (the parts' streams order what reads the received blocks).
  /// The blocks are device memory of the sending and receiving parts.
  void all_to_all(const std::vector<std::vector<SendBlock>>& send,
                  const std::vector<std::vector<RecvBlock>>& recv) override;

 private:
  std::vector<Context> parts_;
  std::vector<ncclComm*> comms_;
};

}  // namespace mpgpu::distributed
