// Moving words between the parts of a context over several parts (docs/multi-gpu.md, part 2):
// the one collective the distributed product needs, an all-to-all of blocks of any size.
// One host thread drives every part (as a context over several devices queues work on each),
// so one call names every part's blocks; over CUDA parts this is NCCL's grouped
// ncclSend/ncclRecv (one pair a peer), over CPU parts a copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mpgpu::distributed {

/// A block of words to send (in the sending part's memory).
struct SendBlock {
  const std::uint64_t* data = nullptr;
  std::size_t count = 0;
};

/// Where a block lands (in the receiving part's memory).
struct RecvBlock {
  std::uint64_t* data = nullptr;
  std::size_t count = 0;
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  /// The number of parts, G.
  virtual std::size_t parts() const = 0;
  /// Part i's send[i][j] goes to part j, into recv[j][i]; the two counts must agree
  /// (InvalidArgument otherwise, before anything moves). A part's block to itself is a
  /// copy too. Both tables are G x G. No send buffer may overlap a receive buffer.
  virtual void all_to_all(const std::vector<std::vector<SendBlock>>& send,
                          const std::vector<std::vector<RecvBlock>>& recv) = 0;
};

/// Parts whose memory the host reads and writes (CPU parts): the blocks move by memcpy.
class HostCommunicator final : public Communicator {
 public:
  explicit HostCommunicator(std::size_t parts);
  std::size_t parts() const override { return parts_; }
  void all_to_all(const std::vector<std::vector<SendBlock>>& send,
                  const std::vector<std::vector<RecvBlock>>& recv) override;

 private:
  std::size_t parts_;
};

/// Checks the tables' shape and that every send count equals its receive count; throws
/// InvalidArgument naming the first pair that does not (shared by every communicator).
void check_all_to_all(std::size_t parts, const std::vector<std::vector<SendBlock>>& send,
                      const std::vector<std::vector<RecvBlock>>& recv);

}  // namespace mpgpu::distributed
